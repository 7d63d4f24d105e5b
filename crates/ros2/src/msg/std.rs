//! `builtin_interfaces/Time` and `Duration`, `std_msgs/Header`, `rosgraph_msgs/Clock`.

use super::Shared;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// `builtin_interfaces/msg/Time`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Time {
    /// seconds
    pub sec: i32,
    /// nanoseconds, below 1e9
    pub nanosec: u32,
}

impl Time {
    /// A time since the epoch of its clock (run time for simulated time), saturating.
    pub fn from_duration(d: Duration) -> Self {
        Self {
            sec: i32::try_from(d.as_secs()).unwrap_or(i32::MAX),
            nanosec: d.subsec_nanos(),
        }
    }
    /// As seconds.
    pub fn as_secs_f64(&self) -> f64 {
        f64::from(self.sec) + f64::from(self.nanosec) * 1e-9
    }
}

/// `builtin_interfaces/msg/Duration`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RosDuration {
    /// seconds
    pub sec: i32,
    /// nanoseconds, below 1e9
    pub nanosec: u32,
}

impl RosDuration {
    /// A duration of `s` seconds (0 for a negative or not finite `s`; saturating).
    pub fn from_secs_f64(s: f64) -> Self {
        if !(s.is_finite() && s > 0.0) {
            return Self::default();
        }
        let d = Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX);
        Self {
            sec: i32::try_from(d.as_secs()).unwrap_or(i32::MAX),
            nanosec: d.subsec_nanos(),
        }
    }
    /// As seconds.
    pub fn as_secs_f64(&self) -> f64 {
        f64::from(self.sec) + f64::from(self.nanosec) * 1e-9
    }
}

/// `std_msgs/msg/Header`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// when
    pub stamp: Time,
    /// the coordinate frame
    pub frame_id: Shared<String>,
}

/// `rosgraph_msgs/msg/Clock`: the time of a simulated run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    /// the current simulated time
    pub clock: Time,
}

super::ros_type! {
    Time => "builtin_interfaces" / "Time",
    RosDuration => "builtin_interfaces" / "Duration",
    Header => "std_msgs" / "Header",
    Clock => "rosgraph_msgs" / "Clock",
}
