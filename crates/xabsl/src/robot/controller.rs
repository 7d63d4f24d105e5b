//! An XABSL agent as a Skipper [`Controller`]: each cycle the bound input symbols are
//! read from the robot's signals, the engine runs, the basic behaviors that ran and the
//! bound output symbols become actuation, option and state changes become `transition`
//! events, and the activation path goes to the `/controller` topic. The run is finished
//! when the agent's root option is in a target state.

use super::binding::{Actuation as ActSpec, BindingFile};
use crate::ast::{BinOp, Expr};
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::{Engine, RuntimeProblem, TeamMessage};
use crate::model::{Program, SymbolKind, Type};
use crate::source::{SourceFile, SourceMap, Span};
use crate::Error;
use serde_json::{json, Map, Value as Json};
use skipper_core::vocabulary::{self, Vocabulary};
use skipper_core::{
    Controller, ControllerError, Cycle, Drive, GripperCommand, SignalId, Signals, Status, Value,
    VehicleInfo,
};
use std::sync::{Arc, Mutex};

/// Functions of binding expressions.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Func {
    Abs,
    Min,
    Max,
    Clamp,
    Bit,
    Rising,
    Falling,
    CyclesWhile,
    MsWhile,
    MsSince,
}

impl Func {
    fn by_name(s: &str) -> Option<(Func, usize)> {
        Some(match s {
            "abs" => (Func::Abs, 1),
            "min" => (Func::Min, 2),
            "max" => (Func::Max, 2),
            "clamp" => (Func::Clamp, 3),
            "bit" => (Func::Bit, 2),
            "rising" => (Func::Rising, 1),
            "falling" => (Func::Falling, 1),
            "cycles_while" => (Func::CyclesWhile, 1),
            "ms_while" => (Func::MsWhile, 1),
            "ms_since" => (Func::MsSince, 1),
            _ => return None,
        })
    }
}

/// A compiled binding expression.
#[derive(Debug, Clone)]
enum Bx {
    Num(f64),
    Signal(usize),
    Input(usize),
    Param(usize),
    Neg(Box<Bx>),
    Not(Box<Bx>),
    Bin(BinOp, Box<Bx>, Box<Bx>),
    Cond(Box<Bx>, Box<Bx>, Box<Bx>),
    Call(Func, Vec<Bx>, usize),
}

/// The memory of a stateful function at one call site.
#[derive(Debug, Clone, Copy, Default)]
struct FState {
    prev: bool,
    count: u64,
    since: Option<u64>,
    last_true: Option<u64>,
}

struct Ctx<'a> {
    signals: &'a Signals,
    ids: &'a [Option<SignalId>],
    inputs: &'a [f64],
    params: &'a [f64],
    now: u64,
}

fn signal_value(v: &Value) -> f64 {
    match v {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => 0.0,
    }
}

fn truth(v: f64) -> bool {
    v != 0.0 && !v.is_nan()
}

fn eval(x: &Bx, c: &Ctx<'_>, st: &mut [FState]) -> f64 {
    match x {
        Bx::Num(v) => *v,
        Bx::Signal(i) => c
            .ids
            .get(*i)
            .copied()
            .flatten()
            .map_or(0.0, |id| signal_value(c.signals.get(id))),
        Bx::Input(i) => c.inputs.get(*i).copied().unwrap_or(0.0),
        Bx::Param(i) => c.params.get(*i).copied().unwrap_or(0.0),
        Bx::Neg(a) => -eval(a, c, st),
        Bx::Not(a) => f64::from(u8::from(!truth(eval(a, c, st)))),
        Bx::Bin(op, a, b) => {
            let x = eval(a, c, st);
            // && and || short-circuit
            match op {
                BinOp::And => return f64::from(u8::from(truth(x) && truth(eval(b, c, st)))),
                BinOp::Or => return f64::from(u8::from(truth(x) || truth(eval(b, c, st)))),
                _ => {}
            }
            let y = eval(b, c, st);
            let t = |v: bool| f64::from(u8::from(v));
            match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => {
                    if y == 0.0 {
                        0.0
                    } else {
                        x / y
                    }
                }
                BinOp::Mod => {
                    let (a, b) = (x as i64, y as i64);
                    if b == 0 {
                        0.0
                    } else {
                        a.wrapping_rem(b) as f64
                    }
                }
                BinOp::Lt => t(x < y),
                BinOp::Gt => t(x > y),
                BinOp::Le => t(x <= y),
                BinOp::Ge => t(x >= y),
                BinOp::Eq => t(x == y),
                BinOp::Ne => t(x != y),
                BinOp::And | BinOp::Or => 0.0,
            }
        }
        Bx::Cond(k, a, b) => {
            if truth(eval(k, c, st)) {
                eval(a, c, st)
            } else {
                eval(b, c, st)
            }
        }
        Bx::Call(f, args, slot) => {
            let mut a = [0.0f64; 3];
            for (i, x) in args.iter().take(3).enumerate() {
                a[i] = eval(x, c, st);
            }
            let Some(s) = st.get_mut(*slot) else {
                return 0.0;
            };
            let now = c.now;
            let b = truth(a[0]);
            match f {
                Func::Abs => a[0].abs(),
                Func::Min => a[0].min(a[1]),
                Func::Max => a[0].max(a[1]),
                Func::Clamp => a[0].max(a[1]).min(a[2]),
                Func::Bit => {
                    let n = a[1] as u32;
                    if n < 63 {
                        (((a[0] as i64) >> n) & 1) as f64
                    } else {
                        0.0
                    }
                }
                Func::Rising => {
                    let r = b && !s.prev;
                    s.prev = b;
                    f64::from(u8::from(r))
                }
                Func::Falling => {
                    let r = !b && s.prev;
                    s.prev = b;
                    f64::from(u8::from(r))
                }
                Func::CyclesWhile => {
                    s.count = if b { s.count + 1 } else { 0 };
                    s.count as f64
                }
                Func::MsWhile => {
                    if b {
                        let since = *s.since.get_or_insert(now);
                        now.saturating_sub(since) as f64
                    } else {
                        s.since = None;
                        0.0
                    }
                }
                Func::MsSince => {
                    if b {
                        s.last_true = Some(now);
                        0.0
                    } else {
                        s.last_true.map_or(1e9, |t| now.saturating_sub(t) as f64)
                    }
                }
            }
        }
    }
}

/// A bound input symbol.
struct BoundInput {
    symbol: usize,
    value: Bx,
    /// for an enumerated input bound by name to a text signal: match element names
    enum_text: Option<usize>,
}

/// A compiled actuation.
enum Act {
    Drive(Bx, Bx),
    Stop,
    Gripper(GripperCommand),
    /// the command named by an enumerated parameter's element (per element)
    GripperParam(usize, Vec<Option<GripperCommand>>),
    Say(Arc<str>),
}

struct OutputAct {
    symbol: usize,
    say: bool,
    /// element index → actuation
    mappings: Vec<(usize, Act)>,
}

fn gripper_command(name: &str) -> Option<GripperCommand> {
    Some(match name {
        "open" => GripperCommand::Open,
        "close" => GripperCommand::Close,
        "stop" => GripperCommand::Stop,
        "store" => GripperCommand::Store,
        "deploy" => GripperCommand::Deploy,
        "lift_up" => GripperCommand::LiftUp,
        "lift_down" => GripperCommand::LiftDown,
        "lift_stop" => GripperCommand::LiftStop,
        "halt" => GripperCommand::Halt,
        _ => return None,
    })
}

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

/// Compiles binding expressions.
struct Compiler<'a> {
    program: &'a Program,
    /// the robot's signals, when they are known: names are checked against them
    vocabulary: Option<&'a Vocabulary>,
    diags: Diagnostics,
    signals: Vec<String>,
    funcs: usize,
    /// input symbols bound so far: (symbol name, index into input values)
    bound: Vec<(String, usize)>,
}

impl Compiler<'_> {
    /// Is `name` a signal of the robot (any name is, when its signals are not known)?
    fn is_signal(&self, name: &str) -> bool {
        self.vocabulary.is_none_or(|v| v.resolve(name).is_some())
    }

    /// X8106: a name in a binding expression that is nothing the binding can read.
    fn unknown_name(&mut self, n: &crate::ast::Name, params: &[(String, String)]) {
        let mut names: Vec<String> = params.iter().map(|(s, _)| s.clone()).collect();
        names.extend(self.bound.iter().map(|(s, _)| s.clone()));
        names.extend(self.program.constants.iter().map(|c| c.name.clone()));
        let mut near = vocabulary::nearest(&n.text, names.iter().map(String::as_str), 3);
        if let Some(v) = self.vocabulary {
            near.extend(v.nearest(&n.text, 3 - near.len().min(3)));
        }
        let what = if params.is_empty() {
            "an input symbol bound above, a constant of the agents"
        } else {
            "a parameter of the basic behavior, an input symbol bound above, a constant of the agents"
        };
        let mut msg = format!("`{}` is neither {what} nor a signal of the robot", n.text);
        if !near.is_empty() {
            let quoted: Vec<String> = near.iter().map(|s| format!("`{s}`")).collect();
            msg.push_str(&format!("; did you mean {}?", quoted.join(" or ")));
        }
        self.diags.push(Diagnostic::error("X8106", n.span, msg));
    }

    fn signal(&mut self, name: &str) -> usize {
        match self.signals.iter().position(|s| s == name) {
            Some(i) => i,
            None => {
                self.signals.push(name.to_string());
                self.signals.len() - 1
            }
        }
    }

    /// Compile; `params` are the names visible as parameters (short, qualified).
    fn expr(&mut self, e: &Expr, params: &[(String, String)]) -> Option<Bx> {
        Some(match e {
            Expr::Number(t, _) => Bx::Num(t.parse().unwrap_or(0.0)),
            Expr::Bool(b, _) => Bx::Num(f64::from(u8::from(*b))),
            Expr::Paren(x, _) => return self.expr(x, params),
            Expr::Not(x, _) => Bx::Not(Box::new(self.expr(x, params)?)),
            Expr::Neg(x, _) => Bx::Neg(Box::new(self.expr(x, params)?)),
            Expr::Binary(op, a, b, _) => {
                let a = self.expr(a, params);
                let b = self.expr(b, params);
                Bx::Bin(*op, Box::new(a?), Box::new(b?))
            }
            Expr::Cond(c, a, b, _) => {
                let c = self.expr(c, params);
                let a = self.expr(a, params);
                let b = self.expr(b, params);
                Bx::Cond(Box::new(c?), Box::new(a?), Box::new(b?))
            }
            Expr::Name(n) => {
                let t = n.text.as_str();
                if let Some(i) = params.iter().position(|(s, q)| s == t || q == t) {
                    return Some(Bx::Param(i));
                }
                if let Some((_, i)) = self.bound.iter().find(|(s, _)| s == t) {
                    return Some(Bx::Input(*i));
                }
                if t == "pi" {
                    return Some(Bx::Num(std::f64::consts::PI));
                }
                if let Some(c) = self.program.constants.iter().find(|c| c.name == t) {
                    return Some(Bx::Num(c.value));
                }
                let elements: Vec<usize> = self
                    .program
                    .enums
                    .iter()
                    .flat_map(|en| {
                        (0..en.elements.len())
                            .filter(move |&i| en.short(i) == t || en.elements[i] == t)
                    })
                    .collect();
                if let [i] = elements.as_slice() {
                    return Some(Bx::Num(*i as f64));
                }
                if !self.is_signal(t) {
                    self.unknown_name(n, params);
                    return None;
                }
                Bx::Signal(self.signal(t))
            }
            Expr::Call { name, args, .. } => {
                let Some((f, n)) = Func::by_name(&name.text) else {
                    self.diags.push(Diagnostic::error(
                        "X8101",
                        name.span,
                        format!(
                            "unknown function `{}`: expected abs, min, max, clamp, bit, rising, falling, cycles_while, ms_while or ms_since",
                            name.text
                        ),
                    ));
                    return None;
                };
                if args.len() != n {
                    self.diags.push(Diagnostic::error(
                        "X8102",
                        name.span,
                        format!(
                            "`{}` takes {n} argument{}, not {}",
                            name.text,
                            if n == 1 { "" } else { "s" },
                            args.len()
                        ),
                    ));
                    return None;
                }
                let mut xs = Vec::new();
                for a in args {
                    xs.push(self.expr(&a.value, params)?);
                }
                self.funcs += 1;
                Bx::Call(f, xs, self.funcs - 1)
            }
            Expr::StateTime(s) | Expr::OptionTime(s) | Expr::ActionDone(s) | Expr::Conflict(s) => {
                self.diags.push(Diagnostic::error(
                    "X8103",
                    *s,
                    "option times, `action_done` and `conflict` belong to options, not to bindings",
                ));
                return None;
            }
        })
    }

    fn actuation(
        &mut self,
        a: &ActSpec,
        params: &[(String, String)],
        types: &[Type],
    ) -> Option<Act> {
        Some(match a {
            ActSpec::Drive(v, w, _) => {
                let v = self.expr(v, params);
                let w = self.expr(w, params);
                Act::Drive(v?, w?)
            }
            ActSpec::Stop(_) => Act::Stop,
            ActSpec::Say(t, _) => Act::Say(t.as_str().into()),
            ActSpec::Gripper(c, _) => {
                if let Some(g) = gripper_command(&c.text) {
                    return Some(Act::Gripper(g));
                }
                let pi = params
                    .iter()
                    .position(|(s, q)| *s == c.text || *q == c.text);
                match pi.and_then(|i| types.get(i).map(|t| (i, *t))) {
                    Some((i, Type::Enum(e))) => {
                        let en = &self.program.enums[e];
                        let cmds = (0..en.elements.len())
                            .map(|k| gripper_command(en.short(k)))
                            .collect();
                        Act::GripperParam(i, cmds)
                    }
                    _ => {
                        self.diags.push(Diagnostic::error(
                            "X8104",
                            c.span,
                            format!(
                                "`{}` is not a gripper command (open, close, stop, store, deploy, lift_up, lift_down, lift_stop, halt) nor an enumerated parameter",
                                c.text
                            ),
                        ));
                        return None;
                    }
                }
            }
        })
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
        let mut c = Compiler {
            program: &program,
            vocabulary,
            diags: Diagnostics::new(),
            signals: Vec::new(),
            funcs: 0,
            bound: Vec::new(),
        };
        let mut inputs = Vec::new();
        let bad = |c: &mut Compiler<'_>, span: Span, msg: String| {
            c.diags.push(Diagnostic::error("X8105", span, msg));
        };
        for ib in &file.inputs {
            let Some(sym) = program
                .symbols
                .iter()
                .position(|s| s.name == ib.name.text && s.kind == SymbolKind::Input)
            else {
                bad(
                    &mut c,
                    ib.name.span,
                    format!("no input symbol is called `{}`", ib.name.text),
                );
                continue;
            };
            if c.bound.iter().any(|(n, _)| *n == ib.name.text) {
                bad(
                    &mut c,
                    ib.name.span,
                    format!("`{}` is bound twice", ib.name.text),
                );
                continue;
            }
            if !program.symbols[sym].params.is_empty() {
                bad(
                    &mut c,
                    ib.name.span,
                    format!("`{}` has parameters; parameterised input symbols cannot be bound to signals", ib.name.text),
                );
                continue;
            }
            if let Some(x) = c.expr(&ib.expr, &[]) {
                let idx = inputs.len();
                inputs.push(BoundInput {
                    symbol: sym,
                    value: x,
                    enum_text: None,
                });
                c.bound.push((ib.name.text.clone(), idx));
            }
        }
        // every other input symbol reads the signal of its name
        for (i, s) in program.symbols.iter().enumerate() {
            if s.kind != SymbolKind::Input || inputs.iter().any(|b: &BoundInput| b.symbol == i) {
                continue;
            }
            if !s.params.is_empty() {
                continue;
            }
            if !c.is_signal(&s.name) {
                let near = vocabulary
                    .map(|v| v.nearest(&s.name, 3))
                    .unwrap_or_default();
                let mut msg = format!(
                    "input symbol `{}` has no binding, and the robot has no signal `{}`: bind it in the binding file (`input {} = EXPRESSION;`)",
                    s.name, s.name, s.name
                );
                if !near.is_empty() {
                    let quoted: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
                    msg.push_str(&format!(", or did you mean {}?", quoted.join(" or ")));
                }
                c.diags.push(Diagnostic::error("X8107", s.span, msg));
                continue;
            }
            let sig = c.signal(&s.name);
            inputs.push(BoundInput {
                symbol: i,
                value: Bx::Signal(sig),
                enum_text: match s.ty {
                    Type::Enum(_) => Some(sig),
                    _ => None,
                },
            });
        }
        let mut behaviors: Vec<Vec<Act>> = program.behaviors.iter().map(|_| Vec::new()).collect();
        for bb in &file.behaviors {
            let Some(b) = program.behavior(&bb.name.text) else {
                bad(
                    &mut c,
                    bb.name.span,
                    format!("no basic behavior is called `{}`", bb.name.text),
                );
                continue;
            };
            let params: Vec<(String, String)> = program.behaviors[b]
                .params
                .iter()
                .map(|p| (p.short.clone(), p.name.clone()))
                .collect();
            let types: Vec<Type> = program.behaviors[b].params.iter().map(|p| p.ty).collect();
            for a in &bb.actuations {
                if let Some(x) = c.actuation(a, &params, &types) {
                    behaviors[b].push(x);
                }
            }
        }
        let mut outputs = Vec::new();
        for ob in &file.outputs {
            let Some(sym) = program
                .symbols
                .iter()
                .position(|s| s.name == ob.name.text && s.is_output())
            else {
                bad(
                    &mut c,
                    ob.name.span,
                    format!("no output symbol is called `{}`", ob.name.text),
                );
                continue;
            };
            let mut o = OutputAct {
                symbol: sym,
                say: ob.say,
                mappings: Vec::new(),
            };
            for (el, a) in &ob.mappings {
                let Type::Enum(e) = program.symbols[sym].ty else {
                    bad(&mut c, el.span, format!("`{}` is not enumerated; only enumerated outputs map elements to actuations", ob.name.text));
                    break;
                };
                let en = &program.enums[e];
                let Some(k) = (0..en.elements.len())
                    .find(|&k| en.short(k) == el.text || en.elements[k] == el.text)
                else {
                    bad(
                        &mut c,
                        el.span,
                        format!("`{}` is not an element of `{}`", el.text, en.name),
                    );
                    continue;
                };
                if let Some(x) = c.actuation(a, &[], &[]) {
                    o.mappings.push((k, x));
                }
            }
            outputs.push(o);
        }
        if c.diags.has_errors() {
            return Err(Error::Compile(c.diags.render(&sources)));
        }
        let agent = program.agents.first().map_or("agent", |a| a.name.as_str());
        let n_inputs = inputs.len();
        let n_sym = program.symbols.len();
        let n_bb = program.behaviors.len();
        // native code now, not in the first control cycle
        let mut engine = engine;
        engine.prepare();
        Ok(XabslController {
            name: format!("xabsl:{agent}"),
            engine,
            inputs,
            input_values: vec![0.0; n_inputs],
            behaviors,
            outputs,
            signal_ids: vec![None; c.signals.len()],
            signal_names: c.signals,
            funcs: vec![FState::default(); c.funcs],
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
            return Err(ControllerError::vehicle(format!(
                "{} has no signal {}: bind the input symbols that read them in the agents' binding file (`input NAME = EXPRESSION;`, see docs/xabsl.md)",
                vehicle.name,
                missing.join(", ")
            )));
        }
        Ok(())
    }

    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let now = c.now.as_millis() as u64;
        self.cycles += 1;
        // inputs, in binding order
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
        // team messages of the previous cycle (a lone agent prepares too: its
        // synchronized states are entered after one tick, as with team-mates)
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
        self.engine.execute(now);
        if let Some((bus, me)) = &self.team {
            if let Ok(mut slots) = bus.slots.lock() {
                if let Some(s) = slots.get_mut(*me) {
                    s.previous = std::mem::take(&mut s.current);
                    s.cycle = self.cycles;
                    self.engine.generate_outgoing_message(&mut s.current);
                }
            }
        }
        // basic behaviors → actuation
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
        // output symbols → actuation, speech
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
        // transitions
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
