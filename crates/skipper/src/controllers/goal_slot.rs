//! The mailbox between an action server's threads and a controller that runs goals one at
//! a time (the `run_option` and `run_mission` runners): the server sends a goal or stops
//! one, the cycle takes the command up and publishes the goal's status back.
//!
//! One command waits at a time: a newer goal replaces a queued one, and stopping a goal
//! that a newer one is about to replace leaves the newer one be. Stopping a goal that is
//! neither queued nor running does nothing.

use skipper_core::{Cycle, Status};
use std::sync::{Arc, Mutex, MutexGuard};

/// What the cycle is asked to do.
#[derive(Debug)]
pub enum SlotCommand<P> {
    /// Run goal `id` with its payload (an option call, a mission), replacing the running
    /// one.
    Run {
        /// goal id
        id: u64,
        /// what to run
        payload: P,
    },
    /// Stop goal `id`.
    Stop {
        /// goal id
        id: u64,
    },
}

/// A goal status that knows its goal.
pub trait GoalStatus: Clone {
    /// The goal's id.
    fn id(&self) -> u64;
}

struct Shared<P, S> {
    next_id: u64,
    command: Option<SlotCommand<P>>,
    /// the goal the cycle runs (taken up, not stopped)
    current: Option<u64>,
    latest: Option<S>,
}

/// The shared mailbox; clones share it.
pub struct GoalSlot<P, S>(Arc<Mutex<Shared<P, S>>>);

impl<P, S> Clone for GoalSlot<P, S> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<P, S> Default for GoalSlot<P, S> {
    fn default() -> Self {
        Self(Arc::new(Mutex::new(Shared {
            next_id: 0,
            command: None,
            current: None,
            latest: None,
        })))
    }
}

impl<P, S: GoalStatus> GoalSlot<P, S> {
    fn lock(&self) -> MutexGuard<'_, Shared<P, S>> {
        match self.0.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }

    /// Queue a goal, replacing any queued one; returns its id.
    pub fn send(&self, payload: P) -> u64 {
        let mut s = self.lock();
        s.next_id += 1;
        let id = s.next_id;
        s.command = Some(SlotCommand::Run { id, payload });
        id
    }

    /// Stop goal `id` if it runs or is queued; anything else is left alone.
    pub fn stop(&self, id: u64) {
        let mut s = self.lock();
        match s.command {
            // a newer goal is about to replace this one: leave it be
            Some(SlotCommand::Run { id: q, .. }) if q != id => {}
            Some(SlotCommand::Run { .. }) => s.command = Some(SlotCommand::Stop { id }),
            _ if s.current == Some(id) => s.command = Some(SlotCommand::Stop { id }),
            _ => {}
        }
    }

    /// Stop whatever goal is queued or runs.
    pub fn stop_current(&self) {
        let mut s = self.lock();
        let id = match &s.command {
            Some(SlotCommand::Run { id, .. }) => Some(*id),
            _ => s.current,
        };
        if let Some(id) = id {
            s.command = Some(SlotCommand::Stop { id });
        }
    }

    /// The latest status of goal `id`: `None` while it waits for the cycle, or once a
    /// newer goal replaced it.
    pub fn status(&self, id: u64) -> Option<S> {
        self.lock().latest.clone().filter(|s| s.id() == id)
    }

    /// The latest status of any goal.
    pub fn latest(&self) -> Option<S> {
        self.lock().latest.clone()
    }

    /// Whether a newer goal than `id` was sent.
    pub fn replaced(&self, id: u64) -> bool {
        self.lock().next_id > id
    }

    /// The cycle's side: take the waiting command, if any, and note which goal runs.
    pub fn take(&self) -> Option<SlotCommand<P>> {
        let mut s = self.lock();
        let cmd = s.command.take();
        match &cmd {
            Some(SlotCommand::Run { id, .. }) => s.current = Some(*id),
            Some(SlotCommand::Stop { id }) if s.current == Some(*id) => s.current = None,
            _ => {}
        }
        cmd
    }

    /// The cycle's side: a goal's new status.
    pub fn publish(&self, status: S) {
        self.lock().latest = Some(status);
    }

    /// A controller's `state` with the latest goal's status under `key`, once a goal came.
    pub fn add_to_state(
        &self,
        state: Option<serde_json::Value>,
        key: &str,
    ) -> Option<serde_json::Value>
    where
        S: serde::Serialize,
    {
        let mut state = state?;
        if let (Some(g), Some(o)) = (self.latest(), state.as_object_mut()) {
            o.insert(key.into(), serde_json::to_value(g).unwrap_or_default());
        }
        Some(state)
    }

    /// The waiting command's kind and goal, for tests: `(true, id)` for a run.
    #[cfg(test)]
    pub fn waiting(&self) -> Option<(bool, u64)> {
        self.lock().command.as_ref().map(|c| match c {
            SlotCommand::Run { id, .. } => (true, *id),
            SlotCommand::Stop { id } => (false, *id),
        })
    }
}

/// A goal runner's status from its inner controller's: the inner one finishing (an
/// agent's own root option in a target state, a mission at its end) is noted once, as a
/// `controller` event, and the run goes on serving goals (also after a mission's default
/// timeout: goals may still come).
pub fn keep_serving(st: Status, noted: &mut bool, name: &str, c: &mut Cycle<'_>) -> Status {
    match st {
        Status::Finished | Status::TimedOut(_) => {
            if !*noted {
                *noted = true;
                c.events.push(
                    c.now,
                    "controller",
                    serde_json::json!({"controller": name, "status": "finished"}),
                );
            }
            Status::Running
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct St(u64);
    impl GoalStatus for St {
        fn id(&self) -> u64 {
            self.0
        }
    }

    #[test]
    fn stopping_an_older_goal_leaves_a_newer_one_queued() {
        let slot: GoalSlot<&str, St> = GoalSlot::default();
        let a = slot.send("a");
        let b = slot.send("b");
        slot.stop(a);
        assert_eq!(slot.waiting(), Some((true, b)));
        slot.stop(b);
        assert_eq!(slot.waiting(), Some((false, b)));
        // a goal neither queued nor running is left alone
        assert!(matches!(slot.take(), Some(SlotCommand::Stop { id }) if id == b));
        slot.stop(a);
        assert_eq!(slot.waiting(), None);
    }

    #[test]
    fn the_latest_status_joins_the_state_once_a_goal_came() {
        #[derive(Clone, Debug, serde::Serialize)]
        struct Goal {
            id: u64,
        }
        impl GoalStatus for Goal {
            fn id(&self) -> u64 {
                self.id
            }
        }
        let slot: GoalSlot<(), Goal> = GoalSlot::default();
        let state = serde_json::json!({"agent": "a"});
        assert_eq!(
            slot.add_to_state(Some(state.clone()), "g"),
            Some(state.clone())
        );
        assert_eq!(slot.add_to_state(None, "g"), None);
        slot.publish(Goal { id: 7 });
        assert_eq!(
            slot.add_to_state(Some(state), "g"),
            Some(serde_json::json!({"agent": "a", "g": {"id": 7}}))
        );
    }

    #[test]
    fn the_cycle_takes_goals_up_and_stops_the_running_one() {
        let slot: GoalSlot<&str, St> = GoalSlot::default();
        let a = slot.send("a");
        assert!(matches!(slot.take(), Some(SlotCommand::Run { id, payload: "a" }) if id == a));
        assert_eq!(slot.take().map(|_| ()), None);
        slot.publish(St(a));
        assert_eq!(slot.status(a), Some(St(a)));
        // the running goal can be stopped, by id or as the current one
        slot.stop(a);
        assert_eq!(slot.waiting(), Some((false, a)));
        assert!(slot.take().is_some());
        slot.stop(a);
        assert_eq!(slot.waiting(), None, "no longer running");
        let b = slot.send("b");
        assert!(slot.replaced(a) && !slot.replaced(b));
        assert_eq!(slot.status(b), None, "not taken up yet");
        slot.stop_current();
        assert_eq!(slot.waiting(), Some((false, b)));
    }
}
