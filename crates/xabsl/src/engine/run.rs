//! The cycle: executing actions, options and decisions, and evaluating expressions,
//! over the executable form ([`Code`]) and the run-time state.
//!
//! "Active in this cycle" and "active in the previous cycle" are kept as cycle numbers
//! (the cycle an option or basic behavior last ran, and the one before), so that a cycle
//! costs what it runs, not the size of the program.

use super::code::*;
use super::vm::Vm;
use super::{Runtime, RuntimeProblem, MAX_PROBLEMS};

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

pub(super) fn execute(vm: &Vm, roots: &[Root], pairs: &[(u32, f64)], rt: &mut Runtime, now: u64) {
    rt.now = now;
    rt.cycle += 1;
    rt.path.clear();
    rt.executed.clear();
    rt.problems.clear();
    rt.problems_dropped = 0;
    // the slots apart from the rest, so that the interpreter keeps them at hand
    let mut slots = std::mem::take(&mut rt.slots);
    let sl = slots.as_mut_slice();
    for r in roots {
        match *r {
            Root::Option(o, first, n) => {
                for &(s, v) in pairs
                    .get(first as usize..(first + n) as usize)
                    .unwrap_or(&[])
                {
                    if let Some(x) = sl.get_mut(s as usize) {
                        *x = v;
                    }
                }
                vm.run_option(sl, rt, o);
            }
            Root::Behavior(b, first, n) => {
                let mut changed = false;
                for &(s, v) in pairs
                    .get(first as usize..(first + n) as usize)
                    .unwrap_or(&[])
                {
                    if let Some(x) = sl.get_mut(s as usize) {
                        changed |= *x != v;
                        *x = v;
                    }
                }
                super::vm::behavior(rt, b as usize, changed);
            }
            Root::Set(sym, s, v) => {
                if let Some(x) = sl.get_mut(s as usize) {
                    *x = v;
                }
                let c = rt.cycle;
                if let Some(f) = rt.output_set.get_mut(sym as usize) {
                    *f = c;
                }
            }
        }
    }
    rt.slots = slots;
}

/// A root action, ready to run: option or basic behavior with its parameters (first
/// pair, count; every parameter written with 0 / false / first element), or an output
/// symbol set to a fixed value (symbol, slot, value).
#[derive(Debug, Clone, Copy)]
pub(super) enum Root {
    Option(u32, u32, u32),
    Behavior(u32, u32, u32),
    Set(u32, u32, f64),
}

#[cold]
pub(super) fn problem(rt: &mut Runtime, p: RuntimeProblem) {
    if rt.problems.len() < MAX_PROBLEMS {
        rt.problems.push(p);
    } else {
        rt.problems_dropped += 1;
    }
}

/// May the agent enter (or stay in) a cooperative state? Updates the cooperation
/// bookkeeping as the reference's `coopCheck`.
#[cold]
pub(super) fn coop_check_coop(kind: CoopKind, ci: u32, rt: &mut Runtime) -> bool {
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
