//! The cycle: executing actions, options and decisions, and evaluating expressions,
//! over the executable form ([`Code`]) and the run-time state.

use super::code::*;
use super::{Executed, PathEntry, Runtime, RuntimeProblem, MAX_PROBLEMS};

pub(super) fn execute(code: &Code, roots: &[Action], rt: &mut Runtime, now: u64) {
    rt.now = now;
    for f in rt.output_set.iter_mut() {
        *f = false;
    }
    rt.path.clear();
    rt.executed.clear();
    rt.executed_params.clear();
    rt.problems.clear();
    rt.problems_dropped = 0;
    rt.depth = 0;
    for a in roots {
        action(code, rt, a);
    }
    for o in rt.options.iter_mut() {
        o.was_active = o.is_active;
        o.is_active = false;
    }
    for b in rt.behaviors.iter_mut() {
        b.was_active = b.is_active;
        b.is_active = false;
    }
}

fn problem(rt: &mut Runtime, p: RuntimeProblem) {
    if rt.problems.len() < MAX_PROBLEMS {
        rt.problems.push(p);
    } else {
        rt.problems_dropped += 1;
    }
}

/// Write every parameter; true if one changed.
fn set_params(code: &Code, rt: &mut Runtime, params: &[(u32, Any)]) -> bool {
    let mut changed = false;
    for (slot, e) in params.iter() {
        let v = any(code, rt, e);
        if let Some(s) = rt.slots.get_mut(*slot as usize) {
            if *s != v {
                changed = true;
                *s = v;
            }
        }
    }
    changed
}

fn action(code: &Code, rt: &mut Runtime, a: &Action) {
    let now = rt.now;
    match a {
        Action::Option(c) => {
            set_params(code, rt, &c.params);
            let o = c.callee as usize;
            if let Some(r) = rt.options.get_mut(o) {
                if !r.was_active {
                    r.activation = now;
                }
                r.time = now.saturating_sub(r.activation);
            }
            rt.depth += 1;
            option(code, rt, o);
            rt.depth -= 1;
            if let Some(r) = rt.options.get_mut(o) {
                r.is_active = true;
            }
        }
        Action::Behavior(c) => {
            let changed = set_params(code, rt, &c.params);
            let b = c.callee as usize;
            if let Some(r) = rt.behaviors.get_mut(b) {
                if !r.was_active {
                    r.activation = now;
                }
                r.time = now.saturating_sub(r.activation);
                r.is_active = true;
            }
            if let Some(bc) = code.behaviors.get(b) {
                let first = rt.executed_params.len();
                let from = bc.first_param as usize;
                let to = from + bc.n_params as usize;
                if let Some(vals) = rt.slots.get(from..to) {
                    rt.executed_params.extend_from_slice(vals);
                }
                rt.executed.push(Executed {
                    behavior: b,
                    first,
                    len: bc.n_params as usize,
                    changed,
                });
            }
        }
        Action::SetD(sym, slot, e) => {
            let v = d(code, rt, e);
            set_output(rt, *sym, *slot, v);
        }
        Action::SetB(sym, slot, e) => {
            let v = if b(code, rt, e) { 1.0 } else { 0.0 };
            set_output(rt, *sym, *slot, v);
        }
        Action::SetE(sym, slot, x) => {
            let v = f64::from(e(code, rt, x));
            set_output(rt, *sym, *slot, v);
        }
    }
}

fn set_output(rt: &mut Runtime, sym: u32, slot: u32, v: f64) {
    if let Some(s) = rt.slots.get_mut(slot as usize) {
        *s = v;
    }
    if let Some(f) = rt.output_set.get_mut(sym as usize) {
        *f = true;
    }
}

fn reset_state(rt: &mut Runtime, g: u32) {
    let now = rt.now;
    if let Some(s) = rt.states.get_mut(g as usize) {
        s.activation = now;
        s.time = 0;
    }
}

fn option(code: &Code, rt: &mut Runtime, o: usize) {
    let (Some(oc), Some(r)) = (code.options.get(o), rt.options.get(o).copied()) else {
        return;
    };
    if r.is_active {
        problem(rt, RuntimeProblem::OptionExecutedTwice(o));
    }
    let mut current = r.active;
    if !r.was_active {
        current = oc.initial;
        reset_state(rt, current);
    }
    // decide once
    let now = rt.now;
    if let Some(s) = rt.states.get_mut(current as usize) {
        s.time = now.saturating_sub(s.activation);
    }
    let Some(st) = code.states.get(current as usize) else {
        return;
    };
    if let (CoopKind::Capacity(cap), Some(ci)) = (st.coop, st.coop_index) {
        if let Some(c) = rt.coop.get_mut(ci as usize) {
            c.conflict = c.executing >= cap as i32;
        }
    }
    let next = stmt(code, rt, &st.decision);
    let next = if coop_check(code, rt, next) {
        next
    } else {
        current
    };
    if next != current {
        current = next;
        reset_state(rt, current);
    }
    if let Some(r) = rt.options.get_mut(o) {
        r.active = current;
    }
    let (state_time, option_time) = (
        rt.states.get(current as usize).map_or(0, |s| s.time),
        rt.options.get(o).map_or(0, |r| r.time),
    );
    rt.path.push(PathEntry {
        option: o,
        state: current.saturating_sub(oc.first_state) as usize,
        state_time,
        option_time,
        depth: rt.depth.saturating_sub(1),
    });
    if let Some(st) = code.states.get(current as usize) {
        for a in st.actions.iter() {
            action(code, rt, a);
        }
    }
}

/// May the agent enter (or stay in) state `g`? Updates the cooperation bookkeeping as
/// the reference's `coopCheck`.
fn coop_check(code: &Code, rt: &mut Runtime, g: u32) -> bool {
    let Some(st) = code.states.get(g as usize) else {
        return true;
    };
    let Some(ci) = st.coop_index else {
        return true;
    };
    let prio = rt.agent_priority;
    let ticks = rt.synchronization_ticks;
    let Some(c) = rt.coop.get_mut(ci as usize) else {
        return true;
    };
    match st.coop {
        CoopKind::Normal => true,
        CoopKind::Synchronized(min) => {
            c.entering = true;
            c.in_option + 1 >= min as i32
                && c.executing + c.entering_count == c.in_option
                && c.enter_count > ticks / 2
        }
        CoopKind::Capacity(cap) => {
            let cap = cap as i32;
            // busy, or free but wanted by a team-mate of higher priority
            if c.executing >= cap
                || (c.executing + c.entering_count >= cap && c.highest_priority_entering > prio)
            {
                c.entering = true;
                false
            } else if c.executing + c.entering_count >= cap && c.highest_priority_entering == prio {
                // same priority: neither enters (the reference's message says so)
                false
            } else if c.enter_count < ticks {
                c.entering = true;
                false
            } else {
                true
            }
        }
    }
}

fn stmt(code: &Code, rt: &mut Runtime, s: &Stmt) -> u32 {
    let mut s = s;
    loop {
        match s {
            Stmt::Goto(g) => return *g,
            Stmt::If(c, a, other) => {
                s = if b(code, rt, c) { a } else { other };
            }
        }
    }
}

fn any(code: &Code, rt: &mut Runtime, x: &Any) -> f64 {
    match x {
        Any::D(x) => d(code, rt, x),
        Any::B(x) => {
            if b(code, rt, x) {
                1.0
            } else {
                0.0
            }
        }
        Any::E(x) => f64::from(e(code, rt, x)),
    }
}

fn slot(rt: &Runtime, s: u32) -> f64 {
    rt.slots.get(s as usize).copied().unwrap_or(0.0)
}

fn input(code: &Code, rt: &mut Runtime, r: &InputRef) -> f64 {
    set_params(code, rt, &r.params);
    let Some(inp) = code.inputs.get(r.input as usize) else {
        return 0.0;
    };
    match &inp.source {
        Source::Value => slot(rt, inp.slot),
        Source::Function(f) => {
            let from = inp.first_param as usize;
            let to = from + inp.n_params as usize;
            f(rt.slots.get(from..to).unwrap_or(&[]))
        }
        Source::Definition(x) => any(code, rt, x),
    }
}

pub(super) fn d(code: &Code, rt: &mut Runtime, x: &D) -> f64 {
    match x {
        D::Const(v) => *v,
        D::Slot(s) => slot(rt, *s),
        D::Input(r) => input(code, rt, r),
        D::Add(a, c) => d(code, rt, a) + d(code, rt, c),
        D::Sub(a, c) => d(code, rt, a) - d(code, rt, c),
        D::Mul(a, c) => d(code, rt, a) * d(code, rt, c),
        D::Div(a, c) => {
            let x = d(code, rt, a);
            let y = d(code, rt, c);
            if y == 0.0 {
                x / 0.0000001
            } else {
                x / y
            }
        }
        D::Mod(a, c) => {
            let x = d(code, rt, a) as i32;
            let y = d(code, rt, c) as i32;
            if y == 0 {
                problem(rt, RuntimeProblem::ModuloByZero);
                0.0
            } else {
                f64::from(x.wrapping_rem(y))
            }
        }
        D::StateTime(g) => rt.states.get(*g as usize).map_or(0.0, |s| s.time as f64),
        D::OptionTime(o) => rt.options.get(*o as usize).map_or(0.0, |r| r.time as f64),
        D::Cond(c, a, o) => {
            if b(code, rt, c) {
                d(code, rt, a)
            } else {
                d(code, rt, o)
            }
        }
    }
}

pub(super) fn b(code: &Code, rt: &mut Runtime, x: &B) -> bool {
    match x {
        B::Const(v) => *v,
        B::Slot(s) => slot(rt, *s) != 0.0,
        B::Input(r) => input(code, rt, r) != 0.0,
        B::ActionDone(g) => {
            let Some(st) = code.states.get(*g as usize) else {
                return false;
            };
            st.subsequent.iter().any(|&o| {
                let Some(r) = rt.options.get(o as usize) else {
                    return false;
                };
                r.was_active && code.states.get(r.active as usize).is_some_and(|s| s.target)
            })
        }
        B::Conflict(g) => code
            .states
            .get(*g as usize)
            .and_then(|s| s.coop_index)
            .and_then(|i| rt.coop.get(i as usize))
            .is_some_and(|c| c.conflict),
        B::EnumEq(a, c) => e(code, rt, a) == e(code, rt, c),
        B::Not(a) => !b(code, rt, a),
        B::And(v) => v.iter().all(|x| b(code, rt, x)),
        B::Or(v) => v.iter().any(|x| b(code, rt, x)),
        B::Eq(a, c) => d(code, rt, a) == d(code, rt, c),
        B::Ne(a, c) => d(code, rt, a) != d(code, rt, c),
        B::Lt(a, c) => d(code, rt, a) < d(code, rt, c),
        B::Gt(a, c) => d(code, rt, a) > d(code, rt, c),
        B::Le(a, c) => d(code, rt, a) <= d(code, rt, c),
        B::Ge(a, c) => d(code, rt, a) >= d(code, rt, c),
    }
}

pub(super) fn e(code: &Code, rt: &mut Runtime, x: &E) -> u32 {
    match x {
        E::Const(v) => *v,
        E::Slot(s) => slot(rt, *s) as u32,
        E::Input(r) => input(code, rt, r) as u32,
        E::Cond(c, a, o) => {
            if b(code, rt, c) {
                e(code, rt, a)
            } else {
                e(code, rt, o)
            }
        }
    }
}
