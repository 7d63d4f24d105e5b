//! `skipper action send --ros2` in a build without the `ros2` feature: refused with a
//! sentence that says how to get it.

use super::SendArgs;
use crate::exit::Failure;
use std::net::IpAddr;

/// Refuses.
pub fn send(_: &SendArgs, _: Option<IpAddr>) -> Result<u8, Failure> {
    Err(crate::exit::left_out("ros2", "ROS 2"))
}
