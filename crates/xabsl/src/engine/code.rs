//! The executable form: flat tables of options, states and basic behaviors, and typed
//! expression trees whose leaves are slots of one value array. Built once from a checked
//! [`Program`](crate::model::Program); nothing here changes while the engine runs.

use std::sync::Arc;

/// A host function giving an input symbol's value from its parameters (booleans are
/// 0/1, enumerated values element indices).
pub type InputFn = Arc<dyn Fn(&[f64]) -> f64 + Send + Sync>;

/// A decimal expression.
#[derive(Clone)]
pub enum D {
    /// a number or constant
    Const(f64),
    /// an output or internal symbol, an option parameter, or a parameter of the input
    /// symbol being defined
    Slot(u32),
    /// an input symbol
    Input(Box<InputRef>),
    /// `+`
    Add(Box<D>, Box<D>),
    /// `-`
    Sub(Box<D>, Box<D>),
    /// `*`
    Mul(Box<D>, Box<D>),
    /// `/` (by zero: divided by 1e-7)
    Div(Box<D>, Box<D>),
    /// `%` (on the operands truncated to integers)
    Mod(Box<D>, Box<D>),
    /// `state_time` of a state (global index)
    StateTime(u32),
    /// `option_time` of an option
    OptionTime(u32),
    /// `c ? a : b`
    Cond(Box<B>, Box<D>, Box<D>),
}

/// A boolean expression.
#[derive(Clone)]
pub enum B {
    /// `true`/`false`
    Const(bool),
    /// a boolean slot (0/1)
    Slot(u32),
    /// an input symbol
    Input(Box<InputRef>),
    /// `action_done` in a state (global index)
    ActionDone(u32),
    /// `conflict` in a state (global index)
    Conflict(u32),
    /// enumerated equality
    EnumEq(Box<E>, Box<E>),
    /// `!`
    Not(Box<B>),
    /// `&&`
    And(Box<[B]>),
    /// `||`
    Or(Box<[B]>),
    /// `==`
    Eq(Box<D>, Box<D>),
    /// `!=`
    Ne(Box<D>, Box<D>),
    /// `<`
    Lt(Box<D>, Box<D>),
    /// `>`
    Gt(Box<D>, Box<D>),
    /// `<=`
    Le(Box<D>, Box<D>),
    /// `>=`
    Ge(Box<D>, Box<D>),
}

/// An enumerated expression (values are element indices).
#[derive(Clone)]
pub enum E {
    /// an element
    Const(u32),
    /// an enumerated slot
    Slot(u32),
    /// an input symbol
    Input(Box<InputRef>),
    /// `c ? a : b`
    Cond(Box<B>, Box<E>, Box<E>),
}

/// An expression of any type.
#[derive(Clone)]
pub enum Any {
    /// decimal
    D(D),
    /// boolean
    B(B),
    /// enumerated
    E(E),
}

/// A reference to an input symbol: every parameter of the symbol is written before the
/// value is read (parameters not given at the reference get 0 / false / first element).
#[derive(Clone)]
pub struct InputRef {
    /// index in [`Code::inputs`]
    pub input: u32,
    /// (parameter slot, value), decimal parameters first, then boolean, then enumerated
    pub params: Box<[(u32, Any)]>,
}

/// Where an input symbol's value comes from.
#[derive(Clone)]
pub enum Source {
    /// a value the host sets before each cycle
    Value,
    /// a host function of the parameters
    Function(InputFn),
    /// an expression over the parameters and other symbols (`--define`)
    Definition(Any),
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
    pub params: Box<[(u32, Any)]>,
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
    If(Box<B>, Box<Stmt>, Box<Stmt>),
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
