//! What the goal runner's tests share: a robot's goto goals seen as the statuses of a
//! goto goal (pending, active with the distance left, succeeded where it stopped, ...),
//! from its mailbox.

#![allow(dead_code)]

use skipper_core::goals::{GoalPort, GoalState, GoalUpdate, Record};
use skipper_goals::{Mailbox, GOTO};
use std::sync::Arc;

/// Where a goto goal stands.
#[derive(Debug, Clone, PartialEq)]
pub enum GoalStatus {
    Pending { id: u64 },
    Active { id: u64, distance: f64 },
    Succeeded { id: u64, x: f64, y: f64, yaw: f64 },
    Canceled { id: u64 },
    Preempted { id: u64 },
    Aborted { id: u64, reason: String },
}

impl GoalStatus {
    fn of(u: &GoalUpdate) -> Self {
        let id = u.id;
        let f = |r: &Option<Record>, k: &str| r.as_ref().map_or(f64::NAN, |r| r.float(k));
        match u.state {
            GoalState::Pending => GoalStatus::Pending { id },
            GoalState::Active => match &u.feedback {
                Some(fb) => GoalStatus::Active {
                    id,
                    distance: fb.float("distance"),
                },
                None => GoalStatus::Pending { id },
            },
            GoalState::Succeeded => GoalStatus::Succeeded {
                id,
                x: f(&u.result, "x"),
                y: f(&u.result, "y"),
                yaw: f(&u.result, "yaw"),
            },
            GoalState::Canceled => GoalStatus::Canceled { id },
            GoalState::Preempted => GoalStatus::Preempted { id },
            GoalState::Aborted => GoalStatus::Aborted {
                id,
                reason: u.text.clone(),
            },
        }
    }
}

/// Sends goto goals to a robot and reads their statuses.
#[derive(Clone)]
pub struct GoalHandle(pub Arc<Mailbox>);

impl GoalHandle {
    /// Where its goals go.
    pub fn port(&self) -> Arc<dyn GoalPort> {
        self.0.clone()
    }
    /// Drive to (x, y) within `tolerance`; the goal's id.
    pub fn goto(&self, x: f64, y: f64, tolerance: f64) -> u64 {
        let g = Record::defaults(GOTO.goal)
            .with("x", x)
            .with("y", y)
            .with("tolerance", tolerance);
        self.0.send("goto", g).unwrap()
    }
    /// Cancel the active or queued goal.
    pub fn cancel(&self) {
        self.0.cancel_current("goto");
    }
    /// The newest goal's status.
    pub fn status(&self) -> Option<GoalStatus> {
        self.0.latest("goto").as_ref().map(GoalStatus::of)
    }
    /// Every goal's statuses: pending, then where it ended (if it did), oldest goal first.
    pub fn statuses_since(&self, _from: usize) -> (Vec<GoalStatus>, usize) {
        let all: Vec<GoalUpdate> = self.0.desk(|d| d.updates().cloned().collect());
        let mut v = Vec::new();
        for u in &all {
            v.push(GoalStatus::Pending { id: u.id });
            if u.state.is_terminal() {
                v.push(GoalStatus::of(u));
            }
        }
        let n = v.len();
        (v, n)
    }
}
