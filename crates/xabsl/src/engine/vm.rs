//! The executable form lowered to a flat instruction list over one array of slots, and
//! the interpreter that runs it.
//!
//! Every state becomes two runs of instructions: its decision (the common decision with
//! the state's own tree inlined as its last else), ending in a `Goto`, and its actions,
//! ending in `End`. Every operand is a slot: symbols and parameters, the constants of the
//! program (a pool of read-only slots), the `option_time` of each option and the
//! `state_time` of its active state (written when the option runs), and temporaries for
//! the intermediate values of an expression. An instruction is 16 bytes; conditions
//! compile to compare-and-jump instructions with `&&`, `||` and `!` as jumps
//! (short-circuit, as the reference evaluates them), so a decision costs one dispatch per
//! condition tested. Operands without effect may be computed eagerly instead (`AndV`,
//! `Sel`), which nobody can tell apart.
//!
//! Calls write their parameters from a table of (parameter slot, value slot) pairs
//! after the expressions of the call site were evaluated into temporaries; nothing a
//! parameter expression can read is written by that (see `Compiler::call`).
//!
//! The slot array and the instruction list are a power of two long and every index is
//! masked, so that the compiler sees the accesses in bounds (no checks in the loop, and
//! no index can go out of bounds).

use super::code::*;
use super::run::{coop_check_coop, problem};
use super::{Executed, PathEntry, Runtime, RuntimeProblem};
use std::collections::HashMap;

/// One instruction. Fields are slots unless named otherwise; jump targets are the
/// last field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ins {
    /// the decision chose this state (global index)
    Goto(u32),
    /// end of a state's actions
    End,
    /// jump
    Jmp(u32),
    /// jump if the slot is 0 (a false boolean)
    Jz(u32, u32),
    /// jump if the slot is not 0
    Jnz(u32, u32),
    /// jump if a < b
    JLt(u32, u32, u32),
    /// jump unless a < b
    JNlt(u32, u32, u32),
    /// jump if a > b
    JGt(u32, u32, u32),
    /// jump unless a > b
    JNgt(u32, u32, u32),
    /// jump if a <= b
    JLe(u32, u32, u32),
    /// jump unless a <= b
    JNle(u32, u32, u32),
    /// jump if a >= b
    JGe(u32, u32, u32),
    /// jump unless a >= b
    JNge(u32, u32, u32),
    /// jump if a == b
    JEq(u32, u32, u32),
    /// jump if a != b
    JNe(u32, u32, u32),
    /// jump if the enumerated values are equal
    JEnumEq(u32, u32, u32),
    /// jump if they differ
    JEnumNe(u32, u32, u32),
    /// jump if `action_done` (subsequent options: first index in the table, count)
    JDone(u32, u32, u32),
    /// jump unless `action_done`
    JNotDone(u32, u32, u32),
    /// jump if `action_done` with one subsequent option (that option)
    JDone1(u32, u32),
    /// jump unless `action_done` with one subsequent option
    JNotDone1(u32, u32),
    /// jump if lo <= a < hi (lo and hi in two slots from k: an element compared with
    /// a constant element above 0)
    JIn(u32, u32, u32),
    /// jump unless lo <= a < hi
    JNotIn(u32, u32, u32),
    /// dst = a + b
    Add(u32, u32, u32),
    /// dst = a - b
    Sub(u32, u32, u32),
    /// dst = a * b
    Mul(u32, u32, u32),
    /// dst = a / b (by zero: by 1e-7)
    Div(u32, u32, u32),
    /// dst = a % b on integers
    Mod(u32, u32, u32),
    /// dst = a < b (0/1)
    Lt(u32, u32, u32),
    /// dst = a > b
    Gt(u32, u32, u32),
    /// dst = a <= b
    Le(u32, u32, u32),
    /// dst = a >= b
    Ge(u32, u32, u32),
    /// dst = a == b
    Eq(u32, u32, u32),
    /// dst = a != b
    Ne(u32, u32, u32),
    /// dst = enumerated a == b
    EnumEq(u32, u32, u32),
    /// dst = a == 0 (boolean not)
    Not(u32, u32),
    /// dst = a != 0 (as 0/1)
    Bool(u32, u32),
    /// dst = a as an element index
    ToU32(u32, u32),
    /// dst = a
    Mov(u32, u32),
    /// dst = `action_done` (first index in the table, count)
    Done(u32, u32, u32),
    /// dst = `conflict` of a cooperative state (its index among them)
    Conflict(u32, u32),
    /// dst = host function (index in the host table), decimal
    HostD(u32, u32),
    /// dst = host function, boolean (0/1)
    HostB(u32, u32),
    /// dst = host function, element index
    HostE(u32, u32),
    /// dst = the first slot of a pair if c is not 0, else the second (a conditional
    /// whose branches have no effect: both are computed): (dst, c, pair)
    Sel(u32, u32, u32),
    /// dst = a != 0 && b != 0 (both evaluated: used where neither has side effects)
    AndV(u32, u32, u32),
    /// dst = a != 0 || b != 0 (both evaluated: used where neither has side effects)
    OrV(u32, u32, u32),
    /// write the parameters (first pair, count), run the option
    CallOption(u32, u32, u32),
    /// write the parameters (first pair, count), run the basic behavior
    CallBehavior(u32, u32, u32),
}

impl Ins {
    fn set_target(&mut self, t: u32) {
        if let Some(x) = self.target_mut() {
            *x = t;
        }
    }

    /// Where it jumps, if it is a jump.
    pub(super) fn target(self) -> Option<u32> {
        let mut i = self;
        i.target_mut().copied()
    }

    fn target_mut(&mut self) -> Option<&mut u32> {
        use Ins::*;
        match self {
            Jmp(x) | Jz(_, x) | Jnz(_, x) | JDone1(_, x) | JNotDone1(_, x) => Some(x),
            JLt(_, _, x)
            | JNlt(_, _, x)
            | JGt(_, _, x)
            | JNgt(_, _, x)
            | JLe(_, _, x)
            | JNle(_, _, x)
            | JGe(_, _, x)
            | JNge(_, _, x)
            | JEq(_, _, x)
            | JNe(_, _, x)
            | JEnumEq(_, _, x)
            | JEnumNe(_, _, x)
            | JDone(_, _, x)
            | JNotDone(_, _, x)
            | JIn(_, _, x)
            | JNotIn(_, _, x) => Some(x),
            _ => None,
        }
    }

    /// The slot a value instruction writes.
    fn dst_mut(&mut self) -> Option<&mut u32> {
        use Ins::*;
        match self {
            Add(d, ..)
            | Sub(d, ..)
            | Mul(d, ..)
            | Div(d, ..)
            | Mod(d, ..)
            | Lt(d, ..)
            | Gt(d, ..)
            | Le(d, ..)
            | Ge(d, ..)
            | Eq(d, ..)
            | Ne(d, ..)
            | EnumEq(d, ..)
            | Not(d, _)
            | Bool(d, _)
            | ToU32(d, _)
            | Mov(d, _)
            | Done(d, ..)
            | Conflict(d, _)
            | HostD(d, _)
            | HostB(d, _)
            | HostE(d, _)
            | AndV(d, ..)
            | OrV(d, ..)
            | Sel(d, ..) => Some(d),
            _ => None,
        }
    }
}

/// A host function with the slots of its parameters.
pub(crate) struct Host {
    f: InputFn,
    from: usize,
    to: usize,
}

/// A state's code.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StateExec {
    /// first instruction of the decision
    pub decision: u32,
    /// first instruction of the actions
    pub actions: u32,
    /// cooperation, with the index among the cooperative states
    pub coop: Option<(CoopKind, u32)>,
    /// whether it is a cooperative state (`coop` is set)
    pub is_coop: bool,
    /// its index in its option
    pub local: u32,
    /// the output and internal symbols the actions set (first, count in the table)
    pub sets: (u32, u32),
}

/// The lowered program.
pub(crate) struct Vm {
    pub ins: Vec<Ins>,
    pub(super) pairs: Vec<(u32, u32)>,
    subsequent: Vec<u32>,
    sets: Vec<u32>,
    /// the longest chain of option calls, the root option counted (the frames a cycle
    /// needs)
    pub depth: usize,
    /// the initial state of each option (global index)
    initial_state: Vec<u32>,
    /// the states of each option (first global index, count)
    pub(super) option_states: Vec<(u32, u32)>,
    /// the option functions in native code (built on the first cycle, unless the
    /// interpreter was chosen)
    #[cfg(feature = "native")]
    pub(super) native: Option<super::native::Native>,
    hosts: Vec<Host>,
    pub states: Vec<StateExec>,
    targets: Vec<bool>,
    /// initial value of every slot: the program's, then the times, temporaries and
    /// constants
    pub initial: Vec<f64>,
    /// first `state_time` slot (one per option: the time in its active state)
    pub state_time: u32,
    /// first `option_time` slot (one per option)
    pub option_time: u32,
    /// the number of slots less one (a power of two less one)
    pub(super) smask: usize,
    /// the number of instructions less one (a power of two less one)
    imask: usize,
}

impl Vm {
    /// Lower the executable form.
    pub fn new(code: &Code) -> Vm {
        // the first pass finds how many temporaries an expression needs at most; the
        // second places the constants after them
        let first = Compiler::new(code, 0).run();
        let mut vm = Compiler::new(code, first.max_temp).run().vm;
        // power-of-two lengths: masked indices are in bounds without a check
        let n = vm.initial.len().max(1).next_power_of_two();
        vm.initial.resize(n, 0.0);
        vm.smask = n - 1;
        let n = vm.ins.len().max(1).next_power_of_two();
        vm.ins.resize(n, Ins::End);
        vm.imask = n - 1;
        vm
    }
}

struct Compiler<'a> {
    code: &'a Code,
    vm: Vm,
    consts: HashMap<u64, u32>,
    temp_base: u32,
    temps: u32,
    next_temp: u32,
    max_temp: u32,
    done_ranges: HashMap<u32, (u32, u32)>,
    /// the last place a jump lands (no value instruction before it may be retargeted)
    landing: u32,
    n_options: u32,
}

struct Compiled {
    vm: Vm,
    max_temp: u32,
}

impl<'a> Compiler<'a> {
    fn new(code: &'a Code, temps: u32) -> Compiler<'a> {
        let n_options = code.options.len() as u32;
        let prog = code.initial.len() as u32;
        let state_time = prog;
        let option_time = prog + n_options;
        let temp_base = option_time + n_options;
        let mut initial = code.initial.clone();
        initial.resize((temp_base + temps) as usize, 0.0);
        Compiler {
            code,
            vm: Vm {
                ins: Vec::new(),
                pairs: Vec::new(),
                subsequent: Vec::new(),
                sets: Vec::new(),
                depth: longest_call_chain(code),
                initial_state: code.options.iter().map(|o| o.initial).collect(),
                option_states: code
                    .options
                    .iter()
                    .map(|o| (o.first_state, o.n_states))
                    .collect(),
                #[cfg(feature = "native")]
                native: None,
                hosts: Vec::new(),
                states: Vec::with_capacity(code.states.len()),
                targets: code.states.iter().map(|s| s.target).collect(),
                initial,
                state_time,
                option_time,
                smask: 0,
                imask: 0,
            },
            consts: HashMap::new(),
            temp_base,
            temps,
            next_temp: 0,
            max_temp: 0,
            done_ranges: HashMap::new(),
            landing: 0,
            n_options,
        }
    }

    fn run(mut self) -> Compiled {
        for st in self.code.states.iter() {
            let decision = self.here();
            self.stmt(&st.decision);
            let actions = self.here();
            let first_set = self.vm.sets.len() as u32;
            for a in st.actions.iter() {
                self.action(a);
            }
            self.emit(Ins::End);
            self.vm.states.push(StateExec {
                decision,
                actions,
                coop: st.coop_index.map(|i| (st.coop, i)),
                is_coop: st.coop_index.is_some(),
                local: st.local,
                sets: (first_set, self.vm.sets.len() as u32 - first_set),
            });
        }
        Compiled {
            max_temp: self.max_temp,
            vm: self.vm,
        }
    }

    fn here(&self) -> u32 {
        self.vm.ins.len() as u32
    }

    fn emit(&mut self, i: Ins) -> usize {
        self.vm.ins.push(i);
        self.vm.ins.len() - 1
    }

    fn patch(&mut self, at: &[usize]) {
        let t = self.here();
        self.landing = t;
        for &i in at {
            if let Some(x) = self.vm.ins.get_mut(i) {
                x.set_target(t);
            }
        }
    }

    fn konst(&mut self, v: f64) -> u32 {
        let key = v.to_bits();
        if let Some(&s) = self.consts.get(&key) {
            return s;
        }
        let s = self.vm.initial.len() as u32;
        self.vm.initial.push(v);
        self.consts.insert(key, s);
        s
    }

    fn temp(&mut self) -> u32 {
        let t = self.next_temp;
        self.next_temp += 1;
        self.max_temp = self.max_temp.max(self.next_temp);
        if t < self.temps {
            self.temp_base + t
        } else {
            // first pass: not placed yet
            self.temp_base
        }
    }

    fn reset_temps(&mut self) {
        self.next_temp = 0;
    }

    fn is_temp(&self, s: u32) -> bool {
        s >= self.temp_base && s < self.temp_base + self.temps
    }

    /// Make the instruction that just computed `v` (a temporary) write `dst` instead;
    /// false if it cannot (a leaf value, or a join of branches).
    fn retarget(&mut self, v: u32, dst: u32) -> bool {
        if !self.is_temp(v) || self.landing == self.here() {
            return false;
        }
        match self.vm.ins.last_mut().and_then(|i| i.dst_mut()) {
            Some(d) if *d == v => {
                *d = dst;
                true
            }
            _ => false,
        }
    }

    /// Put the value `v` into `dst`.
    fn store(&mut self, v: u32, dst: u32) {
        if !self.retarget(v, dst) {
            self.emit(Ins::Mov(dst, v));
        }
    }

    // ------------------------------------------------------------ statements

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Goto(g) => {
                self.emit(Ins::Goto(*g));
            }
            Stmt::If(c, a, b) => {
                self.reset_temps();
                let mut fix = Vec::new();
                self.jump_if(c, false, &mut fix);
                self.stmt(a);
                self.patch(&fix);
                self.stmt(b);
            }
        }
    }

    fn action(&mut self, a: &Action) {
        self.reset_temps();
        match a {
            Action::Option(c) => {
                let (first, n) = self.call(c, true);
                self.emit(Ins::CallOption(c.callee, first, n));
            }
            Action::Behavior(c) => {
                let (first, n) = self.call(c, false);
                self.emit(Ins::CallBehavior(c.callee, first, n));
            }
            // the value goes straight into the symbol's slot; the symbols a state
            // sets are marked "set in this cycle" when its actions start (all of
            // them run, in order, every time)
            Action::SetD(sym, slot, x) => {
                let v = self.d(x);
                self.store(v, *slot);
                self.vm.sets.push(*sym);
            }
            Action::SetB(sym, slot, x) => {
                let v = self.b_val(x);
                self.store(v, *slot);
                self.vm.sets.push(*sym);
            }
            Action::SetE(sym, slot, x) => {
                let v = self.e_val(x);
                self.store(v, *slot);
                self.vm.sets.push(*sym);
            }
        }
    }

    /// Evaluate the parameter expressions of a call site (into temporaries); the call
    /// copies them into the callee's parameters. The reference writes each parameter
    /// right after evaluating it; the difference cannot be seen, because an expression
    /// of the caller reads no parameter of the callee (an option reads its own
    /// parameters, and options do not call themselves) and evaluating one writes only
    /// temporaries and the parameters of inlined input definitions.
    ///
    /// An option's parameters computed by an instruction are written by it directly
    /// (a basic behavior's go through the copy, which notices changes).
    fn call(&mut self, c: &Call, option: bool) -> (u32, u32) {
        let mut vals: Vec<(u32, u32)> = Vec::with_capacity(c.params.len());
        for (d, v) in c.params.iter() {
            let s = self.val(v);
            if !(option && self.retarget(s, *d)) {
                vals.push((*d, s));
            }
        }
        let first = self.vm.pairs.len() as u32;
        let n = vals.len() as u32;
        self.vm.pairs.extend(vals);
        (first, n)
    }

    /// Write parameters in order (for input symbols: functions and definitions).
    fn write_params(&mut self, params: &[(u32, Val)]) {
        for (d, v) in params.iter() {
            let s = self.val(v);
            self.emit(Ins::Mov(*d, s));
        }
    }

    // ----------------------------------------------------------- conditions

    /// Emit code that jumps (to the places added to `fix`) when `b` is `when`, and
    /// falls through otherwise.
    fn jump_if(&mut self, b: &B, when: bool, fix: &mut Vec<usize>) {
        match b {
            B::Const(c) => {
                if *c == when {
                    fix.push(self.emit(Ins::Jmp(0)));
                }
            }
            B::Slot(s) => {
                let i = if when {
                    Ins::Jnz(*s, 0)
                } else {
                    Ins::Jz(*s, 0)
                };
                fix.push(self.emit(i));
            }
            B::Not(x) => self.jump_if(x, !when, fix),
            B::And(xs) => match xs.split_last() {
                None => self.jump_if(&B::Const(true), when, fix),
                Some((last, rest)) => {
                    if when {
                        let mut local = Vec::new();
                        for x in rest {
                            self.jump_if(x, false, &mut local);
                        }
                        self.jump_if(last, true, fix);
                        self.patch(&local);
                    } else {
                        for x in xs.iter() {
                            self.jump_if(x, false, fix);
                        }
                    }
                }
            },
            B::Or(xs) => match xs.split_last() {
                None => self.jump_if(&B::Const(false), when, fix),
                Some((last, rest)) => {
                    if when {
                        for x in xs.iter() {
                            self.jump_if(x, true, fix);
                        }
                    } else {
                        let mut local = Vec::new();
                        for x in rest {
                            self.jump_if(x, true, &mut local);
                        }
                        self.jump_if(last, false, fix);
                        self.patch(&local);
                    }
                }
            },
            B::Cmp(op, a, b) => {
                let (a, b) = (self.op(a), self.op(b));
                let i = match (op, when) {
                    (Cmp::Lt, true) => Ins::JLt(a, b, 0),
                    (Cmp::Lt, false) => Ins::JNlt(a, b, 0),
                    (Cmp::Gt, true) => Ins::JGt(a, b, 0),
                    (Cmp::Gt, false) => Ins::JNgt(a, b, 0),
                    (Cmp::Le, true) => Ins::JLe(a, b, 0),
                    (Cmp::Le, false) => Ins::JNle(a, b, 0),
                    (Cmp::Ge, true) => Ins::JGe(a, b, 0),
                    (Cmp::Ge, false) => Ins::JNge(a, b, 0),
                    (Cmp::Eq, true) | (Cmp::Ne, false) => Ins::JEq(a, b, 0),
                    (Cmp::Eq, false) | (Cmp::Ne, true) => Ins::JNe(a, b, 0),
                };
                fix.push(self.emit(i));
            }
            // an element index compared with a constant element: `x as u32 == c`
            // without the conversion, as a range of x (NaN and negatives give 0)
            B::EnumEq(EOp::Slot(x), EOp::Const(c)) | B::EnumEq(EOp::Const(c), EOp::Slot(x))
                if *c < (1 << 31) =>
            {
                let i = if *c == 0 {
                    let one = self.konst(1.0);
                    if when {
                        Ins::JNge(*x, one, 0)
                    } else {
                        Ins::JGe(*x, one, 0)
                    }
                } else {
                    let k = self.vm.initial.len() as u32;
                    self.vm.initial.push(f64::from(*c));
                    self.vm.initial.push(f64::from(*c) + 1.0);
                    if when {
                        Ins::JIn(*x, k, 0)
                    } else {
                        Ins::JNotIn(*x, k, 0)
                    }
                };
                fix.push(self.emit(i));
            }
            B::EnumEq(a, b) => {
                let (a, b) = (self.eop(a), self.eop(b));
                let i = if when {
                    Ins::JEnumEq(a, b, 0)
                } else {
                    Ins::JEnumNe(a, b, 0)
                };
                fix.push(self.emit(i));
            }
            B::ActionDone(g) => {
                let (first, n) = self.done_range(*g);
                let single = match n {
                    1 => self.vm.subsequent.get(first as usize).copied(),
                    _ => None,
                };
                let i = match (single, when) {
                    (Some(o), true) => Ins::JDone1(o, 0),
                    (Some(o), false) => Ins::JNotDone1(o, 0),
                    (None, true) => Ins::JDone(first, n, 0),
                    (None, false) => Ins::JNotDone(first, n, 0),
                };
                fix.push(self.emit(i));
            }
            other => {
                let s = self.b_val(other);
                let i = if when { Ins::Jnz(s, 0) } else { Ins::Jz(s, 0) };
                fix.push(self.emit(i));
            }
        }
    }

    /// The options called in a state, as a range of the subsequent-option table.
    fn done_range(&mut self, g: u32) -> (u32, u32) {
        if let Some(&r) = self.done_ranges.get(&g) {
            return r;
        }
        let first = self.vm.subsequent.len() as u32;
        if let Some(st) = self.code.states.get(g as usize) {
            self.vm.subsequent.extend(st.subsequent.iter().copied());
        }
        let r = (first, self.vm.subsequent.len() as u32 - first);
        self.done_ranges.insert(g, r);
        r
    }

    // ----------------------------------------------------------- values

    /// A value of any type in a slot (booleans 0/1, enumerated values element
    /// indices; constants and slots as they are).
    fn val(&mut self, v: &Val) -> u32 {
        match v {
            Val::Const(c) => self.konst(*c),
            Val::Slot(s) => *s,
            Val::D(x) => self.d(x),
            Val::B(x) => self.b_val(x),
            Val::E(x) => self.e_val(x),
        }
    }

    fn op(&mut self, o: &Op) -> u32 {
        match o {
            Op::Const(c) => self.konst(*c),
            Op::Slot(s) => *s,
            Op::D(x) => self.d(x),
        }
    }

    fn eop(&mut self, o: &EOp) -> u32 {
        match o {
            EOp::Const(c) => self.konst(f64::from(*c)),
            EOp::Slot(s) => *s,
            EOp::E(x) => self.e_val(x),
        }
    }

    fn host(&mut self, r: &InputRef, kind: fn(u32, u32) -> Ins) -> u32 {
        let Some(inp) = self.code.inputs.get(r.input as usize) else {
            return self.konst(0.0);
        };
        match &inp.source {
            Source::Function(f) => {
                self.write_params(&r.params);
                let h = self.vm.hosts.len() as u32;
                let from = inp.first_param as usize;
                self.vm.hosts.push(Host {
                    f: f.clone(),
                    from,
                    to: from + inp.n_params as usize,
                });
                let t = self.temp();
                self.emit(kind(t, h));
                t
            }
            _ => {
                // read as the value the host set (as a D, B or E slot)
                let s = inp.slot;
                match kind(0, 0) {
                    Ins::HostD(..) => s,
                    k => {
                        let t = self.temp();
                        if matches!(k, Ins::HostB(..)) {
                            self.emit(Ins::Bool(t, s));
                        } else {
                            self.emit(Ins::ToU32(t, s));
                        }
                        t
                    }
                }
            }
        }
    }

    fn d(&mut self, x: &D) -> u32 {
        match x {
            D::Const(c) => self.konst(*c),
            D::Slot(s) => *s,
            D::StateTime(g) => {
                // the state's option is in it whenever its code runs: the option's
                // state timer is the state's
                match self.code.states.get(*g as usize) {
                    Some(st) => self.vm.state_time + st.option,
                    None => self.konst(0.0),
                }
            }
            D::OptionTime(o) => {
                if *o < self.n_options {
                    self.vm.option_time + o
                } else {
                    self.konst(0.0)
                }
            }
            D::Bin(op, a, b) => {
                let (a, b) = (self.op(a), self.op(b));
                let t = self.temp();
                self.emit(match op {
                    Arith::Add => Ins::Add(t, a, b),
                    Arith::Sub => Ins::Sub(t, a, b),
                    Arith::Mul => Ins::Mul(t, a, b),
                    Arith::Div => Ins::Div(t, a, b),
                    Arith::Mod => Ins::Mod(t, a, b),
                });
                t
            }
            // both branches cheap and without effect: computed, then one is chosen
            // (no branch to mispredict)
            D::Cond(c, a, b) if pure_cond(c) && arith(a) && arith(b) => {
                let c = self.b_raw(c);
                let (a, b) = (self.op(a), self.op(b));
                let p = self.vm.pairs.len() as u32;
                self.vm.pairs.push((a, b));
                let t = self.temp();
                self.emit(Ins::Sel(t, c, p));
                t
            }
            D::Cond(c, a, b) => {
                let t = self.temp();
                let mut fix = Vec::new();
                self.jump_if(c, false, &mut fix);
                let a = self.op(a);
                self.emit(Ins::Mov(t, a));
                let j = self.emit(Ins::Jmp(0));
                self.patch(&fix);
                let b = self.op(b);
                self.emit(Ins::Mov(t, b));
                self.patch(&[j]);
                t
            }
            D::Input(r) => self.host(r, Ins::HostD),
            D::Def(x) => {
                self.write_params(&x.params);
                self.d(&x.value)
            }
        }
    }

    /// A boolean as 0/1 in a slot.
    fn b_val(&mut self, x: &B) -> u32 {
        match x {
            B::Const(c) => self.konst(if *c { 1.0 } else { 0.0 }),
            B::Slot(s) => {
                let t = self.temp();
                self.emit(Ins::Bool(t, *s));
                t
            }
            B::Not(inner) => {
                let s = match &**inner {
                    B::Slot(s) => *s,
                    other => self.b_val(other),
                };
                let t = self.temp();
                self.emit(Ins::Not(t, s));
                t
            }
            B::Cmp(op, a, b) => {
                let (a, b) = (self.op(a), self.op(b));
                let t = self.temp();
                self.emit(match op {
                    Cmp::Lt => Ins::Lt(t, a, b),
                    Cmp::Gt => Ins::Gt(t, a, b),
                    Cmp::Le => Ins::Le(t, a, b),
                    Cmp::Ge => Ins::Ge(t, a, b),
                    Cmp::Eq => Ins::Eq(t, a, b),
                    Cmp::Ne => Ins::Ne(t, a, b),
                });
                t
            }
            B::EnumEq(a, b) => {
                let (a, b) = (self.eop(a), self.eop(b));
                let t = self.temp();
                self.emit(Ins::EnumEq(t, a, b));
                t
            }
            B::ActionDone(g) => {
                let (first, n) = self.done_range(*g);
                let t = self.temp();
                self.emit(Ins::Done(t, first, n));
                t
            }
            B::Conflict(g) => match self.code.states.get(*g as usize).and_then(|s| s.coop_index) {
                Some(ci) => {
                    let t = self.temp();
                    self.emit(Ins::Conflict(t, ci));
                    t
                }
                None => self.konst(0.0),
            },
            B::Input(r) => self.host(r, Ins::HostB),
            B::Def(x) => {
                self.write_params(&x.params);
                self.b_val(&x.value)
            }
            B::And(xs) | B::Or(xs) if xs.len() >= 2 && xs.iter().all(pure) => {
                let and = matches!(x, B::And(_));
                let Some((first, rest)) = xs.split_first() else {
                    return self.konst(0.0);
                };
                let mut acc = self.b_raw(first);
                for y in rest {
                    let v = self.b_raw(y);
                    let t = self.temp();
                    self.emit(if and {
                        Ins::AndV(t, acc, v)
                    } else {
                        Ins::OrV(t, acc, v)
                    });
                    acc = t;
                }
                acc
            }
            B::And(_) | B::Or(_) => {
                let t = self.temp();
                let mut fix = Vec::new();
                self.jump_if(x, false, &mut fix);
                let one = self.konst(1.0);
                self.emit(Ins::Mov(t, one));
                let j = self.emit(Ins::Jmp(0));
                self.patch(&fix);
                let zero = self.konst(0.0);
                self.emit(Ins::Mov(t, zero));
                self.patch(&[j]);
                t
            }
        }
    }

    /// A boolean in a slot, 0 meaning false (a boolean slot as it is).
    fn b_raw(&mut self, x: &B) -> u32 {
        match x {
            B::Slot(s) => *s,
            other => self.b_val(other),
        }
    }

    /// An enumerated value as an element index in a slot.
    fn e_val(&mut self, x: &E) -> u32 {
        match x {
            E::Const(c) => self.konst(f64::from(*c)),
            E::Slot(s) => {
                let t = self.temp();
                self.emit(Ins::ToU32(t, *s));
                t
            }
            E::Cond(c, a, b) => {
                let t = self.temp();
                let mut fix = Vec::new();
                self.jump_if(c, false, &mut fix);
                let a = self.eop(a);
                self.emit(Ins::ToU32(t, a));
                let j = self.emit(Ins::Jmp(0));
                self.patch(&fix);
                let b = self.eop(b);
                self.emit(Ins::ToU32(t, b));
                self.patch(&[j]);
                t
            }
            E::Input(r) => self.host(r, Ins::HostE),
            E::Def(x) => {
                self.write_params(&x.params);
                self.e_val(&x.value)
            }
        }
    }
}

/// The longest chain of option calls: an option, one it calls in some state, one that
/// calls, and so on (`options + 1` if the calls had a cycle, which the engine refuses
/// before this). Without recursion, so that no chain is too long for it.
fn longest_call_chain(code: &Code) -> usize {
    let n = code.options.len();
    let callees = |o: usize| {
        code.options.get(o).into_iter().flat_map(|x| {
            let states = code
                .states
                .get(x.first_state as usize..(x.first_state + x.n_states) as usize)
                .unwrap_or(&[]);
            states
                .iter()
                .flat_map(|st| st.subsequent.iter().map(|&c| c as usize))
        })
    };
    // the chain starting at each option, callees first (an explicit stack)
    let mut depth: Vec<Option<usize>> = vec![None; n];
    let mut on_stack = vec![false; n];
    for root in 0..n {
        let mut stack = vec![root];
        while let Some(&o) = stack.last() {
            if depth.get(o).copied().flatten().is_some() {
                stack.pop();
                continue;
            }
            if let Some(x) = on_stack.get_mut(o) {
                *x = true;
            }
            let pending = callees(o).find(|&c| depth.get(c).copied().flatten().is_none());
            match pending {
                Some(c) if on_stack.get(c).copied().unwrap_or(false) => return n + 1,
                Some(c) => stack.push(c),
                None => {
                    let d = 1 + callees(o)
                        .map(|c| depth.get(c).copied().flatten().unwrap_or(0))
                        .max()
                        .unwrap_or(0);
                    if let Some(x) = depth.get_mut(o) {
                        *x = Some(d);
                    }
                    if let Some(x) = on_stack.get_mut(o) {
                        *x = false;
                    }
                    stack.pop();
                }
            }
        }
    }
    depth.into_iter().flatten().max().unwrap_or(0).max(1)
}

/// A condition without effect: cheap ones, and `&&`/`||` of them.
fn pure_cond(b: &B) -> bool {
    match b {
        B::And(xs) | B::Or(xs) => xs.iter().all(pure),
        other => pure(other),
    }
}

/// An operand computed without effect (`%` can report a problem).
fn arith(o: &Op) -> bool {
    match o {
        Op::Const(_) | Op::Slot(_) => true,
        Op::D(x) => arith_d(x),
    }
}

fn arith_d(x: &D) -> bool {
    match x {
        D::Const(_) | D::Slot(_) | D::StateTime(_) | D::OptionTime(_) => true,
        D::Bin(op, a, b) => *op != Arith::Mod && arith(a) && arith(b),
        _ => false,
    }
}

/// Whether a condition is cheap and has no effect (so it may be evaluated when
/// short-circuiting would skip it): symbols, constants, comparisons of those.
fn pure(b: &B) -> bool {
    let leaf = |o: &Op| matches!(o, Op::Const(_) | Op::Slot(_));
    let eleaf = |o: &EOp| matches!(o, EOp::Const(_) | EOp::Slot(_));
    match b {
        B::Const(_) | B::Slot(_) | B::ActionDone(_) => true,
        B::Not(x) => matches!(**x, B::Slot(_)),
        B::Cmp(_, a, b) => leaf(a) && leaf(b),
        B::EnumEq(a, b) => eleaf(a) && eleaf(b),
        _ => false,
    }
}

// ------------------------------------------------------------------ running

/// An option being run: the option, its state when it was called (until the decision
/// is taken), and where its caller goes on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    option: u32,
    state: u32,
    ret: u32,
}

/// Returning from the outermost option ends the run.
const OUT: u32 = u32::MAX;

#[inline(always)]
fn rd(slots: &[f64], mask: usize, s: u32) -> f64 {
    slots.get(s as usize & mask).copied().unwrap_or(0.0)
}

#[inline(always)]
fn wr(slots: &mut [f64], mask: usize, s: u32, v: f64) {
    if let Some(x) = slots.get_mut(s as usize & mask) {
        *x = v;
    }
}

#[inline(always)]
fn b2f(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// Milliseconds as a decimal value (exact below 2^53 ms).
#[inline(always)]
fn ms(t: u64) -> f64 {
    t as i64 as f64
}

fn divide(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        x / 0.0000001
    } else {
        x / y
    }
}

pub(super) fn modulo(rt: &mut Runtime, x: f64, y: f64) -> f64 {
    let (x, y) = (x as i32, y as i32);
    if y == 0 {
        problem(rt, RuntimeProblem::ModuloByZero);
        0.0
    } else {
        f64::from(x.wrapping_rem(y))
    }
}

impl Vm {
    /// Whether an option called in a state (the range of the table) ran in the
    /// previous cycle and is in a target state.
    #[inline]
    pub(super) fn action_done(&self, rt: &Runtime, first: u32, n: u32) -> bool {
        let cycle = rt.cycle;
        let Some(os) = self
            .subsequent
            .get(first as usize..(first as usize + n as usize))
        else {
            return false;
        };
        os.iter().any(|&o| {
            rt.options.get(o as usize).is_some_and(|r| {
                r.ran.was_active(cycle)
                    && self
                        .targets
                        .get(r.active as usize)
                        .copied()
                        .unwrap_or(false)
            })
        })
    }

    /// The output and internal symbols the actions of a state set (all of them, every
    /// time the state runs: "set in this cycle" is answered from the path).
    pub(crate) fn sets_of(&self, g: usize) -> &[u32] {
        self.states
            .get(g)
            .and_then(|x| {
                let (first, n) = x.sets;
                self.sets.get(first as usize..(first + n) as usize)
            })
            .unwrap_or(&[])
    }

    /// Whether an option ran in the previous cycle and is in a target state.
    #[inline(always)]
    pub(super) fn done1(&self, rt: &Runtime, o: u32) -> bool {
        rt.options.get(o as usize).is_some_and(|r| {
            r.ran.was_active(rt.cycle)
                && self
                    .targets
                    .get(r.active as usize)
                    .copied()
                    .unwrap_or(false)
        })
    }

    /// Run an option called from the root (its parameters are written) and everything
    /// it calls.
    pub(crate) fn run_option(&self, sl: &mut [f64], rt: &mut Runtime, o: u32) {
        // the slots are a power of two long and every slot number is masked, so that
        // the compiler sees every access in bounds
        let Some(sl) = sl.get_mut(..=self.smask) else {
            return;
        };
        #[cfg(feature = "native")]
        if let Some(n) = &self.native {
            n.run_option(self, sl, rt, o);
            return;
        }
        rt.frames.clear();
        if let Some(pc) = self.enter(sl, rt, o, OUT) {
            self.run(sl, rt, pc);
        }
    }

    /// Start an option: activation, times, the frame; the first instruction of its
    /// active state's decision.
    #[inline(always)]
    fn enter(&self, sl: &mut [f64], rt: &mut Runtime, o: u32, ret: u32) -> Option<usize> {
        let current = self.enter_option(sl, rt, o)?;
        let ex = self.states.get(current as usize)?;
        rt.frames.push(Frame {
            option: o,
            state: current,
            ret,
        });
        Some(ex.decision as usize)
    }

    /// Start an option (the bookkeeping both ways of running share): activation, the
    /// times and their slots, "ran twice" reported, a capacity state's conflict; the
    /// active state (global index).
    #[inline(always)]
    pub(super) fn enter_option(&self, sl: &mut [f64], rt: &mut Runtime, o: u32) -> Option<u32> {
        let (now, cycle) = (rt.now, rt.cycle);
        let initial = *self.initial_state.get(o as usize)?;
        let r = rt.options.get_mut(o as usize)?;
        let ran = r.ran;
        let was = ran.was_active(cycle);
        if !was {
            r.activation = now;
            r.active = initial;
            r.state_activation = now;
        }
        let option_time = now.saturating_sub(r.activation);
        let state_time = now.saturating_sub(r.state_activation);
        r.time = option_time;
        r.state_time = state_time;
        let current = r.active;
        wr(sl, self.smask, self.option_time + o, ms(option_time));
        wr(sl, self.smask, self.state_time + o, ms(state_time));
        if ran.is_active(cycle) {
            problem(rt, RuntimeProblem::OptionExecutedTwice(o as usize));
        }
        let ex = self.states.get(current as usize)?;
        if ex.is_coop {
            capacity_conflict(rt, ex);
        }
        Some(current)
    }

    /// The decision of the option on top of the stack chose `next`: switch (unless a
    /// cooperative state refuses), record the path; the first instruction of the
    /// active state's actions.
    #[inline(always)]
    fn decided(&self, sl: &mut [f64], rt: &mut Runtime, next: u32) -> Option<usize> {
        let f = *rt.frames.last()?;
        let depth = rt.frames.len().saturating_sub(1) as u32;
        let g = self.decide(sl, rt, f.option, f.state, next, depth)?;
        self.states.get(g as usize).map(|x| x.actions as usize)
    }

    /// Option `o`, in state `current`, decided for `next` (global indices): switch
    /// (unless a cooperative state refuses), record the path at `depth`; the state
    /// whose actions run.
    #[inline(always)]
    pub(super) fn decide(
        &self,
        sl: &mut [f64],
        rt: &mut Runtime,
        o: u32,
        current: u32,
        next: u32,
        depth: u32,
    ) -> Option<u32> {
        let (next, ex) = match self.states.get(next as usize) {
            Some(x) if next != current => {
                if x.is_coop && !coop_allows(rt, x) {
                    (current, self.states.get(current as usize)?)
                } else {
                    (next, x)
                }
            }
            // `stay` (a cooperative state is asked again, as the reference does)
            Some(x) => {
                if x.is_coop {
                    coop_allows(rt, x);
                }
                (current, x)
            }
            None => (current, self.states.get(current as usize)?),
        };
        let r = rt.options.get_mut(o as usize)?;
        if next != current {
            r.active = next;
            r.state_activation = rt.now;
            r.state_time = 0;
            wr(sl, self.smask, self.state_time + o, 0.0);
        }
        let (state_time, option_time) = (r.state_time, r.time);
        rt.path.push(PathEntry {
            option: o as usize,
            state: ex.local as usize,
            state_time,
            option_time,
            depth,
        });
        Some(next)
    }

    /// The option on top of the stack ran its actions: it was active in this cycle.
    /// Where its caller goes on.
    #[inline(always)]
    fn leave(&self, rt: &mut Runtime) -> u32 {
        let Some(f) = rt.frames.pop() else {
            return OUT;
        };
        leave_option(rt, f.option);
        f.ret
    }

    /// The interpreter.
    // `!(x < y)` is not `x >= y` for NaN: the negated forms are meant
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    /// From `pc` until the outermost option returns.
    fn run(&self, sl: &mut [f64], rt: &mut Runtime, mut pc: usize) {
        let (m, im) = (self.smask, self.imask);
        let Some(ins) = self.ins.get(..=im) else {
            return;
        };
        macro_rules! jump_if {
            ($a:expr, $b:expr, $t:expr, |$x:ident, $y:ident| $c:expr) => {{
                let $x = rd(sl, m, $a);
                let $y = rd(sl, m, $b);
                if $c {
                    pc = $t as usize;
                }
            }};
        }
        macro_rules! set {
            ($d:expr, $a:expr, $b:expr, |$x:ident, $y:ident| $c:expr) => {{
                let $x = rd(sl, m, $a);
                let $y = rd(sl, m, $b);
                let v = $c;
                wr(sl, m, $d, v);
            }};
        }
        loop {
            let Some(&i) = ins.get(pc & im) else {
                return;
            };
            pc += 1;
            match i {
                Ins::Goto(g) => match self.decided(sl, rt, g) {
                    Some(p) => pc = p,
                    None => return,
                },
                Ins::End => match self.leave(rt) {
                    OUT => return,
                    p => pc = p as usize,
                },
                Ins::Jmp(t) => pc = t as usize,
                Ins::Jz(s, t) => {
                    if rd(sl, m, s) == 0.0 {
                        pc = t as usize;
                    }
                }
                Ins::Jnz(s, t) => {
                    if rd(sl, m, s) != 0.0 {
                        pc = t as usize;
                    }
                }
                Ins::JLt(a, b, t) => jump_if!(a, b, t, |x, y| x < y),
                Ins::JNlt(a, b, t) => jump_if!(a, b, t, |x, y| !(x < y)),
                Ins::JGt(a, b, t) => jump_if!(a, b, t, |x, y| x > y),
                Ins::JNgt(a, b, t) => jump_if!(a, b, t, |x, y| !(x > y)),
                Ins::JLe(a, b, t) => jump_if!(a, b, t, |x, y| x <= y),
                Ins::JNle(a, b, t) => jump_if!(a, b, t, |x, y| !(x <= y)),
                Ins::JGe(a, b, t) => jump_if!(a, b, t, |x, y| x >= y),
                Ins::JNge(a, b, t) => jump_if!(a, b, t, |x, y| !(x >= y)),
                Ins::JEq(a, b, t) => jump_if!(a, b, t, |x, y| x == y),
                Ins::JNe(a, b, t) => jump_if!(a, b, t, |x, y| x != y),
                Ins::JEnumEq(a, b, t) => jump_if!(a, b, t, |x, y| x as u32 == y as u32),
                Ins::JEnumNe(a, b, t) => jump_if!(a, b, t, |x, y| x as u32 != y as u32),
                Ins::JDone(f, n, t) => {
                    if self.action_done(rt, f, n) {
                        pc = t as usize;
                    }
                }
                Ins::JNotDone(f, n, t) => {
                    if !self.action_done(rt, f, n) {
                        pc = t as usize;
                    }
                }
                Ins::JDone1(o, t) => {
                    if self.done1(rt, o) {
                        pc = t as usize;
                    }
                }
                Ins::JNotDone1(o, t) => {
                    if !self.done1(rt, o) {
                        pc = t as usize;
                    }
                }
                Ins::JIn(a, k, t) => {
                    let (x, lo, hi) = (rd(sl, m, a), rd(sl, m, k), rd(sl, m, k + 1));
                    if lo <= x && x < hi {
                        pc = t as usize;
                    }
                }
                Ins::JNotIn(a, k, t) => {
                    let (x, lo, hi) = (rd(sl, m, a), rd(sl, m, k), rd(sl, m, k + 1));
                    if !(lo <= x && x < hi) {
                        pc = t as usize;
                    }
                }
                Ins::Add(d, a, b) => set!(d, a, b, |x, y| x + y),
                Ins::Sub(d, a, b) => set!(d, a, b, |x, y| x - y),
                Ins::Mul(d, a, b) => set!(d, a, b, |x, y| x * y),
                Ins::Div(d, a, b) => set!(d, a, b, |x, y| divide(x, y)),
                Ins::Mod(d, a, b) => {
                    let (x, y) = (rd(sl, m, a), rd(sl, m, b));
                    let v = modulo(rt, x, y);
                    wr(sl, m, d, v);
                }
                Ins::Lt(d, a, b) => set!(d, a, b, |x, y| b2f(x < y)),
                Ins::Gt(d, a, b) => set!(d, a, b, |x, y| b2f(x > y)),
                Ins::Le(d, a, b) => set!(d, a, b, |x, y| b2f(x <= y)),
                Ins::Ge(d, a, b) => set!(d, a, b, |x, y| b2f(x >= y)),
                Ins::Eq(d, a, b) => set!(d, a, b, |x, y| b2f(x == y)),
                Ins::Ne(d, a, b) => set!(d, a, b, |x, y| b2f(x != y)),
                Ins::EnumEq(d, a, b) => set!(d, a, b, |x, y| b2f(x as u32 == y as u32)),
                Ins::Sel(d, c, p) => {
                    let (a, b) = self.pairs.get(p as usize).copied().unwrap_or((0, 0));
                    let v = if rd(sl, m, c) != 0.0 {
                        rd(sl, m, a)
                    } else {
                        rd(sl, m, b)
                    };
                    wr(sl, m, d, v);
                }
                Ins::AndV(d, a, b) => set!(d, a, b, |x, y| b2f(x != 0.0 && y != 0.0)),
                Ins::OrV(d, a, b) => set!(d, a, b, |x, y| b2f(x != 0.0 || y != 0.0)),
                Ins::Not(d, a) => {
                    let v = b2f(rd(sl, m, a) == 0.0);
                    wr(sl, m, d, v);
                }
                Ins::Bool(d, a) => {
                    let v = b2f(rd(sl, m, a) != 0.0);
                    wr(sl, m, d, v);
                }
                Ins::ToU32(d, a) => {
                    let v = f64::from(rd(sl, m, a) as u32);
                    wr(sl, m, d, v);
                }
                Ins::Mov(d, a) => {
                    let v = rd(sl, m, a);
                    wr(sl, m, d, v);
                }
                Ins::Done(d, f, n) => {
                    let v = b2f(self.action_done(rt, f, n));
                    wr(sl, m, d, v);
                }
                Ins::Conflict(d, ci) => {
                    let v = b2f(rt.coop.get(ci as usize).is_some_and(|c| c.conflict));
                    wr(sl, m, d, v);
                }
                Ins::HostD(d, h) => {
                    let v = self.call_host(sl, h);
                    wr(sl, m, d, v);
                }
                Ins::HostB(d, h) => {
                    let v = b2f(self.call_host(sl, h) != 0.0);
                    wr(sl, m, d, v);
                }
                Ins::HostE(d, h) => {
                    let v = f64::from(self.call_host(sl, h) as u32);
                    wr(sl, m, d, v);
                }
                Ins::CallOption(o, f, n) => {
                    self.copy_params(sl, f, n);
                    if let Some(p) = self.enter(sl, rt, o, pc as u32) {
                        pc = p;
                    }
                }
                Ins::CallBehavior(b, f, n) => {
                    let changed = self.copy_params_changed(sl, f, n);
                    behavior(rt, b as usize, changed);
                }
            }
        }
    }

    pub(super) fn call_host(&self, sl: &[f64], h: u32) -> f64 {
        match self.hosts.get(h as usize) {
            Some(h) => (h.f)(sl.get(h.from..h.to).unwrap_or(&[])),
            None => 0.0,
        }
    }

    #[inline]
    fn pairs(&self, f: u32, n: u32) -> &[(u32, u32)] {
        self.pairs
            .get(f as usize..f as usize + n as usize)
            .unwrap_or(&[])
    }

    #[inline]
    fn copy_params(&self, sl: &mut [f64], f: u32, n: u32) {
        for &(d, s) in self.pairs(f, n) {
            let v = rd(sl, self.smask, s);
            wr(sl, self.smask, d, v);
        }
    }

    #[inline]
    fn copy_params_changed(&self, sl: &mut [f64], f: u32, n: u32) -> bool {
        let mut changed = false;
        for &(d, s) in self.pairs(f, n) {
            let v = rd(sl, self.smask, s);
            if let Some(old) = sl.get_mut(d as usize & self.smask) {
                // written even when equal: -0.0 replaces 0.0
                changed |= *old != v;
                *old = v;
            }
        }
        changed
    }
}

/// Option `o` ran its actions: it was active in this cycle.
#[inline(always)]
pub(super) fn leave_option(rt: &mut Runtime, o: u32) {
    let cycle = rt.cycle;
    if let Some(r) = rt.options.get_mut(o as usize) {
        r.ran.mark(cycle);
    }
}

/// Update `conflict` of a capacity state as it starts to decide.
#[cold]
fn capacity_conflict(rt: &mut Runtime, ex: &StateExec) {
    if let Some((CoopKind::Capacity(cap), ci)) = ex.coop {
        if let Some(c) = rt.coop.get_mut(ci as usize) {
            c.conflict = c.executing >= cap as i32;
        }
    }
}

/// May the agent enter (or stay in) a cooperative state?
#[cold]
fn coop_allows(rt: &mut Runtime, ex: &StateExec) -> bool {
    match ex.coop {
        Some((kind, ci)) => coop_check_coop(kind, ci, rt),
        None => true,
    }
}

/// Record a basic behavior's run (its parameters are written).
#[inline]
pub(crate) fn behavior(rt: &mut Runtime, b: usize, changed: bool) {
    let (now, cycle) = (rt.now, rt.cycle);
    if let Some(r) = rt.behaviors.get_mut(b) {
        if !r.ran.was_active(cycle) {
            r.activation = now;
        }
        r.time = now.saturating_sub(r.activation);
        r.ran.mark(cycle);
    }
    rt.executed.push(Executed {
        behavior: b,
        changed,
    });
}
