//! Lowering the executable form to closures: every expression node becomes a small
//! function specialised for its shape (a slot compared with a constant, a sum of two
//! slots, ...), so evaluating a condition costs a call or two rather than a walk over a
//! tree of enums. Built once when the engine is built or a binding changes.

use super::code::*;
use super::{Runtime, RuntimeProblem, MAX_PROBLEMS};
use std::sync::Arc;

/// A decimal expression.
pub(crate) type Fd = Box<dyn Fn(&mut Runtime) -> f64 + Send + Sync>;
/// A boolean expression.
pub(crate) type Fb = Box<dyn Fn(&mut Runtime) -> bool + Send + Sync>;
/// An enumerated expression.
pub(crate) type Fe = Box<dyn Fn(&mut Runtime) -> u32 + Send + Sync>;

/// A parameter value: constants and slots in place, anything else a function.
pub(crate) enum LVal {
    Const(f64),
    Slot(u32),
    F(Fd),
}

/// An action.
pub(crate) enum LAction {
    Option(u32, Box<[(u32, LVal)]>),
    Behavior(u32, Box<[(u32, LVal)]>),
    SetD(u32, u32, Fd),
    SetB(u32, u32, Fb),
    SetE(u32, u32, Fe),
}

/// A decision.
pub(crate) enum LStmt {
    Goto(u32),
    If(Fb, Box<LStmt>, Box<LStmt>),
}

/// A state's actions and decision.
pub(crate) struct LState {
    pub actions: Box<[LAction]>,
    pub decision: LStmt,
    /// cooperation, with the index among the cooperative states
    pub coop: Option<(CoopKind, u32)>,
}

#[inline(always)]
pub(crate) fn sl(rt: &Runtime, s: u32) -> f64 {
    rt.slots.get(s as usize).copied().unwrap_or(0.0)
}

#[inline(always)]
pub(crate) fn wr(rt: &mut Runtime, s: u32, v: f64) {
    if let Some(x) = rt.slots.get_mut(s as usize) {
        *x = v;
    }
}

#[inline(always)]
pub(crate) fn lval(rt: &mut Runtime, v: &LVal) -> f64 {
    match v {
        LVal::Const(c) => *c,
        LVal::Slot(s) => sl(rt, *s),
        LVal::F(f) => f(rt),
    }
}

/// Write every parameter.
#[inline]
pub(crate) fn set_params(rt: &mut Runtime, params: &[(u32, LVal)]) {
    for (s, v) in params.iter() {
        let x = lval(rt, v);
        wr(rt, *s, x);
    }
}

/// Write every parameter; true if one changed.
pub(crate) fn set_params_changed(rt: &mut Runtime, params: &[(u32, LVal)]) -> bool {
    let mut changed = false;
    for (s, v) in params.iter() {
        let x = lval(rt, v);
        if let Some(old) = rt.slots.get_mut(*s as usize) {
            if *old != x {
                changed = true;
                *old = x;
            }
        }
    }
    changed
}

#[cold]
fn modulo_by_zero(rt: &mut Runtime) {
    if rt.problems.len() < MAX_PROBLEMS {
        rt.problems.push(RuntimeProblem::ModuloByZero);
    } else {
        rt.problems_dropped += 1;
    }
}

fn modulo(rt: &mut Runtime, x: f64, y: f64) -> f64 {
    let (x, y) = (x as i32, y as i32);
    if y == 0 {
        modulo_by_zero(rt);
        0.0
    } else {
        f64::from(x.wrapping_rem(y))
    }
}

fn divide(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        x / 0.0000001
    } else {
        x / y
    }
}

/// Lowers expressions of one engine build.
pub(crate) struct Lower<'a> {
    pub code: &'a Code,
    pub targets: Arc<[bool]>,
}

/// A closure for every shape of two decimal operands.
macro_rules! binary {
    ($self:ident, $a:expr, $b:expr, $out:ty, |$rt:ident, $x:ident, $y:ident| $body:expr) => {{
        match ($a, $b) {
            (Op::Slot(a), Op::Slot(b)) => {
                let (a, b) = (*a, *b);
                Box::new(move |$rt: &mut Runtime| {
                    let $x = sl($rt, a);
                    let $y = sl($rt, b);
                    $body
                }) as $out
            }
            (Op::Slot(a), Op::Const(b)) => {
                let (a, $y) = (*a, *b);
                Box::new(move |$rt: &mut Runtime| {
                    let $x = sl($rt, a);
                    $body
                }) as $out
            }
            (Op::Const(a), Op::Slot(b)) => {
                let ($x, b) = (*a, *b);
                Box::new(move |$rt: &mut Runtime| {
                    let $y = sl($rt, b);
                    $body
                }) as $out
            }
            (Op::D(a), Op::Const(b)) => {
                let (fa, $y) = ($self.d(a), *b);
                Box::new(move |$rt: &mut Runtime| {
                    let $x = fa($rt);
                    $body
                }) as $out
            }
            (Op::D(a), Op::Slot(b)) => {
                let (fa, b) = ($self.d(a), *b);
                Box::new(move |$rt: &mut Runtime| {
                    let $x = fa($rt);
                    let $y = sl($rt, b);
                    $body
                }) as $out
            }
            (Op::Slot(a), Op::D(b)) => {
                let (a, fb) = (*a, $self.d(b));
                Box::new(move |$rt: &mut Runtime| {
                    let $x = sl($rt, a);
                    let $y = fb($rt);
                    $body
                }) as $out
            }
            (a, b) => {
                let (fa, fb) = ($self.op(a), $self.op(b));
                Box::new(move |$rt: &mut Runtime| {
                    let $x = fa($rt);
                    let $y = fb($rt);
                    $body
                }) as $out
            }
        }
    }};
}

impl Lower<'_> {
    pub fn state(&self, st: &State) -> LState {
        LState {
            actions: st.actions.iter().map(|a| self.action(a)).collect(),
            decision: self.stmt(&st.decision),
            coop: st.coop_index.map(|i| (st.coop, i)),
        }
    }

    pub fn action(&self, a: &Action) -> LAction {
        match a {
            Action::Option(c) => LAction::Option(c.callee, self.params(&c.params)),
            Action::Behavior(c) => LAction::Behavior(c.callee, self.params(&c.params)),
            Action::SetD(s, t, x) => LAction::SetD(*s, *t, self.d(x)),
            Action::SetB(s, t, x) => LAction::SetB(*s, *t, self.b(x)),
            Action::SetE(s, t, x) => LAction::SetE(*s, *t, self.e(x)),
        }
    }

    fn stmt(&self, s: &Stmt) -> LStmt {
        match s {
            Stmt::Goto(g) => LStmt::Goto(*g),
            Stmt::If(c, a, b) => {
                LStmt::If(self.b(c), Box::new(self.stmt(a)), Box::new(self.stmt(b)))
            }
        }
    }

    fn params(&self, ps: &[(u32, Val)]) -> Box<[(u32, LVal)]> {
        ps.iter().map(|(s, v)| (*s, self.val(v))).collect()
    }

    fn val(&self, v: &Val) -> LVal {
        match v {
            Val::Const(c) => LVal::Const(*c),
            Val::Slot(s) => LVal::Slot(*s),
            Val::D(x) => LVal::F(self.d(x)),
            Val::B(x) => {
                let f = self.b(x);
                LVal::F(Box::new(move |rt| f64::from(u8::from(f(rt)))))
            }
            Val::E(x) => {
                let f = self.e(x);
                LVal::F(Box::new(move |rt| f64::from(f(rt))))
            }
        }
    }

    fn op(&self, o: &Op) -> Fd {
        match o {
            Op::Const(c) => {
                let c = *c;
                Box::new(move |_| c)
            }
            Op::Slot(s) => {
                let s = *s;
                Box::new(move |rt| sl(rt, s))
            }
            Op::D(x) => self.d(x),
        }
    }

    fn eop(&self, o: &EOp) -> Fe {
        match o {
            EOp::Const(c) => {
                let c = *c;
                Box::new(move |_| c)
            }
            EOp::Slot(s) => {
                let s = *s;
                Box::new(move |rt| sl(rt, s) as u32)
            }
            EOp::E(x) => self.e(x),
        }
    }

    /// An input symbol bound to a host function.
    fn host(&self, r: &InputRef) -> Fd {
        let params = self.params(&r.params);
        let Some(inp) = self.code.inputs.get(r.input as usize) else {
            return Box::new(|_| 0.0);
        };
        let from = inp.first_param as usize;
        let to = from + inp.n_params as usize;
        match &inp.source {
            Source::Function(f) => {
                let f = f.clone();
                Box::new(move |rt| {
                    set_params(rt, &params);
                    f(rt.slots.get(from..to).unwrap_or(&[]))
                })
            }
            _ => {
                let s = inp.slot;
                Box::new(move |rt| sl(rt, s))
            }
        }
    }

    pub fn d(&self, x: &D) -> Fd {
        match x {
            D::Const(c) => {
                let c = *c;
                Box::new(move |_| c)
            }
            D::Slot(s) => {
                let s = *s;
                Box::new(move |rt| sl(rt, s))
            }
            D::Bin(Arith::Add, a, b) => binary!(self, a, b, Fd, |rt, x, y| x + y),
            D::Bin(Arith::Sub, a, b) => binary!(self, a, b, Fd, |rt, x, y| x - y),
            D::Bin(Arith::Mul, a, b) => binary!(self, a, b, Fd, |rt, x, y| x * y),
            D::Bin(Arith::Div, a, b) => binary!(self, a, b, Fd, |rt, x, y| divide(x, y)),
            D::Bin(Arith::Mod, a, b) => binary!(self, a, b, Fd, |rt, x, y| modulo(rt, x, y)),
            D::StateTime(g) => {
                let g = *g as usize;
                Box::new(move |rt| rt.states.get(g).map_or(0.0, |s| s.time as f64))
            }
            D::OptionTime(o) => {
                let o = *o as usize;
                Box::new(move |rt| rt.options.get(o).map_or(0.0, |r| r.time as f64))
            }
            D::Cond(c, a, b) => {
                let (c, a, b) = (self.b(c), self.op(a), self.op(b));
                Box::new(move |rt| if c(rt) { a(rt) } else { b(rt) })
            }
            D::Input(r) => self.host(r),
            D::Def(x) => {
                let params = self.params(&x.params);
                let v = self.d(&x.value);
                Box::new(move |rt| {
                    set_params(rt, &params);
                    v(rt)
                })
            }
        }
    }

    pub fn b(&self, x: &B) -> Fb {
        match x {
            B::Const(c) => {
                let c = *c;
                Box::new(move |_| c)
            }
            B::Slot(s) => {
                let s = *s;
                Box::new(move |rt| sl(rt, s) != 0.0)
            }
            B::Cmp(Cmp::Eq, a, b) => binary!(self, a, b, Fb, |rt, x, y| x == y),
            B::Cmp(Cmp::Ne, a, b) => binary!(self, a, b, Fb, |rt, x, y| x != y),
            B::Cmp(Cmp::Lt, a, b) => binary!(self, a, b, Fb, |rt, x, y| x < y),
            B::Cmp(Cmp::Gt, a, b) => binary!(self, a, b, Fb, |rt, x, y| x > y),
            B::Cmp(Cmp::Le, a, b) => binary!(self, a, b, Fb, |rt, x, y| x <= y),
            B::Cmp(Cmp::Ge, a, b) => binary!(self, a, b, Fb, |rt, x, y| x >= y),
            B::And(v) => {
                let mut fs: Vec<Fb> = v.iter().map(|x| self.b(x)).collect();
                if fs.len() == 2 {
                    let (b, a) = (fs.pop(), fs.pop());
                    if let (Some(a), Some(b)) = (a, b) {
                        return Box::new(move |rt| a(rt) && b(rt));
                    }
                }
                let fs: Box<[Fb]> = fs.into();
                Box::new(move |rt| fs.iter().all(|f| f(rt)))
            }
            B::Or(v) => {
                let mut fs: Vec<Fb> = v.iter().map(|x| self.b(x)).collect();
                if fs.len() == 2 {
                    let (b, a) = (fs.pop(), fs.pop());
                    if let (Some(a), Some(b)) = (a, b) {
                        return Box::new(move |rt| a(rt) || b(rt));
                    }
                }
                let fs: Box<[Fb]> = fs.into();
                Box::new(move |rt| fs.iter().any(|f| f(rt)))
            }
            B::Not(a) => {
                let f = self.b(a);
                Box::new(move |rt| !f(rt))
            }
            B::EnumEq(EOp::Slot(s), EOp::Const(c)) | B::EnumEq(EOp::Const(c), EOp::Slot(s)) => {
                let (s, c) = (*s, *c);
                Box::new(move |rt| sl(rt, s) as u32 == c)
            }
            B::EnumEq(a, b) => {
                let (a, b) = (self.eop(a), self.eop(b));
                Box::new(move |rt| a(rt) == b(rt))
            }
            B::ActionDone(g) => {
                let subsequent: Box<[u32]> = self
                    .code
                    .states
                    .get(*g as usize)
                    .map(|s| s.subsequent.clone())
                    .unwrap_or_default();
                let targets = self.targets.clone();
                Box::new(move |rt| {
                    let cycle = rt.cycle;
                    subsequent.iter().any(|&o| {
                        rt.options.get(o as usize).is_some_and(|r| {
                            r.ran.was_active(cycle)
                                && targets.get(r.active as usize).copied().unwrap_or(false)
                        })
                    })
                })
            }
            B::Conflict(g) => match self.code.states.get(*g as usize).and_then(|s| s.coop_index) {
                Some(ci) => {
                    let ci = ci as usize;
                    Box::new(move |rt| rt.coop.get(ci).is_some_and(|c| c.conflict))
                }
                None => Box::new(|_| false),
            },
            B::Input(r) => {
                let f = self.host(r);
                Box::new(move |rt| f(rt) != 0.0)
            }
            B::Def(x) => {
                let params = self.params(&x.params);
                let v = self.b(&x.value);
                Box::new(move |rt| {
                    set_params(rt, &params);
                    v(rt)
                })
            }
        }
    }

    pub fn e(&self, x: &E) -> Fe {
        match x {
            E::Const(c) => {
                let c = *c;
                Box::new(move |_| c)
            }
            E::Slot(s) => {
                let s = *s;
                Box::new(move |rt| sl(rt, s) as u32)
            }
            E::Cond(c, a, b) => {
                let (c, a, b) = (self.b(c), self.eop(a), self.eop(b));
                Box::new(move |rt| if c(rt) { a(rt) } else { b(rt) })
            }
            E::Input(r) => {
                let f = self.host(r);
                Box::new(move |rt| f(rt) as u32)
            }
            E::Def(x) => {
                let params = self.params(&x.params);
                let v = self.e(&x.value);
                Box::new(move |rt| {
                    set_params(rt, &params);
                    v(rt)
                })
            }
        }
    }
}
