//! Skipper's robots on ROS 1 as a [`Transport`] of a run (`skipper run --ros`): join the
//! master, serve each robot's goal kinds, topics, frames and services, and leave after
//! the run. `rosnode kill`, or another node taking the name, ends the run as planned, as
//! a rospy or roscpp node exits.

use crate::{LinkError, RosLink, TimeSource};
use skipper_core::{RunOutcome, RunReport, Runner};
use skipper_goals::{Endpoint, Transport, TransportError};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The ROS 1 transport of a run.
pub struct Ros1Transport {
    master: String,
    host: Option<IpAddr>,
    time: TimeSource,
    link: Option<RosLink>,
    /// ROS asked the node to leave
    killed: Arc<AtomicBool>,
}

impl Ros1Transport {
    /// Join the master at `master` (empty: `ROS_MASTER_URI`, default
    /// `http://127.0.0.1:11311`), listening on `host` (default 127.0.0.1); stamps in
    /// `time`.
    pub fn new(master: &str, host: Option<IpAddr>, time: TimeSource) -> Self {
        Self {
            master: master.to_string(),
            host,
            time,
            link: None,
            killed: Arc::new(AtomicBool::new(false)),
        }
    }
}

fn transport_error(e: LinkError) -> TransportError {
    match e {
        LinkError::Settings(m) => TransportError::Settings(m),
        LinkError::Ros(m) => TransportError::Failed(m),
    }
}

impl Transport for Ros1Transport {
    fn sends_velocity(&self) -> bool {
        true
    }

    fn attach(&mut self, runner: &mut Runner, robots: &[Endpoint]) -> Result<(), TransportError> {
        let link = RosLink::connect(&self.master, self.host).map_err(transport_error)?;
        let services = link
            .serve_services(runner.world(), robots, runner.control())
            .map_err(transport_error)?;
        runner.add_observer(services);
        let topics = link
            .serve_with(runner.world(), robots.to_vec(), self.time)
            .map_err(transport_error)?;
        runner.add_observer(topics);
        let (control, flag) = (runner.control(), self.killed.clone());
        link.node().on_shutdown(move |why| {
            eprintln!("ROS: {why}; ending the run");
            flag.store(true, Ordering::SeqCst);
            control.request_stop();
        });
        self.link = Some(link);
        Ok(())
    }

    fn finish(self: Box<Self>, report: &mut RunReport) {
        if self.killed.load(Ordering::SeqCst) && matches!(report.outcome, RunOutcome::Interrupted) {
            report.outcome = RunOutcome::Finished;
        }
        if let Some(link) = self.link {
            link.shutdown();
        }
    }
}
