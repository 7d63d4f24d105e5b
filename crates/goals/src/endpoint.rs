//! What every transport receives for a robot: an [`Endpoint`] (its index and name, its
//! goal port, its velocity inbox and what it carries), and the name the robot takes on
//! the robot middlewares, one rule for every transport (ROS 1 and ROS 2 alike), so a
//! robot is `/robot1/...` whichever one a user talks to.

use crate::VelocityInbox;
use skipper_core::goals::GoalPort;
use skipper_core::sensors::SensorGeometry;
use std::sync::Arc;

/// One robot as every transport (ROS 1, ROS 2, the dashboard, an in-process client)
/// receives it: who it is, where its goals go, where velocity commands from outside the
/// run go, and what it carries.
#[derive(Clone)]
pub struct Endpoint {
    /// the robot's index in its world
    pub robot: usize,
    /// its name in its world (`robot1`, `tethys`)
    pub name: String,
    /// where its goals go (the kinds its controller declares)
    pub goals: Arc<dyn GoalPort>,
    /// where velocity commands from outside the run go
    pub velocity: VelocityInbox,
    /// its sensors, as the vehicle describes them
    pub sensors: SensorGeometry,
}

/// A ROS name for a robot: letters, digits and `_`, starting with a letter (every other
/// character becomes `_`; a name that does not start with a letter gets an `r` before
/// it). Valid as a ROS 1 graph resource name and as a ROS 2 name token.
pub fn ros_name(robot: &str) -> String {
    let mut s: String = robot
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !s.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        s.insert(0, 'r');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robot_names_become_ros_names() {
        assert_eq!(ros_name("robot1"), "robot1");
        assert_eq!(ros_name("pioneer-2 a"), "pioneer_2_a");
        assert_eq!(ros_name("3dx"), "r3dx");
        assert_eq!(ros_name("_x"), "r_x");
        assert_eq!(ros_name("ü"), "r_");
        assert_eq!(ros_name(""), "r");
    }
}
