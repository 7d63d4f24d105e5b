//! The syntax tree of one `.xabsl` file, as written (names unresolved, doc comments
//! kept for the documentation).

use crate::source::Span;

/// A name as written, with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    /// the text (`@speed`, `ball.seen`)
    pub text: String,
    /// where
    pub span: Span,
}

/// A doc comment (`/** ... */`), trimmed.
pub type Doc = Option<String>;

/// One file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct File {
    /// `/*** ... */` at the start
    pub initial_comment: Option<String>,
    /// `include "..."` lines
    pub includes: Vec<Include>,
    /// what the file declares
    pub body: Body,
}

/// An include.
#[derive(Debug, Clone, PartialEq)]
pub struct Include {
    /// the path as written
    pub path: String,
    /// where
    pub span: Span,
}

/// The one thing a file declares after its includes.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Body {
    /// nothing (a file of includes)
    #[default]
    Empty,
    /// an option
    Option(OptionDecl),
    /// agents
    Agents(Vec<AgentDecl>),
    /// a namespace of symbols or basic behaviors
    Namespace(NamespaceDecl),
}

/// `agent id("title", root_option);`
#[derive(Debug, Clone, PartialEq)]
pub struct AgentDecl {
    /// doc comment
    pub doc: Doc,
    /// id
    pub name: Name,
    /// title
    pub title: String,
    /// root option
    pub root: Name,
}

/// `namespace id("title") { ... }`
#[derive(Debug, Clone, PartialEq)]
pub struct NamespaceDecl {
    /// doc comment
    pub doc: Doc,
    /// id
    pub name: Name,
    /// title
    pub title: String,
    /// contents
    pub items: Vec<NamespaceItem>,
    /// the closing brace
    pub end: Span,
}

/// One declaration in a namespace.
#[derive(Debug, Clone, PartialEq)]
pub enum NamespaceItem {
    /// `const`
    Const(ConstDecl),
    /// an input, output or internal symbol
    Symbol(SymbolDecl),
    /// an enumeration
    Enum(EnumDecl),
    /// a basic behavior
    Behavior(BehaviorDecl),
}

/// The type keyword(s) of a declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeSpec {
    /// nothing written (means float)
    Default,
    /// `float`
    Float(Span),
    /// `bool`
    Bool(Span),
    /// `enum NAME`
    Enum(Name),
}

impl TypeSpec {
    /// Where the type is written, if it is.
    pub fn span(&self) -> Option<Span> {
        match self {
            TypeSpec::Default => None,
            TypeSpec::Float(s) | TypeSpec::Bool(s) => Some(*s),
            TypeSpec::Enum(n) => Some(n.span),
        }
    }
}

/// `input`, `output` or `internal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Io {
    /// nothing written (means input)
    Default,
    /// `input`
    Input,
    /// `output`
    Output,
    /// `internal`
    Internal,
}

/// `[float] const NAME = [-]NUMBER ["measure"];`
#[derive(Debug, Clone, PartialEq)]
pub struct ConstDecl {
    /// doc comment
    pub doc: Doc,
    /// name
    pub name: Name,
    /// the number as written, with the `-` if any
    pub value: String,
    /// where the value is
    pub value_span: Span,
    /// unit
    pub measure: Option<String>,
}

/// `TYPE IO NAME [range] ["measure"] [(params)];`
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolDecl {
    /// doc comment
    pub doc: Doc,
    /// type
    pub ty: TypeSpec,
    /// input, output or internal
    pub io: Io,
    /// where the io keyword is
    pub io_span: Option<Span>,
    /// name
    pub name: Name,
    /// range text (`-180..180`)
    pub range: Option<(String, Span)>,
    /// measure (unit) text
    pub measure: Option<(String, Span)>,
    /// parameters of an input symbol
    pub params: Option<(Vec<ParamDecl>, Span)>,
}

/// `enum NAME [internal] { a, b, c };`
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDecl {
    /// doc comment
    pub doc: Doc,
    /// the type part as written (should be `enum NAME`)
    pub ty: TypeSpec,
    /// where the declaration starts
    pub span: Span,
    /// the io keyword written (only `internal` is allowed)
    pub io: Io,
    /// where it is
    pub io_span: Option<Span>,
    /// elements
    pub elements: Vec<Name>,
}

/// `behavior NAME { params }`
#[derive(Debug, Clone, PartialEq)]
pub struct BehaviorDecl {
    /// doc comment
    pub doc: Doc,
    /// name
    pub name: Name,
    /// parameters
    pub params: Vec<ParamDecl>,
}

/// `[TYPE] NAME [range] ["measure"];` (option parameters are written `@name`)
#[derive(Debug, Clone, PartialEq)]
pub struct ParamDecl {
    /// doc comment
    pub doc: Doc,
    /// type
    pub ty: TypeSpec,
    /// name
    pub name: Name,
    /// range
    pub range: Option<(String, Span)>,
    /// measure
    pub measure: Option<(String, Span)>,
}

/// `option NAME { params [common ...] states }`
#[derive(Debug, Clone, PartialEq)]
pub struct OptionDecl {
    /// doc comment
    pub doc: Doc,
    /// name
    pub name: Name,
    /// parameters
    pub params: Vec<ParamDecl>,
    /// `common decision { ... }`
    pub common_decision: Option<CommonTree>,
    /// where `common decision` is written
    pub common_decision_span: Option<Span>,
    /// `common action { ... }`
    pub common_action: Vec<Action>,
    /// states, in order
    pub states: Vec<StateDecl>,
}

/// `capacity N` or `synchronized [N]`.
#[derive(Debug, Clone, PartialEq)]
pub enum Coop {
    /// an ordinary state
    None,
    /// `capacity N`
    Capacity(String, Span),
    /// `synchronized [N]`
    Synchronized(Option<String>, Span),
}

/// `[initial] [target] state NAME [coop] { [decision { ... }] action { ... } }`
#[derive(Debug, Clone, PartialEq)]
pub struct StateDecl {
    /// doc comment (not in the reference grammar; kept when written)
    pub doc: Doc,
    /// `initial` written (where)
    pub initial: Option<Span>,
    /// `target` written (where)
    pub target: Option<Span>,
    /// name
    pub name: Name,
    /// cooperation
    pub coop: Coop,
    /// the decision tree, if any
    pub decision: Option<Decision>,
    /// the actions
    pub actions: Vec<Action>,
}

/// A state's decision tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// where `decision` is written
    pub span: Span,
    /// written as `decision { else ... }` (required when the option has a common
    /// decision): the `else`
    pub starts_with_else: Option<Span>,
    /// the tree
    pub tree: Tree,
}

/// A decision tree of a state.
#[derive(Debug, Clone, PartialEq)]
pub enum Tree {
    /// `goto NAME;`
    Goto(Name),
    /// `stay;`
    Stay(Span),
    /// `if (cond) then else other`
    If(Box<IfTree>),
}

/// `if (cond) then else other`
#[derive(Debug, Clone, PartialEq)]
pub struct IfTree {
    /// the description of the condition (doc comment before `if` or its `else`)
    pub doc: Doc,
    /// where `if` is
    pub span: Span,
    /// condition
    pub cond: Expr,
    /// branch when true
    pub then: Tree,
    /// branch when false
    pub other: Tree,
}

/// The common decision: `if (c) tree [else if ...]`, the final `else` left out.
#[derive(Debug, Clone, PartialEq)]
pub struct CommonTree {
    /// description
    pub doc: Doc,
    /// where `if` is
    pub span: Span,
    /// condition
    pub cond: Expr,
    /// branch when true
    pub then: Tree,
    /// the next `else if`, if any
    pub other: Option<Box<CommonTree>>,
}

/// One item of an action block.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `NAME = expr;`
    Assign {
        /// the output or internal symbol
        name: Name,
        /// value
        value: Expr,
    },
    /// `NAME [option|behavior] (p = expr, ...);`
    Call {
        /// option or basic behavior
        name: Name,
        /// `option` or `behavior` written after the name
        kind: Option<CallKind>,
        /// parameters
        args: Vec<Arg>,
        /// the whole call
        span: Span,
    },
}

/// What a call names explicitly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    /// `option`
    Option,
    /// `behavior`
    Behavior,
}

/// `name = expr` in a call.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// parameter name
    pub name: Name,
    /// value
    pub value: Expr,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinOp {
    /// How it is written.
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// An expression as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// a number as written
    Number(String, Span),
    /// `true` / `false`
    Bool(bool, Span),
    /// a name (symbol, constant, `@parameter`, enum element)
    Name(Name),
    /// `name(p = expr, ...)` (a parameterised input symbol)
    Call {
        /// the input symbol
        name: Name,
        /// parameters
        args: Vec<Arg>,
        /// the whole call
        span: Span,
    },
    /// `!e`
    Not(Box<Expr>, Span),
    /// `-e`
    Neg(Box<Expr>, Span),
    /// `a op b`; the span is the operator's
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
    /// `c ? a : b`; the span is the `?`'s
    Cond(Box<Expr>, Box<Expr>, Box<Expr>, Span),
    /// `(e)`
    Paren(Box<Expr>, Span),
    /// `state_time`
    StateTime(Span),
    /// `option_time`
    OptionTime(Span),
    /// `action_done`
    ActionDone(Span),
    /// `conflict`
    Conflict(Span),
}

impl Expr {
    /// The span of the whole expression.
    pub fn span(&self) -> Span {
        match self {
            Expr::Number(_, s)
            | Expr::Bool(_, s)
            | Expr::StateTime(s)
            | Expr::OptionTime(s)
            | Expr::ActionDone(s)
            | Expr::Conflict(s)
            | Expr::Paren(_, s)
            | Expr::Call { span: s, .. } => *s,
            Expr::Name(n) => n.span,
            Expr::Not(e, s) | Expr::Neg(e, s) => s.to(e.span()),
            Expr::Binary(_, a, b, _) => a.span().to(b.span()),
            Expr::Cond(c, _, b, _) => c.span().to(b.span()),
        }
    }
    /// The expression inside any parentheses.
    pub fn unparen(&self) -> &Expr {
        match self {
            Expr::Paren(e, _) => e.unparen(),
            e => e,
        }
    }
}
