//! `geometry_msgs` (poses, twists, transforms), `nav_msgs/Odometry` and
//! `tf2_msgs/TFMessage`.

use super::std::Header;
use super::{Covariance6, Shared};
use serde::{Deserialize, Serialize};

/// `geometry_msgs/msg/Vector3`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Vector3 {
    /// x
    pub x: f64,
    /// y
    pub y: f64,
    /// z
    pub z: f64,
}

/// `geometry_msgs/msg/Point`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// x
    pub x: f64,
    /// y
    pub y: f64,
    /// z
    pub z: f64,
}

/// `geometry_msgs/msg/Quaternion`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Quaternion {
    /// x
    pub x: f64,
    /// y
    pub y: f64,
    /// z
    pub z: f64,
    /// w
    pub w: f64,
}

impl Default for Quaternion {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Quaternion {
    /// No rotation.
    pub const IDENTITY: Self = Self {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };
    /// A rotation by `yaw` about z.
    pub fn from_yaw(yaw: f64) -> Self {
        let (s, c) = (yaw / 2.0).sin_cos();
        Self {
            x: 0.0,
            y: 0.0,
            z: s,
            w: c,
        }
    }
    /// From `[x, y, z, w]`.
    pub fn from_xyzw(q: [f64; 4]) -> Self {
        Self {
            x: q[0],
            y: q[1],
            z: q[2],
            w: q[3],
        }
    }
    /// The rotation about z (of a rotation about z, the heading).
    pub fn yaw(&self) -> f64 {
        (2.0 * (self.w * self.z + self.x * self.y))
            .atan2(1.0 - 2.0 * (self.y * self.y + self.z * self.z))
    }
}

/// `geometry_msgs/msg/Pose`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    /// position
    pub position: Point,
    /// orientation
    pub orientation: Quaternion,
}

/// `geometry_msgs/msg/PoseStamped`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PoseStamped {
    /// stamp and frame
    pub header: Header,
    /// the pose
    pub pose: Pose,
}

/// `geometry_msgs/msg/Twist`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Twist {
    /// m/s
    pub linear: Vector3,
    /// rad/s
    pub angular: Vector3,
}

/// `geometry_msgs/msg/TwistStamped` (what Jazzy's navigation stack sends on `cmd_vel`
/// with `enable_stamped_cmd_vel`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TwistStamped {
    /// stamp and frame
    pub header: Header,
    /// the twist
    pub twist: Twist,
}

/// `geometry_msgs/msg/PoseWithCovariance`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PoseWithCovariance {
    /// the pose
    pub pose: Pose,
    /// its covariance
    pub covariance: Covariance6,
}

/// `geometry_msgs/msg/TwistWithCovariance`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct TwistWithCovariance {
    /// the twist
    pub twist: Twist,
    /// its covariance
    pub covariance: Covariance6,
}

/// `nav_msgs/msg/Odometry`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Odometry {
    /// stamp and the frame of the pose
    pub header: Header,
    /// the frame of the twist
    pub child_frame_id: Shared<String>,
    /// the pose
    pub pose: PoseWithCovariance,
    /// the velocity, in the child frame
    pub twist: TwistWithCovariance,
}

/// `geometry_msgs/msg/Transform`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    /// translation
    pub translation: Vector3,
    /// rotation
    pub rotation: Quaternion,
}

/// `geometry_msgs/msg/TransformStamped`: the pose of `child_frame_id` in the header's
/// frame.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TransformStamped {
    /// stamp and parent frame
    pub header: Header,
    /// the child frame
    pub child_frame_id: Shared<String>,
    /// the child's pose in the parent frame
    pub transform: Transform,
}

/// `tf2_msgs/msg/TFMessage`: what `/tf` and `/tf_static` carry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TfMessage {
    /// the transforms
    pub transforms: Shared<Vec<TransformStamped>>,
}

super::ros_type! {
    Vector3 => "geometry_msgs" / "Vector3",
    Point => "geometry_msgs" / "Point",
    Quaternion => "geometry_msgs" / "Quaternion",
    Pose => "geometry_msgs" / "Pose",
    PoseStamped => "geometry_msgs" / "PoseStamped",
    Twist => "geometry_msgs" / "Twist",
    TwistStamped => "geometry_msgs" / "TwistStamped",
    Odometry => "nav_msgs" / "Odometry",
    TransformStamped => "geometry_msgs" / "TransformStamped",
    TfMessage => "tf2_msgs" / "TFMessage",
}
