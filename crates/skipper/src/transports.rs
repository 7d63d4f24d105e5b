//! The transports a run serves its robots on, chosen from the command line: the
//! dashboard (`--serve`), ROS 1 (`--ros`) and ROS 2 (`--ros2`). Each is a
//! [`Transport`]: it gets the same [`Endpoint`] per robot, binds the goal kinds the
//! robot's controller declares, attaches in one step before the run and finishes in one
//! step after it. A new transport is one crate and one line in [`from_args`].

use crate::commands::run::RunArgs;
use crate::exit::Failure;
use skipper_core::{RunReport, Runner};
use skipper_goals::{BindOptions, Endpoint, Transport, TransportError};
use skipper_ros1::TimeSource;
use std::net::{IpAddr, SocketAddr};

/// The transports `skipper run`'s options ask for (settings checked, nothing started);
/// the robots of a real vehicle get wall-clock stamps.
pub fn from_args(a: &RunArgs, real_robot: bool) -> Result<Vec<Box<dyn Transport>>, Failure> {
    let time = if real_robot {
        TimeSource::Wall
    } else {
        TimeSource::Simulated
    };
    let mut transports: Vec<Box<dyn Transport>> = Vec::new();
    if let Some(addr) = a.serve {
        transports.push(dashboard(addr, a.allow_remote)?);
    }
    if let Some(master) = &a.ros {
        transports.push(Box::new(skipper_ros1::Ros1Transport::new(
            master, a.ros_host, time,
        )));
    }
    if a.ros2 {
        transports.push(ros2(&a.ros_args, a.ros2_host)?);
    }
    Ok(transports)
}

/// The dashboard's address when `--serve` gives none.
pub const DASHBOARD_ADDR: &str = "127.0.0.1:8088";

/// The live dashboard on `addr` (another address than loopback only if allowed).
#[cfg(feature = "dashboard")]
fn dashboard(addr: SocketAddr, allow_remote: bool) -> Result<Box<dyn Transport>, Failure> {
    let options = skipper_dashboard::ServeOptions::new(addr, allow_remote)?;
    Ok(Box::new(skipper_dashboard::LiveTransport::new(options)))
}

/// Refused: this build has no dashboard.
#[cfg(not(feature = "dashboard"))]
fn dashboard(_: SocketAddr, _: bool) -> Result<Box<dyn Transport>, Failure> {
    Err(crate::exit::left_out(
        "dashboard",
        "the web dashboard (--serve)",
    ))
}

/// The ROS 2 node of a run, joining with `ros_args` (discovering on `host`'s network too).
#[cfg(feature = "ros2")]
fn ros2(ros_args: &[String], host: Option<IpAddr>) -> Result<Box<dyn Transport>, Failure> {
    Ok(Box::new(skipper_ros2::Ros2Transport::new(ros_args, host)))
}

/// Refused: this build has no ROS 2.
#[cfg(not(feature = "ros2"))]
fn ros2(_: &[String], _: Option<IpAddr>) -> Result<Box<dyn Transport>, Failure> {
    Err(crate::exit::left_out("ros2", "ROS 2"))
}

/// What the controllers must offer: goto goals for any transport, velocity commands
/// for those that send them.
pub fn bind_options(transports: &[Box<dyn Transport>]) -> BindOptions {
    BindOptions {
        goto: !transports.is_empty(),
        velocity: transports.iter().any(|t| t.sends_velocity()),
    }
}

/// Attach each transport to `runner`, serving `robots`.
pub fn attach(
    transports: &mut [Box<dyn Transport>],
    runner: &mut Runner,
    robots: &[Endpoint],
) -> Result<(), Failure> {
    for t in transports {
        t.attach(runner, robots).map_err(|e| match e {
            TransportError::Settings(m) => Failure::bad_input(m),
            TransportError::Failed(m) => Failure::failed(m),
        })?;
    }
    Ok(())
}

/// After the run (its runner dropped, so the controllers have finished): each transport
/// leaves, and may say how the run ended from its side.
pub fn finish(transports: Vec<Box<dyn Transport>>, report: &mut RunReport) {
    for t in transports {
        t.finish(report);
    }
}
