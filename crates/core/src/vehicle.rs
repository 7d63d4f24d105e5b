//! The `Vehicle` and `World` traits: what the cycle runner needs from robots.
//!
//! A [`Vehicle`] is one robot seen from its controller: it writes its percepts into
//! signals and takes actuation. A [`World`] holds one or more vehicles and advances them
//! together (a simulated world steps its physics; a world of real robots just lets time
//! pass). Vehicles never depend on controllers: they meet only here.
//!
//! [`remote`] is a ground robot known only through the messages it publishes (the ROS
//! robots are built on it).

use crate::actuation::Actuation;
use crate::event::Events;
use crate::geometry::Pose3;
use crate::sensors::SensorGeometry;
use crate::signals::Signals;
use serde::Serialize;
use std::time::Duration;

pub mod remote;

/// What kind of vehicle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VehicleKind {
    /// A wheeled ground robot (Pioneer-class).
    Ground,
    /// An autonomous underwater vehicle.
    Auv,
}

/// A vehicle's identity.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VehicleInfo {
    /// Robot name, unique in its world (`robot1`, `tethys`).
    pub name: String,
    /// Kind.
    pub kind: VehicleKind,
    /// Model (`p3dx`, `lrauv`).
    pub model: String,
}

/// How a vehicle moves, for pilots that steer it from outside its controller (a `goto`
/// goal, a velocity command).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Handling {
    /// top speed (m/s)
    pub max_speed: f64,
    /// the speed it travels at when told to go somewhere (m/s)
    pub cruise_speed: f64,
    /// turn rate at speed (rad/s)
    pub turn_rate: f64,
    /// speed from which it turns at its full rate (m/s; 0: it turns on the spot)
    pub authority_speed: f64,
}

pub use crate::error::{VehicleError, VehicleFault};

/// One robot, as its controller sees it.
pub trait Vehicle {
    /// Who it is.
    fn info(&self) -> &VehicleInfo;
    /// Write the current percepts into `signals` (step 1 of a cycle).
    fn sense(&mut self, now: Duration, signals: &mut Signals, events: &mut Events);
    /// Take this cycle's actuation (step 3).
    fn act(&mut self, now: Duration, actuation: &Actuation, events: &mut Events);
    /// Stop at once and stay stopped (end of run, controller failure, estop).
    fn stop(&mut self, now: Duration, events: &mut Events);
    /// The best knowledge of the true pose (ground truth in simulation), for logs and views.
    fn pose(&self) -> Pose3;
    /// Distance travelled so far (m).
    fn odometer(&self) -> f64 {
        0.0
    }
    /// Collisions so far.
    fn collisions(&self) -> u64 {
        0
    }
    /// `Err` when the vehicle can no longer be driven (link lost for good).
    fn health(&self) -> Result<(), VehicleError> {
        Ok(())
    }
    /// Add vehicle-specific keys to the run summary (`max_depth_m`, ...).
    fn summary(&self, _out: &mut serde_json::Map<String, serde_json::Value>) {}
    /// The vehicle's state for views that draw it (sensor rays, gripper, ...).
    fn view(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// What it carries and where (sonar, laser, bumpers), as it really is: transports
    /// publish its readings with these frames, the run log and the views draw them.
    /// Nothing by default (a vehicle with no range sensors, such as the AUV).
    fn sensors(&self) -> SensorGeometry {
        SensorGeometry::default()
    }
    /// How it moves, if it says (the AUV does: pilots need its turning circle).
    fn handling(&self) -> Option<Handling> {
        None
    }
    /// The signals it really has, for checking a controller's names at load time: its
    /// kind's whole vocabulary by default; a vehicle with less declares less
    /// ([`crate::vocabulary::Vocabulary::of_own`]).
    fn vocabulary(&self) -> crate::vocabulary::Vocabulary {
        crate::vocabulary::of_kind(self.info().kind)
    }
}

/// A set of vehicles that share time and space.
pub trait World {
    /// How many vehicles.
    fn len(&self) -> usize;
    /// `true` if there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Vehicle `i`.
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle>;
    /// Vehicle `i`, mutably.
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle>;
    /// Let `dt` pass (step 4 of a cycle): physics and sensors in simulation.
    fn advance(&mut self, now: Duration, dt: Duration, events: &mut Events);
    /// The static world (map, walls, coastline) as JSON, logged once per run.
    fn describe(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// The moving objects that are not vehicles (balls, cans) as JSON.
    fn objects(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// Add world-specific keys to the run summary.
    fn summary(&self, _out: &mut serde_json::Map<String, serde_json::Value>) {}
    /// Where the world's local frame is on the globe (latitude, longitude in degrees), if
    /// it is anywhere (an AUV worksite is).
    fn geo_origin(&self) -> Option<(f64, f64)> {
        None
    }
}
