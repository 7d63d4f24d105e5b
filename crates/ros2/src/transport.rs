//! Skipper's robots on ROS 2 as a [`Transport`] of a run (`skipper run --ros2`): one node
//! joins with the run's ROS 2 arguments when the run attaches it and serves every
//! robot's goal kinds, velocity commands, topics and frames through [`Ros2Link`].

use crate::link::{Robot, Ros2Link};
use crate::Ros2Error;
use skipper_core::Runner;
use skipper_goals::{Endpoint, Transport, TransportError};
use std::net::IpAddr;

/// The ROS 2 transport of a run.
pub struct Ros2Transport {
    ros_args: Vec<String>,
    host: Option<IpAddr>,
}

impl Ros2Transport {
    /// A node that joins with `ros_args` (`-r __node:=NAME`, `-p use_sim_time:=true`,
    /// ...) and discovers on `host`'s network too, if given, besides this machine.
    pub fn new(ros_args: &[String], host: Option<IpAddr>) -> Self {
        Self {
            ros_args: ros_args.to_vec(),
            host,
        }
    }
}

impl Transport for Ros2Transport {
    fn sends_velocity(&self) -> bool {
        true
    }

    fn attach(&mut self, runner: &mut Runner, robots: &[Endpoint]) -> Result<(), TransportError> {
        let world = runner.world();
        let names: Vec<String> = (0..world.len())
            .filter_map(|i| world.vehicle(i).map(|v| v.info().name.clone()))
            .collect();
        let rate = 1.0 / runner.config().period.as_secs_f64();
        let link = Ros2Link::start(&self.ros_args, self.host, &names, rate, runner.control())
            .map_err(transport_error)?;
        let robots = robots
            .iter()
            .map(|e| Robot {
                index: e.robot,
                goals: e.goals.clone(),
                velocity: e.velocity.clone(),
            })
            .collect();
        let observer = link
            .serve(runner.world(), robots)
            .map_err(transport_error)?;
        runner.add_observer(observer);
        Ok(())
    }
}

fn transport_error(e: Ros2Error) -> TransportError {
    match e {
        Ros2Error::Config(m) => TransportError::Settings(m),
        e => TransportError::Failed(e.to_string()),
    }
}
