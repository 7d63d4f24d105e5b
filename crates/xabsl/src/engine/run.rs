//! The cycle: executing actions, options and decisions, and evaluating expressions,
//! over the executable form ([`Code`]) and the run-time state.
//!
//! "Active in this cycle" and "active in the previous cycle" are kept as cycle numbers
//! (the cycle an option or basic behavior last ran, and the one before), so that a cycle
//! costs what it runs, not the size of the program.

use super::code::*;
use super::lower::{set_params, set_params_changed, wr, LAction, LState, LStmt};
use super::{Executed, PathEntry, Runtime, RuntimeProblem, MAX_PROBLEMS};

/// When something last ran: the cycle, and the cycle before that.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Ran {
    pub last: u64,
    pub prev: u64,
}

impl Ran {
    /// Whether it ran in the cycle before `now`.
    #[inline]
    pub fn was_active(self, now: u64) -> bool {
        if self.last == now {
            self.prev + 1 == now
        } else {
            self.last + 1 == now
        }
    }
    /// Whether it ran already in cycle `now`.
    #[inline]
    pub fn is_active(self, now: u64) -> bool {
        self.last == now
    }
    /// It ran in cycle `now`.
    #[inline]
    pub fn mark(&mut self, now: u64) {
        if self.last != now {
            self.prev = self.last;
            self.last = now;
        }
    }
}

pub(super) fn execute(code: &Code, exec: &[LState], roots: &[LAction], rt: &mut Runtime, now: u64) {
    rt.now = now;
    rt.cycle += 1;
    rt.path.clear();
    rt.executed.clear();
    rt.problems.clear();
    rt.problems_dropped = 0;
    rt.depth = 0;
    let x = Exec { code, exec };
    for a in roots {
        x.action(rt, a);
    }
}

struct Exec<'a> {
    code: &'a Code,
    exec: &'a [LState],
}

#[cold]
fn problem(rt: &mut Runtime, p: RuntimeProblem) {
    if rt.problems.len() < MAX_PROBLEMS {
        rt.problems.push(p);
    } else {
        rt.problems_dropped += 1;
    }
}

impl Exec<'_> {
    fn action(&self, rt: &mut Runtime, a: &LAction) {
        match a {
            LAction::Option(callee, params) => {
                set_params(rt, params);
                self.option(rt, *callee as usize);
            }
            LAction::Behavior(callee, params) => behavior(rt, *callee as usize, params),
            LAction::SetD(sym, s, f) => {
                let v = f(rt);
                set_output(rt, *sym, *s, v);
            }
            LAction::SetB(sym, s, f) => {
                let v = f64::from(u8::from(f(rt)));
                set_output(rt, *sym, *s, v);
            }
            LAction::SetE(sym, s, f) => {
                let v = f64::from(f(rt));
                set_output(rt, *sym, *s, v);
            }
        }
    }

    /// Run an option (its parameters are written): activation, one decision, the
    /// actions of the (possibly new) active state.
    #[inline(never)]
    fn option(&self, rt: &mut Runtime, o: usize) {
        let (now, cycle) = (rt.now, rt.cycle);
        let Some(oc) = self.code.options.get(o) else {
            return;
        };
        let Some(r) = rt.options.get_mut(o) else {
            return;
        };
        let was = r.ran.was_active(cycle);
        let twice = r.ran.is_active(cycle);
        if !was {
            r.activation = now;
        }
        r.time = now.saturating_sub(r.activation);
        let option_time = r.time;
        let mut current = r.active;
        if twice {
            problem(rt, RuntimeProblem::OptionExecutedTwice(o));
        }
        if !was {
            current = oc.initial;
            reset_state(rt, current);
        }
        if let Some(s) = rt.states.get_mut(current as usize) {
            s.time = now.saturating_sub(s.activation);
        }
        let Some(ex) = self.exec.get(current as usize) else {
            return;
        };
        if let Some((CoopKind::Capacity(cap), ci)) = ex.coop {
            if let Some(c) = rt.coop.get_mut(ci as usize) {
                c.conflict = c.executing >= cap as i32;
            }
        }
        let mut next = stmt(rt, &ex.decision);
        if let Some((kind, ci)) = self.exec.get(next as usize).and_then(|x| x.coop) {
            if !coop_check_coop(kind, ci, rt) {
                next = current;
            }
        }
        let ex = if next != current {
            current = next;
            reset_state(rt, current);
            match self.exec.get(current as usize) {
                Some(x) => x,
                None => return,
            }
        } else {
            ex
        };
        if let Some(r) = rt.options.get_mut(o) {
            r.active = current;
        }
        let state_time = rt.states.get(current as usize).map_or(0, |s| s.time);
        let depth = rt.depth;
        rt.path.push(PathEntry {
            option: o,
            state: current.saturating_sub(oc.first_state) as usize,
            state_time,
            option_time,
            depth,
        });
        rt.depth += 1;
        for a in ex.actions.iter() {
            self.action(rt, a);
        }
        rt.depth -= 1;
        if let Some(r) = rt.options.get_mut(o) {
            r.ran.mark(cycle);
        }
    }
}

#[inline(never)]
fn behavior(rt: &mut Runtime, b: usize, params: &[(u32, super::lower::LVal)]) {
    let (now, cycle) = (rt.now, rt.cycle);
    let changed = set_params_changed(rt, params);
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

#[inline]
fn set_output(rt: &mut Runtime, sym: u32, s: u32, v: f64) {
    wr(rt, s, v);
    let c = rt.cycle;
    if let Some(f) = rt.output_set.get_mut(sym as usize) {
        *f = c;
    }
}

fn reset_state(rt: &mut Runtime, g: u32) {
    let now = rt.now;
    if let Some(s) = rt.states.get_mut(g as usize) {
        s.activation = now;
        s.time = 0;
    }
}

/// May the agent enter (or stay in) a cooperative state? Updates the cooperation
/// bookkeeping as the reference's `coopCheck`.
#[cold]
fn coop_check_coop(kind: CoopKind, ci: u32, rt: &mut Runtime) -> bool {
    let prio = rt.agent_priority;
    let ticks = rt.synchronization_ticks;
    let Some(c) = rt.coop.get_mut(ci as usize) else {
        return true;
    };
    match kind {
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

fn stmt(rt: &mut Runtime, s: &LStmt) -> u32 {
    let mut s = s;
    loop {
        match s {
            LStmt::Goto(g) => return *g,
            LStmt::If(c, a, other) => {
                s = if c(rt) { a } else { other };
            }
        }
    }
}
