//! The transports a run serves its robots on, chosen from the command line: the
//! dashboard (`--serve`), ROS 1 (`--ros`) and ROS 2 (`--ros2`). Each is a
//! [`Transport`]: it gets the same [`Endpoint`] per robot, binds the goal kinds the
//! robot's controller declares, attaches in one step before the run and finishes in one
//! step after it. A new transport is one crate and one line in [`from_args`].

// doc comments here are `--help` text: `/<robot>/goto` is a placeholder, not HTML
#![allow(rustdoc::invalid_html_tags)]

use crate::exit::Failure;
use skipper_core::{RunReport, Runner};
use skipper_goals::{BindOptions, Endpoint, Transport, TransportError};
use skipper_ros1::TimeSource;
use std::net::{IpAddr, SocketAddr};

/// `skipper run`'s options that choose its transports.
#[derive(Debug, Clone, clap::Args)]
pub struct TransportArgs {
    /// Serve the live dashboard on this address (default 127.0.0.1:8088); the run is then
    /// paced by the wall clock (--speed sets the factor) and goes on until --until or Ctrl-C.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = DASHBOARD_ADDR)]
    pub serve: Option<std::net::SocketAddr>,
    /// Let --serve listen on an address other machines can reach; every request then needs
    /// the token printed at start.
    #[arg(long, requires = "serve")]
    pub allow_remote: bool,
    /// Join ROS 1: the master URI, or nothing for ROS_MASTER_URI (default
    /// http://127.0.0.1:11311). Each robot (and the AUV of a mission) then hosts an action
    /// server for every goal kind its controller takes: /<robot>/goto (skipper_msgs/Goto)
    /// always, /<robot>/run_option (skipper_msgs/RunOption) with an XABSL agent,
    /// /<auv>/run_mission (skipper_msgs/RunMission) with a mission; publishes
    /// /<robot>/pose and /<robot>/odom and obeys /<robot>/cmd_vel. The run is paced by the
    /// wall clock and goes on until --until or Ctrl-C.
    #[arg(long, value_name = "MASTER_URI", num_args = 0..=1, default_missing_value = "")]
    pub ros: Option<String>,
    /// With --ros or ros1: robots: listen on this address instead of 127.0.0.1 (prints a
    /// warning: anyone who reaches it can drive the robots). For 0.0.0.0 set ROS_IP or ROS_HOSTNAME to the
    /// address peers reach this machine by.
    #[arg(long, value_name = "ADDR")]
    pub ros_host: Option<std::net::IpAddr>,
    /// Join ROS 2 (domain ROS_DOMAIN_ID, peers on this machine only): each robot gets
    /// /<robot>/odom, pose, scan, sonar, battery, cmd_vel, goal_pose and its goal kinds
    /// as actions (goto, run_option, run_mission); the node publishes /tf, /tf_static,
    /// /clock and /rosout. See docs/ros2.md.
    #[arg(long, conflicts_with = "ros")]
    pub ros2: bool,
    /// With --ros2 or ros2: robots: discover peers on the network of this local address
    /// too (0.0.0.0: every interface); prints a warning, anyone on it can drive the robots.
    #[arg(long, value_name = "ADDR")]
    pub ros2_host: Option<std::net::IpAddr>,
    /// With --ros2, last: ROS 2 arguments (-r __node:=NAME -r __ns:=/NS -r FROM:=TO -p
    /// NAME:=VALUE).
    #[arg(long = "ros-args", requires = "ros2", num_args = 0.., allow_hyphen_values = true, value_name = "ARG")]
    pub ros_args: Vec<String>,
}

/// The transports `skipper run`'s options ask for (settings checked, nothing started);
/// the robots of a real vehicle get wall-clock stamps.
pub fn from_args(a: &TransportArgs, real_robot: bool) -> Result<Vec<Box<dyn Transport>>, Failure> {
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
