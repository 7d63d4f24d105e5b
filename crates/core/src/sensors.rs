//! Where a vehicle's range sensors sit and what they see: the laser and the sonar ring
//! as the vehicle describes them, for transports that publish their readings with frames
//! (ROS 1 and ROS 2 `scan`, `sonar`, `/tf_static`) and for the run log, which writes them
//! into its world description as JSON (field names as here) for the replay to draw.
//! [`pioneer`] holds the Pioneer family's sonar rings and body radius.

pub mod pioneer;

use serde::Serialize;

/// Where a laser sits and what it sees.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LaserGeometry {
    /// its position ahead of the robot's centre (m)
    pub x: f64,
    /// the first beam's angle (rad, 0 ahead, counter-clockwise)
    pub angle_min: f64,
    /// between beams (rad)
    pub angle_increment: f64,
    /// shortest range (m)
    pub range_min: f64,
    /// longest range (m)
    pub range_max: f64,
}

/// Where a sonar transducer sits and what it sees.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SonarGeometry {
    /// position in the robot's frame (m)
    pub x: f64,
    /// position (m)
    pub y: f64,
    /// direction (rad)
    pub yaw: f64,
    /// the cone's opening (rad)
    pub field_of_view: f64,
    /// shortest range (m)
    pub min_range: f64,
    /// longest range (m)
    pub max_range: f64,
}

/// A ground robot's sensors, as the vehicle describes them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SensorGeometry {
    /// the laser, if it has one
    pub laser: Option<LaserGeometry>,
    /// the sonar ring, in signal order
    pub sonar: Vec<SonarGeometry>,
    /// bumper segments per bumper ring (front and rear), 0 if it has no bumpers
    pub bumper_segments: usize,
}
