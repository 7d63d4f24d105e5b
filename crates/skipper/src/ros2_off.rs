//! `--ros2` in a build without the `ros2` feature: refused with a sentence that says how
//! to get it.

use crate::commands::action::SendArgs;
use crate::exit::Failure;
use skipper_core::goals::GoalPort;
use skipper_core::velocity::VelocityInbox;
use skipper_core::Runner;
use std::net::IpAddr;
use std::sync::Arc;

fn refused() -> Failure {
    Failure::bad_input(
        "this skipper was built without ROS 2 (cargo feature `ros2` of the skipper crate, on by default)",
    )
}

/// Refuses.
pub fn attach(
    _: &mut Runner,
    _: Vec<(usize, Arc<dyn GoalPort>, VelocityInbox)>,
    _: &[String],
    _: Option<IpAddr>,
    _: f64,
) -> Result<(), Failure> {
    Err(refused())
}

/// Refuses.
pub fn send(_: &SendArgs, _: Option<IpAddr>) -> Result<u8, Failure> {
    Err(refused())
}
