//! Pilots: how the goal runner's [`Goto`](crate::Goto) steers one kind of vehicle to a
//! point, where the vehicle is in the goals' frame, and how it stops.
//!
//! [`GroundPilot`] drives a differential-drive robot by velocity, turning on the spot
//! and going round what its sonars or laser see ahead, read where the vehicle says they
//! are; [`AuvPilot`] flies the AUV at cruise speed holding its depth, around its
//! turning circle.

mod auv;
mod ground;

pub(crate) use auv::propeller_off;
pub use auv::{AuvLimits, AuvPilot, AUV_TOLERANCE};
pub use ground::{GroundPilot, GROUND_TOLERANCE};

use skipper_core::{Actuation, ControllerError, Cycle, Signals, VehicleInfo};

/// Where the vehicle is, in the goals' frame: x, y (m), yaw (rad, counter-clockwise
/// from +x).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fix {
    /// x (m)
    pub x: f64,
    /// y (m)
    pub y: f64,
    /// yaw (rad)
    pub yaw: f64,
}

/// How a goal runner steers one kind of vehicle to a point.
pub trait Pilot {
    /// Find the signals it needs (called once, after the vehicle first sensed).
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError>;
    /// The distance at which a goal sent without a tolerance counts as reached (m).
    fn default_tolerance(&self) -> f64;
    /// Where the vehicle is, or `None` if it reports no position.
    fn fix(&self, s: &Signals) -> Option<Fix>;
    /// A goal is taken up (a newer one included): note what it holds meanwhile.
    fn begin(&mut self, _s: &Signals) {}
    /// Steer toward `(x, y)`, `distance` away from `fix`.
    fn steer(&mut self, c: &mut Cycle<'_>, fix: Fix, x: f64, y: f64, distance: f64);
    /// Stop the vehicle (goal reached, cancelled or given up).
    fn stop(&self, a: &mut Actuation);
}
