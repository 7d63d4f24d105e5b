//! The transports a run serves its robots on: the dashboard (`--serve`), ROS 1 (`--ros`)
//! and ROS 2 (`--ros2`). Each gets the same [`Endpoint`] per robot (its goal port and
//! velocity inbox) and binds the goal kinds the robot's controller declares; each is
//! attached in one step before the run and finished in one step after it.

use crate::commands::run::RunArgs;
use crate::exit::Failure;
use skipper_core::{RunOutcome, RunReport, Runner};
use skipper_goals::{BindOptions, Endpoint};
use skipper_ros1::{LinkError, RosLink};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The transports a run asked for, checked before anything is built.
pub struct Transports {
    dashboard: Option<skipper_dashboard::ServeOptions>,
    ros1: Option<(String, Option<std::net::IpAddr>)>,
    ros2: Option<(Vec<String>, Option<std::net::IpAddr>)>,
}

/// A transport attached to a run, finished after it.
pub enum Attached {
    /// the dashboard's server
    Dashboard(skipper_dashboard::server::Server),
    /// the ROS 1 node, and whether ROS asked it to leave
    Ros1(RosLink, Arc<AtomicBool>),
}

impl Transports {
    /// The transports of `skipper run`'s options; a dashboard address that may not be
    /// used is bad input.
    pub fn from_args(a: &RunArgs) -> Result<Self, Failure> {
        let dashboard = a
            .serve
            .map(|addr| skipper_dashboard::ServeOptions::new(addr, a.allow_remote))
            .transpose()?;
        Ok(Self {
            dashboard,
            ros1: a.ros.clone().map(|m| (m, a.ros_host)),
            ros2: a.ros2.then(|| (a.ros_args.clone(), a.ros2_host)),
        })
    }

    /// What the controllers must offer: goto goals for any transport, velocity commands
    /// for the ROS ones.
    pub fn bind_options(&self) -> BindOptions {
        let ros = self.ros1.is_some() || self.ros2.is_some();
        BindOptions {
            goto: self.dashboard.is_some() || ros,
            velocity: ros,
        }
    }

    /// Attach each transport to `runner`, with `endpoints` (the robots that take goals),
    /// the cycle `rate` (Hz) and whether the robots are real (their time is the wall
    /// clock's).
    pub fn attach(
        self,
        runner: &mut Runner,
        endpoints: &[Endpoint],
        rate: f64,
        real_robot: bool,
    ) -> Result<Vec<Attached>, Failure> {
        let mut attached = Vec::new();
        if let Some(o) = &self.dashboard {
            let ports = endpoints
                .iter()
                .map(|e| (e.robot, e.goals.clone()))
                .collect();
            let period = runner.config().period;
            let server = skipper_dashboard::live::serve(runner, ports, period, o)?;
            attached.push(Attached::Dashboard(server));
        }
        if let Some((master, host)) = &self.ros1 {
            attached.push(ros1(runner, endpoints, master, *host, real_robot)?);
        }
        if let Some((ros_args, host)) = &self.ros2 {
            let robots = endpoints
                .iter()
                .map(|e| (e.robot, e.goals.clone(), e.velocity.clone()))
                .collect();
            crate::ros2::attach(runner, robots, ros_args, *host, rate)?;
        }
        Ok(attached)
    }
}

/// Join ROS 1 and serve the robots: services, topics, frames, goals. `rosnode kill`, or
/// another node taking the name, ends the run as planned, as a rospy or roscpp node
/// exits.
fn ros1(
    runner: &mut Runner,
    endpoints: &[Endpoint],
    master: &str,
    host: Option<std::net::IpAddr>,
    real_robot: bool,
) -> Result<Attached, Failure> {
    let link = RosLink::connect(master, host).map_err(ros_failure)?;
    let robots: Vec<_> = endpoints
        .iter()
        .map(|e| skipper_ros1::Robot {
            index: e.robot,
            goals: e.goals.clone(),
            velocity: e.velocity.clone(),
        })
        .collect();
    let services = link
        .serve_services(runner.world(), &robots, runner.control())
        .map_err(ros_failure)?;
    runner.add_observer(services);
    let time = if real_robot {
        skipper_ros1::TimeSource::Wall
    } else {
        skipper_ros1::TimeSource::Simulated
    };
    let topics = link
        .serve_with(runner.world(), robots, time)
        .map_err(ros_failure)?;
    runner.add_observer(topics);
    let killed = Arc::new(AtomicBool::new(false));
    let (control, flag) = (runner.control(), killed.clone());
    link.node().on_shutdown(move |why| {
        eprintln!("ROS: {why}; ending the run");
        flag.store(true, Ordering::SeqCst);
        control.request_stop();
    });
    Ok(Attached::Ros1(link, killed))
}

/// A ROS error for the user: bad settings are bad input, the rest a failure.
fn ros_failure(e: LinkError) -> Failure {
    match e {
        LinkError::Settings(m) => Failure::bad_input(m),
        LinkError::Ros(m) => Failure::failed(m),
    }
}

/// After the run (its runner dropped, so the controllers have finished): leave the ROS
/// graph, let the browsers get the last frame and stop the dashboard. A run ROS asked to
/// end ended as planned.
pub fn finish(attached: Vec<Attached>, report: &mut RunReport) {
    for a in attached {
        match a {
            Attached::Ros1(link, killed) => {
                if killed.load(Ordering::SeqCst)
                    && matches!(report.outcome, RunOutcome::Interrupted)
                {
                    report.outcome = RunOutcome::Finished;
                }
                link.shutdown();
            }
            Attached::Dashboard(server) => {
                std::thread::sleep(Duration::from_millis(300));
                server.stop();
            }
        }
    }
}
