//! Missions as goals: the [`MissionRunner`] flies the AUV's mission and lets other
//! threads (the `run_mission` action server) replace it with another loaded mission, or
//! stop it, through a [`MissionHandle`].
//!
//! A goal's mission starts at the next cycle from its first item, on the vehicle as it
//! is (the worksite of the run stays). It ends `completed` or `timed_out` as the
//! executive defines; the vehicle is then in the default mission (to the surface,
//! propeller off there) and the runner waits for the next goal: the run does not end
//! (that is what `--until` or Ctrl-C are for). A stop leaves the mission where it is and
//! hands the vehicle to the default mission.

use super::goal_slot::{keep_serving, GoalSlot, GoalStatus, SlotCommand};
use skipper_core::{Controller, ControllerError, Cycle, Signals, Status, VehicleInfo};
use skipper_mission::{ItemState, Mission, MissionController, MissionStatus};
use std::sync::Arc;

/// Where a mission goal stands.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum MissionGoalStatus {
    /// Running; the active items' paths, in priority order, comma separated.
    Active {
        /// goal id
        id: u64,
        /// the active items
        items: String,
    },
    /// The mission ended: `completed` or `timed_out`.
    Ended {
        /// goal id
        id: u64,
        /// how
        outcome: &'static str,
    },
    /// Stopped from outside; the vehicle is in the default mission.
    Stopped {
        /// goal id
        id: u64,
    },
}

impl MissionGoalStatus {
    /// The goal's id.
    pub fn id(&self) -> u64 {
        match *self {
            MissionGoalStatus::Active { id, .. }
            | MissionGoalStatus::Ended { id, .. }
            | MissionGoalStatus::Stopped { id } => id,
        }
    }
}

impl GoalStatus for MissionGoalStatus {
    fn id(&self) -> u64 {
        MissionGoalStatus::id(self)
    }
}

/// Sends mission goals to an AUV's [`MissionRunner`] from any thread.
#[derive(Clone, Default)]
pub struct MissionHandle(GoalSlot<Arc<Mission>, MissionGoalStatus>);

impl MissionHandle {
    /// Fly `mission` from the next cycle on, replacing the running one. Returns the
    /// goal's id.
    pub fn run(&self, mission: Arc<Mission>) -> u64 {
        self.0.send(mission)
    }

    /// Stop goal `id` if its mission runs or is about to: the vehicle goes to the
    /// default mission. Anything else is left alone.
    pub fn stop(&self, id: u64) {
        self.0.stop(id);
    }

    /// Stop whatever goal runs (the run's own mission is left alone).
    pub fn stop_current(&self) {
        self.0.stop_current();
    }

    /// The latest status of goal `id`: `None` while it waits for the cycle, or once a
    /// newer goal replaced it.
    pub fn status(&self, id: u64) -> Option<MissionGoalStatus> {
        self.0.status(id)
    }
}

/// An AUV's mission, replaceable by goals.
pub struct MissionRunner {
    inner: MissionController,
    handle: MissionHandle,
    active: Option<u64>,
    /// which items were active when last reported, and their text
    shown: Vec<bool>,
    items: String,
    ended: bool,
    /// statuses published so far (part of the state's version)
    published: u64,
}

impl MissionRunner {
    /// Wrap the run's mission; the handle sends goals.
    pub fn new(inner: MissionController) -> (Self, MissionHandle) {
        let handle = MissionHandle::default();
        (
            Self {
                inner,
                handle: handle.clone(),
                active: None,
                shown: Vec::new(),
                items: String::new(),
                ended: false,
                published: 0,
            },
            handle,
        )
    }

    fn publish(&mut self, st: MissionGoalStatus) {
        self.published += 1;
        self.handle.0.publish(st);
    }

    /// Rebuild the active items' text if they changed; `true` if they did.
    fn update_items(&mut self) -> bool {
        let exec = self.inner.executive();
        let states = exec.states();
        if states.len() == self.shown.len()
            && states
                .iter()
                .zip(&self.shown)
                .all(|(s, &b)| (*s == ItemState::Active) == b)
        {
            return false;
        }
        self.shown.clear();
        self.shown
            .extend(states.iter().map(|s| *s == ItemState::Active));
        self.items.clear();
        for (i, _) in self.shown.iter().enumerate().filter(|(_, &b)| b) {
            if !self.items.is_empty() {
                self.items.push_str(", ");
            }
            self.items.push_str(exec.path(i as u32));
        }
        true
    }
}

impl Controller for MissionRunner {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.inner.start(vehicle, s)
    }

    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        match self.handle.0.take() {
            Some(SlotCommand::Run {
                id,
                payload: mission,
            }) => {
                c.events.push(
                    c.now,
                    "controller",
                    serde_json::json!({"run_mission": mission.name, "goal": id}),
                );
                let mut m = match self.inner.origin() {
                    Some((lat, lon)) => MissionController::new(mission).with_origin(lat, lon),
                    None => MissionController::new(mission),
                };
                m.start(c.vehicle, c.signals)?;
                self.inner = m;
                self.active = Some(id);
                self.ended = false;
                self.shown.clear();
            }
            Some(SlotCommand::Stop { id }) => {
                self.active = None;
                self.inner.executive_mut().stop();
                self.publish(MissionGoalStatus::Stopped { id });
                c.events.push(
                    c.now,
                    "controller",
                    serde_json::json!({"run_mission": "stopped", "goal": id}),
                );
            }
            None => {}
        }
        let st = self.inner.step(c)?;
        if let Some(id) = self.active {
            let outcome = match self.inner.executive().status() {
                MissionStatus::Running => None,
                MissionStatus::Completed => Some("completed"),
                MissionStatus::TimedOut => Some("timed_out"),
                MissionStatus::Timeout => Some("timeout"),
            };
            if let Some(outcome) = outcome {
                self.active = None;
                self.publish(MissionGoalStatus::Ended { id, outcome });
            } else if self.update_items() {
                self.publish(MissionGoalStatus::Active {
                    id,
                    items: self.items.clone(),
                });
            }
        }
        Ok(keep_serving(st, &mut self.ended, self.inner.name(), c))
    }

    /// The mission's state, with the latest goal's status as `mission_goal` once a goal
    /// came.
    fn state(&self) -> Option<serde_json::Value> {
        self.handle
            .0
            .add_to_state(self.inner.state(), "mission_goal")
    }

    fn state_version(&self) -> Option<u64> {
        // the goal's status is part of the state: a new status is a new version
        self.inner
            .state_version()
            .map(|v| v.wrapping_add(self.published.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
    }

    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        self.inner.summary(out);
    }

    fn finish(&mut self) {
        self.inner.finish();
    }
}
