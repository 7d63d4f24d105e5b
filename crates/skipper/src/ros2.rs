//! The ROS 2 wiring of the binary (cargo feature `ros2`, on by default): `skipper run
//! --ros2` is a transport that binds the run's robots through `skipper_ros2::link`,
//! `skipper action send --ros2` sends one goal with `skipper_ros2::send`. See
//! docs/ros2.md.

use crate::commands::action::{say_block, SendArgs};
use crate::exit::{self, Failure};
use skipper_core::{RunControl, Runner};
use skipper_goals::{Endpoint, Transport, TransportError};
use skipper_ros2::link::{Robot, Ros2Link};
use skipper_ros2::Ros2Error;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn failure(e: Ros2Error) -> Failure {
    match e {
        Ros2Error::Config(m) => Failure::bad_input(m),
        e => Failure::failed(e.to_string()),
    }
}

/// `skipper run --ros2` as a transport: the node joins with `ros_args` (and discovers
/// on `host`'s network too, if given) when the run attaches it.
pub fn transport(ros_args: &[String], host: Option<IpAddr>) -> Box<dyn Transport> {
    Box::new(Ros2Transport {
        ros_args: ros_args.to_vec(),
        host,
    })
}

/// The ROS 2 transport of a run.
struct Ros2Transport {
    ros_args: Vec<String>,
    host: Option<IpAddr>,
}

impl Transport for Ros2Transport {
    fn sends_velocity(&self) -> bool {
        true
    }

    fn attach(&mut self, runner: &mut Runner, robots: &[Endpoint]) -> Result<(), TransportError> {
        let control: Arc<RunControl> = runner.control();
        let names: Vec<String> = (0..runner.world().len())
            .filter_map(|i| runner.world().vehicle(i).map(|v| v.info().name.clone()))
            .collect();
        let rate = 1.0 / runner.config().period.as_secs_f64();
        let link = Ros2Link::start(&self.ros_args, self.host, &names, rate, control)
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

/// `skipper action send --ros2`: the exit status as for ROS 1 (0 SUCCEEDED, 1
/// otherwise, 2 bad fields, 130 interrupted).
pub fn send(args: &SendArgs, host: Option<IpAddr>) -> Result<u8, Failure> {
    use skipper_ros2::send::{Outcome, Report, Request};
    let stop = Arc::new(AtomicBool::new(false));
    let s2 = stop.clone();
    crate::shutdown::on_stop(move || s2.store(true, Ordering::SeqCst));
    let request = Request {
        server: &args.server,
        fields: &args.fields,
        wait: args.wait,
        timeout: args.timeout,
        host,
    };
    let mut interrupted = false;
    let outcome = skipper_ros2::send::send(&request, &stop, |r| match r {
        Report::Warning(w) => eprintln!("{w}"),
        Report::Goal(g) => say_block("goal", &g),
        Report::Active => crate::outln!("active"),
        Report::Feedback(f) => say_block("feedback", &f),
        Report::Canceling(timed_out) => {
            interrupted = !timed_out;
            eprintln!(
                "{}: cancelling the goal",
                if timed_out { "timeout" } else { "interrupted" }
            );
        }
    })
    .map_err(failure)?;
    let code = match outcome {
        Outcome::Rejected => {
            crate::outln!("REJECTED");
            exit::FAILED
        }
        Outcome::Unconfirmed => {
            eprintln!("error: the server did not confirm the cancel within 5 s");
            exit::FAILED
        }
        Outcome::Done {
            status,
            succeeded,
            result,
        } => {
            crate::outln!("{status}");
            say_block("result", &result);
            if succeeded {
                0
            } else {
                exit::FAILED
            }
        }
    };
    Ok(if interrupted { exit::INTERRUPTED } else { code })
}
