//! The instruction set: an instruction is 16 bytes, its fields are slots unless named
//! otherwise, jump targets are the last field. Conditions compile to compare-and-jump
//! instructions with `&&`, `||` and `!` as jumps (short-circuit, as the reference
//! evaluates them), so a decision costs one dispatch per condition tested; operands
//! without effect may be computed eagerly instead (`AndV`, `Sel`), which nobody can tell
//! apart.

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
    pub(super) fn set_target(&mut self, t: u32) {
        if let Some(x) = self.target_mut() {
            *x = t;
        }
    }

    /// Where it jumps, if it is a jump.
    #[cfg_attr(not(feature = "native"), allow(dead_code))]
    pub(crate) fn target(self) -> Option<u32> {
        let mut i = self;
        i.target_mut().copied()
    }

    pub(crate) fn target_mut(&mut self) -> Option<&mut u32> {
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
    pub(super) fn dst_mut(&mut self) -> Option<&mut u32> {
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
