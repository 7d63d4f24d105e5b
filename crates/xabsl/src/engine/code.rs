//! The executable form: flat tables of options, states and basic behaviors, and typed
//! expression trees whose leaves are slots of one value array. Built once from a checked
//! [`Program`](crate::model::Program); nothing here changes while the engine runs.

use std::sync::Arc;

/// A host function giving an input symbol's value from its parameters (booleans are
/// 0/1, enumerated values element indices).
pub type InputFn = Arc<dyn Fn(&[f64]) -> f64 + Send + Sync>;

/// A decimal operand: leaves are evaluated in place, without a call.
#[derive(Clone)]
pub enum Op {
    /// a number or constant
    Const(f64),
    /// a slot
    Slot(u32),
    /// any other expression
    D(Box<D>),
}

/// Arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (by zero: divided by 1e-7)
    Div,
    /// `%` (on the operands truncated to integers)
    Mod,
}

/// A decimal expression.
#[derive(Clone)]
pub enum D {
    /// a number or constant
    Const(f64),
    /// an output or internal symbol, an option parameter, a value input
    Slot(u32),
    /// an input symbol bound to a host function
    Input(Box<InputRef>),
    /// an input symbol defined by an expression (inlined)
    Def(Box<Defined<D>>),
    /// arithmetic
    Bin(Arith, Op, Op),
    /// `state_time` of a state (global index)
    StateTime(u32),
    /// `option_time` of an option
    OptionTime(u32),
    /// `c ? a : b`
    Cond(Box<B>, Op, Op),
}

/// A boolean expression.
#[derive(Clone)]
pub enum B {
    /// `true`/`false`
    Const(bool),
    /// a boolean slot (0/1)
    Slot(u32),
    /// an input symbol bound to a host function
    Input(Box<InputRef>),
    /// an input symbol defined by an expression (inlined)
    Def(Box<Defined<B>>),
    /// `action_done` in a state (global index)
    ActionDone(u32),
    /// `conflict` in a state (global index)
    Conflict(u32),
    /// enumerated equality
    EnumEq(EOp, EOp),
    /// `!`
    Not(Box<B>),
    /// `&&`
    And(Box<[B]>),
    /// `||`
    Or(Box<[B]>),
    /// a comparison of two numbers
    Cmp(Cmp, Op, Op),
}

/// `== != < > <= >=`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
}

impl Cmp {
    /// Compare.
    #[inline]
    pub fn apply(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Gt => a > b,
            Cmp::Le => a <= b,
            Cmp::Ge => a >= b,
        }
    }
}

/// An input symbol defined by an expression, inlined where it is referenced: its
/// parameters are written, then the expression is evaluated. (Parameters given as
/// constants or plain symbols are substituted at build time instead.)
#[derive(Clone)]
pub struct Defined<T> {
    /// (parameter slot, value), decimal first, then boolean, then enumerated
    pub params: Box<[(u32, Val)]>,
    /// the definition
    pub value: T,
}

/// An enumerated operand.
#[derive(Clone)]
pub enum EOp {
    /// an element
    Const(u32),
    /// a slot
    Slot(u32),
    /// any other expression
    E(Box<E>),
}

/// An enumerated expression (values are element indices).
#[derive(Clone)]
pub enum E {
    /// an element
    Const(u32),
    /// an enumerated slot
    Slot(u32),
    /// an input symbol bound to a host function
    Input(Box<InputRef>),
    /// an input symbol defined by an expression (inlined)
    Def(Box<Defined<E>>),
    /// `c ? a : b`
    Cond(Box<B>, EOp, EOp),
}

/// A value of any type (booleans 0/1, enumerated values element indices); constants
/// and slots are evaluated in place.
#[derive(Clone)]
pub enum Val {
    /// a constant
    Const(f64),
    /// a slot
    Slot(u32),
    /// decimal
    D(D),
    /// boolean
    B(B),
    /// enumerated
    E(E),
}

/// A reference to an input symbol bound to a host function: every parameter of the
/// symbol is written before the function is called (parameters not given at the reference get 0 / false / first element).
#[derive(Clone)]
pub struct InputRef {
    /// index in [`Code::inputs`]
    pub input: u32,
    /// (parameter slot, value), decimal parameters first, then boolean, then enumerated
    pub params: Box<[(u32, Val)]>,
}

/// Where an input symbol's value comes from.
#[derive(Clone)]
pub enum Source {
    /// a value the host sets before each cycle
    Value,
    /// a host function of the parameters
    Function(InputFn),
    /// an expression over the parameters and other symbols (`--define`), inlined at
    /// every reference
    Definition(crate::model::Expr),
}

/// An input symbol.
#[derive(Clone)]
pub struct Input {
    /// the symbol's index in the program
    pub symbol: u32,
    /// the slot of its value (for [`Source::Value`])
    pub slot: u32,
    /// its first parameter slot
    pub first_param: u32,
    /// number of parameters
    pub n_params: u32,
    /// where the value comes from
    pub source: Source,
}

/// A call of an option or basic behavior.
#[derive(Clone)]
pub struct Call {
    /// option or behavior index
    pub callee: u32,
    /// (parameter slot, value) for every parameter of the callee, decimal first, then
    /// boolean, then enumerated
    pub params: Box<[(u32, Val)]>,
}

/// One action of a state.
#[derive(Clone)]
pub enum Action {
    /// run an option
    Option(Call),
    /// run a basic behavior
    Behavior(Call),
    /// set a decimal output or internal symbol (symbol index, slot)
    SetD(u32, u32, D),
    /// set a boolean one
    SetB(u32, u32, B),
    /// set an enumerated one
    SetE(u32, u32, E),
}

/// A decision: a transition or an if/else.
#[derive(Clone)]
pub enum Stmt {
    /// go to a state (global index)
    Goto(u32),
    /// `if (c) a else b`
    If(B, Box<Stmt>, Box<Stmt>),
}

/// A state's cooperation with team-mates.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CoopKind {
    /// ordinary
    Normal,
    /// at most N agents
    Capacity(u32),
    /// all agents in the option together, at least N
    Synchronized(u32),
}

/// A state.
#[derive(Clone)]
pub struct State {
    /// its option
    pub option: u32,
    /// index in the option
    pub local: u32,
    /// a target state
    pub target: bool,
    /// cooperation
    pub coop: CoopKind,
    /// index among the cooperative states (the team messages' numbering), if any
    pub coop_index: Option<u32>,
    /// the actions: the common action's, then the state's own
    pub actions: Box<[Action]>,
    /// the options called by the actions (for `action_done`)
    pub subsequent: Box<[u32]>,
    /// the decision: the common decision with the state's own tree as its last else
    pub decision: Stmt,
}

/// An option.
#[derive(Clone)]
pub struct OptionCode {
    /// first state (global index)
    pub first_state: u32,
    /// number of states
    pub n_states: u32,
    /// initial state (global index)
    pub initial: u32,
    /// first parameter slot
    pub first_param: u32,
    /// number of parameters
    pub n_params: u32,
}

/// A basic behavior.
#[derive(Clone)]
pub struct BehaviorCode {
    /// first parameter slot
    pub first_param: u32,
    /// number of parameters
    pub n_params: u32,
}

/// The whole executable form.
#[derive(Clone, Default)]
pub struct Code {
    /// options (program order)
    pub options: Vec<OptionCode>,
    /// states of every option, option after option
    pub states: Vec<State>,
    /// basic behaviors (program order)
    pub behaviors: Vec<BehaviorCode>,
    /// input symbols
    pub inputs: Vec<Input>,
    /// slot of each symbol of the program (value)
    pub symbol_slot: Vec<u32>,
    /// index in `inputs` of each input symbol of the program
    pub symbol_input: Vec<Option<u32>>,
    /// initial value of every slot
    pub initial: Vec<f64>,
    /// the cooperative states (global state indices), numbered as the reference does
    /// (options sorted by name, states in order)
    pub coop_states: Vec<u32>,
}
