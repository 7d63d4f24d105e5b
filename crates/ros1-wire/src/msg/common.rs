//! The common ROS messages Skipper speaks: `std_msgs/Header`, `std_msgs/String` and the
//! `geometry_msgs` / `nav_msgs` types of a robot's pose, odometry and velocity command.

use super::{DecodeError, Field, Reader};
use crate::ros_message;
use crate::time::Time;

/// A row-major 6x6 covariance (`float64[36]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Covariance(pub [f64; 36]);

impl Default for Covariance {
    fn default() -> Self {
        Covariance([0.0; 36])
    }
}

impl Field for Covariance {
    const MIN_WIRE_SIZE: usize = <[f64; 36]>::MIN_WIRE_SIZE;
    fn put(&self, w: &mut Vec<u8>) {
        self.0.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(Covariance(<[f64; 36]>::get(r)?))
    }
}

ros_message! {
    /// `std_msgs/Header`: sequence number, stamp, frame.
    pub struct Header = "std_msgs/Header" { pub seq: u32, pub stamp: Time, pub frame_id: String }
}
ros_message! {
    /// `std_msgs/String`.
    pub struct StringMsg = "std_msgs/String" { pub data: String }
}
ros_message! {
    /// `geometry_msgs/Point`.
    pub struct Point = "geometry_msgs/Point" { pub x: f64, pub y: f64, pub z: f64 }
}
ros_message! {
    /// `geometry_msgs/Vector3`.
    pub struct Vector3 = "geometry_msgs/Vector3" { pub x: f64, pub y: f64, pub z: f64 }
}
ros_message! {
    /// `geometry_msgs/Quaternion`.
    pub struct Quaternion = "geometry_msgs/Quaternion" { pub x: f64, pub y: f64, pub z: f64, pub w: f64 }
}
ros_message! {
    /// `geometry_msgs/Pose`.
    pub struct Pose = "geometry_msgs/Pose" { pub position: Point, pub orientation: Quaternion }
}
ros_message! {
    /// `geometry_msgs/PoseStamped`.
    pub struct PoseStamped = "geometry_msgs/PoseStamped" { pub header: Header, pub pose: Pose }
}
ros_message! {
    /// `geometry_msgs/Twist`: linear (m/s) and angular (rad/s) velocity.
    pub struct Twist = "geometry_msgs/Twist" { pub linear: Vector3, pub angular: Vector3 }
}
ros_message! {
    /// `geometry_msgs/PoseWithCovariance`.
    pub struct PoseWithCovariance = "geometry_msgs/PoseWithCovariance" { pub pose: Pose, pub covariance: Covariance }
}
ros_message! {
    /// `geometry_msgs/TwistWithCovariance`.
    pub struct TwistWithCovariance = "geometry_msgs/TwistWithCovariance" { pub twist: Twist, pub covariance: Covariance }
}
ros_message! {
    /// `nav_msgs/Odometry`.
    pub struct Odometry = "nav_msgs/Odometry" {
        pub header: Header,
        pub child_frame_id: String,
        pub pose: PoseWithCovariance,
        pub twist: TwistWithCovariance,
    }
}

impl Quaternion {
    /// The rotation by `yaw` radians about z.
    pub fn from_yaw(yaw: f64) -> Self {
        let h = yaw / 2.0;
        Quaternion {
            x: 0.0,
            y: 0.0,
            z: h.sin(),
            w: h.cos(),
        }
    }
}
