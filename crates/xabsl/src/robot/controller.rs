//! An XABSL agent as a Skipper [`Controller`]: each cycle the bound input symbols are
//! read from the robot's signals, the engine runs, the basic behaviors that ran and the
//! bound output symbols become actuation, option and state changes become `transition`
//! events, and the activation path goes to the `/controller` topic. The run is finished
//! when the agent's root option is in a target state.

use super::binding::BindingFile;
use crate::diag::Diagnostics;
use crate::engine::{Engine, RuntimeProblem, TeamMessage};
use crate::model::{Program, Type};
use crate::source::{SourceFile, SourceMap};
use crate::Error;
use serde_json::{json, Map, Value as Json};
use skipper_core::vocabulary::Vocabulary;
use skipper_core::{
    Controller, ControllerError, Cycle, Drive, SignalId, Signals, Status, Value, VehicleInfo,
};
use std::sync::{Arc, Mutex};

use super::compile::{Act, BoundInput, Compiler, OutputAct};
use super::expr::{eval, truth, Ctx, FState};
/// An XABSL agent driving one vehicle.
pub struct XabslController {
    name: String,
    pub(super) engine: Engine,
    /// `run_option` goals
    pub(super) goals: super::goals::OptionGoals,
    inputs: Vec<BoundInput>,
    input_values: Vec<f64>,
    behaviors: Vec<Vec<Act>>,
    outputs: Vec<OutputAct>,
    signal_names: Vec<String>,
    signal_ids: Vec<Option<SignalId>>,
    funcs: Vec<FState>,
    /// (option, state) of the last cycle's path
    last_path: Vec<(usize, usize)>,
    last_outputs: Vec<Option<f64>>,
    ran_before: Vec<bool>,
    cycles: u64,
    finished: bool,
    team: Option<(TeamBus, usize)>,
}

/// The team messages of agents running in one process (the robots of one run): each
/// agent posts its message after its cycle and reads its team-mates' messages of the
/// previous cycle, so the order the robots step in does not matter.
#[derive(Clone, Default)]
pub struct TeamBus {
    slots: Arc<Mutex<Vec<TeamSlot>>>,
}

#[derive(Clone, Default)]
struct TeamSlot {
    /// the cycle `current` was written in
    cycle: u64,
    current: TeamMessage,
    previous: TeamMessage,
}

impl TeamBus {
    /// A bus for `n` agents.
    pub fn new(n: usize) -> Self {
        Self {
            slots: Arc::new(Mutex::new(vec![TeamSlot::default(); n])),
        }
    }
}

impl XabslController {
    /// An agent with an optional binding file (path and text). Errors carry rendered
    /// diagnostics. Any name a binding reads that is nothing else is taken as a signal
    /// (see [`XabslController::for_robot`] to check them).
    pub fn new(
        program: Arc<Program>,
        binding: Option<(&std::path::Path, &str)>,
    ) -> Result<XabslController, Error> {
        Self::build(program, binding, None)
    }

    /// An agent for a robot whose signals are `vocabulary`: every signal the binding file
    /// reads, and every input symbol it leaves unbound, must be one of them (a mistake is
    /// an error with the place, a caret and the nearest names).
    pub fn for_robot(
        program: Arc<Program>,
        binding: Option<(&std::path::Path, &str)>,
        vocabulary: &Vocabulary,
    ) -> Result<XabslController, Error> {
        Self::build(program, binding, Some(vocabulary))
    }

    fn build(
        program: Arc<Program>,
        binding: Option<(&std::path::Path, &str)>,
        vocabulary: Option<&Vocabulary>,
    ) -> Result<XabslController, Error> {
        let engine = Engine::new(program.clone())?;
        let mut sources: SourceMap = program.sources.clone();
        let file = match binding {
            Some((path, text)) => {
                let id = crate::source::FileId(sources.len() as u32);
                sources.add(SourceFile::new(path, text.to_string()));
                match super::binding::parse_binding(text, id) {
                    Ok(b) => b,
                    Err(d) => {
                        let mut ds = Diagnostics::new();
                        ds.push(d);
                        return Err(Error::Compile(ds.render(&sources)));
                    }
                }
            }
            None => BindingFile::default(),
        };
        let b = Compiler::new(&program, vocabulary)
            .compile(&file)
            .map_err(|d| Error::Compile(d.render(&sources)))?;
        let agent = program.agents.first().map_or("agent", |a| a.name.as_str());
        let n_inputs = b.inputs.len();
        let n_sym = program.symbols.len();
        let n_bb = program.behaviors.len();
        // native code now, not in the first control cycle
        let mut engine = engine;
        engine.prepare();
        Ok(XabslController {
            name: format!("xabsl:{agent}"),
            engine,
            inputs: b.inputs,
            input_values: vec![0.0; n_inputs],
            behaviors: b.behaviors,
            outputs: b.outputs,
            signal_ids: vec![None; b.signals.len()],
            signal_names: b.signals,
            funcs: vec![FState::default(); b.funcs],
            last_path: Vec::new(),
            last_outputs: vec![None; n_sym],
            ran_before: vec![false; n_bb],
            cycles: 0,
            finished: false,
            team: None,
            goals: Default::default(),
        })
    }

    /// Join a team: agent `index` of the bus, exchanging team messages with the others
    /// (for capacity and synchronized states). The index is also the agent's priority;
    /// a message takes one cycle to arrive.
    pub fn join_team(&mut self, bus: TeamBus, index: usize) {
        self.engine.set_agent_priority(index as i32);
        self.engine.set_synchronization_ticks(1);
        self.team = Some((bus, index));
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to change it (select an agent, bind inputs to host functions).
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The input symbols, in binding order, from the signals.
    fn read_inputs(&mut self, c: &Cycle<'_>, now: u64) {
        for i in 0..self.inputs.len() {
            let ctx = Ctx {
                signals: c.signals,
                ids: &self.signal_ids,
                inputs: &self.input_values,
                params: &[],
                now,
            };
            let b = &self.inputs[i];
            let program = self.engine.program();
            let ty = program.symbols[b.symbol].ty;
            let mut v = eval(&b.value, &ctx, &mut self.funcs);
            if let (Type::Enum(e), Some(sig)) = (ty, b.enum_text) {
                let en = &program.enums[e];
                if let Some(Value::Text(t)) = self
                    .signal_ids
                    .get(sig)
                    .copied()
                    .flatten()
                    .map(|id| c.signals.get(id))
                {
                    if let Some(k) = (0..en.elements.len())
                        .find(|&k| en.short(k) == &**t || *en.elements[k] == **t)
                    {
                        v = k as f64;
                    }
                }
            }
            let v = match ty {
                Type::Decimal => v,
                Type::Boolean => f64::from(u8::from(truth(v))),
                Type::Enum(e) => {
                    let n = program.enums[e].elements.len().max(1) as f64;
                    v.trunc().clamp(0.0, n - 1.0)
                }
            };
            self.input_values[i] = v;
            let sym = b.symbol;
            self.engine.set_input(sym, v);
        }
    }

    /// The team messages of the previous cycle (a lone agent prepares too: its
    /// synchronized states are entered after one tick, as with team-mates).
    fn receive_team_messages(&mut self) {
        self.engine.prepare_incoming_messages();
        if let Some((bus, me)) = &self.team {
            if let Ok(slots) = bus.slots.lock() {
                for (i, s) in slots.iter().enumerate() {
                    if i == *me {
                        continue;
                    }
                    let m = if s.cycle == self.cycles {
                        &s.previous
                    } else {
                        &s.current
                    };
                    self.engine.process_incoming_message(m);
                }
            }
        }
    }

    /// This cycle's team message, for the team-mates' next cycle.
    fn send_team_message(&mut self) {
        if let Some((bus, me)) = &self.team {
            if let Ok(mut slots) = bus.slots.lock() {
                if let Some(s) = slots.get_mut(*me) {
                    s.previous = std::mem::take(&mut s.current);
                    s.cycle = self.cycles;
                    self.engine.generate_outgoing_message(&mut s.current);
                }
            }
        }
    }

    /// The basic behaviors that ran become actuation.
    fn run_basic_behaviors(&mut self, c: &mut Cycle<'_>, now: u64) {
        let executed: Vec<usize> = self.engine.executed().iter().map(|e| e.behavior).collect();
        let mut ran_now = vec![false; self.ran_before.len()];
        for b in executed {
            let params: Vec<f64> = self.engine.behavior_params(b).to_vec();
            let n = self.behaviors.get(b).map_or(0, Vec::len);
            for i in 0..n {
                self.apply((b, i), c, &params, now);
            }
            if let Some(r) = ran_now.get_mut(b) {
                *r = true;
            }
        }
        self.ran_before = ran_now;
    }

    /// The output symbols set this cycle become actuation and speech.
    fn act_on_outputs(&mut self, c: &mut Cycle<'_>, now: u64) {
        for o in &self.outputs {
            if !self.engine.was_set(o.symbol) {
                continue;
            }
            let v = self.engine.value(o.symbol);
            let changed = self.last_outputs.get(o.symbol).copied().flatten() != Some(v);
            for (k, a) in &o.mappings {
                if v as usize == *k {
                    match a {
                        Act::Gripper(g) => c.actuation.gripper = Some(*g),
                        Act::Stop => c.actuation.drive = Some(Drive::Stop),
                        Act::Say(t) if changed => c.actuation.say.push(t.clone()),
                        Act::Drive(x, y) => {
                            let ctx = Ctx {
                                signals: c.signals,
                                ids: &self.signal_ids,
                                inputs: &self.input_values,
                                params: &[],
                                now,
                            };
                            let mut st = self.funcs.clone();
                            let (x, y) = (eval(x, &ctx, &mut st), eval(y, &ctx, &mut st));
                            c.actuation.drive = Some(Drive::velocity(x, y));
                        }
                        _ => {}
                    }
                }
            }
            if o.say && changed {
                let p = self.engine.program();
                let text = match p.symbols[o.symbol].ty {
                    Type::Enum(e) => p.enums[e].short(v as usize).replace('_', " "),
                    Type::Boolean => if v != 0.0 { "true" } else { "false" }.to_string(),
                    Type::Decimal => format!("{v}"),
                };
                c.actuation.say.push(text.into());
            }
        }
        for (i, s) in self.engine.program().symbols.iter().enumerate() {
            if s.is_output() {
                if let Some(x) = self.last_outputs.get_mut(i) {
                    *x = Some(self.engine.value(i));
                }
            }
        }
    }

    /// Option and state changes since the last cycle become `transition` events.
    fn note_transitions(&mut self, c: &mut Cycle<'_>) {
        let path: Vec<(usize, usize)> = self
            .engine
            .path()
            .iter()
            .map(|e| (e.option, e.state))
            .collect();
        let p = self.engine.program().clone();
        let state_name = |o: usize, s: usize| {
            p.options[o]
                .states
                .get(s)
                .map_or("?", |s| s.name.as_str())
                .to_string()
        };
        for &(o, s) in &path {
            match self.last_path.iter().find(|(x, _)| *x == o) {
                Some(&(_, old)) if old != s => c.events.push(
                    c.now,
                    "transition",
                    json!({"option": p.options[o].name, "from": state_name(o, old), "to": state_name(o, s)}),
                ),
                None => c.events.push(
                    c.now,
                    "transition",
                    json!({"option": p.options[o].name, "from": Json::Null, "to": state_name(o, s)}),
                ),
                _ => {}
            }
        }
        for &(o, s) in &self.last_path {
            if !path.iter().any(|(x, _)| *x == o) {
                c.events.push(
                    c.now,
                    "transition",
                    json!({"option": p.options[o].name, "from": state_name(o, s), "to": Json::Null}),
                );
            }
        }
        self.last_path = path;
    }

    /// The engine's runtime problems become `controller` events.
    fn note_problems(&mut self, c: &mut Cycle<'_>) {
        let p = self.engine.program().clone();
        for pr in self.engine.problems() {
            let text = match pr {
                RuntimeProblem::OptionExecutedTwice(o) => format!(
                    "option `{}` was executed more than once in a cycle",
                    p.options[*o].name
                ),
                RuntimeProblem::ModuloByZero => "`%` by zero (gave 0)".into(),
            };
            c.events.push(c.now, "controller", json!({"problem": text}));
        }
    }

    fn apply(&mut self, act_index: (usize, usize), c: &mut Cycle<'_>, params: &[f64], now: u64) {
        let (b, i) = act_index;
        let Some(a) = self.behaviors.get(b).and_then(|v| v.get(i)) else {
            return;
        };
        let ctx = Ctx {
            signals: c.signals,
            ids: &self.signal_ids,
            inputs: &self.input_values,
            params,
            now,
        };
        match a {
            Act::Drive(v, w) => {
                let v = eval(v, &ctx, &mut self.funcs);
                let w = eval(w, &ctx, &mut self.funcs);
                c.actuation.drive = Some(Drive::velocity(v, w));
            }
            Act::Stop => c.actuation.drive = Some(Drive::Stop),
            Act::Gripper(g) => c.actuation.gripper = Some(*g),
            Act::GripperParam(p, cmds) => {
                let k = params.get(*p).copied().unwrap_or(0.0) as usize;
                if let Some(Some(g)) = cmds.get(k) {
                    c.actuation.gripper = Some(*g);
                }
            }
            Act::Say(t) => {
                if !self.ran_before.get(b).copied().unwrap_or(false) {
                    c.actuation.say.push(t.clone());
                }
            }
        }
    }
}

impl Controller for XabslController {
    fn name(&self) -> &str {
        &self.name
    }

    fn start(&mut self, vehicle: &VehicleInfo, signals: &Signals) -> Result<(), ControllerError> {
        let mut missing = Vec::new();
        for (i, n) in self.signal_names.iter().enumerate() {
            self.signal_ids[i] = signals.id(n);
            if self.signal_ids[i].is_none() {
                missing.push(format!("`{n}`"));
            }
        }
        if !missing.is_empty() {
            // the simulator's landmark signals come from the world, not from the robot
            let world = if missing.iter().any(|n| n.starts_with("`landmark.")) {
                "; `landmark.NAME.*` signals come from the world's `landmark NAME X Y` lines: run in a world that has them (--world)"
            } else {
                ""
            };
            return Err(ControllerError::vehicle(format!(
                "{} has no signal {}: bind the input symbols that read them in the agents' binding file (`input NAME = EXPRESSION;`, see docs/xabsl.md){world}",
                vehicle.name,
                missing.join(", ")
            )));
        }
        Ok(())
    }

    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let now = c.now.as_millis() as u64;
        self.cycles += 1;
        self.read_inputs(c, now);
        self.receive_team_messages();
        self.engine.execute(now);
        self.send_team_message();
        self.run_basic_behaviors(c, now);
        self.act_on_outputs(c, now);
        self.note_transitions(c);
        self.note_problems(c);
        if self.engine.root_reached_target() {
            self.finished = true;
            return Ok(Status::Finished);
        }
        Ok(Status::Running)
    }

    fn state(&self) -> Option<Json> {
        let p = self.engine.program();
        let value = |ty: Type, v: f64| -> Json {
            match ty {
                Type::Decimal => json!(v),
                Type::Boolean => json!(v != 0.0),
                Type::Enum(e) => json!(p.enums[e]
                    .elements
                    .get(v as usize)
                    .cloned()
                    .unwrap_or_default()),
            }
        };
        let path: Vec<Json> = self
            .engine
            .path()
            .iter()
            .map(|e| {
                let o = &p.options[e.option];
                let mut params = Map::new();
                for (i, par) in o.params.iter().enumerate() {
                    params.insert(
                        par.short.clone(),
                        value(par.ty, self.engine.option_parameter(e.option, i)),
                    );
                }
                json!({
                    "option": o.name,
                    "state": o.states.get(e.state).map_or("?", |s| s.name.as_str()),
                    "state_time": e.state_time,
                    "option_time": e.option_time,
                    "depth": e.depth,
                    "parameters": params,
                })
            })
            .collect();
        let mut outputs = Map::new();
        let mut inputs = Map::new();
        for (i, s) in p.symbols.iter().enumerate() {
            if s.is_output() {
                outputs.insert(s.name.clone(), value(s.ty, self.engine.value(i)));
            }
        }
        for (b, v) in self.inputs.iter().zip(&self.input_values) {
            let s = &p.symbols[b.symbol];
            inputs.insert(s.name.clone(), value(s.ty, *v));
        }
        let behaviors: Vec<Json> = self
            .engine
            .executed()
            .iter()
            .map(|x| {
                let bh = &p.behaviors[x.behavior];
                let mut params = Map::new();
                for (par, v) in bh
                    .params
                    .iter()
                    .zip(self.engine.behavior_params(x.behavior))
                {
                    params.insert(par.short.clone(), value(par.ty, *v));
                }
                json!({"name": bh.name, "parameters": params})
            })
            .collect();
        let mut state = json!({
            "agent": p.agents.get(self.engine.agent()).map_or("", |a| a.name.as_str()),
            "path": path,
            "outputs": outputs,
            "inputs": inputs,
            "basic_behaviors": behaviors,
        });
        if let Some(g) = self.goals.latest() {
            state["option_goal"] = serde_json::to_value(g).unwrap_or_default();
        }
        Some(state)
    }

    fn goals(&mut self) -> Option<&mut dyn skipper_core::goals::Goals> {
        Some(self)
    }

    fn summary(&self, out: &mut Map<String, Json>) {
        let p = self.engine.program();
        out.insert("xabsl_cycles".into(), json!(self.cycles));
        if let Some(a) = p.agents.get(self.engine.agent()) {
            let o = a.root;
            let s = self.engine.active_state(o);
            out.insert(
                "xabsl_root_state".into(),
                json!(format!(
                    "{}.{}",
                    p.options[o].name,
                    p.options[o].states.get(s).map_or("?", |s| s.name.as_str())
                )),
            );
        }
        out.insert("xabsl_finished".into(), json!(self.finished));
    }
}
