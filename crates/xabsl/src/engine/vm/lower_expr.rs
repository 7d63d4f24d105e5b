//! Lowering conditions and values: compare-and-jump code for conditions, and values of
//! every type computed into slots (booleans 0/1, enumerated values as element indices).

use super::super::code::*;
use super::lower::Compiler;
use super::{Host, Ins};

impl Compiler<'_> {
    // ----------------------------------------------------------- conditions

    /// Emit code that jumps (to the places added to `fix`) when `b` is `when`, and
    /// falls through otherwise.
    pub(super) fn jump_if(&mut self, b: &B, when: bool, fix: &mut Vec<usize>) {
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
            B::And(xs) => self.jump_if_and(xs, when, fix),
            B::Or(xs) => self.jump_if_or(xs, when, fix),
            B::Cmp(op, a, b) => {
                let i = self.compare_jump(*op, a, b, when);
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

    /// `&&` as jumps: when `when` is true, jump only if all hold (the others fall
    /// through to after the last); otherwise jump as soon as one fails.
    fn jump_if_and(&mut self, xs: &[B], when: bool, fix: &mut Vec<usize>) {
        let Some((last, rest)) = xs.split_last() else {
            return self.jump_if(&B::Const(true), when, fix);
        };
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

    /// `||` as jumps: when `when` is true, jump as soon as one holds; otherwise jump
    /// only if all fail.
    fn jump_if_or(&mut self, xs: &[B], when: bool, fix: &mut Vec<usize>) {
        let Some((last, rest)) = xs.split_last() else {
            return self.jump_if(&B::Const(false), when, fix);
        };
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

    /// The compare-and-jump instruction for `a op b` being `when` (target to patch).
    fn compare_jump(&mut self, op: Cmp, a: &Op, b: &Op, when: bool) -> Ins {
        let (a, b) = (self.op(a), self.op(b));
        match (op, when) {
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
        }
    }

    /// The options called in a state, as a range of the subsequent-option table.
    pub(super) fn done_range(&mut self, g: u32) -> (u32, u32) {
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
    pub(super) fn val(&mut self, v: &Val) -> u32 {
        match v {
            Val::Const(c) => self.konst(*c),
            Val::Slot(s) => *s,
            Val::D(x) => self.d(x),
            Val::B(x) => self.b_val(x),
            Val::E(x) => self.e_val(x),
        }
    }

    pub(super) fn op(&mut self, o: &Op) -> u32 {
        match o {
            Op::Const(c) => self.konst(*c),
            Op::Slot(s) => *s,
            Op::D(x) => self.d(x),
        }
    }

    pub(super) fn eop(&mut self, o: &EOp) -> u32 {
        match o {
            EOp::Const(c) => self.konst(f64::from(*c)),
            EOp::Slot(s) => *s,
            EOp::E(x) => self.e_val(x),
        }
    }

    pub(super) fn host(&mut self, r: &InputRef, kind: fn(u32, u32) -> Ins) -> u32 {
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

    pub(super) fn d(&mut self, x: &D) -> u32 {
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
    pub(super) fn b_val(&mut self, x: &B) -> u32 {
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
    pub(super) fn b_raw(&mut self, x: &B) -> u32 {
        match x {
            B::Slot(s) => *s,
            other => self.b_val(other),
        }
    }

    /// An enumerated value as an element index in a slot.
    pub(super) fn e_val(&mut self, x: &E) -> u32 {
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
