//! The `goto` action server (`skipper_msgs/Goto`) of a ground robot or the AUV: a goal
//! drives the vehicle to (x, y), in the frame of its published pose, through its goal
//! runner's [`GoalHandle`] (`crate::controllers::goal`).
//!
//! - feedback: the distance left, each time it changes;
//! - within the tolerance (0: the vehicle's default): SUCCEEDED, "reached", with the
//!   pose where the vehicle was (x, y, yaw);
//! - a newer goal: PREEMPTED, "preempted by a newer goal", and the vehicle turns to the
//!   new one without stopping;
//! - a cancel: PREEMPTED, "canceled; the robot stopped" (the goal runner stops the
//!   vehicle, and the controller under it drives again);
//! - a goal from another source (the dashboard) replaced it: ABORTED; x, y or tolerance
//!   not finite: ABORTED at once; the end of the run: ABORTED, "the run ended".

use crate::controllers::goal::{GoalHandle, GoalStatus as RunnerStatus};
use skipper_actionlib::msg::skipper_msgs::{Goto, GotoFeedback, GotoGoal, GotoResult};
use skipper_actionlib::{ActionServer, SimpleActionServer};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Serve `goto` goals on `server` (already bound to a transport) for the vehicle of
/// `goals`, until `running` turns false. The server is started.
pub fn serve(
    server: ActionServer<Goto>,
    goals: GoalHandle,
    running: Arc<AtomicBool>,
) -> SimpleActionServer<Goto> {
    let s = SimpleActionServer::with_execute_callback(
        server,
        move |s: &SimpleActionServer<Goto>, g: GotoGoal| execute(s, &g, &goals, &running),
    );
    s.start();
    s
}

/// Where our goal stands in the goal runner (the latest status, or the history when a
/// newer goal from another source replaced it).
fn runner_status(h: &GoalHandle, id: u64) -> Option<RunnerStatus> {
    match h.status() {
        Some(s) if s.id() == id => Some(s),
        _ => h
            .statuses_since(0)
            .0
            .into_iter()
            .rev()
            .find(|s| s.id() == id),
    }
}

fn execute(
    s: &SimpleActionServer<Goto>,
    g: &GotoGoal,
    h: &GoalHandle,
    running: &AtomicBool,
) -> Result<(), String> {
    let e = |e: skipper_actionlib::ActionError| e.to_string();
    if !(g.x.is_finite() && g.y.is_finite() && g.tolerance.is_finite()) {
        return s
            .set_aborted(None, "x, y and tolerance must be finite numbers")
            .map_err(e);
    }
    let id = h.goto(g.x, g.y, g.tolerance);
    let mut last = f64::NAN;
    loop {
        if !running.load(Ordering::SeqCst) {
            h.cancel();
            return s.set_aborted(None, "the run ended").map_err(e);
        }
        if s.is_preempt_requested() {
            if s.is_new_goal_available() {
                // the newer goal takes over the goal runner; the robot keeps moving
                return s
                    .set_preempted(None, "preempted by a newer goal")
                    .map_err(e);
            }
            h.cancel();
            for _ in 0..100 {
                if matches!(runner_status(h, id), Some(st) if st.is_terminal()) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            return s
                .set_preempted(None, "canceled; the robot stopped")
                .map_err(e);
        }
        match runner_status(h, id) {
            Some(RunnerStatus::Active { distance, .. }) => {
                if distance != last {
                    last = distance;
                    s.publish_feedback(GotoFeedback { distance }).map_err(e)?;
                }
            }
            Some(RunnerStatus::Succeeded { x, y, yaw, .. }) => {
                return s
                    .set_succeeded(Some(GotoResult { x, y, yaw }), "reached")
                    .map_err(e);
            }
            Some(RunnerStatus::Canceled { .. }) => {
                return s
                    .set_preempted(None, "canceled; the robot stopped")
                    .map_err(e);
            }
            Some(RunnerStatus::Preempted { .. }) => {
                return s
                    .set_aborted(None, "replaced by a goal from another source")
                    .map_err(e);
            }
            Some(RunnerStatus::Aborted { reason, .. }) => {
                return s.set_aborted(None, &reason).map_err(e)
            }
            Some(RunnerStatus::Pending { .. }) | None => {}
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
