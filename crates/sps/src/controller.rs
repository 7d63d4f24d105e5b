//! The link as a [`Controller`]: each cycle it takes the agent's step from a [`Port`]
//! (a Soar bridge over a pipe, a client of `skipper link serve` over TCP), runs the
//! link's cycle, records statuses as `command_status` events, and sends the statuses
//! and input-link diff back.
//!
//! With a lock-step port (the Soar bridge), every Skipper cycle is one decision cycle:
//! the bridge sends the output of decision cycle `n` from its after-output callback and
//! waits there for the reply, as the reference environment processes output and then
//! updates input in that callback. A polling port (the link server) may have nothing in
//! a cycle; the link still runs (the running command is checked, the drive stays
//! latched) and the input changes accumulate until the agent's next step.
//!
//! Safety: a port that reports silence, an agent that disconnects and an agent that
//! halts all e-stop the robot in that cycle (the reference switches to ESTOP when Soar
//! stops). Over a port where agents come and go ([`LinkController::serving`]), a new
//! agent gets a fresh link (its whole input-link as adds), and a halt does not end the
//! controller; the port says when the run is over for it ([`Received::Closed`]).
//!
//! The state ([`Controller::state`], the run log's `/controller` topic and the
//! dashboard's link view) holds the last `input` message sent, the whole input-link as a
//! tree (`input_link`: an identifier is an object keyed by attribute, an attribute that
//! occurs more than once is an array), the latest status of the newest output-link
//! commands (`commands`, at most [`RECENT_COMMANDS`]) and the running drive command.

use crate::link::{Counters, Link, Update};
use crate::output::CommandStatus;
use crate::tree::{Tree, Val, WmeId, ROOT};
use crate::wire::{encode_input, Step};
use crate::LinkError;
use skipper_core::{
    Controller, ControllerError, Cycle, Drive, ErrorKind, Signals, Status, VehicleInfo,
};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

/// How many output-link commands the state keeps (the newest).
pub const RECENT_COMMANDS: usize = 16;

/// Deeper identifiers than this are left out of the state's `input_link`.
const MAX_TREE_DEPTH: usize = 32;

/// An output-link command and its latest status.
#[derive(Debug, Clone)]
struct Recent {
    tt: i64,
    command: &'static str,
    status: CommandStatus,
    message: Option<Arc<str>>,
}

/// What a port got from the agent this cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// a step (in the buffer given to [`Port::receive`])
    Step,
    /// nothing this cycle
    Nothing,
    /// nothing for too long: the robot must stop
    Silent,
    /// the agent halted
    Halted,
    /// a new agent took the port: the link starts afresh for it
    Connected,
    /// the agent is gone (it disconnected, or was refused for bad input): the robot stops
    Disconnected,
    /// the port is done for this run: the controller finishes
    Closed,
}

/// The agent's end of a link.
pub trait Port {
    /// The agent's next step into `step` (cleared first). A lock-step port blocks until
    /// it comes; a polling port returns [`Received::Nothing`] if none is there.
    fn receive(&mut self, step: &mut Step) -> Result<Received, LinkError>;
    /// Send one `input` line (without the newline).
    fn send(&mut self, line: &[u8]) -> Result<(), LinkError>;
    /// Called once when the run ends.
    fn close(&mut self) {}
    /// Why the last agent went ([`Received::Disconnected`]), in words a person
    /// understands: "the agent closed the connection", "the connection was reset", ...
    fn disconnect_cause(&self) -> Option<String> {
        None
    }
}

/// A link driving one vehicle for one agent (or, [`LinkController::serving`], for the
/// agents that come and go on its port).
pub struct LinkController<P: Port> {
    name: String,
    link: Link,
    port: P,
    step: Step,
    update: Update,
    line: Vec<u8>,
    reported: usize,
    dc: u64,
    halted: bool,
    silent: bool,
    serving: bool,
    /// agents that connected (serving)
    agents: u64,
    /// counters and decision cycles of earlier agents (serving)
    carried: Counters,
    carried_dc: u64,
    /// the newest commands with their latest status, oldest first
    recent: VecDeque<Recent>,
}

impl<P: Port> LinkController<P> {
    /// A controller named `name` (`soar:agent`) for `link`, talking through `port`.
    pub fn new(name: impl Into<String>, link: Link, port: P) -> Self {
        Self {
            name: name.into(),
            link,
            port,
            step: Step::default(),
            update: Update::default(),
            line: Vec::with_capacity(4096),
            reported: 0,
            dc: 0,
            halted: false,
            silent: false,
            serving: false,
            agents: 0,
            carried: Counters::default(),
            carried_dc: 0,
            recent: VecDeque::with_capacity(RECENT_COMMANDS),
        }
    }

    /// For a port where agents come and go (the link server): the robot waits for an
    /// agent, each new agent gets a fresh link, and a halted agent's robot is e-stopped
    /// and waits for the next one; the controller finishes when the port is
    /// [`Received::Closed`]. The mailbox is closed until an agent connects.
    pub fn serving(mut self) -> Self {
        self.serving = true;
        self.link.set_mailbox_open(false);
        self
    }

    /// The link.
    pub fn link(&self) -> &Link {
        &self.link
    }

    /// The port.
    pub fn port_mut(&mut self) -> &mut P {
        &mut self.port
    }

    fn report_statuses(&mut self, cycle: &mut Cycle<'_>) {
        for s in self.link.statuses().iter().skip(self.reported) {
            match self.recent.iter_mut().find(|r| r.tt == s.tt) {
                Some(r) => {
                    r.status = s.status;
                    r.message.clone_from(&s.message);
                }
                None => {
                    if self.recent.len() >= RECENT_COMMANDS {
                        self.recent.pop_front();
                    }
                    self.recent.push_back(Recent {
                        tt: s.tt,
                        command: s.command,
                        status: s.status,
                        message: s.message.clone(),
                    });
                }
            }
            let mut data = serde_json::json!({
                "agent": self.link.name(),
                "tt": s.tt,
                "command": s.command,
                "status": s.status.as_str(),
            });
            if let (Some(m), Some(o)) = (&s.message, data.as_object_mut()) {
                o.insert("message".into(), m.to_string().into());
            }
            cycle.events.push(cycle.now, "command_status", data);
        }
        self.reported = self.link.statuses().len();
    }

    fn send_update(&mut self, cycle: u64) -> Result<(), LinkError> {
        self.link.take(&mut self.update);
        self.reported = 0;
        encode_input(
            &mut self.line,
            cycle,
            &self.update.statuses,
            &self.update.diff,
        );
        self.port.send(&self.line)
    }
}

impl<P: Port> LinkController<P> {
    /// The agent halted: Soar stopped, so the robot e-stops (as the reference's ESTOP on
    /// the system stop event). A serving controller goes on, waiting for another agent.
    fn halt(&mut self, cycle: &mut Cycle<'_>) -> Status {
        self.halted = true;
        self.step.clear();
        cycle.actuation.drive = Some(Drive::Estop);
        self.link.set_mailbox_open(false);
        if self.serving {
            self.event(cycle, "halted");
            Status::Running
        } else {
            Status::Finished
        }
    }

    /// A new agent: a fresh link, started from this cycle's signals, and its whole
    /// input-link sent as the first `input`. The robot stays stopped until the agent
    /// drives it.
    fn connect(&mut self, cycle: &mut Cycle<'_>) -> Result<(), LinkError> {
        let fresh = self.link.fresh();
        let old = std::mem::replace(&mut self.link, fresh);
        let c = old.counters();
        self.carried.commands += c.commands;
        self.carried.statuses += c.statuses;
        self.carried.errors += c.errors;
        self.carried_dc += self.dc;
        self.link.set_mailbox_open(true);
        self.dc = 0;
        self.halted = false;
        self.silent = false;
        self.agents += 1;
        self.step.clear();
        self.reported = 0;
        self.recent.clear();
        cycle.actuation.drive = Some(Drive::Estop);
        self.event(cycle, "connected");
        self.link.start(cycle.signals, cycle.now)?;
        self.send_update(cycle.cycle)
    }

    fn event(&self, cycle: &mut Cycle<'_>, what: &str) {
        cycle.events.push(
            cycle.now,
            "link",
            serde_json::json!({"agent": self.link.name(), "event": what}),
        );
    }

    fn totals(&self) -> (Counters, u64) {
        let c = self.link.counters();
        let t = Counters {
            commands: self.carried.commands + c.commands,
            statuses: self.carried.statuses + c.statuses,
            errors: self.carried.errors + c.errors,
        };
        (t, self.carried_dc + self.dc)
    }
}

/// Identifier `id` of `tree` as JSON: an object keyed by attribute, with an array for an
/// attribute that occurs more than once (in creation order).
fn tree_json(tree: &Tree, id: WmeId, depth: usize) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    if depth >= MAX_TREE_DEPTH {
        return serde_json::Value::Object(out);
    }
    for c in tree.children(id) {
        let (Some(attr), Some(v)) = (tree.attr(c), tree.value(c)) else {
            continue;
        };
        let v = match v {
            Val::Int(i) => serde_json::Value::from(*i),
            Val::Float(f) => serde_json::Value::from(*f),
            Val::Str(s) => serde_json::Value::from(s.as_ref()),
            Val::Id => tree_json(tree, c, depth + 1),
        };
        match out.get_mut(attr) {
            None => {
                out.insert(attr.into(), v);
            }
            // a WME value is never an array, so an array is an attribute seen before
            Some(serde_json::Value::Array(a)) => a.push(v),
            Some(old) => {
                let first = std::mem::take(old);
                *old = serde_json::Value::Array(vec![first, v]);
            }
        }
    }
    serde_json::Value::Object(out)
}

fn fail(e: LinkError) -> ControllerError {
    let kind = match &e {
        LinkError::MissingSignal(_) => ErrorKind::Vehicle,
        LinkError::AgentReported(_) => ErrorKind::BadInput,
        LinkError::Decode(_) | LinkError::Agent(_) | LinkError::Io(_) => ErrorKind::Link,
    };
    ControllerError::of(kind, e.to_string()).with_source(e)
}

impl<P: Port> Controller for LinkController<P> {
    fn name(&self) -> &str {
        &self.name
    }

    fn start(&mut self, _vehicle: &VehicleInfo, signals: &Signals) -> Result<(), ControllerError> {
        self.link.start(signals, Duration::ZERO).map_err(fail)?;
        if self.serving {
            // no agent yet: each agent gets its own fresh link when it connects
            return Ok(());
        }
        self.send_update(0).map_err(fail)
    }

    fn step(&mut self, cycle: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let got = self.port.receive(&mut self.step).map_err(fail)?;
        match got {
            Received::Halted => return Ok(self.halt(cycle)),
            Received::Closed => return Ok(Status::Finished),
            Received::Connected => {
                self.connect(cycle).map_err(fail)?;
                return Ok(Status::Running);
            }
            Received::Disconnected => {
                self.step.clear();
                self.link.set_mailbox_open(false);
                cycle.actuation.drive = Some(Drive::Estop);
                let cause = self
                    .port
                    .disconnect_cause()
                    .unwrap_or_else(|| "the agent's connection ended".into());
                tracing::warn!(agent = %self.link.name(), "agent disconnected: {cause}; the robot stops");
                cycle.events.push(
                    cycle.now,
                    "link",
                    serde_json::json!({"agent": self.link.name(), "event": "disconnected", "cause": cause}),
                );
            }
            Received::Silent => {
                self.step.clear();
                if !self.silent {
                    self.silent = true;
                    cycle.actuation.drive = Some(Drive::Estop);
                    cycle.events.push(
                        cycle.now,
                        "link",
                        serde_json::json!({"agent": self.link.name(), "silent": true}),
                    );
                }
            }
            Received::Nothing => self.step.clear(),
            Received::Step => {
                if self.silent {
                    self.silent = false;
                    cycle.events.push(
                        cycle.now,
                        "link",
                        serde_json::json!({"agent": self.link.name(), "silent": false}),
                    );
                }
                self.dc = self.dc.max(self.step.dc);
            }
        }
        self.link.cycle(
            &self.step,
            cycle.signals,
            cycle.now,
            cycle.cycle,
            cycle.actuation,
        );
        if self.silent {
            cycle.actuation.drive = cycle.actuation.drive.map(|_| Drive::Estop);
        }
        self.report_statuses(cycle);
        for p in &self.step.print {
            cycle.events.push(
                cycle.now,
                "agent_print",
                serde_json::json!({"agent": self.link.name(), "text": p}),
            );
        }
        if got == Received::Step {
            self.send_update(cycle.cycle).map_err(fail)?;
        }
        if self.step.halted {
            return Ok(self.halt(cycle));
        }
        Ok(Status::Running)
    }

    fn state(&self) -> Option<serde_json::Value> {
        let input: serde_json::Value = serde_json::from_slice(&self.line).ok()?;
        let commands: Vec<serde_json::Value> = self
            .recent
            .iter()
            .map(|r| {
                let mut o = serde_json::json!({
                    "tt": r.tt,
                    "command": r.command,
                    "status": r.status.as_str(),
                });
                if let (Some(m), Some(map)) = (&r.message, o.as_object_mut()) {
                    map.insert("message".into(), m.to_string().into());
                }
                o
            })
            .collect();
        let running = self.link.running().map(
            |r| serde_json::json!({"tt": r.tt, "command": r.kind.name(), "executing": r.executing}),
        );
        Some(serde_json::json!({
            "agent": self.link.name(),
            "decision_cycle": self.dc,
            "input": input,
            "input_link": tree_json(self.link.tree(), ROOT, 0),
            "commands": commands,
            "running": running,
        }))
    }

    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        if self.serving && self.agents == 0 {
            return; // a robot no agent ever drove
        }
        let (c, dc) = self.totals();
        let add = |out: &mut serde_json::Map<String, serde_json::Value>, k: &str, v: u64| {
            let old = out.get(k).and_then(|v| v.as_u64()).unwrap_or(0);
            out.insert(k.into(), (old + v).into());
        };
        add(out, "decision_cycles", dc);
        add(out, "commands", c.commands);
        add(out, "command_errors", c.errors);
        let halted = out.get("halted").and_then(|v| v.as_bool()).unwrap_or(true) && self.halted;
        out.insert("halted".into(), halted.into());
        let mut entry = serde_json::json!({
            "agent": self.link.name(),
            "decision_cycles": dc,
            "commands": c.commands,
            "command_errors": c.errors,
            "halted": self.halted,
        });
        if let (true, Some(o)) = (self.serving, entry.as_object_mut()) {
            o.insert("agents_connected".into(), self.agents.into());
        }
        match out.get_mut("soar_agents").and_then(|v| v.as_array_mut()) {
            Some(a) => a.push(entry),
            None => {
                out.insert("soar_agents".into(), serde_json::Value::Array(vec![entry]));
            }
        }
    }

    fn finish(&mut self) {
        self.port.close();
    }
}
