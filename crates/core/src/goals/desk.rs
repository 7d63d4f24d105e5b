//! The single-goal policy of the SimpleActionServer spec, in one place for every engine
//! and transport: per goal kind, one goal is active at a time; a newer goal preempts the
//! one before it (the older one is reported preempted, and the controller switches to
//! the newer one without stopping); a cancel stops the goal it names; a goal that cannot
//! run is aborted at once and stops what ran before it.
//!
//! [`GoalDesk`] holds no thread or lock: the goal mailbox (skipper-goals) keeps one behind
//! a mutex, transports call the `submit`/`cancel` side, the robot's cycle the
//! `next_command`/`begun`/`reported` side.

use super::kind::{Ending, GoalKind};
use super::record::Record;
use super::server::{GoalReport, GoalStart, Outcome, Payload};
use super::status::{GoalId, GoalState, GoalUpdate};
use std::collections::VecDeque;

/// How many goals' latest updates are kept (the newest).
pub const KEPT_GOALS: usize = 64;

/// Why a goal was not taken at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// a kind the controller does not offer
    #[error("this robot takes no `{kind}` goals (it takes: {offered})")]
    UnknownKind {
        /// the kind asked for
        kind: String,
        /// the kinds offered, comma separated
        offered: String,
    },
    /// the run is over
    #[error("the run has ended")]
    Closed,
}

/// What the cycle must do before the controller's step.
#[derive(Debug)]
pub enum Command {
    /// begin a goal (any older goal of its kind is already reported preempted)
    Begin(GoalStart),
    /// cancel a running goal
    Cancel {
        /// its kind
        kind: &'static GoalKind,
        /// its id
        id: GoalId,
    },
}

struct Queued {
    id: GoalId,
    goal: Record,
    payload: Payload,
}

#[derive(Default)]
struct Slot {
    queued: Option<Queued>,
    active: Option<GoalId>,
    cancel: Option<GoalId>,
}

/// The goals of one robot.
pub struct GoalDesk {
    kinds: Vec<&'static GoalKind>,
    slots: Vec<Slot>,
    goals: VecDeque<GoalUpdate>,
    next_id: GoalId,
    seq: u64,
    closed: bool,
}

impl GoalDesk {
    /// A desk for a controller offering `kinds`.
    pub fn new(kinds: Vec<&'static GoalKind>) -> Self {
        let slots = kinds.iter().map(|_| Slot::default()).collect();
        Self {
            kinds,
            slots,
            goals: VecDeque::new(),
            next_id: 0,
            seq: 0,
            closed: false,
        }
    }

    /// The kinds offered.
    pub fn kinds(&self) -> &[&'static GoalKind] {
        &self.kinds
    }

    /// The kind named `name`.
    pub fn kind(&self, name: &str) -> Option<&'static GoalKind> {
        self.kinds.iter().copied().find(|k| k.name == name)
    }

    fn slot_of(&self, kind: &GoalKind) -> Option<usize> {
        self.kinds.iter().position(|k| *k == kind)
    }

    fn update_mut(&mut self, id: GoalId) -> Option<&mut GoalUpdate> {
        self.goals.iter_mut().rev().find(|g| g.id == id)
    }

    /// The latest of goal `id`, while it is among the [`KEPT_GOALS`] newest.
    pub fn update(&self, id: GoalId) -> Option<&GoalUpdate> {
        self.goals.iter().rev().find(|g| g.id == id)
    }

    /// Every kept goal's latest, oldest first.
    pub fn updates(&self) -> impl Iterator<Item = &GoalUpdate> {
        self.goals.iter()
    }

    /// The newest goal of kind `name`.
    pub fn latest(&self, name: &str) -> Option<&GoalUpdate> {
        self.goals.iter().rev().find(|g| g.kind.name == name)
    }

    /// A number that grows with every change of any goal.
    pub fn version(&self) -> u64 {
        self.seq
    }

    /// Has the run ended?
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    fn bump(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    fn record(&mut self, id: GoalId, kind: &'static GoalKind, state: GoalState) {
        if self.goals.len() >= KEPT_GOALS {
            self.goals.pop_front();
        }
        let seq = self.bump();
        self.goals.push_back(GoalUpdate {
            id,
            kind,
            state,
            feedback: None,
            result: None,
            text: String::new(),
            seq,
        });
    }

    /// End goal `id` (if it is not over yet).
    fn end(&mut self, id: GoalId, state: GoalState, result: Record, text: &str) {
        let seq = self.bump();
        if let Some(g) = self.update_mut(id) {
            if g.state.is_terminal() {
                return;
            }
            g.state = state;
            g.result = Some(result);
            g.text = text.to_string();
            g.seq = seq;
        }
    }

    fn end_as(&mut self, id: GoalId, kind: &'static GoalKind, how: Ending, text: &str) {
        let state = match how {
            Ending::Preempted => GoalState::Preempted,
            Ending::Canceled => GoalState::Canceled,
            Ending::Refused | Ending::RunEnded => GoalState::Aborted,
        };
        self.end(id, state, kind.ending_result(how), text);
    }

    /// A goal of kind `name` arrives, with what its check made of it (`Err`: it cannot
    /// run). Returns its id; a refused goal is already aborted, with the check's text.
    pub fn submit(
        &mut self,
        name: &str,
        goal: Record,
        checked: Result<Payload, String>,
    ) -> Result<GoalId, SendError> {
        if self.closed {
            return Err(SendError::Closed);
        }
        let kind = self.kind(name).ok_or_else(|| SendError::UnknownKind {
            kind: name.to_string(),
            offered: self
                .kinds
                .iter()
                .map(|k| k.name)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        let Some(slot) = self.slot_of(kind) else {
            return Err(SendError::Closed);
        };
        self.next_id += 1;
        let id = self.next_id;
        self.record(id, kind, GoalState::Pending);
        if let Some(old) = self.slots[slot].queued.take() {
            self.end_as(old.id, kind, Ending::Preempted, "preempted by a newer goal");
        }
        match checked {
            Ok(payload) => {
                self.slots[slot].queued = Some(Queued { id, goal, payload });
                self.slots[slot].cancel = None;
            }
            Err(why) => {
                // a goal that cannot run still replaces the one before it: that one stops
                self.slots[slot].cancel = self.slots[slot].active;
                self.end_as(id, kind, Ending::Refused, &why);
            }
        }
        Ok(id)
    }

    /// Cancel goal `id`: a queued one at once (and the running goal it was to replace at
    /// the next cycle), a running one at the next cycle.
    pub fn cancel(&mut self, id: GoalId) {
        let Some(kind) = self.update(id).map(|g| g.kind) else {
            return;
        };
        let Some(slot) = self.slot_of(kind) else {
            return;
        };
        if self.slots[slot].queued.as_ref().is_some_and(|q| q.id == id) {
            self.slots[slot].queued = None;
            // a goal canceled before it began still replaced the one before it, as a
            // refused one does: that one stops (a transport may have ended it already)
            self.slots[slot].cancel = self.slots[slot].active;
            self.end_as(id, kind, Ending::Canceled, "canceled");
        } else if self.slots[slot].active == Some(id) {
            self.slots[slot].cancel = Some(id);
        }
    }

    /// Cancel whatever goal of kind `name` is queued or runs.
    pub fn cancel_current(&mut self, name: &str) {
        let Some(slot) = self.kind(name).and_then(|k| self.slot_of(k)) else {
            return;
        };
        let s = &self.slots[slot];
        if let Some(id) = s.queued.as_ref().map(|q| q.id).or(s.active) {
            self.cancel(id);
        }
    }

    /// The cycle's side: the next thing to do before the step (cancels first, then new
    /// goals), or `None`. A goal that begins preempts the active goal of its kind.
    pub fn next_command(&mut self) -> Option<Command> {
        for i in 0..self.slots.len() {
            let kind = self.kinds[i];
            if let Some(id) = self.slots[i].cancel.take() {
                if self.slots[i].active == Some(id) {
                    self.slots[i].active = None;
                    return Some(Command::Cancel { kind, id });
                }
            }
            if let Some(q) = self.slots[i].queued.take() {
                if let Some(old) = self.slots[i].active.replace(q.id) {
                    self.end_as(old, kind, Ending::Preempted, "preempted by a newer goal");
                }
                return Some(Command::Begin(GoalStart {
                    id: q.id,
                    kind,
                    goal: q.goal,
                    payload: q.payload,
                }));
            }
        }
        None
    }

    /// The cycle's side: goal `id` began (`Ok`) or could not (`Err`, aborted).
    pub fn begun(&mut self, id: GoalId, result: Result<(), String>) {
        let Some(kind) = self.update(id).map(|g| g.kind) else {
            return;
        };
        match result {
            Ok(()) => {
                let seq = self.bump();
                if let Some(g) = self.update_mut(id) {
                    g.state = GoalState::Active;
                    g.seq = seq;
                }
            }
            Err(why) => {
                if let Some(slot) = self.slot_of(kind) {
                    if self.slots[slot].active == Some(id) {
                        self.slots[slot].active = None;
                    }
                }
                self.end_as(id, kind, Ending::Refused, &why);
            }
        }
    }

    /// The cycle's side: goal `id` was cancelled by its controller.
    pub fn canceled(&mut self, kind: &'static GoalKind, id: GoalId, text: &str) {
        self.end_as(id, kind, Ending::Canceled, text);
    }

    /// The active goal of each kind, for [`GoalDesk::reported`].
    pub fn active(&self) -> impl Iterator<Item = (&'static GoalKind, GoalId)> + '_ {
        self.kinds
            .iter()
            .zip(&self.slots)
            .filter_map(|(k, s)| s.active.map(|id| (*k, id)))
    }

    /// The cycle's side: what the controller reported of active goal `id`.
    pub fn reported(&mut self, id: GoalId, report: GoalReport) {
        if let Some(f) = report.feedback {
            let changed = self
                .update(id)
                .is_some_and(|g| !g.state.is_terminal() && g.feedback.as_ref() != Some(&f));
            if changed {
                let seq = self.bump();
                if let Some(g) = self.update_mut(id) {
                    g.feedback = Some(f);
                    g.seq = seq;
                }
            }
        }
        if let Some((outcome, result, text)) = report.end {
            let Some(kind) = self.update(id).map(|g| g.kind) else {
                return;
            };
            if let Some(slot) = self.slot_of(kind) {
                if self.slots[slot].active == Some(id) {
                    self.slots[slot].active = None;
                }
            }
            let state = match outcome {
                Outcome::Succeeded => GoalState::Succeeded,
                Outcome::Aborted => GoalState::Aborted,
            };
            let result = result.unwrap_or_else(|| kind.ending_result(Ending::Refused));
            self.end(id, state, result, &text);
        }
    }

    /// The run ended: every goal not over is aborted, and no goal is taken any more.
    pub fn close(&mut self) {
        self.closed = true;
        let open: Vec<(GoalId, &'static GoalKind)> = self
            .goals
            .iter()
            .filter(|g| !g.state.is_terminal())
            .map(|g| (g.id, g.kind))
            .collect();
        for (id, kind) in open {
            self.end_as(id, kind, Ending::RunEnded, "the run ended");
        }
        for s in &mut self.slots {
            *s = Slot::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::kind::{Field, FieldType};
    use super::*;

    static GOAL: &[Field] = &[Field::new("x", FieldType::Float, "")];
    static RESULT: &[Field] = &[Field::new("why", FieldType::Text, "")];
    static KIND: GoalKind = GoalKind {
        name: "go",
        type_name: "t/Go",
        doc: "",
        goal: GOAL,
        result: RESULT,
        feedback: GOAL,
        ended: |k, how| Some(Record::defaults(k.result).with("why", format!("{how:?}"))),
    };

    fn desk() -> GoalDesk {
        GoalDesk::new(vec![&KIND])
    }
    fn goal(x: f64) -> Record {
        Record::defaults(GOAL).with("x", x)
    }
    fn state(d: &GoalDesk, id: GoalId) -> GoalState {
        d.update(id).unwrap().state
    }
    fn begin(d: &mut GoalDesk) -> GoalId {
        match d.next_command() {
            Some(Command::Begin(s)) => {
                d.begun(s.id, Ok(()));
                s.id
            }
            c => panic!("expected a goal to begin, got {c:?}"),
        }
    }

    #[test]
    fn a_newer_goal_preempts_and_a_cancel_stops() {
        let mut d = desk();
        let a = d.submit("go", goal(1.0), Ok(Box::new(()))).unwrap();
        assert_eq!(state(&d, a), GoalState::Pending);
        assert_eq!(begin(&mut d), a);
        assert_eq!(state(&d, a), GoalState::Active);
        let b = d.submit("go", goal(2.0), Ok(Box::new(()))).unwrap();
        assert_eq!(
            state(&d, a),
            GoalState::Active,
            "until the cycle takes b up"
        );
        assert_eq!(begin(&mut d), b);
        assert_eq!(state(&d, a), GoalState::Preempted);
        assert_eq!(
            d.update(a).unwrap().result.as_ref().unwrap().text("why"),
            "Preempted"
        );
        d.cancel(b);
        assert!(matches!(d.next_command(), Some(Command::Cancel { id, .. }) if id == b));
        d.canceled(&KIND, b, "canceled");
        assert_eq!(state(&d, b), GoalState::Canceled);
        assert!(d.next_command().is_none());
    }

    #[test]
    fn queued_goals_are_replaced_or_cancelled_at_once() {
        let mut d = desk();
        let a = d.submit("go", goal(1.0), Ok(Box::new(()))).unwrap();
        let b = d.submit("go", goal(2.0), Ok(Box::new(()))).unwrap();
        assert_eq!(state(&d, a), GoalState::Preempted);
        d.cancel(b);
        assert_eq!(state(&d, b), GoalState::Canceled);
        assert!(d.next_command().is_none());
    }

    #[test]
    fn a_goal_canceled_before_it_began_still_stops_the_one_it_replaced() {
        let mut d = desk();
        let a = d.submit("go", goal(1.0), Ok(Box::new(()))).unwrap();
        begin(&mut d);
        let b = d.submit("go", goal(2.0), Ok(Box::new(()))).unwrap();
        d.cancel(b);
        assert_eq!(state(&d, b), GoalState::Canceled);
        assert!(matches!(d.next_command(), Some(Command::Cancel { id, .. }) if id == a));
        d.canceled(&KIND, a, "canceled");
        assert_eq!(state(&d, a), GoalState::Canceled);
        assert!(d.next_command().is_none());
    }

    #[test]
    fn a_refused_goal_is_aborted_and_stops_the_running_one() {
        let mut d = desk();
        let a = d.submit("go", goal(1.0), Ok(Box::new(()))).unwrap();
        begin(&mut d);
        let b = d
            .submit("go", goal(f64::NAN), Err("x must be finite".into()))
            .unwrap();
        let g = d.update(b).unwrap();
        assert_eq!(
            (g.state, g.text.as_str()),
            (GoalState::Aborted, "x must be finite")
        );
        assert!(matches!(d.next_command(), Some(Command::Cancel { id, .. }) if id == a));
        assert!(matches!(
            d.submit("fly", goal(1.0), Ok(Box::new(()))),
            Err(SendError::UnknownKind { .. })
        ));
    }

    #[test]
    fn reports_feed_back_and_end_goals_and_the_run_end_aborts_the_rest() {
        let mut d = desk();
        let a = d.submit("go", goal(1.0), Ok(Box::new(()))).unwrap();
        begin(&mut d);
        let mut r = GoalReport::default();
        r.feedback(goal(0.5));
        d.reported(a, r);
        let seq = d.update(a).unwrap().seq;
        let mut same = GoalReport::default();
        same.feedback(goal(0.5));
        d.reported(a, same);
        assert_eq!(
            d.update(a).unwrap().seq,
            seq,
            "unchanged feedback is no update"
        );
        let mut done = GoalReport::default();
        done.succeed(Record::defaults(RESULT), "reached");
        d.reported(a, done);
        assert_eq!(state(&d, a), GoalState::Succeeded);
        assert_eq!(d.active().count(), 0);
        let b = d.submit("go", goal(1.0), Ok(Box::new(()))).unwrap();
        d.close();
        assert_eq!(state(&d, b), GoalState::Aborted);
        assert_eq!(d.update(b).unwrap().text, "the run ended");
        assert_eq!(
            d.submit("go", goal(1.0), Ok(Box::new(()))),
            Err(SendError::Closed)
        );
    }
}
