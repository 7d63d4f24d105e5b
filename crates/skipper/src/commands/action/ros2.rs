//! `skipper action send --ros2` (cargo feature `ros2`, on by default): one goal sent with
//! `skipper_ros2::send`, reported as the ROS 1 client reports it. See docs/ros2.md.

use super::{say_block, SendArgs};
use crate::exit::{self, Failure};
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
