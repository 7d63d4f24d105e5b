//! The interpreter: runs the instructions from a decision until the outermost option
//! returns, with the arithmetic of the reference engine (division by zero divides by
//! 1e-7, `%` on integers).

use super::{b2f, behavior, rd, wr, Ins, Vm, OUT};
use crate::engine::run::problem;
use crate::engine::{Runtime, RuntimeProblem};

impl Vm {
    // `!(x < y)` is not `x >= y` for NaN: the negated forms are meant
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    /// The interpreter: from `pc` until the outermost option returns. One arm per
    /// instruction: `jump_if!` jumps when its test holds, `set!` writes a value.
    pub(super) fn run(&self, sl: &mut [f64], rt: &mut Runtime, mut pc: usize) {
        let (m, im) = (self.smask, self.imask);
        let Some(ins) = self.ins.get(..=im) else {
            return;
        };
        macro_rules! jump_if {
            ($t:expr, $c:expr) => {{
                if $c {
                    pc = $t as usize;
                }
            }};
            ($a:expr, $b:expr, $t:expr, |$x:ident, $y:ident| $c:expr) => {{
                let $x = rd(sl, m, $a);
                let $y = rd(sl, m, $b);
                jump_if!($t, $c)
            }};
        }
        macro_rules! set {
            ($d:expr, $v:expr) => {{
                let v = $v;
                wr(sl, m, $d, v);
            }};
            ($d:expr, $a:expr, |$x:ident| $c:expr) => {{
                let $x = rd(sl, m, $a);
                set!($d, $c)
            }};
            ($d:expr, $a:expr, $b:expr, |$x:ident, $y:ident| $c:expr) => {{
                let $x = rd(sl, m, $a);
                let $y = rd(sl, m, $b);
                set!($d, $c)
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
                Ins::Jz(s, t) => jump_if!(t, rd(sl, m, s) == 0.0),
                Ins::Jnz(s, t) => jump_if!(t, rd(sl, m, s) != 0.0),
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
                Ins::JDone(f, n, t) => jump_if!(t, self.action_done(rt, f, n)),
                Ins::JNotDone(f, n, t) => jump_if!(t, !self.action_done(rt, f, n)),
                Ins::JDone1(o, t) => jump_if!(t, self.done1(rt, o)),
                Ins::JNotDone1(o, t) => jump_if!(t, !self.done1(rt, o)),
                Ins::JIn(a, k, t) => jump_if!(t, in_range(sl, m, a, k)),
                Ins::JNotIn(a, k, t) => jump_if!(t, !in_range(sl, m, a, k)),
                Ins::Add(d, a, b) => set!(d, a, b, |x, y| x + y),
                Ins::Sub(d, a, b) => set!(d, a, b, |x, y| x - y),
                Ins::Mul(d, a, b) => set!(d, a, b, |x, y| x * y),
                Ins::Div(d, a, b) => set!(d, a, b, |x, y| divide(x, y)),
                Ins::Mod(d, a, b) => set!(d, a, b, |x, y| modulo(rt, x, y)),
                Ins::Lt(d, a, b) => set!(d, a, b, |x, y| b2f(x < y)),
                Ins::Gt(d, a, b) => set!(d, a, b, |x, y| b2f(x > y)),
                Ins::Le(d, a, b) => set!(d, a, b, |x, y| b2f(x <= y)),
                Ins::Ge(d, a, b) => set!(d, a, b, |x, y| b2f(x >= y)),
                Ins::Eq(d, a, b) => set!(d, a, b, |x, y| b2f(x == y)),
                Ins::Ne(d, a, b) => set!(d, a, b, |x, y| b2f(x != y)),
                Ins::EnumEq(d, a, b) => set!(d, a, b, |x, y| b2f(x as u32 == y as u32)),
                Ins::Sel(d, c, p) => set!(d, self.select(sl, c, p)),
                Ins::AndV(d, a, b) => set!(d, a, b, |x, y| b2f(x != 0.0 && y != 0.0)),
                Ins::OrV(d, a, b) => set!(d, a, b, |x, y| b2f(x != 0.0 || y != 0.0)),
                Ins::Not(d, a) => set!(d, a, |x| b2f(x == 0.0)),
                Ins::Bool(d, a) => set!(d, a, |x| b2f(x != 0.0)),
                Ins::ToU32(d, a) => set!(d, a, |x| f64::from(x as u32)),
                Ins::Mov(d, a) => set!(d, a, |x| x),
                Ins::Done(d, f, n) => set!(d, b2f(self.action_done(rt, f, n))),
                Ins::Conflict(d, ci) => set!(d, b2f(conflict(rt, ci))),
                Ins::HostD(d, h) => set!(d, self.call_host(sl, h)),
                Ins::HostB(d, h) => set!(d, b2f(self.call_host(sl, h) != 0.0)),
                Ins::HostE(d, h) => set!(d, f64::from(self.call_host(sl, h) as u32)),
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

    /// `Sel`: the first slot of the pair if `c` is not 0, else the second.
    #[inline(always)]
    fn select(&self, sl: &[f64], c: u32, p: u32) -> f64 {
        let m = self.smask;
        let (a, b) = self.pairs.get(p as usize).copied().unwrap_or((0, 0));
        if rd(sl, m, c) != 0.0 {
            rd(sl, m, a)
        } else {
            rd(sl, m, b)
        }
    }

    pub(crate) fn call_host(&self, sl: &[f64], h: u32) -> f64 {
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

fn divide(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        x / 0.0000001
    } else {
        x / y
    }
}

pub(crate) fn modulo(rt: &mut Runtime, x: f64, y: f64) -> f64 {
    let (x, y) = (x as i32, y as i32);
    if y == 0 {
        problem(rt, RuntimeProblem::ModuloByZero);
        0.0
    } else {
        f64::from(x.wrapping_rem(y))
    }
}

/// `JIn`: lo <= a < hi, lo and hi in the two slots from `k`.
#[inline(always)]
fn in_range(sl: &[f64], m: usize, a: u32, k: u32) -> bool {
    let (x, lo, hi) = (rd(sl, m, a), rd(sl, m, k), rd(sl, m, k + 1));
    lo <= x && x < hi
}

/// `conflict` of the cooperative state with index `ci`.
#[inline(always)]
fn conflict(rt: &Runtime, ci: u32) -> bool {
    rt.coop.get(ci as usize).is_some_and(|c| c.conflict)
}
