//! The goal runner: serves the goals a controller declares ([`Controller::goals`]), every
//! cycle, through its robot's [`Mailbox`].
//!
//! Before the controller's step the runner hands it what the mailbox holds (cancels,
//! then new goals, each preempting the goal of its kind before it); after the step it
//! asks how each active goal goes and posts that back. When the run ends every open goal
//! is aborted ("the run ended"). The controller finishing (an agent's root option in a
//! target state, a mission at its end) is noted once, as a `controller` event, and the
//! run goes on serving goals until its time limit or Ctrl-C. Which goal is active and what preempts what is the
//! mailbox's [`GoalDesk`](skipper_core::goals::GoalDesk): the same for every engine.

use crate::mailbox::Mailbox;
use skipper_core::goals::{Command, GoalId, GoalKind, GoalReport, Goals};
use skipper_core::{Controller, ControllerError, Cycle, Signals, Status, VehicleInfo};
use std::sync::Arc;

/// A controller whose declared goals are served.
pub struct GoalRunner {
    inner: Box<dyn Controller>,
    mailbox: Arc<Mailbox>,
    /// the active goals of this cycle (kept, so that serving allocates nothing)
    active: Vec<(&'static GoalKind, GoalId)>,
    finished: bool,
}

impl GoalRunner {
    /// Serve `inner`'s goals for `robot`; the mailbox is where transports send them.
    /// A controller that declares no goals gets a mailbox that takes none.
    pub fn new(robot: &str, mut inner: Box<dyn Controller>) -> (Self, Arc<Mailbox>) {
        let mailbox = match inner.goals() {
            Some(g) => Mailbox::new(robot, g.kinds(), g.checker()),
            None => Mailbox::new(robot, Vec::new(), Arc::new(skipper_core::goals::AcceptAll)),
        };
        (
            Self {
                inner,
                mailbox: mailbox.clone(),
                active: Vec::new(),
                finished: false,
            },
            mailbox,
        )
    }

    /// Hand the controller what the mailbox holds.
    fn take_commands(&mut self, c: &mut Cycle<'_>) {
        let Some(goals) = self.inner.goals() else {
            return;
        };
        while let Some(cmd) = self.mailbox.desk(|d| d.next_command()) {
            match cmd {
                Command::Begin(start) => {
                    let id = start.id;
                    let r = goals.begin(start, c);
                    self.mailbox.desk(|d| d.begun(id, r));
                }
                Command::Cancel { kind, id } => {
                    let text = goals.cancel(kind, id, c);
                    self.mailbox.desk(|d| d.canceled(kind, id, &text));
                }
            }
        }
    }

    /// Ask how each active goal goes and post it.
    fn collect_reports(&mut self) {
        let Some(goals) = self.inner.goals() else {
            return;
        };
        let mut active = std::mem::take(&mut self.active);
        active.clear();
        self.mailbox.desk(|d| active.extend(d.active()));
        for &(kind, id) in &active {
            let mut report = GoalReport::default();
            goals.report(kind, id, &mut report);
            if !report.is_empty() {
                self.mailbox.desk(|d| d.reported(id, report));
            }
        }
        self.active = active;
    }
}

impl Controller for GoalRunner {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.inner.start(vehicle, s)
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        self.take_commands(c);
        let st = self.inner.step(c)?;
        self.collect_reports();
        // a mission at its default timeout is over too; goals may still come
        if !matches!(st, Status::Finished | Status::TimedOut(_)) {
            return Ok(st);
        }
        if !std::mem::replace(&mut self.finished, true) {
            c.events.push(
                c.now,
                "controller",
                serde_json::json!({"controller": self.inner.name(), "status": "finished"}),
            );
        }
        Ok(Status::Running)
    }
    fn state(&self) -> Option<serde_json::Value> {
        self.inner.state()
    }
    fn state_version(&self) -> Option<u64> {
        self.inner.state_version()
    }
    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        self.inner.summary(out);
    }
    fn finish(&mut self) {
        self.mailbox.close();
        self.inner.finish();
    }
    fn goals(&mut self) -> Option<&mut dyn Goals> {
        // served here: nothing above may serve them again
        None
    }
}
