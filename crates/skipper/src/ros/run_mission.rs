//! The `run_mission` action server (`skipper_msgs/RunMission`) of an AUV flying a
//! mission: a goal loads and checks a mission script and flies it through the vehicle's
//! [`MissionHandle`].
//!
//! - a mission that does not load or check: ABORTED with the `file:line` messages,
//!   outcome `error`; if another goal's mission was flying, the vehicle is handed to the
//!   default mission (the run's own mission goes on);
//! - feedback: the active items (`STACK, NeedSatFix/SurfOps, ...`) whenever they change;
//! - the mission completes: SUCCEEDED, outcome `completed`; its top-level `WITHIN`
//!   expires: ABORTED, outcome `timed_out` (either way the vehicle is then in the default
//!   mission: to the surface, propeller off there);
//! - a newer goal: PREEMPTED, outcome `preempted`, and the new mission takes over;
//! - a cancel: PREEMPTED, outcome `canceled`, the vehicle is handed to the default
//!   mission;
//! - the end of the run: ABORTED, outcome `run_ended`.

use crate::controllers::mission_goal::{MissionGoalStatus, MissionHandle};
use skipper_actionlib::msg::skipper_msgs::{
    RunMission, RunMissionFeedback, RunMissionGoal, RunMissionResult,
};
use skipper_actionlib::{ActionServer, SimpleActionServer};
use skipper_mission::{load_file, Limits};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

const POLL: Duration = Duration::from_millis(10);

/// Serve `run_mission` goals on `server` (already bound to a transport) for the AUV of
/// `handle`, until `running` turns false. Mission paths are relative to the current
/// directory. The server is started.
pub fn serve(
    server: ActionServer<RunMission>,
    handle: MissionHandle,
    running: Arc<AtomicBool>,
) -> SimpleActionServer<RunMission> {
    let s = SimpleActionServer::with_execute_callback(
        server,
        move |s: &SimpleActionServer<RunMission>, g: RunMissionGoal| {
            execute(s, &g, &handle, &running).map_err(|e| e.to_string())
        },
    );
    s.start();
    s
}

fn outcome(o: &str) -> Option<RunMissionResult> {
    Some(RunMissionResult {
        outcome: o.to_string(),
    })
}

fn execute(
    s: &SimpleActionServer<RunMission>,
    g: &RunMissionGoal,
    h: &MissionHandle,
    running: &AtomicBool,
) -> Result<(), skipper_actionlib::ActionError> {
    let mission = match load_file(Path::new(&g.mission), Limits::default()) {
        Ok(m) => m,
        Err(e) => {
            h.stop_current();
            return s.set_aborted(outcome("error"), e.to_string().trim_end());
        }
    };
    let name = mission.name.clone();
    let id = h.run(Arc::new(mission));
    let mut last: Option<String> = None;
    loop {
        if !running.load(Ordering::SeqCst) {
            h.stop(id);
            return s.set_aborted(outcome("run_ended"), "the run ended");
        }
        if s.is_preempt_requested() {
            if s.is_new_goal_available() {
                return s.set_preempted(outcome("preempted"), "preempted by a newer goal");
            }
            h.stop(id);
            for _ in 0..100 {
                if matches!(h.status(id), Some(MissionGoalStatus::Stopped { .. })) {
                    break;
                }
                std::thread::sleep(POLL);
            }
            return s.set_preempted(
                outcome("canceled"),
                "canceled; the vehicle is in the default mission (to the surface)",
            );
        }
        match h.status(id) {
            Some(MissionGoalStatus::Active { items, .. })
                if last.as_deref() != Some(items.as_str()) =>
            {
                s.publish_feedback(RunMissionFeedback {
                    active_items: items.clone(),
                })?;
                last = Some(items);
            }
            Some(MissionGoalStatus::Ended { outcome: o, .. }) => {
                let text = format!("mission {name} {}", o.replace('_', " "));
                return if o == "completed" {
                    s.set_succeeded(outcome(o), &text)
                } else {
                    s.set_aborted(outcome(o), &text)
                };
            }
            Some(MissionGoalStatus::Stopped { .. }) => {
                return s.set_preempted(outcome("canceled"), "stopped");
            }
            Some(MissionGoalStatus::Active { .. }) | None => {}
        }
        std::thread::sleep(POLL);
    }
}
