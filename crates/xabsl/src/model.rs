//! The checked program: every name resolved, every expression typed, enum elements
//! qualified. This is what the intermediate code, the engine and the documentation are
//! made from.

use crate::source::{FileId, SourceMap, Span};

/// Index of an enumeration in [`Program::enums`].
pub type EnumId = usize;
/// Index of an input, output or internal symbol in [`Program::symbols`].
pub type SymbolId = usize;
/// Index of a constant in [`Program::constants`].
pub type ConstId = usize;
/// Index of a basic behavior in [`Program::behaviors`].
pub type BehaviorId = usize;
/// Index of an option in [`Program::options`].
pub type OptionId = usize;
/// Index of a state in its option's [`OptionDef::states`].
pub type StateId = usize;

/// A value type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    /// a number (`float`)
    Decimal,
    /// a truth value (`bool`)
    Boolean,
    /// an element of an enumeration
    Enum(EnumId),
}

/// A whole compilation: every file, every declaration.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// the files
    pub sources: SourceMap,
    /// `Title:` of the agents file's initial comment
    pub title: Option<String>,
    /// `Platform:`
    pub platform: Option<String>,
    /// `Software-Environment:`
    pub software_environment: Option<String>,
    /// the file that declares the agents
    pub agents_file: Option<FileId>,
    /// namespaces
    pub namespaces: Vec<Namespace>,
    /// enumerations
    pub enums: Vec<Enum>,
    /// input, output and internal symbols
    pub symbols: Vec<Symbol>,
    /// constants
    pub constants: Vec<Constant>,
    /// basic behaviors
    pub behaviors: Vec<Behavior>,
    /// options, in the order their files were read
    pub options: Vec<OptionDef>,
    /// agents
    pub agents: Vec<Agent>,
    /// every name the checker resolved, where it is written and what it names (for
    /// editors: go to definition, find references, hover)
    pub references: Vec<Reference>,
}

/// Something a name can refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Def {
    /// an option
    Option(OptionId),
    /// a state of an option
    State(OptionId, StateId),
    /// an input, output or internal symbol
    Symbol(SymbolId),
    /// a constant
    Constant(ConstId),
    /// a basic behavior
    Behavior(BehaviorId),
    /// an enumeration
    Enum(EnumId),
    /// an element of an enumeration
    Element(EnumId, usize),
    /// a parameter of an option
    OptionParam(OptionId, usize),
    /// a parameter of a basic behavior
    BehaviorParam(BehaviorId, usize),
    /// a parameter of an input symbol
    InputParam(SymbolId, usize),
}

/// A name as written and what it refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// where the name is written
    pub span: Span,
    /// what it names
    pub def: Def,
}

/// What a namespace holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamespaceKind {
    /// symbols, constants, enumerations
    Symbols,
    /// basic behaviors
    Behaviors,
    /// nothing
    Empty,
}

/// A namespace.
#[derive(Debug, Clone)]
pub struct Namespace {
    /// id
    pub name: String,
    /// title
    pub title: String,
    /// doc comment
    pub doc: Option<String>,
    /// contents
    pub kind: NamespaceKind,
    /// its file
    pub file: FileId,
    /// where its name is
    pub span: Span,
}

/// An enumeration.
#[derive(Debug, Clone)]
pub struct Enum {
    /// name
    pub name: String,
    /// elements, fully qualified (`mode.m0`), in declaration order (their values)
    pub elements: Vec<String>,
    /// created by the engine (`enum NAME internal { ... }`) rather than the host
    pub internal: bool,
    /// doc comment
    pub doc: Option<String>,
    /// namespace index
    pub namespace: Option<usize>,
    /// where its name is
    pub span: Span,
    /// where each element's name is
    pub element_spans: Vec<Span>,
}

impl Enum {
    /// An element's name without the enumeration's prefix.
    pub fn short(&self, i: usize) -> &str {
        let e = self.elements.get(i).map_or("", String::as_str);
        e.strip_prefix(&self.name)
            .and_then(|s| s.strip_prefix('.'))
            .unwrap_or(e)
    }
}

/// Input, output or internal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    /// set by the host, read by the behavior
    Input,
    /// set by the behavior, read by the host
    Output,
    /// set and read by the behavior only (created by the engine)
    Internal,
}

/// An input, output or internal symbol.
#[derive(Debug, Clone)]
pub struct Symbol {
    /// name
    pub name: String,
    /// input, output or internal
    pub kind: SymbolKind,
    /// type
    pub ty: Type,
    /// range, for the documentation
    pub range: Option<String>,
    /// measure (unit), for the documentation
    pub measure: Option<String>,
    /// doc comment
    pub doc: Option<String>,
    /// parameters (input symbols only)
    pub params: Vec<Param>,
    /// namespace index
    pub namespace: Option<usize>,
    /// where its name is
    pub span: Span,
}

impl Symbol {
    /// Output or internal.
    pub fn is_output(&self) -> bool {
        self.kind != SymbolKind::Input
    }
}

/// A parameter of an option, basic behavior or input symbol.
#[derive(Debug, Clone)]
pub struct Param {
    /// qualified name (`walk.speed`, `o1.speed` for `@speed` of option `o1`)
    pub name: String,
    /// the name callers write (`speed`)
    pub short: String,
    /// type
    pub ty: Type,
    /// range
    pub range: Option<String>,
    /// measure
    pub measure: Option<String>,
    /// doc comment
    pub doc: Option<String>,
    /// where it is declared
    pub span: Span,
}

/// A constant.
#[derive(Debug, Clone)]
pub struct Constant {
    /// name
    pub name: String,
    /// the value as written (with its `-`)
    pub raw: String,
    /// the value
    pub value: f64,
    /// measure
    pub measure: Option<String>,
    /// doc comment
    pub doc: Option<String>,
    /// namespace index
    pub namespace: Option<usize>,
    /// where its name is
    pub span: Span,
}

/// A basic behavior (implemented by the host).
#[derive(Debug, Clone)]
pub struct Behavior {
    /// name
    pub name: String,
    /// parameters
    pub params: Vec<Param>,
    /// doc comment
    pub doc: Option<String>,
    /// namespace index
    pub namespace: Option<usize>,
    /// where its name is
    pub span: Span,
}

/// An agent: a name and its root option.
#[derive(Debug, Clone)]
pub struct Agent {
    /// id
    pub name: String,
    /// title
    pub title: String,
    /// doc comment
    pub doc: Option<String>,
    /// root option
    pub root: OptionId,
    /// where its name is
    pub span: Span,
}

/// A state's cooperation with team-mates.
#[derive(Debug, Clone, PartialEq)]
pub enum Coop {
    /// an ordinary state
    Normal,
    /// at most N agents at once (`capacity N`); the number as written
    Capacity(u32, String),
    /// entered by all agents in the option together, at least N (`synchronized [N]`)
    Synchronized(u32, String),
}

/// An option: parameters and a state machine.
#[derive(Debug, Clone)]
pub struct OptionDef {
    /// name
    pub name: String,
    /// doc comment
    pub doc: Option<String>,
    /// parameters (in declaration order)
    pub params: Vec<Param>,
    /// states (in declaration order)
    pub states: Vec<StateDef>,
    /// the initial state
    pub initial: StateId,
    /// the common decision, evaluated before every state's own decision
    pub common_decision: Option<CommonDecision>,
    /// the common action, executed before every state's own actions
    pub common_action: Vec<Action>,
    /// its file
    pub file: FileId,
    /// where its name is
    pub span: Span,
}

/// A state.
#[derive(Debug, Clone)]
pub struct StateDef {
    /// name
    pub name: String,
    /// doc comment
    pub doc: Option<String>,
    /// a target state
    pub target: bool,
    /// cooperation
    pub coop: Coop,
    /// the state's own actions (the common action's come first at run time)
    pub actions: Vec<Action>,
    /// the state's own decision tree; `None`: stay
    pub decision: Option<Tree>,
    /// where its name is
    pub span: Span,
}

/// A decision tree.
#[derive(Debug, Clone)]
pub enum Tree {
    /// `goto state` (`stay` is a goto to the state itself)
    Goto(StateId),
    /// `if (cond) then else other`
    If {
        /// the description of the condition
        doc: Option<String>,
        /// condition (boolean)
        cond: Expr,
        /// when true
        then: Box<Tree>,
        /// when false
        other: Box<Tree>,
    },
}

/// The common decision: `if (c) tree else if ...`, falling through to the state's own
/// decision.
#[derive(Debug, Clone)]
pub struct CommonDecision {
    /// description
    pub doc: Option<String>,
    /// condition
    pub cond: Expr,
    /// when true
    pub then: Tree,
    /// the next `else if`
    pub other: Option<Box<CommonDecision>>,
}

/// A parameter value at a call.
#[derive(Debug, Clone)]
pub struct Arg {
    /// index in the callee's parameters
    pub param: usize,
    /// value
    pub value: Expr,
    /// where the parameter's name is written
    pub span: Span,
}

/// One action of a state.
#[derive(Debug, Clone)]
pub enum Action {
    /// run an option
    Option {
        /// callee
        option: OptionId,
        /// parameters given, in source order
        args: Vec<Arg>,
        /// where
        span: Span,
    },
    /// run a basic behavior
    Behavior {
        /// callee
        behavior: BehaviorId,
        /// parameters given, in source order
        args: Vec<Arg>,
        /// where
        span: Span,
    },
    /// set an output or internal symbol
    Set {
        /// the symbol
        symbol: SymbolId,
        /// value
        value: Expr,
        /// where
        span: Span,
    },
}

/// `+ - * / %`
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// `== != < > <= >=` on numbers
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

/// A typed expression.
#[derive(Debug, Clone)]
pub enum Expr {
    /// a number
    Number(f64),
    /// `true`/`false`
    Bool(bool),
    /// a constant (value inlined at run time)
    Constant(ConstId),
    /// a parameter of the option the expression is written in
    Param {
        /// the option
        option: OptionId,
        /// index of the parameter
        index: usize,
        /// its type
        ty: Type,
    },
    /// an input symbol, with the parameters given
    Input {
        /// the symbol
        symbol: SymbolId,
        /// its type
        ty: Type,
        /// parameters given, in source order
        args: Vec<Arg>,
    },
    /// an output or internal symbol's current value
    Output {
        /// the symbol
        symbol: SymbolId,
        /// its type
        ty: Type,
    },
    /// an enumeration element
    Element {
        /// the enumeration
        enumeration: EnumId,
        /// the element
        index: usize,
    },
    /// arithmetic
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    /// comparison of numbers
    Compare(CmpOp, Box<Expr>, Box<Expr>),
    /// equality of two enumerated values
    EnumEq(Box<Expr>, Box<Expr>),
    /// `!`
    Not(Box<Expr>),
    /// `&&` (flattened)
    And(Vec<Expr>),
    /// `||` (flattened)
    Or(Vec<Expr>),
    /// `c ? a : b` (decimal or enumerated)
    Cond {
        /// condition
        cond: Box<Expr>,
        /// when true
        then: Box<Expr>,
        /// when false
        other: Box<Expr>,
        /// type of the branches
        ty: Type,
    },
    /// `state_time` (ms)
    StateTime,
    /// `option_time` (ms)
    OptionTime,
    /// `action_done`
    ActionDone,
    /// `conflict`
    Conflict,
}

impl Expr {
    /// The type of the value.
    pub fn ty(&self) -> Type {
        match self {
            Expr::Number(_)
            | Expr::Constant(_)
            | Expr::Arith(..)
            | Expr::StateTime
            | Expr::OptionTime => Type::Decimal,
            Expr::Bool(_)
            | Expr::Compare(..)
            | Expr::EnumEq(..)
            | Expr::Not(_)
            | Expr::And(_)
            | Expr::Or(_)
            | Expr::ActionDone
            | Expr::Conflict => Type::Boolean,
            Expr::Param { ty, .. }
            | Expr::Input { ty, .. }
            | Expr::Output { ty, .. }
            | Expr::Cond { ty, .. } => *ty,
            Expr::Element { enumeration, .. } => Type::Enum(*enumeration),
        }
    }
}

impl Program {
    /// Where a definition is written (its name).
    pub fn def_span(&self, d: Def) -> Option<Span> {
        let param = |ps: &[Param], i: usize| ps.get(i).map(|p| p.span);
        match d {
            Def::Option(o) => self.options.get(o).map(|x| x.span),
            Def::State(o, s) => self.options.get(o)?.states.get(s).map(|x| x.span),
            Def::Symbol(s) => self.symbols.get(s).map(|x| x.span),
            Def::Constant(c) => self.constants.get(c).map(|x| x.span),
            Def::Behavior(b) => self.behaviors.get(b).map(|x| x.span),
            Def::Enum(e) => self.enums.get(e).map(|x| x.span),
            Def::Element(e, i) => self.enums.get(e)?.element_spans.get(i).copied(),
            Def::OptionParam(o, i) => param(&self.options.get(o)?.params, i),
            Def::BehaviorParam(b, i) => param(&self.behaviors.get(b)?.params, i),
            Def::InputParam(s, i) => param(&self.symbols.get(s)?.params, i),
        }
    }

    /// Every definition of the program with where its name is written.
    pub fn definitions(&self) -> Vec<(Def, Span)> {
        let mut v = Vec::new();
        for (o, opt) in self.options.iter().enumerate() {
            v.push((Def::Option(o), opt.span));
            v.extend(
                opt.states
                    .iter()
                    .enumerate()
                    .map(|(s, x)| (Def::State(o, s), x.span)),
            );
            v.extend(
                opt.params
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (Def::OptionParam(o, i), x.span)),
            );
        }
        for (s, sym) in self.symbols.iter().enumerate() {
            v.push((Def::Symbol(s), sym.span));
            v.extend(
                sym.params
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (Def::InputParam(s, i), x.span)),
            );
        }
        v.extend(
            self.constants
                .iter()
                .enumerate()
                .map(|(c, x)| (Def::Constant(c), x.span)),
        );
        for (b, bh) in self.behaviors.iter().enumerate() {
            v.push((Def::Behavior(b), bh.span));
            v.extend(
                bh.params
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (Def::BehaviorParam(b, i), x.span)),
            );
        }
        for (e, en) in self.enums.iter().enumerate() {
            v.push((Def::Enum(e), en.span));
            v.extend(
                en.element_spans
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (Def::Element(e, i), *s)),
            );
        }
        v
    }

    /// An option by name.
    pub fn option(&self, name: &str) -> Option<OptionId> {
        self.options.iter().position(|o| o.name == name)
    }
    /// A symbol by name (the first of that name).
    pub fn symbol(&self, name: &str) -> Option<SymbolId> {
        self.symbols.iter().position(|s| s.name == name)
    }
    /// A basic behavior by name.
    pub fn behavior(&self, name: &str) -> Option<BehaviorId> {
        self.behaviors.iter().position(|b| b.name == name)
    }
    /// An enumeration by name.
    pub fn enumeration(&self, name: &str) -> Option<EnumId> {
        self.enums.iter().position(|e| e.name == name)
    }
    /// How a type is called in messages.
    pub fn type_name(&self, ty: Type) -> String {
        match ty {
            Type::Decimal => "a number".into(),
            Type::Boolean => "a boolean".into(),
            Type::Enum(e) => format!(
                "an element of `{}`",
                self.enums.get(e).map_or("?", |e| e.name.as_str())
            ),
        }
    }
    /// The options each option calls (from any state or its common action).
    pub fn callees(&self, o: OptionId) -> Vec<OptionId> {
        let mut v = Vec::new();
        if let Some(opt) = self.options.get(o) {
            let all = opt
                .common_action
                .iter()
                .chain(opt.states.iter().flat_map(|s| s.actions.iter()));
            for a in all {
                if let Action::Option { option, .. } = a {
                    if !v.contains(option) {
                        v.push(*option);
                    }
                }
            }
        }
        v
    }
}
