//! `--ros2` in a build without the `ros2` feature: refused with a sentence that says how
//! to get it.

use crate::commands::action::SendArgs;
use crate::exit::Failure;
use skipper_core::Runner;
use skipper_goals::{Endpoint, Transport, TransportError};
use std::net::IpAddr;

fn refused() -> Failure {
    crate::exit::left_out("ros2", "ROS 2")
}

/// A transport that refuses to attach.
pub fn transport(_: &[String], _: Option<IpAddr>) -> Box<dyn Transport> {
    Box::new(Off)
}

struct Off;

impl Transport for Off {
    fn attach(&mut self, _: &mut Runner, _: &[Endpoint]) -> Result<(), TransportError> {
        Err(TransportError::Settings(refused().message))
    }
}

/// Refuses.
pub fn send(_: &SendArgs, _: Option<IpAddr>) -> Result<u8, Failure> {
    Err(refused())
}
