//! The `run_option` action server (`skipper_msgs/RunOption`) of a robot driven by an
//! XABSL agent: a goal makes its option the agent's root option with its parameters
//! (JSON) through the robot's [`OptionHandle`].
//!
//! - unknown option or bad parameters: ABORTED at once with the reason (a simple action
//!   server cannot reject); if another goal's option was running, the robot stops;
//! - feedback: the activation path (`option.state > option.state ...`) whenever it
//!   changes;
//! - SUCCEEDED (`reached_target_state` true) when the option is in a target state;
//! - a newer goal: PREEMPTED, and the new goal's option takes over;
//! - a cancel: PREEMPTED, no option runs and the robot stops;
//! - the end of the run: ABORTED.

use crate::controllers::option::{OptionHandle, OptionStatus};
use skipper_actionlib::msg::skipper_msgs::{
    RunOption, RunOptionFeedback, RunOptionGoal, RunOptionResult,
};
use skipper_actionlib::{ActionServer, SimpleActionServer};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the goal's status is looked at.
const POLL: Duration = Duration::from_millis(10);

/// Serve `run_option` goals on `server` (already bound to a transport) for the robot of
/// `handle`, until `running` turns false. The server is started.
pub fn serve(
    server: ActionServer<RunOption>,
    handle: OptionHandle,
    running: Arc<AtomicBool>,
) -> SimpleActionServer<RunOption> {
    let s = SimpleActionServer::with_execute_callback(
        server,
        move |s: &SimpleActionServer<RunOption>, g: RunOptionGoal| {
            execute(s, &g, &handle, &running).map_err(|e| e.to_string())
        },
    );
    s.start();
    s
}

fn result(reached: bool) -> Option<RunOptionResult> {
    Some(RunOptionResult {
        reached_target_state: reached,
    })
}

fn execute(
    s: &SimpleActionServer<RunOption>,
    g: &RunOptionGoal,
    h: &OptionHandle,
    running: &AtomicBool,
) -> Result<(), skipper_actionlib::ActionError> {
    let id = match h.run(&g.option, &g.parameters) {
        Ok(id) => id,
        Err(why) => {
            h.stop_current();
            return s.set_aborted(result(false), &why);
        }
    };
    let mut last: Option<String> = None;
    loop {
        if !running.load(Ordering::SeqCst) {
            h.stop(id);
            return s.set_aborted(result(false), "the run ended");
        }
        if s.is_preempt_requested() {
            if s.is_new_goal_available() {
                // the newer goal's option takes over; the robot goes on
                return s.set_preempted(result(false), "preempted by a newer goal");
            }
            h.stop(id);
            for _ in 0..100 {
                if matches!(h.status(id), Some(OptionStatus::Stopped { .. })) || h.replaced(id) {
                    break;
                }
                std::thread::sleep(POLL);
            }
            return s.set_preempted(result(false), "canceled; the robot stopped");
        }
        match h.status(id) {
            Some(OptionStatus::Active { path, .. }) if last.as_deref() != Some(path.as_str()) => {
                s.publish_feedback(RunOptionFeedback {
                    active_path: path.clone(),
                })?;
                last = Some(path);
            }
            Some(OptionStatus::Succeeded { path, .. }) => {
                if last.as_deref() != Some(path.as_str()) {
                    s.publish_feedback(RunOptionFeedback {
                        active_path: path.clone(),
                    })?;
                }
                return s.set_succeeded(
                    result(true),
                    &format!("option `{}` reached a target state ({path})", g.option),
                );
            }
            Some(OptionStatus::Stopped { .. }) => {
                return s.set_preempted(result(false), "stopped; the robot stopped");
            }
            None if h.replaced(id) => {
                return s.set_aborted(result(false), "replaced by a goal from another source");
            }
            Some(OptionStatus::Active { .. }) | None => {}
        }
        std::thread::sleep(POLL);
    }
}
