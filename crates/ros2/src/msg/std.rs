//! `builtin_interfaces/Time`, `std_msgs/Header`, `rosgraph_msgs/Clock`.

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
    Header => "std_msgs" / "Header",
    Clock => "rosgraph_msgs" / "Clock",
}
