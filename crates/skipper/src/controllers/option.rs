//! XABSL options as goals: the [`OptionRunner`] runs an XABSL agent and lets other
//! threads (the `run_option` action server) choose its root option and parameters
//! through an [`OptionHandle`].
//!
//! With no goal the agent runs as written (its own root option). A goal makes the chosen
//! option the root, called with the goal's parameters, started afresh (every option in
//! its initial state); it succeeds when that option is in a target state, and the option
//! goes on running (the robot does what the target state says) until the next goal or a
//! stop. A newer goal replaces the running one. A stop ends the goal's option: no option
//! runs, and the robot is stopped once and stands until the next goal. The agent reaching
//! its own target state does not end the run: the runner keeps serving goals.

use super::goal_slot::{keep_serving, GoalSlot, GoalStatus, SlotCommand};
use skipper_core::{Controller, ControllerError, Cycle, Drive, Signals, Status, VehicleInfo};
use skipper_xabsl::model::OptionId;
use skipper_xabsl::robot::{parse_option_call, OptionCall, XabslController};
use skipper_xabsl::Program;
use std::fmt::Write;
use std::sync::Arc;

/// Where an option goal stands.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum OptionStatus {
    /// Running; the activation path as `option.state > option.state ...`.
    Active {
        /// goal id
        id: u64,
        /// the activation path
        path: String,
    },
    /// The option is in a target state (it goes on running).
    Succeeded {
        /// goal id
        id: u64,
        /// the activation path then
        path: String,
    },
    /// Stopped from outside; the robot stopped.
    Stopped {
        /// goal id
        id: u64,
    },
}

impl OptionStatus {
    /// The goal's id.
    pub fn id(&self) -> u64 {
        match *self {
            OptionStatus::Active { id, .. }
            | OptionStatus::Succeeded { id, .. }
            | OptionStatus::Stopped { id } => id,
        }
    }
}

impl GoalStatus for OptionStatus {
    fn id(&self) -> u64 {
        OptionStatus::id(self)
    }
}

/// Sends option goals to a robot's [`OptionRunner`] from any thread.
#[derive(Clone)]
pub struct OptionHandle {
    slot: GoalSlot<OptionCall, OptionStatus>,
    program: Arc<Program>,
}

impl OptionHandle {
    /// Run option `name` with `parameters` (a JSON object, see
    /// [`skipper_xabsl::robot::option_call`]) from the next cycle on, replacing any
    /// running goal. Returns the goal's id, or why the call is wrong (nothing changes).
    pub fn run(&self, name: &str, parameters: &str) -> Result<u64, String> {
        let call = parse_option_call(&self.program, name, parameters)?;
        Ok(self.slot.send(call))
    }

    /// Stop goal `id` if its option is the root or about to be: no option runs and the
    /// robot stops (from the next cycle). Anything else is left alone.
    pub fn stop(&self, id: u64) {
        self.slot.stop(id);
    }

    /// Stop whatever goal runs (the agent's own root option is left alone).
    pub fn stop_current(&self) {
        self.slot.stop_current();
    }

    /// The latest status of goal `id`: `None` while it waits for the cycle to take it
    /// up, or once a newer goal replaced it (see [`OptionHandle::replaced`]).
    pub fn status(&self, id: u64) -> Option<OptionStatus> {
        self.slot.status(id)
    }

    /// Whether a newer goal than `id` was sent.
    pub fn replaced(&self, id: u64) -> bool {
        self.slot.replaced(id)
    }
}

/// An XABSL agent whose root option goals choose.
pub struct OptionRunner {
    inner: XabslController,
    handle: OptionHandle,
    /// the goal whose option is the root, until it succeeds
    active: Option<(u64, OptionId)>,
    /// (option, state) of the path last reported, and its text
    path: Vec<(usize, usize)>,
    path_text: String,
    agent_finished: bool,
}

impl OptionRunner {
    /// Wrap an agent; the handle sends it goals.
    pub fn new(inner: XabslController) -> (Self, OptionHandle) {
        let handle = OptionHandle {
            slot: GoalSlot::default(),
            program: inner.engine().program().clone(),
        };
        (
            Self {
                inner,
                handle: handle.clone(),
                active: None,
                path: Vec::new(),
                path_text: String::new(),
                agent_finished: false,
            },
            handle,
        )
    }

    fn publish(&self, st: OptionStatus) {
        self.handle.slot.publish(st);
    }

    /// Rebuild the path text if the path changed; `true` if it did.
    fn update_path(&mut self) -> bool {
        let engine = self.inner.engine();
        let path = engine.path();
        if path.len() == self.path.len()
            && path
                .iter()
                .zip(&self.path)
                .all(|(e, &(o, s))| e.option == o && e.state == s)
        {
            return false;
        }
        self.path.clear();
        self.path.extend(path.iter().map(|e| (e.option, e.state)));
        self.path_text.clear();
        let p = engine.program();
        for (i, &(o, s)) in self.path.iter().enumerate() {
            if i > 0 {
                self.path_text.push_str(" > ");
            }
            let Some(opt) = p.options.get(o) else {
                continue;
            };
            let st = opt.states.get(s).map_or("?", |s| s.name.as_str());
            let _ = write!(self.path_text, "{}.{st}", opt.name);
        }
        true
    }
}

impl Controller for OptionRunner {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.inner.start(vehicle, s)
    }

    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        match self.handle.slot.take() {
            Some(SlotCommand::Run { id, payload: call }) => {
                let engine = self.inner.engine_mut();
                if let Err(e) = engine.set_root_option(call.option, &call.params) {
                    return Err(ControllerError::new(format!("run_option: {e}")));
                }
                engine.reset();
                self.active = Some((id, call.option));
                self.path.clear();
            }
            Some(SlotCommand::Stop { id }) => {
                self.active = None;
                self.inner.engine_mut().set_root_actions(&[]);
                self.publish(OptionStatus::Stopped { id });
                c.actuation.drive = Some(Drive::Stop);
                c.events.push(
                    c.now,
                    "controller",
                    serde_json::json!({"run_option": "stopped", "goal": id}),
                );
            }
            None => {}
        }
        let st = self.inner.step(c)?;
        if let Some((id, option)) = self.active {
            let changed = self.update_path();
            if self.inner.engine().option_reached_target(option) {
                self.active = None;
                self.publish(OptionStatus::Succeeded {
                    id,
                    path: self.path_text.clone(),
                });
            } else if changed {
                self.publish(OptionStatus::Active {
                    id,
                    path: self.path_text.clone(),
                });
            }
        }
        Ok(keep_serving(
            st,
            &mut self.agent_finished,
            self.inner.name(),
            c,
        ))
    }

    /// The agent's state, with the latest goal's status as `option_goal` once a goal came.
    fn state(&self) -> Option<serde_json::Value> {
        self.handle
            .slot
            .add_to_state(self.inner.state(), "option_goal")
    }

    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        self.inner.summary(out);
    }

    fn finish(&mut self) {
        self.inner.finish();
    }
}
