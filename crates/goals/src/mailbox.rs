//! The goal mailbox: one robot's [`GoalDesk`] behind a lock, shared by the transports'
//! threads (through [`GoalPort`]) and the robot's cycle (through [`Mailbox::desk`]).
//!
//! Goals are checked on the sending thread before they reach the desk (the
//! controller's [`GoalCheck`]: a mission is loaded there, not on the cycle), and every
//! change wakes whoever waits for one ([`GoalPort::wait`]), so transports need not poll.

use skipper_core::goals::{
    GoalCheck, GoalDesk, GoalId, GoalKind, GoalPort, GoalUpdate, Payload, Record, SendError,
};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One robot's goals.
pub struct Mailbox {
    robot: String,
    desk: Mutex<GoalDesk>,
    changed: Condvar,
    checker: Arc<dyn GoalCheck>,
}

impl std::fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailbox")
            .field("robot", &self.robot)
            .finish_non_exhaustive()
    }
}

impl Mailbox {
    /// The mailbox of `robot`, whose controller offers `kinds` and checks goals with
    /// `checker`.
    pub fn new(
        robot: &str,
        kinds: Vec<&'static GoalKind>,
        checker: Arc<dyn GoalCheck>,
    ) -> Arc<Self> {
        Arc::new(Self {
            robot: robot.to_string(),
            desk: Mutex::new(GoalDesk::new(kinds)),
            changed: Condvar::new(),
            checker,
        })
    }

    fn lock(&self) -> MutexGuard<'_, GoalDesk> {
        match self.desk.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }

    /// Work on the desk (the cycle's side); whoever waits is woken if anything changed.
    pub fn desk<R>(&self, f: impl FnOnce(&mut GoalDesk) -> R) -> R {
        let mut d = self.lock();
        let before = d.version();
        let r = f(&mut d);
        let changed = d.version() != before;
        drop(d);
        if changed {
            self.changed.notify_all();
        }
        r
    }

    /// The run ended: every open goal is aborted and no goal is taken any more.
    pub fn close(&self) {
        self.desk(GoalDesk::close);
    }
}

impl GoalPort for Mailbox {
    fn robot(&self) -> &str {
        &self.robot
    }

    fn kinds(&self) -> Vec<&'static GoalKind> {
        self.lock().kinds().to_vec()
    }

    fn send(&self, kind: &str, goal: Record) -> Result<GoalId, SendError> {
        // checked off the lock (a check may load a file); an unknown kind is the desk's to
        // refuse
        let found = self.lock().kind(kind);
        let checked = match found {
            Some(k) => self.checker.check(k, &goal),
            None => Ok(Box::new(()) as Payload),
        };
        self.desk(|d| d.submit(kind, goal, checked))
    }

    fn cancel(&self, id: GoalId) {
        self.desk(|d| d.cancel(id));
    }

    fn cancel_current(&self, kind: &str) {
        self.desk(|d| d.cancel_current(kind));
    }

    fn update(&self, id: GoalId) -> Option<GoalUpdate> {
        self.lock().update(id).cloned()
    }

    fn latest(&self, kind: &str) -> Option<GoalUpdate> {
        self.lock().latest(kind).cloned()
    }

    fn wait(&self, id: GoalId, seq: u64, timeout: Duration) -> Option<GoalUpdate> {
        let deadline = Instant::now() + timeout;
        let mut d = self.lock();
        loop {
            let now = d.update(id).cloned();
            let fresh = now
                .as_ref()
                .is_none_or(|u| u.seq > seq || u.state.is_terminal());
            let left = deadline.saturating_duration_since(Instant::now());
            if fresh || left.is_zero() {
                return now;
            }
            d = match self.changed.wait_timeout(d, left) {
                Ok((g, _)) => g,
                Err(p) => p.into_inner().0,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::goals::{AcceptAll, Command, GoalState};

    #[test]
    fn a_waiting_transport_wakes_when_the_cycle_takes_its_goal_up() {
        let m = Mailbox::new("r", vec![&crate::GOTO], Arc::new(AcceptAll));
        let goal = Record::defaults(crate::GOTO.goal).with("x", 1.0);
        let id = m.send("goto", goal).unwrap();
        let seq = m.update(id).unwrap().seq;
        let m2 = m.clone();
        let cycle = std::thread::spawn(move || {
            m2.desk(|d| {
                if let Some(Command::Begin(s)) = d.next_command() {
                    d.begun(s.id, Ok(()));
                }
            })
        });
        let u = m.wait(id, seq, Duration::from_secs(10)).unwrap();
        cycle.join().unwrap();
        assert_eq!(u.state, GoalState::Active);
        assert!(matches!(
            m.send("fly", Record::defaults(&[])),
            Err(SendError::UnknownKind { .. })
        ));
        m.close();
        assert_eq!(m.update(id).unwrap().state, GoalState::Aborted);
    }
}
