//! One vehicle's goals put together: its controller (or none), `goto` goals steered by
//! the pilot for what the vehicle is, velocity commands obeyed as it can, and the goal
//! runner serving every kind on its mailbox. Transports then take the [`Bound`]'s
//! mailbox and velocity inbox; nothing here knows which transport, engine or vehicle.

use crate::goto::Goto;
use crate::mailbox::Mailbox;
use crate::pilot::{AuvLimits, AuvPilot, GroundPilot, Pilot};
use crate::runner::GoalRunner;
use crate::velocity::{AuvVelocity, GroundVelocity, VelocityInbox, VelocityMap, VelocityOverride};
use crate::Endpoint;
use skipper_core::{Controller, VehicleKind, World};
use std::sync::Arc;

/// What to add to a vehicle's controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BindOptions {
    /// take `goto` goals
    pub goto: bool,
    /// obey velocity commands
    pub velocity: bool,
}

/// A vehicle's controller with its goals served.
pub struct Bound {
    /// the controller to run
    pub controller: Box<dyn Controller>,
    /// where its goals are sent
    pub goals: Arc<Mailbox>,
    /// where velocity commands are put (obeyed only with [`BindOptions::velocity`])
    pub velocity: VelocityInbox,
}

impl Bound {
    /// What every transport receives for vehicle `i` of `world`, bound here: its name,
    /// its goals, its velocity inbox and its sensors.
    pub fn endpoint(&self, world: &dyn World, i: usize) -> Endpoint {
        let vehicle = world.vehicle(i);
        Endpoint {
            robot: i,
            name: vehicle.map_or_else(|| format!("robot{i}"), |v| v.info().name.clone()),
            goals: self.goals.clone(),
            velocity: self.velocity.clone(),
            sensors: vehicle.map(|v| v.sensors()).unwrap_or_default(),
        }
    }
}

/// Serve the goals of vehicle `i` of `world`, driven by `controller`.
pub fn bind(
    world: &dyn World,
    i: usize,
    controller: Option<Box<dyn Controller>>,
    options: BindOptions,
) -> Bound {
    let vehicle = world.vehicle(i);
    let kind = vehicle.map_or(VehicleKind::Ground, |v| v.info().kind);
    let name = vehicle.map_or_else(|| format!("robot{i}"), |v| v.info().name.clone());
    let origin = world.geo_origin().unwrap_or((0.0, 0.0));
    let limits = vehicle
        .and_then(|v| v.handling())
        .map(AuvLimits::from)
        .unwrap_or_default();
    let inner: Option<Box<dyn Controller>> = if options.goto {
        let pilot: Box<dyn Pilot> = match kind {
            VehicleKind::Ground => Box::new(GroundPilot::for_sensors(
                &vehicle.map(|v| v.sensors()).unwrap_or_default(),
            )),
            VehicleKind::Auv => Box::new(AuvPilot::new(origin, limits)),
        };
        Some(Box::new(Goto::new(controller, pilot)))
    } else {
        controller
    };
    let inner = inner.unwrap_or_else(|| Box::new(Idle));
    let (runner, goals) = GoalRunner::new(&name, inner);
    let velocity = VelocityInbox::default();
    let controller: Box<dyn Controller> = if options.velocity {
        let map: Box<dyn VelocityMap> = match kind {
            VehicleKind::Ground => Box::new(GroundVelocity),
            VehicleKind::Auv => Box::new(AuvVelocity::new(origin, limits)),
        };
        Box::new(VelocityOverride::new(
            Box::new(runner),
            velocity.clone(),
            map,
        ))
    } else {
        Box::new(runner)
    };
    Bound {
        controller,
        goals,
        velocity,
    }
}

/// A vehicle with nothing to do: it stands.
struct Idle;

impl Controller for Idle {
    fn name(&self) -> &str {
        "idle"
    }
    fn step(
        &mut self,
        _: &mut skipper_core::Cycle<'_>,
    ) -> Result<skipper_core::Status, skipper_core::ControllerError> {
        Ok(skipper_core::Status::Running)
    }
}
