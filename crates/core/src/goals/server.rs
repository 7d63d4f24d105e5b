//! The controller's side of goals: the [`Goals`] capability a controller offers through
//! [`Controller::goals`](crate::Controller::goals).
//!
//! A controller declares its kinds once ([`Goals::kinds`]), may check goals as they
//! arrive on a transport's thread ([`GoalCheck`]: parse an option call, load a mission,
//! refuse what cannot run), and then, on the cycle's thread, is told when a goal begins
//! or is cancelled and reports how the active goal goes. Which goal is active, what a
//! newer goal does to an older one, and what a cancel means on the wire are decided in
//! one place for every engine ([`super::GoalDesk`]).

use super::kind::GoalKind;
use super::record::Record;
use super::status::GoalId;
use crate::controller::Cycle;
use std::any::Any;
use std::sync::Arc;

/// What a check makes of a goal for [`Goals::begin`] (a parsed option call, a loaded
/// mission); `()` when there is nothing to prepare.
pub type Payload = Box<dyn Any + Send>;

/// Checks goals as they arrive, on the transport's thread (so that a goal that cannot
/// run is refused at once, and slow preparation stays off the cycle).
pub trait GoalCheck: Send + Sync {
    /// Turn `goal` of `kind` into what [`Goals::begin`] needs, or say why it cannot run.
    fn check(&self, kind: &'static GoalKind, goal: &Record) -> Result<Payload, String>;
}

/// A check that takes every goal as it is.
#[derive(Debug, Default, Clone, Copy)]
pub struct AcceptAll;

impl GoalCheck for AcceptAll {
    fn check(&self, _: &'static GoalKind, _: &Record) -> Result<Payload, String> {
        Ok(Box::new(()))
    }
}

/// A goal the cycle takes up.
pub struct GoalStart {
    /// its id
    pub id: GoalId,
    /// its kind
    pub kind: &'static GoalKind,
    /// its fields
    pub goal: Record,
    /// what the check made of it
    pub payload: Payload,
}

impl std::fmt::Debug for GoalStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoalStart")
            .field("id", &self.id)
            .field("kind", &self.kind.name)
            .field("goal", &self.goal)
            .finish_non_exhaustive()
    }
}

/// How a goal ended, as its controller reports it.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// done as asked
    Succeeded,
    /// given up
    Aborted,
}

/// What a controller reports of its active goal after a cycle (see [`Goals::report`]).
#[derive(Debug, Default)]
pub struct GoalReport {
    pub(crate) feedback: Option<Record>,
    pub(crate) end: Option<(Outcome, Option<Record>, String)>,
}

impl GoalReport {
    /// New feedback (ignored when equal to the last one).
    pub fn feedback(&mut self, f: Record) {
        self.feedback = Some(f);
    }
    /// The goal is done as asked.
    pub fn succeed(&mut self, result: Record, text: impl Into<String>) {
        self.end = Some((Outcome::Succeeded, Some(result), text.into()));
    }
    /// The goal is given up (`None`: the kind's result for a refused goal).
    pub fn abort(&mut self, result: Option<Record>, text: impl Into<String>) {
        self.end = Some((Outcome::Aborted, result, text.into()));
    }
    /// Nothing reported.
    pub fn is_empty(&self) -> bool {
        self.feedback.is_none() && self.end.is_none()
    }
}

/// The goal capability of a controller.
pub trait Goals {
    /// The kinds it accepts (asked once, before the run).
    fn kinds(&self) -> Vec<&'static GoalKind>;

    /// A check for goals arriving on other threads; the default takes every goal.
    fn checker(&self) -> Arc<dyn GoalCheck> {
        Arc::new(AcceptAll)
    }

    /// Goal `start` begins, before this cycle's step. It replaces whatever goal of its
    /// kind ran (without stopping the vehicle first: the new goal takes over). `Err`: it
    /// cannot begin after all; it is aborted with that text.
    fn begin(&mut self, start: GoalStart, c: &mut Cycle<'_>) -> Result<(), String>;

    /// Goal `id` of `kind` is cancelled, before this cycle's step: stop it (and the
    /// vehicle, as this controller's goals stop). Returns what happened, for the goal's
    /// clients ("canceled; the robot stopped").
    fn cancel(&mut self, kind: &'static GoalKind, id: GoalId, c: &mut Cycle<'_>) -> String;

    /// After this cycle's step: how active goal `id` of `kind` goes.
    fn report(&mut self, kind: &'static GoalKind, id: GoalId, out: &mut GoalReport);
}
