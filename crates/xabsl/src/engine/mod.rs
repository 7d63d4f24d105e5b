//! The XABSL engine, with the reference engine's semantics (the NaoTH C++ engine,
//! restated as rules in `docs/xabsl.md`).
//!
//! One cycle ([`Engine::execute`]):
//!
//! 1. every output symbol's "set this cycle" flag is cleared (values persist);
//! 2. the root actions run: normally the selected agent's root option;
//! 3. every option and basic behavior's "active in the previous cycle" becomes whether it
//!    ran in this one.
//!
//! Calling an option or basic behavior writes *all* its parameters (those not given: 0,
//! false, first element), decimal first, then boolean, then enumerated; sets its
//! activation time if it was not active in the previous cycle; sets its execution time
//! (`option_time`); runs it. An option that was not active in the previous cycle starts
//! in its initial state. It decides once per cycle (the common decision, then the active
//! state's own tree); a transition takes effect at once (the new state's actions run in
//! the same cycle with `state_time` 0); `stay` keeps `state_time` running. An option run
//! twice in a cycle is reported and runs again. `action_done` is true when an option
//! called by the active state was active in the previous cycle and is in a target state.
//! `/` by zero divides by 1e-7; `%` works on the operands truncated to 32-bit integers
//! (and gives 0, reported, for a zero divisor, where the reference crashes).
//!
//! The checked program is built into an executable form of typed trees ([`code`]),
//! which is lowered to a flat list of instructions over one array of slots (`vm`). By
//! default every option of that list is compiled to machine code with Cranelift on the
//! first cycle (`native`, [`Backend::Native`]); the interpreter (`vm`: one loop for the
//! whole cycle, options entered and left on a stack of frames) runs it where that is not
//! available or when asked ([`Backend::Interpreter`]). Both share the Rust code of the
//! bookkeeping (activation, times, path, basic behaviors) and give the same results.
//!
//! Nothing in a steady-state cycle allocates: values live in one array of slots, the
//! instructions are built at load time, and the activation path, the list of basic
//! behaviors run and the frames are buffers reused from cycle to cycle.

mod build;
pub mod code;
#[cfg(feature = "native")]
mod native;
mod root;
mod run;
mod vm;

use crate::model::{self, OptionId, Program, SymbolId, Type};
use crate::Error;
pub use code::InputFn;
use code::{Code, CoopKind, Source};
use std::sync::Arc;

/// One option on the activation path of a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathEntry {
    /// the option
    pub option: OptionId,
    /// its active state (index in the option)
    pub state: usize,
    /// time since the state was entered (ms)
    pub state_time: u64,
    /// time since the option was activated (ms)
    pub option_time: u64,
    /// depth in the option tree (the root is 0)
    pub depth: u32,
}

/// A basic behavior run in a cycle (once per call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Executed {
    /// the basic behavior
    pub behavior: usize,
    /// whether a parameter changed at this call (the reference's "parameters changed")
    pub changed: bool,
}

/// Something went wrong while running (the cycle goes on, as in the reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuntimeProblem {
    /// an option ran more than once in a cycle (unsupported by the reference; its state
    /// machine decided again with the later caller's parameters)
    OptionExecutedTwice(OptionId),
    /// `%` with a divisor of 0 (gave 0)
    ModuloByZero,
}

/// A message between cooperating agents (the reference's `TeamMessage`): which
/// cooperative states (numbered as in [`Engine::coop_states`]) the sender executes, is
/// trying to enter, or whose option it runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TeamMessage {
    /// cooperative states being executed
    pub coop_states_executed: Vec<u32>,
    /// cooperative states the agent tries to enter
    pub coop_states_entering: Vec<u32>,
    /// cooperative states whose option is active
    pub coop_states_option_executed: Vec<u32>,
    /// the sender's priority
    pub agent_priority: i32,
}

impl TeamMessage {
    /// Empty the lists (keeps their capacity).
    pub fn reset(&mut self) {
        self.coop_states_executed.clear();
        self.coop_states_entering.clear();
        self.coop_states_option_executed.clear();
    }
}

/// How the engine runs its cycles. Both give the same results, cycle by cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// machine code, compiled with Cranelift on the first cycle (the default where the
    /// `native` feature is on and Cranelift supports the machine; the interpreter runs
    /// otherwise)
    Native,
    /// the interpreter of the instruction list
    Interpreter,
}

/// What runs at the top of a cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RootAction {
    /// an option (normally the selected agent's root option)
    Option(OptionId),
    /// a basic behavior
    Behavior(usize),
    /// set an output symbol to a fixed value (boolean 0/1, enumerated element index)
    Set(SymbolId, f64),
}

#[derive(Debug, Clone, Copy, Default)]
struct BehaviorState {
    ran: run::Ran,
    activation: u64,
    time: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct OptionRt {
    ran: run::Ran,
    activation: u64,
    time: u64,
    active: u32,
    /// when the active state was entered, and the time since (the timer belongs to
    /// the active state: a state entered again starts at 0)
    state_activation: u64,
    state_time: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct CoopRt {
    executing: i32,
    entering_count: i32,
    in_option: i32,
    highest_priority_entering: i32,
    entering: bool,
    enter_count: i32,
    conflict: bool,
}

/// Everything that changes while running.
#[derive(Debug, Clone)]
struct Runtime {
    now: u64,
    slots: Vec<f64>,
    options: Vec<OptionRt>,
    behaviors: Vec<BehaviorState>,
    coop: Vec<CoopRt>,
    /// the cycle each output symbol was last set in by a root action (the symbols the
    /// options set are found from the path)
    output_set: Vec<u64>,
    /// the number of the current (or last) cycle; the first is 2 (0 is "never")
    cycle: u64,
    path: Vec<PathEntry>,
    /// the options being run (a stack as deep as the longest chain of calls)
    frames: Vec<vm::Frame>,
    executed: Vec<Executed>,
    problems: Vec<RuntimeProblem>,
    problems_dropped: usize,
    agent_priority: i32,
    synchronization_ticks: i32,
}

/// The engine: a program in executable form and its run-time state.
pub struct Engine {
    program: Arc<Program>,
    sources: Vec<Source>,
    code: Code,
    vm: vm::Vm,
    rt: Runtime,
    roots: Vec<RootAction>,
    root_calls: Vec<run::Root>,
    /// (slot, value) written by the root calls
    root_params: Vec<(u32, f64)>,
    agent: usize,
    /// the backend asked for
    backend: Backend,
    /// whether native code was compiled for the current program (or tried)
    native_tried: bool,
}

const MAX_PROBLEMS: usize = 64;

impl Engine {
    /// Build the engine for a checked program (one without errors). The first agent is
    /// selected. Fails if the program has no agent or its options call each other in a
    /// cycle.
    pub fn new(program: Arc<Program>) -> Result<Engine, Error> {
        if program.agents.is_empty() {
            return Err(Error::Engine(
                "the program declares no agent: write `agent NAME(\"Title\", ROOT_OPTION);` in the agents file".into(),
            ));
        }
        if let Some(c) = find_cycle(&program) {
            return Err(Error::Engine(format!(
                "the options call each other in a cycle: {c}"
            )));
        }
        let code = build::build(&program, &[]);
        let vm = vm::Vm::new(&code);
        let rt = Runtime {
            now: 0,
            slots: vm.initial.clone(),
            options: vec![OptionRt::default(); code.options.len()],
            behaviors: vec![BehaviorState::default(); code.behaviors.len()],
            coop: vec![CoopRt::default(); code.coop_states.len()],
            output_set: vec![0; program.symbols.len()],
            cycle: 1,
            path: Vec::with_capacity(code.options.len().max(4)),
            frames: Vec::with_capacity(vm.depth),
            executed: Vec::with_capacity(code.behaviors.len().max(4)),
            problems: Vec::with_capacity(MAX_PROBLEMS),
            problems_dropped: 0,
            agent_priority: 0,
            synchronization_ticks: 0,
        };
        let sources = vec![Source::Value; code.inputs.len()];
        let mut e = Engine {
            program,
            sources,
            code,
            vm,
            rt,
            roots: Vec::new(),
            root_calls: Vec::new(),
            root_params: Vec::new(),
            agent: 0,
            backend: if cfg!(feature = "native") {
                Backend::Native
            } else {
                Backend::Interpreter
            },
            native_tried: false,
        };
        for (i, o) in e.code.options.iter().enumerate() {
            if let Some(r) = e.rt.options.get_mut(i) {
                r.active = o.initial;
            }
        }
        e.select_agent_index(0);
        Ok(e)
    }

    /// The program.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The executable form (for inspection).
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The selected agent.
    pub fn agent(&self) -> usize {
        self.agent
    }

    /// Select an agent by name: its root option becomes the only root action. Option
    /// states are not reset (options not active in the last cycle restart anyway).
    pub fn select_agent(&mut self, name: &str) -> bool {
        match self.program.agents.iter().position(|a| a.name == name) {
            Some(i) => {
                if i != self.agent || self.roots.is_empty() {
                    self.select_agent_index(i);
                }
                true
            }
            None => false,
        }
    }

    fn select_agent_index(&mut self, i: usize) {
        self.agent = i;
        let root = self.program.agents.get(i).map_or(0, |a| a.root);
        self.set_root_actions(&[RootAction::Option(root)]);
    }

    /// Replace the root actions (several options, basic behaviors or fixed output
    /// values, run in order each cycle; a NaoTH extension).
    pub fn set_root_actions(&mut self, roots: &[RootAction]) {
        self.roots = roots.to_vec();
        self.root_calls.clear();
        self.root_params.clear();
        for r in roots {
            let call = match *r {
                RootAction::Option(o) => {
                    let (first, n) = self.default_call(true, o);
                    run::Root::Option(o as u32, first, n)
                }
                RootAction::Behavior(b) => {
                    let (first, n) = self.default_call(false, b);
                    run::Root::Behavior(b as u32, first, n)
                }
                RootAction::Set(s, v) => {
                    let slot = self.code.symbol_slot.get(s).copied().unwrap_or(0);
                    let v = match self.program.symbols.get(s).map(|s| s.ty) {
                        Some(Type::Boolean) => f64::from(u8::from(v != 0.0)),
                        Some(Type::Enum(_)) => f64::from(v as u32),
                        _ => v,
                    };
                    run::Root::Set(s as u32, slot, v)
                }
            };
            self.root_calls.push(call);
        }
    }

    /// The root actions.
    pub fn root_actions(&self) -> &[RootAction] {
        &self.roots
    }

    /// Every parameter of an option or basic behavior written with 0 / false / first
    /// element, in the reference's order: (first, count) in the root parameters.
    fn default_call(&mut self, option: bool, i: usize) -> (u32, u32) {
        let (params, first) = if option {
            (
                self.program
                    .options
                    .get(i)
                    .map(|o| o.params.as_slice())
                    .unwrap_or(&[]),
                self.code.options.get(i).map_or(0, |o| o.first_param),
            )
        } else {
            (
                self.program
                    .behaviors
                    .get(i)
                    .map(|b| b.params.as_slice())
                    .unwrap_or(&[]),
                self.code.behaviors.get(i).map_or(0, |b| b.first_param),
            )
        };
        let start = self.root_params.len() as u32;
        for k in build::set_order(params) {
            self.root_params.push((first + k as u32, 0.0));
        }
        (start, self.root_params.len() as u32 - start)
    }

    // ----------------------------------------------------------------- inputs

    /// Set an input symbol's value (for inputs the host sets before each cycle;
    /// booleans 0/1, enumerated values element indices).
    pub fn set_input(&mut self, symbol: SymbolId, value: f64) {
        if let Some(&slot) = self.code.symbol_slot.get(symbol) {
            if let Some(s) = self.rt.slots.get_mut(slot as usize) {
                *s = value;
            }
        }
    }

    /// Set a boolean input symbol.
    pub fn set_bool(&mut self, symbol: SymbolId, value: bool) {
        self.set_input(symbol, if value { 1.0 } else { 0.0 });
    }

    /// Set an enumerated input symbol by element index.
    pub fn set_enum(&mut self, symbol: SymbolId, element: usize) {
        self.set_input(symbol, element as f64);
    }

    /// Bind an input symbol to a host function of its parameters (called afresh at every
    /// reference, as the reference's getters).
    pub fn bind_input(&mut self, symbol: SymbolId, f: InputFn) -> Result<(), Error> {
        let i = self.input_index(symbol)?;
        self.sources[i] = Source::Function(f);
        self.rebuild();
        Ok(())
    }

    /// Take input values from [`Engine::set_input`] again (undo a binding or definition).
    pub fn unbind_input(&mut self, symbol: SymbolId) -> Result<(), Error> {
        let i = self.input_index(symbol)?;
        self.sources[i] = Source::Value;
        self.rebuild();
        Ok(())
    }

    /// Rebuild the executable form after a binding changed (the slots stay as they are).
    fn rebuild(&mut self) {
        self.code = build::build(&self.program, &self.sources);
        self.vm = vm::Vm::new(&self.code);
        self.native_tried = false;
        // the program's slots keep their values; times, temporaries and constants
        // are laid out anew
        let mut slots = self.vm.initial.clone();
        let n = self.code.initial.len().min(self.rt.slots.len());
        if let (Some(new), Some(old)) = (slots.get_mut(..n), self.rt.slots.get(..n)) {
            new.copy_from_slice(old);
        }
        for (o, r) in self.rt.options.iter().enumerate() {
            if let Some(x) = slots.get_mut(self.vm.state_time as usize + o) {
                *x = r.state_time as f64;
            }
            if let Some(x) = slots.get_mut(self.vm.option_time as usize + o) {
                *x = r.time as f64;
            }
        }
        self.rt.slots = slots;
        let roots = self.roots.clone();
        self.set_root_actions(&roots);
    }

    /// Define a (parameterised) input symbol by an expression over its parameters and
    /// other symbols, as `skipper xabsl run --define 'in.scaled(k)=in.f0*k'` does.
    pub fn define_input(&mut self, symbol: SymbolId, e: &model::Expr) -> Result<(), Error> {
        let i = self.input_index(symbol)?;
        let old = std::mem::replace(&mut self.sources[i], Source::Definition(e.clone()));
        if let Some(chain) = self.definition_cycle(symbol) {
            self.sources[i] = old;
            return Err(Error::Engine(format!(
                "the definitions of the input symbols depend on each other in a cycle: {chain}"
            )));
        }
        self.rebuild();
        Ok(())
    }

    /// A cycle among input definitions through `start`, as "`a` uses `b` uses `a`".
    fn definition_cycle(&self, start: SymbolId) -> Option<String> {
        fn uses(e: &model::Expr, out: &mut Vec<SymbolId>) {
            use model::Expr as X;
            match e {
                X::Input { symbol, args, .. } => {
                    out.push(*symbol);
                    for a in args {
                        uses(&a.value, out);
                    }
                }
                X::Arith(_, a, b) | X::Compare(_, a, b) | X::EnumEq(a, b) => {
                    uses(a, out);
                    uses(b, out);
                }
                X::Not(a) => uses(a, out),
                X::And(v) | X::Or(v) => v.iter().for_each(|x| uses(x, out)),
                X::Cond {
                    cond, then, other, ..
                } => {
                    uses(cond, out);
                    uses(then, out);
                    uses(other, out);
                }
                _ => {}
            }
        }
        let mut stack = vec![(start, vec![start])];
        while let Some((s, path)) = stack.pop() {
            let Some(i) = self.code.symbol_input.get(s).copied().flatten() else {
                continue;
            };
            let Some(Source::Definition(x)) = self.sources.get(i as usize) else {
                continue;
            };
            let mut next = Vec::new();
            uses(x, &mut next);
            for n in next {
                if n == start {
                    let mut names: Vec<String> = path
                        .iter()
                        .map(|&k| format!("`{}`", self.program.symbols[k].name))
                        .collect();
                    names.push(format!("`{}`", self.program.symbols[start].name));
                    return Some(names.join(" uses "));
                }
                if !path.contains(&n) && path.len() < 64 {
                    let mut p = path.clone();
                    p.push(n);
                    stack.push((n, p));
                }
            }
        }
        None
    }

    fn input_index(&self, symbol: SymbolId) -> Result<usize, Error> {
        self.code
            .symbol_input
            .get(symbol)
            .copied()
            .flatten()
            .map(|i| i as usize)
            .ok_or_else(|| {
                Error::Engine(format!(
                    "`{}` is not an input symbol",
                    self.program
                        .symbols
                        .get(symbol)
                        .map_or("?", |s| s.name.as_str())
                ))
            })
    }

    /// Whether an input symbol takes its value from [`Engine::set_input`].
    pub fn input_is_value(&self, symbol: SymbolId) -> bool {
        self.input_index(symbol)
            .ok()
            .and_then(|i| self.sources.get(i))
            .is_some_and(|s| matches!(s, Source::Value))
    }

    // ---------------------------------------------------------------- outputs

    /// The current value of a symbol (output, internal, or a value-bound input).
    pub fn value(&self, symbol: SymbolId) -> f64 {
        self.code
            .symbol_slot
            .get(symbol)
            .and_then(|&s| self.rt.slots.get(s as usize))
            .copied()
            .unwrap_or(0.0)
    }

    /// Set an output or internal symbol from outside (as a host writing its variable).
    pub fn set_output(&mut self, symbol: SymbolId, value: f64) {
        self.set_input(symbol, value);
    }

    /// Whether an output symbol was set in the last cycle.
    pub fn was_set(&self, symbol: SymbolId) -> bool {
        // set by a root action, or by the actions of a state on the path
        self.rt.output_set.get(symbol) == Some(&self.rt.cycle)
            || self.rt.path.iter().any(|p| {
                let g = self
                    .code
                    .options
                    .get(p.option)
                    .map_or(usize::MAX, |o| o.first_state as usize + p.state);
                self.vm.sets_of(g).iter().any(|&s| s as usize == symbol)
            })
    }

    /// The current value of a parameter of an option (`index` in its declaration).
    pub fn option_parameter(&self, option: OptionId, index: usize) -> f64 {
        self.code
            .options
            .get(option)
            .and_then(|o| self.rt.slots.get(o.first_param as usize + index))
            .copied()
            .unwrap_or(0.0)
    }

    // ------------------------------------------------------------- the cycle

    /// Choose how cycles run (the default is [`Backend::Native`]).
    pub fn set_backend(&mut self, backend: Backend) {
        self.backend = backend;
        #[cfg(feature = "native")]
        if backend == Backend::Interpreter {
            self.vm.native = None;
        }
        self.native_tried = false;
    }

    /// How cycles run: [`Backend::Native`] once machine code was compiled (on the
    /// first cycle), else [`Backend::Interpreter`].
    pub fn backend(&self) -> Backend {
        #[cfg(feature = "native")]
        if self.vm.native.is_some() {
            return Backend::Native;
        }
        Backend::Interpreter
    }

    /// Compile the native code now rather than on the first cycle (which would take
    /// the compile time: about 0.5-1 ms per option). Binding or defining an input
    /// afterwards compiles again before the next cycle.
    pub fn prepare(&mut self) {
        if self.native_tried {
            return;
        }
        self.native_tried = true;
        #[cfg(feature = "native")]
        if self.backend == Backend::Native {
            self.vm.native = native::Native::compile(&self.vm);
        }
    }

    /// Run one cycle at time `now_ms` (milliseconds of the host's clock).
    pub fn execute(&mut self, now_ms: u64) {
        self.prepare();
        run::execute(
            &self.vm,
            &self.root_calls,
            &self.root_params,
            &mut self.rt,
            now_ms,
        );
    }

    /// Forget which options and basic behaviors were active: the next cycle starts every
    /// option in its initial state.
    pub fn reset(&mut self) {
        for o in &mut self.rt.options {
            o.ran = run::Ran::default();
        }
        for b in &mut self.rt.behaviors {
            b.ran = run::Ran::default();
        }
    }

    /// The activation path of the last cycle: the options run, root first, in the order
    /// they ran.
    pub fn path(&self) -> &[PathEntry] {
        &self.rt.path
    }

    /// The basic behaviors run in the last cycle, in the order they ran.
    pub fn executed(&self) -> &[Executed] {
        &self.rt.executed
    }

    /// The parameter values of an executed basic behavior: those of its last call in
    /// the cycle (a later call overwrites an earlier one's, as in the reference).
    pub fn params_of(&self, e: &Executed) -> &[f64] {
        self.behavior_params(e.behavior)
    }

    /// Whether a basic behavior ran in the last cycle.
    pub fn behavior_ran(&self, behavior: usize) -> bool {
        self.rt
            .behaviors
            .get(behavior)
            .is_some_and(|b| b.ran.last == self.rt.cycle)
    }

    /// The current parameter values of a basic behavior (declaration order): those of its
    /// last call.
    pub fn behavior_params(&self, behavior: usize) -> &[f64] {
        self.code
            .behaviors
            .get(behavior)
            .and_then(|b| {
                self.rt
                    .slots
                    .get(b.first_param as usize..(b.first_param + b.n_params) as usize)
            })
            .unwrap_or(&[])
    }

    /// Problems of the last cycle (at most 64; see [`Engine::problems_dropped`]).
    pub fn problems(&self) -> &[RuntimeProblem] {
        &self.rt.problems
    }

    /// A run-time problem in words, options named.
    pub fn describe(&self, p: &RuntimeProblem) -> String {
        match p {
            RuntimeProblem::OptionExecutedTwice(o) => format!(
                "option `{}` was executed more than once in a cycle (unsupported: it decided again with the later caller's parameters)",
                self.program().options.get(*o).map_or("?", |o| o.name.as_str())
            ),
            RuntimeProblem::ModuloByZero => "`%` by zero (gave 0)".into(),
        }
    }

    /// Problems beyond the first 64 of the last cycle.
    pub fn problems_dropped(&self) -> usize {
        self.rt.problems_dropped
    }

    /// The active state of an option (index in the option).
    pub fn active_state(&self, option: OptionId) -> usize {
        let (Some(r), Some(c)) = (self.rt.options.get(option), self.code.options.get(option))
        else {
            return 0;
        };
        r.active.saturating_sub(c.first_state) as usize
    }

    /// Whether an option ran in the last cycle.
    pub fn was_active(&self, option: OptionId) -> bool {
        self.rt
            .options
            .get(option)
            .is_some_and(|o| o.ran.last == self.rt.cycle)
    }

    /// Whether the root option of the selected agent is in a target state.
    pub fn root_reached_target(&self) -> bool {
        let Some(a) = self.program.agents.get(self.agent) else {
            return false;
        };
        let o = a.root;
        let s = self.active_state(o);
        self.was_active(o)
            && self
                .program
                .options
                .get(o)
                .and_then(|x| x.states.get(s))
                .is_some_and(|s| s.target)
    }

    // ------------------------------------------------------- cooperation

    /// The cooperative states, numbered as in team messages: (option, state) pairs.
    pub fn coop_states(&self) -> Vec<(OptionId, usize)> {
        self.code
            .coop_states
            .iter()
            .filter_map(|&g| self.code.states.get(g as usize))
            .map(|s| (s.option as usize, s.local as usize))
            .collect()
    }

    /// This agent's priority (higher wins when several want a capacity state).
    pub fn set_agent_priority(&mut self, p: i32) {
        self.rt.agent_priority = p;
    }

    /// Cycles needed for a message to reach the team-mates and their answer to come back.
    pub fn set_synchronization_ticks(&mut self, ticks: i32) {
        self.rt.synchronization_ticks = ticks;
    }

    /// Call before processing the messages of a cycle (and before [`Engine::execute`]).
    pub fn prepare_incoming_messages(&mut self) {
        for c in &mut self.rt.coop {
            c.executing = 0;
            c.entering_count = 0;
            c.in_option = 0;
            if c.entering {
                c.enter_count += 1;
            } else {
                c.enter_count = 0;
            }
            c.entering = false;
        }
    }

    /// Take in a team-mate's message.
    pub fn process_incoming_message(&mut self, m: &TeamMessage) {
        for &i in &m.coop_states_executed {
            if let Some(c) = self.rt.coop.get_mut(i as usize) {
                c.executing += 1;
            }
        }
        for &i in &m.coop_states_entering {
            if let Some(c) = self.rt.coop.get_mut(i as usize) {
                if c.entering_count == 0 || c.highest_priority_entering < m.agent_priority {
                    c.highest_priority_entering = m.agent_priority;
                }
                c.entering_count += 1;
            }
        }
        for &i in &m.coop_states_option_executed {
            if let Some(c) = self.rt.coop.get_mut(i as usize) {
                c.in_option += 1;
            }
        }
    }

    /// Write this agent's message for its team-mates (after [`Engine::execute`]).
    pub fn generate_outgoing_message(&self, m: &mut TeamMessage) {
        m.reset();
        for (i, &g) in self.code.coop_states.iter().enumerate() {
            let Some(st) = self.code.states.get(g as usize) else {
                continue;
            };
            let Some(o) = self.rt.options.get(st.option as usize) else {
                continue;
            };
            if o.ran.last == self.rt.cycle {
                m.coop_states_option_executed.push(i as u32);
                if o.active == g {
                    m.coop_states_executed.push(i as u32);
                } else if self.rt.coop.get(i).is_some_and(|c| c.entering) {
                    m.coop_states_entering.push(i as u32);
                }
            }
        }
        m.agent_priority = self.rt.agent_priority;
    }

    /// Whether the capacity state (option, state) saw a conflict when it last decided.
    pub fn conflict(&self, option: OptionId, state: usize) -> bool {
        let Some(o) = self.code.options.get(option) else {
            return false;
        };
        let g = o.first_state as usize + state;
        self.code
            .states
            .get(g)
            .and_then(|s| s.coop_index)
            .and_then(|i| self.rt.coop.get(i as usize))
            .is_some_and(|c| c.conflict)
    }

    /// The kind of a state's cooperation.
    pub fn coop_kind(&self, option: OptionId, state: usize) -> CoopKind {
        self.code
            .options
            .get(option)
            .and_then(|o| self.code.states.get(o.first_state as usize + state))
            .map_or(CoopKind::Normal, |s| s.coop)
    }
}

/// A cycle of option calls, as "`a` calls `b` calls `a`".
fn find_cycle(p: &Program) -> Option<String> {
    fn visit(p: &Program, o: usize, mark: &mut [u8], path: &mut Vec<usize>) -> Option<String> {
        if mark[o] == 2 {
            return None;
        }
        if mark[o] == 1 {
            let pos = path.iter().position(|&x| x == o).unwrap_or(0);
            let mut names: Vec<String> = path[pos..]
                .iter()
                .map(|&x| format!("`{}`", p.options[x].name))
                .collect();
            names.push(format!("`{}`", p.options[o].name));
            return Some(names.join(" calls "));
        }
        mark[o] = 1;
        path.push(o);
        for c in p.callees(o) {
            if let Some(s) = visit(p, c, mark, path) {
                return Some(s);
            }
        }
        path.pop();
        mark[o] = 2;
        None
    }
    let mut mark = vec![0u8; p.options.len()];
    for o in 0..p.options.len() {
        let mut path = Vec::new();
        if let Some(s) = visit(p, o, &mut mark, &mut path) {
            return Some(s);
        }
    }
    None
}
