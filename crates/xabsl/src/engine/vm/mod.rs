//! The executable form lowered to a flat instruction list over one array of slots, and
//! the interpreter that runs it: the instruction set ([`ins`]), the lowering of the
//! executable form to it ([`lower`], [`lower_expr`]), the interpreter loop ([`interp`])
//! and the bookkeeping that both the interpreter and native code share: activation,
//! times, transitions, `action_done` ([`book`]).
//!
//! Every state becomes two runs of instructions: its decision (the common decision with
//! the state's own tree inlined as its last else), ending in a `Goto`, and its actions,
//! ending in `End`. Every operand is a slot: symbols and parameters, the constants of the
//! program (a pool of read-only slots), the `option_time` of each option and the
//! `state_time` of its active state (written when the option runs), and temporaries for
//! the intermediate values of an expression.
//!
//! The slot array and the instruction list are a power of two long and every index is
//! masked, so that the compiler sees the accesses in bounds (no checks in the loop, and
//! no index can go out of bounds).

mod book;
mod ins;
mod interp;
mod lower;
mod lower_expr;

pub(crate) use book::behavior;
#[cfg(feature = "native")]
pub(crate) use book::leave_option;
pub(crate) use ins::Ins;
#[cfg(feature = "native")]
pub(crate) use interp::modulo;

use super::code::*;

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
    #[cfg_attr(not(feature = "native"), allow(dead_code))]
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
        let first = lower::Compiler::new(code, 0).run();
        let mut vm = lower::Compiler::new(code, first.max_temp).run().vm;
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
