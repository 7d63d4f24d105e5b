//! Lowering the executable form to instructions: the compiler's state (temporaries,
//! the constant pool, jump patching), statements, actions and calls.
//!
//! Calls write their parameters from a table of (parameter slot, value slot) pairs
//! after the expressions of the call site were evaluated into temporaries; nothing a
//! parameter expression can read is written by that (see `Compiler::call`).

use super::super::code::*;
use super::{Ins, StateExec, Vm};
use std::collections::HashMap;

pub(super) struct Compiler<'a> {
    pub(super) code: &'a Code,
    pub(super) vm: Vm,
    pub(super) consts: HashMap<u64, u32>,
    pub(super) temp_base: u32,
    pub(super) temps: u32,
    pub(super) next_temp: u32,
    pub(super) max_temp: u32,
    pub(super) done_ranges: HashMap<u32, (u32, u32)>,
    /// the last place a jump lands (no value instruction before it may be retargeted)
    pub(super) landing: u32,
    pub(super) n_options: u32,
}

pub(super) struct Compiled {
    pub(super) vm: Vm,
    pub(super) max_temp: u32,
}

impl<'a> Compiler<'a> {
    pub(super) fn new(code: &'a Code, temps: u32) -> Compiler<'a> {
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

    pub(super) fn run(mut self) -> Compiled {
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

    pub(super) fn here(&self) -> u32 {
        self.vm.ins.len() as u32
    }

    pub(super) fn emit(&mut self, i: Ins) -> usize {
        self.vm.ins.push(i);
        self.vm.ins.len() - 1
    }

    pub(super) fn patch(&mut self, at: &[usize]) {
        let t = self.here();
        self.landing = t;
        for &i in at {
            if let Some(x) = self.vm.ins.get_mut(i) {
                x.set_target(t);
            }
        }
    }

    pub(super) fn konst(&mut self, v: f64) -> u32 {
        let key = v.to_bits();
        if let Some(&s) = self.consts.get(&key) {
            return s;
        }
        let s = self.vm.initial.len() as u32;
        self.vm.initial.push(v);
        self.consts.insert(key, s);
        s
    }

    pub(super) fn temp(&mut self) -> u32 {
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

    pub(super) fn reset_temps(&mut self) {
        self.next_temp = 0;
    }

    pub(super) fn is_temp(&self, s: u32) -> bool {
        s >= self.temp_base && s < self.temp_base + self.temps
    }

    /// Make the instruction that just computed `v` (a temporary) write `dst` instead;
    /// false if it cannot (a leaf value, or a join of branches).
    pub(super) fn retarget(&mut self, v: u32, dst: u32) -> bool {
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
    pub(super) fn store(&mut self, v: u32, dst: u32) {
        if !self.retarget(v, dst) {
            self.emit(Ins::Mov(dst, v));
        }
    }

    // ------------------------------------------------------------ statements

    pub(super) fn stmt(&mut self, s: &Stmt) {
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

    pub(super) fn action(&mut self, a: &Action) {
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
    pub(super) fn call(&mut self, c: &Call, option: bool) -> (u32, u32) {
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
    pub(super) fn write_params(&mut self, params: &[(u32, Val)]) {
        for (d, v) in params.iter() {
            let s = self.val(v);
            self.emit(Ins::Mov(*d, s));
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
