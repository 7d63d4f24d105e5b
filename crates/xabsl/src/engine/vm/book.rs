//! The bookkeeping both ways of running share (the interpreter and native code):
//! starting an option (activation, its times and their slots, "ran twice"), the
//! decision's transition (cooperative states may refuse it), the path, leaving an
//! option, basic behaviors' runs, and `action_done`.

use super::{ms, wr, Frame, StateExec, Vm, OUT};
use crate::engine::code::CoopKind;
use crate::engine::run::{coop_check_coop, problem};
use crate::engine::{Executed, PathEntry, Runtime, RuntimeProblem};

impl Vm {
    /// Whether an option called in a state (the range of the table) ran in the
    /// previous cycle and is in a target state.
    #[inline]
    pub(crate) fn action_done(&self, rt: &Runtime, first: u32, n: u32) -> bool {
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
    pub(crate) fn done1(&self, rt: &Runtime, o: u32) -> bool {
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
    pub(super) fn enter(
        &self,
        sl: &mut [f64],
        rt: &mut Runtime,
        o: u32,
        ret: u32,
    ) -> Option<usize> {
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
    pub(crate) fn enter_option(&self, sl: &mut [f64], rt: &mut Runtime, o: u32) -> Option<u32> {
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
    pub(super) fn decided(&self, sl: &mut [f64], rt: &mut Runtime, next: u32) -> Option<usize> {
        let f = *rt.frames.last()?;
        let depth = rt.frames.len().saturating_sub(1) as u32;
        let g = self.decide(sl, rt, f.option, f.state, next, depth)?;
        self.states.get(g as usize).map(|x| x.actions as usize)
    }

    /// Option `o`, in state `current`, decided for `next` (global indices): switch
    /// (unless a cooperative state refuses), record the path at `depth`; the state
    /// whose actions run.
    #[inline(always)]
    pub(crate) fn decide(
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
    pub(super) fn leave(&self, rt: &mut Runtime) -> u32 {
        let Some(f) = rt.frames.pop() else {
            return OUT;
        };
        leave_option(rt, f.option);
        f.ret
    }
}

/// Option `o` ran its actions: it was active in this cycle.
#[inline(always)]
pub(crate) fn leave_option(rt: &mut Runtime, o: u32) {
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
