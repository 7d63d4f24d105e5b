//! Velocity commands from outside the run (ROS `cmd_vel`, a joystick): what a transport
//! puts in a robot's [`VelocityInbox`] and the goal runner's velocity override obeys
//! while it is fresh (skipper-goals).

use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One velocity command, in the vehicle's own frame.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct VelocityCommand {
    /// forward speed (m/s; ROS `linear.x`)
    pub forward: f64,
    /// turn rate (rad/s, counter-clockwise; ROS `angular.z`)
    pub turn_rate: f64,
    /// climb rate (m/s, up; ROS `linear.z`)
    pub climb: f64,
}

/// The latest command and when it came; clones share it (a transport's thread puts,
/// the cycle reads).
#[derive(Debug, Clone, Default)]
pub struct VelocityInbox(Arc<Mutex<Option<(VelocityCommand, Instant)>>>);

impl VelocityInbox {
    /// A command that came at `at`.
    pub fn put(&self, v: VelocityCommand, at: Instant) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some((v, at));
        }
    }

    /// The latest command and when it came.
    pub fn latest(&self) -> Option<(VelocityCommand, Instant)> {
        self.0.lock().ok().and_then(|g| *g)
    }
}
