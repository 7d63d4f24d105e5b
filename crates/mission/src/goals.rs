//! Missions as goals: a mission's controller offers the `run_mission` goal kind, which
//! replaces the mission it flies with another mission script.
//!
//! A goal's mission is loaded and checked when it arrives (a mission that does not load
//! or check is refused at once with its `file:line` messages, outcome `error`); it starts
//! at the next cycle from its first item, on the vehicle as it is (the worksite of the
//! run stays). It ends `completed` (succeeded), or `timed_out` (its WITHIN) or `timeout`
//! (the default mission timeout) (aborted) as the executive defines; the vehicle is then in the default mission (to the surface, propeller off
//! there). A cancel leaves the mission where it is and hands the vehicle to the default
//! mission. Feedback: the active items' paths, in priority order, whenever they change.
//! Mission paths are relative to the current directory.

use crate::controller::MissionController;
use crate::executive::{ItemState, MissionStatus};
use crate::model::Mission;
use crate::{load_file, Limits};
use skipper_core::goals::{
    Ending, Field, FieldType, GoalCheck, GoalId, GoalKind, GoalReport, GoalStart, Goals, Payload,
    Record,
};
use skipper_core::Cycle;
use std::path::Path;
use std::sync::Arc;

/// `run_mission`: fly a mission script.
pub static RUN_MISSION: GoalKind = GoalKind {
    name: "run_mission",
    type_name: "skipper_msgs/RunMission",
    doc: "replace the AUV's mission with a Tethys mission script",
    goal: &[Field::new(
        "mission",
        FieldType::Text,
        "the mission script's path",
    )],
    result: &[Field::new(
        "outcome",
        FieldType::Text,
        "how it ended: completed, timed_out, timeout, error, preempted, canceled, run_ended",
    )],
    feedback: &[Field::new(
        "active_items",
        FieldType::Text,
        "the active items, in priority order, comma separated",
    )],
    ended: |kind, how| {
        let outcome = match how {
            Ending::Preempted => "preempted",
            Ending::Canceled => "canceled",
            Ending::Refused => "error",
            Ending::RunEnded => "run_ended",
        };
        Some(Record::defaults(kind.result).with("outcome", outcome))
    },
};

/// Where a mission goal stands, as views show it (the mission's state's `mission_goal`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum MissionGoalStatus {
    /// Running; the active items' paths, in priority order, comma separated.
    Active {
        /// goal id
        id: GoalId,
        /// the active items
        items: String,
    },
    /// The mission ended: `completed` or `timed_out`.
    Ended {
        /// goal id
        id: GoalId,
        /// how
        outcome: &'static str,
    },
    /// Stopped from outside; the vehicle is in the default mission.
    Stopped {
        /// goal id
        id: GoalId,
    },
}

/// The goal side of a mission's controller.
#[derive(Debug, Default)]
pub(crate) struct MissionGoals {
    active: Option<GoalId>,
    /// which items were active when last reported, and their text
    shown: Vec<bool>,
    items: String,
    latest: Option<MissionGoalStatus>,
    /// statuses so far (part of the state's version)
    published: u64,
}

impl MissionGoals {
    /// The latest goal's status, once a goal came.
    pub(crate) fn latest(&self) -> Option<&MissionGoalStatus> {
        self.latest.as_ref()
    }
    /// A number that changes with every status.
    pub(crate) fn published(&self) -> u64 {
        self.published
    }
    fn publish(&mut self, st: MissionGoalStatus) {
        self.published += 1;
        self.latest = Some(st);
    }
}

/// Loads and checks goal missions on the sending thread.
struct Check;

impl GoalCheck for Check {
    fn check(&self, _: &'static GoalKind, goal: &Record) -> Result<Payload, String> {
        let m = load_file(Path::new(goal.text("mission")), Limits::default())
            .map_err(|e| e.to_string().trim_end().to_string())?;
        Ok(Box::new(Arc::new(m)))
    }
}

impl MissionController {
    /// Rebuild the active items' text if they changed; `true` if they did.
    fn update_items(&mut self) -> bool {
        let states = self.exec.states();
        let g = &mut self.goals;
        if states.len() == g.shown.len()
            && states
                .iter()
                .zip(&g.shown)
                .all(|(s, &b)| (*s == ItemState::Active) == b)
        {
            return false;
        }
        g.shown.clear();
        g.shown
            .extend(states.iter().map(|s| *s == ItemState::Active));
        g.items.clear();
        for (i, _) in g.shown.iter().enumerate().filter(|(_, &b)| b) {
            if !g.items.is_empty() {
                g.items.push_str(", ");
            }
            g.items.push_str(self.exec.path(i as u32));
        }
        true
    }
}

impl Goals for MissionController {
    fn kinds(&self) -> Vec<&'static GoalKind> {
        vec![&RUN_MISSION]
    }

    fn checker(&self) -> Arc<dyn GoalCheck> {
        Arc::new(Check)
    }

    fn begin(&mut self, start: GoalStart, c: &mut Cycle<'_>) -> Result<(), String> {
        let mission = start
            .payload
            .downcast::<Arc<Mission>>()
            .map_err(|_| "run_mission: the goal was not checked".to_string())?;
        c.events.push(
            c.now,
            "controller",
            serde_json::json!({"run_mission": mission.name, "goal": start.id}),
        );
        self.replace(*mission, c.signals);
        self.goals.active = Some(start.id);
        self.goals.shown.clear();
        Ok(())
    }

    fn cancel(&mut self, _: &'static GoalKind, id: GoalId, c: &mut Cycle<'_>) -> String {
        self.goals.active = None;
        self.exec.stop();
        self.goals.publish(MissionGoalStatus::Stopped { id });
        c.events.push(
            c.now,
            "controller",
            serde_json::json!({"run_mission": "stopped", "goal": id}),
        );
        "canceled; the vehicle is in the default mission (to the surface)".into()
    }

    fn report(&mut self, _: &'static GoalKind, id: GoalId, out: &mut GoalReport) {
        if self.goals.active != Some(id) {
            return;
        }
        let outcome = match self.exec.status() {
            MissionStatus::Running => None,
            MissionStatus::Completed => Some("completed"),
            MissionStatus::TimedOut => Some("timed_out"),
            MissionStatus::Timeout => Some("timeout"),
        };
        if let Some(outcome) = outcome {
            self.goals.active = None;
            self.goals.publish(MissionGoalStatus::Ended { id, outcome });
            let result = Record::defaults(RUN_MISSION.result).with("outcome", outcome);
            let text = format!(
                "mission {} {}",
                self.exec.mission().name,
                outcome.replace('_', " ")
            );
            if outcome == "completed" {
                out.succeed(result, text);
            } else {
                out.abort(Some(result), text);
            }
        } else if self.update_items() {
            let items = self.goals.items.clone();
            self.goals.publish(MissionGoalStatus::Active {
                id,
                items: items.clone(),
            });
            out.feedback(Record::defaults(RUN_MISSION.feedback).with("active_items", items));
        }
    }
}
