//! The `Controller` trait: a behavior engine that drives one vehicle.
//!
//! A controller has one required method, [`Controller::step`], called once per cycle with
//! the vehicle's signals and an empty [`Actuation`] to fill; the other hooks have defaults
//! (the copper-rs shape: lifecycle hooks with defaults, only the hot method required).

use crate::actuation::Actuation;
use crate::event::Events;
use crate::goals::Goals;
use crate::signals::Signals;
use crate::vehicle::VehicleInfo;
use std::time::Duration;

/// How a controller is doing after a step.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Still working.
    Running,
    /// Done as planned (mission complete, root option in a target state, agent halted).
    Finished,
    /// Gave up on purpose (mission abort); the text says why.
    Aborted(String),
    /// Stopped at its own time limit before it finished (a mission's default mission
    /// timeout); the text says which limit.
    TimedOut(String),
}

pub use crate::error::ControllerError;

/// What a controller gets in one cycle.
pub struct Cycle<'a> {
    /// Run time.
    pub now: Duration,
    /// The cycle period.
    pub dt: Duration,
    /// Cycle number, from 1.
    pub cycle: u64,
    /// Index of the vehicle in its world.
    pub robot: usize,
    /// The vehicle.
    pub vehicle: &'a VehicleInfo,
    /// Its signals, as sensed this cycle.
    pub signals: &'a Signals,
    /// What to ask of the vehicle (cleared before the step).
    pub actuation: &'a mut Actuation,
    /// Events (already bound to this robot).
    pub events: &'a mut Events,
}

/// A behavior engine driving one vehicle.
pub trait Controller {
    /// A short name for logs (`wander`, `xabsl:soccer`, `mission:spec`).
    fn name(&self) -> &str;
    /// Called once before the first step, after the vehicle sensed for the first time.
    fn start(&mut self, _vehicle: &VehicleInfo, _signals: &Signals) -> Result<(), ControllerError> {
        Ok(())
    }
    /// One cycle.
    fn step(&mut self, cycle: &mut Cycle<'_>) -> Result<Status, ControllerError>;
    /// The engine's state for the run log's `/controller` topic and the dashboard
    /// (XABSL activation path, mission item states, link tree diff). Only called when
    /// something records it.
    fn state(&self) -> Option<serde_json::Value> {
        None
    }
    /// A number that changes whenever [`state`](Self::state) would change, for a
    /// controller that can tell cheaply; recorders skip building the state while it stays
    /// the same. `None` (the default): unknown, the state is built and compared each cycle.
    fn state_version(&self) -> Option<u64> {
        None
    }
    /// Add controller-specific keys to the run summary (`decision_cycles`, ...).
    fn summary(&self, _out: &mut serde_json::Map<String, serde_json::Value>) {}
    /// Called once when the run ends, for whatever reason.
    fn finish(&mut self) {}
    /// The goals this controller accepts, if any (see [`crate::goals`]).
    fn goals(&mut self) -> Option<&mut dyn Goals> {
        None
    }
}
