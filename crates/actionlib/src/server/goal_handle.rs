//! The server-side goal state machine (rules G-1..G-9 of the reference) and the
//! [`ServerGoalHandle`] a user holds for each goal.

use super::action_server::ServerShared;
use crate::error::ActionError;
use skipper_ros1_wire::msg::actionlib_msgs::{Action, GoalId, StatusCode};
use skipper_ros1_wire::time::Time;
use std::sync::Arc;

/// What is asked of a goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalEvent {
    /// G-2: the server accepts the goal.
    Accept,
    /// G-3: the server cancels it (SimpleActionServer `setPreempted`).
    Cancel,
    /// G-4: the server rejects it.
    Reject,
    /// G-5: it succeeded.
    Succeed,
    /// G-5: the server gave up.
    Abort,
    /// G-7: a client asked to cancel it.
    CancelRequest,
}

impl GoalEvent {
    /// A verb for messages.
    pub fn verb(self) -> &'static str {
        match self {
            GoalEvent::Accept => "accept",
            GoalEvent::Cancel => "cancel",
            GoalEvent::Reject => "reject",
            GoalEvent::Succeed => "succeed",
            GoalEvent::Abort => "abort",
            GoalEvent::CancelRequest => "request cancelling",
        }
    }
}

/// The state a goal moves to, or `None` when the event is not allowed in `from` (G-9).
pub fn transition(from: StatusCode, ev: GoalEvent) -> Option<StatusCode> {
    use GoalEvent as E;
    use StatusCode as S;
    match (ev, from) {
        (E::Accept, S::Pending) => Some(S::Active),
        (E::Accept, S::Recalling) => Some(S::Preempting),
        (E::Cancel, S::Pending | S::Recalling) => Some(S::Recalled),
        (E::Cancel, S::Active | S::Preempting) => Some(S::Preempted),
        (E::Reject, S::Pending | S::Recalling) => Some(S::Rejected),
        (E::Succeed, S::Active | S::Preempting) => Some(S::Succeeded),
        (E::Abort, S::Active | S::Preempting) => Some(S::Aborted),
        (E::CancelRequest, S::Pending) => Some(S::Recalling),
        (E::CancelRequest, S::Active) => Some(S::Preempting),
        _ => None,
    }
}

/// A goal as the server's user sees it: its payload, and the calls that move it.
pub struct ServerGoalHandle<A: Action> {
    pub(crate) server: Arc<ServerShared<A>>,
    pub(crate) id: Arc<str>,
    pub(crate) stamp: Time,
    pub(crate) goal: Arc<A::Goal>,
}

impl<A: Action> Clone for ServerGoalHandle<A> {
    fn clone(&self) -> Self {
        Self {
            server: self.server.clone(),
            id: self.id.clone(),
            stamp: self.stamp,
            goal: self.goal.clone(),
        }
    }
}

impl<A: Action> PartialEq for ServerGoalHandle<A> {
    fn eq(&self, o: &Self) -> bool {
        self.id == o.id && Arc::ptr_eq(&self.server, &o.server)
    }
}

impl<A: Action> std::fmt::Debug for ServerGoalHandle<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerGoalHandle")
            .field("id", &self.id)
            .field("stamp", &self.stamp)
            .finish()
    }
}

impl<A: Action> ServerGoalHandle<A> {
    /// The goal.
    pub fn goal(&self) -> &A::Goal {
        &self.goal
    }
    /// The goal's id and stamp.
    pub fn goal_id(&self) -> GoalId {
        GoalId {
            stamp: self.stamp,
            id: self.id.to_string(),
        }
    }
    /// The goal's id.
    pub fn id(&self) -> &str {
        &self.id
    }
    /// The goal's stamp.
    pub fn stamp(&self) -> Time {
        self.stamp
    }
    /// The goal's status now (`None` once it is no longer tracked).
    pub fn status(&self) -> Option<StatusCode> {
        self.server.code_of(&self.id)
    }
    /// The goal's status text now.
    pub fn status_text(&self) -> Option<String> {
        self.server.status_of(&self.id).map(|(_, t)| t)
    }
    /// G-2: accept (PENDING -> ACTIVE, RECALLING -> PREEMPTING).
    pub fn set_accepted(&self, text: &str) -> Result<(), ActionError> {
        self.server.apply(&self.id, GoalEvent::Accept, None, text)
    }
    /// G-3: cancel (-> RECALLED or PREEMPTED); publishes the result.
    pub fn set_canceled(&self, result: Option<A::Result>, text: &str) -> Result<(), ActionError> {
        self.server
            .apply(&self.id, GoalEvent::Cancel, Some(result), text)
    }
    /// G-4: reject (-> REJECTED); publishes the result.
    pub fn set_rejected(&self, result: Option<A::Result>, text: &str) -> Result<(), ActionError> {
        self.server
            .apply(&self.id, GoalEvent::Reject, Some(result), text)
    }
    /// G-5: succeeded; publishes the result.
    pub fn set_succeeded(&self, result: Option<A::Result>, text: &str) -> Result<(), ActionError> {
        self.server
            .apply(&self.id, GoalEvent::Succeed, Some(result), text)
    }
    /// G-5: aborted; publishes the result.
    pub fn set_aborted(&self, result: Option<A::Result>, text: &str) -> Result<(), ActionError> {
        self.server
            .apply(&self.id, GoalEvent::Abort, Some(result), text)
    }
    /// G-8: publish feedback (in any state) with the goal's current status.
    pub fn publish_feedback(&self, feedback: A::Feedback) -> Result<(), ActionError> {
        self.server.feedback(&self.id, feedback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GoalEvent as E;
    use StatusCode as S;

    /// Every (state, event) pair against rules G-2..G-5 and G-7.
    #[test]
    fn transition_table_matches_rules_g2_to_g7() {
        let allowed = [
            (S::Pending, E::Accept, S::Active),
            (S::Recalling, E::Accept, S::Preempting),
            (S::Pending, E::Cancel, S::Recalled),
            (S::Recalling, E::Cancel, S::Recalled),
            (S::Active, E::Cancel, S::Preempted),
            (S::Preempting, E::Cancel, S::Preempted),
            (S::Pending, E::Reject, S::Rejected),
            (S::Recalling, E::Reject, S::Rejected),
            (S::Active, E::Succeed, S::Succeeded),
            (S::Preempting, E::Succeed, S::Succeeded),
            (S::Active, E::Abort, S::Aborted),
            (S::Preempting, E::Abort, S::Aborted),
            (S::Pending, E::CancelRequest, S::Recalling),
            (S::Active, E::CancelRequest, S::Preempting),
        ];
        let events = [
            E::Accept,
            E::Cancel,
            E::Reject,
            E::Succeed,
            E::Abort,
            E::CancelRequest,
        ];
        let mut n = 0;
        for from in StatusCode::ALL {
            for ev in events {
                let want = allowed
                    .iter()
                    .find(|(f, e, _)| *f == from && *e == ev)
                    .map(|t| t.2);
                assert_eq!(transition(from, ev), want, "{from} + {ev:?}");
                if want.is_some() {
                    n += 1;
                }
            }
        }
        assert_eq!(n, allowed.len());
        // terminal states never move
        for from in StatusCode::ALL.into_iter().filter(|s| s.is_terminal()) {
            assert!(events.iter().all(|&e| transition(from, e).is_none()));
        }
    }
}
