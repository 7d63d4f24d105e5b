//! The parser: tokens of one file to its [`ast::File`](crate::ast::File), by recursive
//! descent over the reference grammar (`xabsl_parser.y.rb`).
//!
//! A file holds `include`s, then one option, one namespace or one or more agents.
//! Expressions follow the reference precedence, highest first: unary `-` and `!`;
//! `* / %`; `+ -`; `< > <= >= == !=` (not chainable); `&&`; `||`; `? :` (lowest, not
//! chainable). A syntax error stops the file, as in the reference; the message says what
//! was expected where.
//!
//! Two leniencies: a doc comment before a state is kept (the reference grammar has no
//! place for it), and a `// comment` on the last line needs no line end.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lexer::{tokenize, Keyword as K, Tok, Token};
use crate::source::{FileId, Span};

/// Parse one file's text.
pub fn parse_file(text: &str, file: FileId) -> Result<File, Diagnostic> {
    let toks = tokenize(text, file)?;
    let mut p = Parser::over(toks, false).with_lines(text);
    p.file()
}

/// Parse a lone expression (used for `--define` and binding files).
pub fn parse_expression(text: &str, file: FileId) -> Result<Expr, Diagnostic> {
    let toks = tokenize(text, file)?;
    let mut p = Parser::over(toks, false).with_lines(text);
    let e = p.expr()?;
    p.expect(Tok::Eof, "the end of the expression")?;
    Ok(e)
}

pub(crate) struct Parser {
    pub(crate) toks: Vec<Token>,
    pub(crate) pos: usize,
    /// accept positional call arguments `f(a, b)` (binding files; not XABSL)
    pub(crate) positional: bool,
    /// nesting of expressions and decision trees (bounded, so that no input can
    /// exhaust the stack)
    depth: u32,
    /// where the text's line ends are (byte offsets), to report a missing `;` at the
    /// end of its line
    line_ends: Vec<u32>,
}

/// How deeply expressions and decision trees may nest.
const MAX_DEPTH: u32 = 100;

impl Parser {
    /// A parser over tokens.
    pub(crate) fn over(toks: Vec<Token>, positional: bool) -> Self {
        Self {
            toks,
            pos: 0,
            positional,
            depth: 0,
            line_ends: Vec::new(),
        }
    }

    /// Knowing the text's lines: a missing `;` is then reported where the line ends.
    pub(crate) fn with_lines(mut self, text: &str) -> Self {
        self.line_ends = text
            .bytes()
            .enumerate()
            .filter(|(_, b)| *b == b'\n')
            .map(|(i, _)| i as u32)
            .collect();
        self
    }
}

type R<T> = Result<T, Diagnostic>;

impl Parser {
    pub(crate) fn peek(&self) -> Tok {
        self.toks.get(self.pos).map_or(Tok::Eof, |t| t.tok)
    }
    pub(crate) fn peek_at(&self, k: usize) -> Tok {
        self.toks.get(self.pos + k).map_or(Tok::Eof, |t| t.tok)
    }
    pub(crate) fn cur_span(&self) -> Span {
        self.toks
            .get(self.pos)
            .or_else(|| self.toks.last())
            .map(|t| t.span)
            .unwrap_or_default()
    }
    pub(crate) fn bump(&mut self) -> Token {
        let t = self.toks.get(self.pos).cloned().unwrap_or(Token {
            tok: Tok::Eof,
            span: self.cur_span(),
            text: String::new(),
        });
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    pub(crate) fn eat(&mut self, t: Tok) -> Option<Token> {
        (self.peek() == t).then(|| self.bump())
    }
    pub(crate) fn error_here(&self, expected: &str) -> Diagnostic {
        let t = self.toks.get(self.pos);
        let found = match t {
            Some(t) if t.tok == Tok::Eof => "the end of the file".to_string(),
            Some(t) => match t.tok {
                Tok::Ident => format!("`{}`", t.text),
                Tok::Number => format!("the number `{}`", t.text),
                Tok::Str => format!("the string \"{}\"", t.text),
                Tok::Range => format!("the range `[{}]`", t.text),
                Tok::DocComment => "a doc comment `/** ... */`".into(),
                Tok::InitialComment => {
                    "an initial comment `/*** ... */` (allowed only at the start of a file)".into()
                }
                other => other.describe(),
            },
            None => "the end of the file".into(),
        };
        let code = if matches!(t.map(|t| t.tok), Some(Tok::Eof) | None) {
            "X2555"
        } else {
            "X2537"
        };
        Diagnostic::error(
            code,
            self.cur_span(),
            format!("syntax error: expected {expected}, found {found}"),
        )
    }
    pub(crate) fn expect(&mut self, t: Tok, expected: &str) -> R<Token> {
        if self.peek() == t {
            return Ok(self.bump());
        }
        let mut d = self.error_here(expected);
        if t == Tok::Semi {
            if let Some(end) = self.end_of_previous_line() {
                d.span = Some(end);
                d = d.note("the `;` is missing at the end of this line");
            }
        }
        Err(d)
    }

    /// Where the previous token ends, if the current one is on a later line.
    fn end_of_previous_line(&self) -> Option<Span> {
        let prev = self.toks.get(self.pos.checked_sub(1)?)?.span;
        let cur = self.cur_span();
        let i = self.line_ends.partition_point(|&b| b < prev.end);
        let b = *self.line_ends.get(i)?;
        (b < cur.start || cur.start <= prev.end).then_some(Span {
            file: prev.file,
            start: prev.end,
            end: prev.end,
        })
    }
    fn name(&mut self, what: &str) -> R<Name> {
        let t = self.expect(Tok::Ident, what)?;
        Ok(Name {
            text: t.text,
            span: t.span,
        })
    }
    fn doc(&mut self) -> Doc {
        self.eat(Tok::DocComment).map(|t| t.text)
    }

    // ---------------------------------------------------------------- files

    fn file(&mut self) -> R<File> {
        let mut f = File {
            initial_comment: self.eat(Tok::InitialComment).map(|t| t.text),
            ..File::default()
        };
        while self.peek() == Tok::Kw(K::Include) {
            let kw = self.bump();
            let s = self.expect(Tok::Str, "the file name in quotes after `include`")?;
            let semi = self.expect(Tok::Semi, "`;` after the include")?;
            f.includes.push(Include {
                path: s.text,
                span: kw.span.to(semi.span),
            });
        }
        let doc_then = if self.peek() == Tok::DocComment {
            self.peek_at(1)
        } else {
            self.peek()
        };
        f.body = match doc_then {
            Tok::Eof if self.peek() == Tok::Eof => Body::Empty,
            Tok::Kw(K::Option) => Body::Option(self.option()?),
            Tok::Kw(K::Namespace) => Body::Namespace(self.namespace()?),
            Tok::Kw(K::Agent) => {
                let mut agents = vec![self.agent()?];
                while self.peek() == Tok::Kw(K::Agent)
                    || (self.peek() == Tok::DocComment && self.peek_at(1) == Tok::Kw(K::Agent))
                {
                    agents.push(self.agent()?);
                }
                Body::Agents(agents)
            }
            _ => {
                let doc = self.peek() == Tok::DocComment;
                if doc {
                    self.bump();
                }
                if doc && self.peek() == Tok::Kw(K::Include) {
                    // a doc comment belongs to what follows it: includes have none
                    return Err(self
                        .error_here("an option, a namespace or an agent after the doc comment `/** ... */`")
                        .note("a doc comment documents the option, namespace or agent right after it; before `include` write `/* ... */`, or `/*** ... */` as the file's initial comment"));
                }
                return Err(self.error_here(
                    "`include`, `option`, `namespace` or `agent` (a file holds includes, then one option, one namespace or agents)",
                ));
            }
        };
        if self.peek() != Tok::Eof {
            return Err(self.error_here(
                "the end of the file (a file holds one option, one namespace or a list of agents)",
            ));
        }
        Ok(f)
    }

    fn agent(&mut self) -> R<AgentDecl> {
        let doc = self.doc();
        self.expect(Tok::Kw(K::Agent), "`agent`")?;
        let name = self.name("the agent's name")?;
        self.expect(Tok::LParen, "`(` after the agent's name")?;
        let title = self.expect(Tok::Str, "the agent's title in quotes")?.text;
        self.expect(Tok::Comma, "`,` after the agent's title")?;
        let root = self.name("the agent's root option")?;
        self.expect(Tok::RParen, "`)` after the root option")?;
        self.expect(Tok::Semi, "`;` after the agent")?;
        Ok(AgentDecl {
            doc,
            name,
            title,
            root,
        })
    }

    // ----------------------------------------------------------- namespaces

    fn namespace(&mut self) -> R<NamespaceDecl> {
        let doc = self.doc();
        self.expect(Tok::Kw(K::Namespace), "`namespace`")?;
        let name = self.name("the namespace's name")?;
        self.expect(Tok::LParen, "`(` and the namespace's title")?;
        let title = self
            .expect(Tok::Str, "the namespace's title in quotes")?
            .text;
        self.expect(Tok::RParen, "`)` after the title")?;
        self.expect(Tok::LBrace, "`{` to open the namespace")?;
        let mut items = Vec::new();
        loop {
            if self.peek() == Tok::RBrace {
                break;
            }
            items.push(self.namespace_item()?);
        }
        let end = self.bump().span;
        Ok(NamespaceDecl {
            doc,
            name,
            title,
            items,
            end,
        })
    }

    fn type_spec(&mut self) -> R<TypeSpec> {
        Ok(match self.peek() {
            Tok::Kw(K::Float) => TypeSpec::Float(self.bump().span),
            Tok::Kw(K::Bool) => TypeSpec::Bool(self.bump().span),
            Tok::Kw(K::Enum) => {
                self.bump();
                TypeSpec::Enum(self.name("the enumeration's name after `enum`")?)
            }
            _ => TypeSpec::Default,
        })
    }

    fn io(&mut self) -> (Io, Option<Span>) {
        match self.peek() {
            Tok::Kw(K::Input) => (Io::Input, Some(self.bump().span)),
            Tok::Kw(K::Output) => (Io::Output, Some(self.bump().span)),
            Tok::Kw(K::Internal) => (Io::Internal, Some(self.bump().span)),
            _ => (Io::Default, None),
        }
    }

    fn opt_range(&mut self) -> Option<(String, Span)> {
        self.eat(Tok::Range).map(|t| (t.text, t.span))
    }
    fn opt_measure(&mut self) -> Option<(String, Span)> {
        self.eat(Tok::Str).map(|t| (t.text, t.span))
    }

    fn namespace_item(&mut self) -> R<NamespaceItem> {
        let doc = self.doc();
        let start = self.cur_span();
        match self.peek() {
            Tok::Kw(K::Behavior) => {
                self.bump();
                let name = self.name("the basic behavior's name")?;
                self.expect(Tok::LBrace, "`{` and the basic behavior's parameters")?;
                let params = self.param_decls(Tok::RBrace)?;
                self.expect(Tok::RBrace, "`}` after the parameters")?;
                return Ok(NamespaceItem::Behavior(BehaviorDecl { doc, name, params }));
            }
            Tok::Kw(K::Const) => return self.const_decl(doc).map(NamespaceItem::Const),
            Tok::Kw(K::Float) if self.peek_at(1) == Tok::Kw(K::Const) => {
                self.bump();
                return self.const_decl(doc).map(NamespaceItem::Const);
            }
            _ => {}
        }
        let ty = self.type_spec()?;
        let (io, io_span) = self.io();
        if self.peek() == Tok::LBrace {
            self.bump();
            let mut elements = vec![self.name("an enumeration element")?];
            while self.eat(Tok::Comma).is_some() {
                elements.push(self.name("an enumeration element after `,`")?);
            }
            self.expect(Tok::RBrace, "`,` or `}` after an enumeration element")?;
            self.expect(Tok::Semi, "`;` after the enumeration")?;
            return Ok(NamespaceItem::Enum(EnumDecl {
                doc,
                ty,
                span: start,
                io,
                io_span,
                elements,
            }));
        }
        let name = self.name(
            "a declaration: `const`, `behavior`, `enum NAME { ... };` or a symbol `[bool|float|enum NAME] [input|output|internal] NAME ...;`",
        )?;
        let range = self.opt_range();
        let measure = self.opt_measure();
        let params = if self.peek() == Tok::LParen {
            let open = self.bump().span;
            let ps = self.param_decls(Tok::RParen)?;
            let close = self.expect(Tok::RParen, "`)` after the symbol's parameters")?;
            Some((ps, open.to(close.span)))
        } else {
            None
        };
        self.expect(Tok::Semi, "`;` after the symbol declaration")?;
        Ok(NamespaceItem::Symbol(SymbolDecl {
            doc,
            ty,
            io,
            io_span,
            name,
            range,
            measure,
            params,
        }))
    }

    fn const_decl(&mut self, doc: Doc) -> R<ConstDecl> {
        self.expect(Tok::Kw(K::Const), "`const`")?;
        let name = self.name("the constant's name")?;
        self.expect(Tok::Assign, "`=` and the constant's value")?;
        let minus = self.eat(Tok::Minus);
        let num = self.expect(Tok::Number, "the constant's value (a number)")?;
        let (value, value_span) = match minus {
            Some(m) => (format!("-{}", num.text), m.span.to(num.span)),
            None => (num.text, num.span),
        };
        let measure = self.eat(Tok::Str).map(|t| t.text);
        self.expect(Tok::Semi, "`;` after the constant")?;
        Ok(ConstDecl {
            doc,
            name,
            value,
            value_span,
            measure,
        })
    }

    fn param_decls(&mut self, end: Tok) -> R<Vec<ParamDecl>> {
        let mut v = Vec::new();
        while self.peek() != end {
            v.push(self.param_decl()?);
        }
        Ok(v)
    }

    fn param_decl(&mut self) -> R<ParamDecl> {
        let doc = self.doc();
        let ty = self.type_spec()?;
        let name =
            self.name("a parameter: `[bool|float|enum NAME] name [range] [\"measure\"];`")?;
        let range = self.opt_range();
        let measure = self.opt_measure();
        self.expect(Tok::Semi, "`;` after the parameter")?;
        Ok(ParamDecl {
            doc,
            ty,
            name,
            range,
            measure,
        })
    }

    // -------------------------------------------------------------- options

    fn option(&mut self) -> R<OptionDecl> {
        let doc = self.doc();
        self.expect(Tok::Kw(K::Option), "`option`")?;
        let name = self.name("the option's name")?;
        self.expect(Tok::LBrace, "`{` to open the option")?;
        let mut params = Vec::new();
        loop {
            let t = if self.peek() == Tok::DocComment {
                self.peek_at(1)
            } else {
                self.peek()
            };
            match t {
                Tok::Kw(K::Common | K::Initial | K::Target | K::State) | Tok::RBrace => break,
                _ => params.push(self.param_decl()?),
            }
        }
        let mut o = OptionDecl {
            doc,
            name,
            params,
            common_decision: None,
            common_decision_span: None,
            common_action: Vec::new(),
            states: Vec::new(),
        };
        if self.peek() == Tok::Kw(K::Common) && self.peek_at(1) == Tok::Kw(K::Decision) {
            let c = self.bump().span;
            let d = self.bump().span;
            o.common_decision_span = Some(c.to(d));
            if self.eat(Tok::LBrace).is_some() {
                o.common_decision = Some(self.common_tree()?);
                self.expect(Tok::RBrace, "`}` to close the common decision")?;
            }
        }
        if self.peek() == Tok::Kw(K::Common) {
            self.bump();
            self.expect(Tok::Kw(K::Action), "`action` or `decision` after `common`")?;
            if self.eat(Tok::LBrace).is_some() {
                o.common_action = self.actions()?;
                self.expect(Tok::RBrace, "`}` to close the common action")?;
            }
        }
        loop {
            match self.peek() {
                Tok::RBrace if !o.states.is_empty() => break,
                Tok::RBrace => {
                    return Err(self
                        .error_here("a state: an option needs at least one `state NAME { ... }`"))
                }
                _ => o.states.push(self.state()?),
            }
        }
        self.bump();
        Ok(o)
    }

    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                "X2537",
                self.cur_span(),
                format!("this is nested more than {MAX_DEPTH} levels deep; split it up"),
            ));
        }
        Ok(())
    }

    fn common_tree(&mut self) -> R<CommonTree> {
        self.deeper()?;
        let r = self.common_tree_inner();
        self.depth -= 1;
        r
    }

    fn common_tree_inner(&mut self) -> R<CommonTree> {
        if self.peek() == Tok::LBrace {
            self.bump();
            let t = self.common_tree()?;
            self.expect(Tok::RBrace, "`}`")?;
            return Ok(t);
        }
        let doc = self.doc();
        let kw = self.expect(
            Tok::Kw(K::If),
            "`if` (a common decision is a chain of `if ... else if ...`)",
        )?;
        let cond = self.paren_cond()?;
        let then = self.tree()?;
        let else_doc_else = self.peek() == Tok::DocComment && self.peek_at(1) == Tok::Kw(K::Else);
        let other = if self.peek() == Tok::Kw(K::Else) || else_doc_else {
            let d = self.doc();
            self.bump();
            let mut rest = self.common_tree()?;
            if d.is_some() {
                rest.doc = d;
            }
            Some(Box::new(rest))
        } else {
            None
        };
        Ok(CommonTree {
            doc,
            span: kw.span,
            cond,
            then,
            other,
        })
    }

    fn paren_cond(&mut self) -> R<Expr> {
        self.expect(Tok::LParen, "`(` and the condition after `if`")?;
        let e = self.expr()?;
        self.expect(Tok::RParen, "`)` after the condition")?;
        Ok(e)
    }

    fn state(&mut self) -> R<StateDecl> {
        let doc = self.doc();
        let initial = self.eat(Tok::Kw(K::Initial)).map(|t| t.span);
        let target = self.eat(Tok::Kw(K::Target)).map(|t| t.span);
        self.expect(
            Tok::Kw(K::State),
            "`state` (or `initial`/`target` before it)",
        )?;
        let name = self.name("the state's name")?;
        let coop = match self.peek() {
            Tok::Kw(K::Capacity) => {
                let kw = self.bump().span;
                let n = self.expect(Tok::Number, "the capacity (a number) after `capacity`")?;
                Coop::Capacity(n.text, kw.to(n.span))
            }
            Tok::Kw(K::Synchronized) => {
                let kw = self.bump().span;
                match self.eat(Tok::Number) {
                    Some(n) => Coop::Synchronized(Some(n.text), kw.to(n.span)),
                    None => Coop::Synchronized(None, kw),
                }
            }
            _ => Coop::None,
        };
        self.expect(Tok::LBrace, "`{` to open the state")?;
        let decision = if self.peek() == Tok::Kw(K::Decision) {
            let span = self.bump().span;
            self.expect(Tok::LBrace, "`{` after `decision`")?;
            let starts_else = self.peek() == Tok::Kw(K::Else)
                || (self.peek() == Tok::DocComment && self.peek_at(1) == Tok::Kw(K::Else));
            let (starts_with_else, tree) = if starts_else {
                let d = self.doc();
                let e = self.bump().span;
                let mut tree = self.tree()?;
                if let (Some(d), Tree::If(i)) = (d, &mut tree) {
                    i.doc = Some(d);
                }
                (Some(e), tree)
            } else {
                (None, self.tree()?)
            };
            self.expect(Tok::RBrace, "`}` to close the decision")?;
            Some(Decision {
                span,
                starts_with_else,
                tree,
            })
        } else {
            None
        };
        self.expect(
            Tok::Kw(K::Action),
            "`action { ... }` (or `decision { ... }` before it)",
        )?;
        self.expect(Tok::LBrace, "`{` after `action`")?;
        let actions = self.actions()?;
        self.expect(Tok::RBrace, "`}` to close the action block")?;
        self.expect(Tok::RBrace, "`}` to close the state")?;
        Ok(StateDecl {
            doc,
            initial,
            target,
            name,
            coop,
            decision,
            actions,
        })
    }

    fn tree(&mut self) -> R<Tree> {
        self.deeper()?;
        let r = self.tree_inner();
        self.depth -= 1;
        r
    }

    fn tree_inner(&mut self) -> R<Tree> {
        match self.peek() {
            Tok::LBrace => {
                self.bump();
                let t = self.tree()?;
                self.expect(Tok::RBrace, "`}`")?;
                Ok(t)
            }
            Tok::Kw(K::Goto) => {
                self.bump();
                let n = self.name("the state's name after `goto`")?;
                self.expect(Tok::Semi, "`;` after the transition")?;
                Ok(Tree::Goto(n))
            }
            Tok::Kw(K::Stay) => {
                let s = self.bump().span;
                self.expect(Tok::Semi, "`;` after `stay`")?;
                Ok(Tree::Stay(s))
            }
            Tok::Kw(K::If) | Tok::DocComment => {
                let doc = self.doc();
                let kw = self.expect(Tok::Kw(K::If), "`if` after the doc comment")?;
                let cond = self.paren_cond()?;
                let then = self.tree()?;
                let else_doc = self.doc();
                if self.peek() != Tok::Kw(K::Else) {
                    return Err(self
                        .error_here("`else` (every `if` of a state's decision needs an `else`)"));
                }
                self.bump();
                let mut other = self.tree()?;
                if let (Some(d), Tree::If(i)) = (else_doc, &mut other) {
                    i.doc = Some(d);
                }
                Ok(Tree::If(Box::new(IfTree {
                    doc,
                    span: kw.span,
                    cond,
                    then,
                    other,
                })))
            }
            _ => Err(self.error_here("`if`, `goto STATE;`, `stay;` or `{`")),
        }
    }

    fn actions(&mut self) -> R<Vec<Action>> {
        let mut v = Vec::new();
        while self.peek() == Tok::Ident {
            let name = self.name("a name")?;
            if self.eat(Tok::Assign).is_some() {
                let value = self.expr()?;
                self.expect(Tok::Semi, "`;` after the assignment")?;
                v.push(Action::Assign { name, value });
                continue;
            }
            let kind = match self.peek() {
                Tok::Kw(K::Option) => {
                    self.bump();
                    Some(CallKind::Option)
                }
                Tok::Kw(K::Behavior) => {
                    self.bump();
                    Some(CallKind::Behavior)
                }
                _ => None,
            };
            if self.peek() != Tok::LParen {
                return Err(self.error_here(&format!(
                    "`=` (to set the output symbol `{0}`) or `(` (to call the option or basic behavior `{0}`)",
                    name.text
                )));
            }
            self.bump();
            let args = self.args()?;
            let close = self.expect(Tok::RParen, "`,` or `)` after a parameter")?;
            self.expect(Tok::Semi, "`;` after the call")?;
            let span = name.span.to(close.span);
            v.push(Action::Call {
                name,
                kind,
                args,
                span,
            });
        }
        Ok(v)
    }

    /// `[name = exp (, name = exp)* [,]]` up to (not including) `)`.
    fn args(&mut self) -> R<Vec<Arg>> {
        let mut v = Vec::new();
        if self.positional {
            while self.peek() != Tok::RParen && self.peek() != Tok::Eof {
                let start = self.cur_span();
                let value = self.expr()?;
                v.push(Arg {
                    name: Name {
                        text: String::new(),
                        span: start,
                    },
                    value,
                });
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            return Ok(v);
        }
        while self.peek() == Tok::Ident {
            let name = self.name("a parameter name")?;
            self.expect(Tok::Assign, "`=` after the parameter name")?;
            let value = self.expr()?;
            v.push(Arg { name, value });
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        Ok(v)
    }

    // ---------------------------------------------------------- expressions

    /// An expression: `?:` at the lowest level, not chainable.
    pub(crate) fn expr(&mut self) -> R<Expr> {
        self.deeper()?;
        let r = self.expr_inner();
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self) -> R<Expr> {
        let c = self.binary(0)?;
        if self.peek() != Tok::Question {
            if self.peek() == Tok::Colon {
                return Err(
                    self.error_here("an operator or the end of the expression (`:` without `?`)")
                );
            }
            return Ok(c);
        }
        let q = self.bump().span;
        let a = self.binary(0)?;
        self.expect(Tok::Colon, "`:` in the conditional expression `c ? a : b`")?;
        let b = self.binary(0)?;
        if matches!(self.peek(), Tok::Question | Tok::Colon) {
            return Err(self.error_here(
                "the end of the conditional expression (`? :` cannot be chained; use parentheses)",
            ));
        }
        Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b), q))
    }

    fn binop(t: Tok) -> Option<(BinOp, u8)> {
        Some(match t {
            Tok::OrOr => (BinOp::Or, 0),
            Tok::AndAnd => (BinOp::And, 1),
            Tok::Lt => (BinOp::Lt, 2),
            Tok::Gt => (BinOp::Gt, 2),
            Tok::Le => (BinOp::Le, 2),
            Tok::Ge => (BinOp::Ge, 2),
            Tok::EqEq => (BinOp::Eq, 2),
            Tok::Ne => (BinOp::Ne, 2),
            Tok::Plus => (BinOp::Add, 3),
            Tok::Minus => (BinOp::Sub, 3),
            Tok::Star => (BinOp::Mul, 4),
            Tok::Slash => (BinOp::Div, 4),
            Tok::Percent => (BinOp::Mod, 4),
            _ => return None,
        })
    }

    fn binary(&mut self, min: u8) -> R<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = Self::binop(self.peek()) {
            if prec < min {
                break;
            }
            let opspan = self.bump().span;
            let rhs = self.binary(prec + 1)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), opspan);
            if prec == 2 {
                if let Some((_, 2)) = Self::binop(self.peek()) {
                    return Err(self.error_here(
                        "an operator other than a comparison (comparisons cannot be chained; use parentheses)",
                    ));
                }
            }
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> R<Expr> {
        match self.peek() {
            Tok::Bang | Tok::Minus => {
                self.deeper()?;
                let t = self.bump();
                let inner = self.unary();
                self.depth -= 1;
                let inner = Box::new(inner?);
                Ok(if t.tok == Tok::Bang {
                    Expr::Not(inner, t.span)
                } else {
                    Expr::Neg(inner, t.span)
                })
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> R<Expr> {
        let t = self.peek();
        match t {
            Tok::LParen => {
                let open = self.bump().span;
                let e = self.expr()?;
                let close = self.expect(Tok::RParen, "`)`")?;
                Ok(Expr::Paren(Box::new(e), open.to(close.span)))
            }
            Tok::Number => {
                let t = self.bump();
                Ok(Expr::Number(t.text, t.span))
            }
            Tok::Kw(K::True) => Ok(Expr::Bool(true, self.bump().span)),
            Tok::Kw(K::False) => Ok(Expr::Bool(false, self.bump().span)),
            Tok::Kw(K::StateTime) => Ok(Expr::StateTime(self.bump().span)),
            Tok::Kw(K::OptionTime) => Ok(Expr::OptionTime(self.bump().span)),
            Tok::Kw(K::ActionDone) => Ok(Expr::ActionDone(self.bump().span)),
            Tok::Kw(K::Conflict) => Ok(Expr::Conflict(self.bump().span)),
            Tok::Ident => {
                let name = self.name("a name")?;
                if self.peek() == Tok::LParen {
                    self.bump();
                    let args = self.args()?;
                    let close = self.expect(Tok::RParen, "`,` or `)` after a parameter")?;
                    let span = name.span.to(close.span);
                    return Ok(Expr::Call { name, args, span });
                }
                Ok(Expr::Name(name))
            }
            _ => Err(self.error_here("an expression (a number, a name, `true`, `false`, `state_time`, `option_time`, `action_done`, `conflict`, `!`, `-` or `(`)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(s: &str) -> Expr {
        parse_expression(s, FileId(0)).unwrap()
    }

    fn show(e: &Expr) -> String {
        match e {
            Expr::Number(n, _) => n.clone(),
            Expr::Bool(b, _) => b.to_string(),
            Expr::Name(n) => n.text.clone(),
            Expr::Call { name, args, .. } => format!(
                "{}({})",
                name.text,
                args.iter()
                    .map(|a| format!("{}={}", a.name.text, show(&a.value)))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Expr::Not(e, _) => format!("!{}", show(e)),
            Expr::Neg(e, _) => format!("-{}", show(e)),
            Expr::Binary(op, a, b, _) => format!("({} {} {})", show(a), op.as_str(), show(b)),
            Expr::Cond(c, a, b, _) => format!("({} ? {} : {})", show(c), show(a), show(b)),
            Expr::Paren(e, _) => show(e),
            Expr::StateTime(_) => "state_time".into(),
            Expr::OptionTime(_) => "option_time".into(),
            Expr::ActionDone(_) => "action_done".into(),
            Expr::Conflict(_) => "conflict".into(),
        }
    }

    #[test]
    fn precedence() {
        assert_eq!(show(&expr("a + b * c - d")), "((a + (b * c)) - d)");
        assert_eq!(show(&expr("-a * b")), "(-a * b)");
        assert_eq!(show(&expr("!a && b || c && d")), "((!a && b) || (c && d))");
        assert_eq!(show(&expr("a < b + 1 && c")), "((a < (b + 1)) && c)");
        assert_eq!(
            show(&expr("a || b ? c : d + 1")),
            "((a || b) ? c : (d + 1))"
        );
        assert_eq!(show(&expr("f(k = 2, j = x,)")), "f(k=2,j=x)");
        assert_eq!(show(&expr("a % b / c")), "((a % b) / c)");
    }

    #[test]
    fn non_associative_operators() {
        assert!(parse_expression("a < b < c", FileId(0)).is_err());
        assert!(parse_expression("a == b != c", FileId(0)).is_err());
        assert!(parse_expression("a ? b : c ? d : e", FileId(0)).is_err());
        assert!(parse_expression("a ? (b ? c : d) : e", FileId(0)).is_ok());
        assert!(parse_expression("(a < b) == c", FileId(0)).is_ok());
    }

    #[test]
    fn option_with_everything() {
        let src = r#"/** opt */
option o {
  float @x [0..1] "mm";
  bool @b;
  enum e @m;
  common decision { if (a) goto s1; else if (b) goto s2; }
  common action { out = 1; }
  initial state s1 capacity 2 { decision { else if (c) goto s2; else stay; } action { sub(x = 1,); } }
  target state s2 synchronized { action { } }
  state s3 synchronized 3 { decision { else { stay; } } action { x = y ? 1 : 2; bb behavior(); o2 option(); } }
}"#;
        let f = parse_file(src, FileId(0)).unwrap();
        let Body::Option(o) = f.body else { panic!() };
        assert_eq!(o.params.len(), 3);
        assert_eq!(o.states.len(), 3);
        assert!(o.common_decision.as_ref().unwrap().other.is_some());
        assert_eq!(o.common_action.len(), 1);
        assert!(o.states[0]
            .decision
            .as_ref()
            .unwrap()
            .starts_with_else
            .is_some());
        assert!(o.states[1].decision.is_none());
        assert_eq!(o.states[2].actions.len(), 3);
    }

    #[test]
    fn nesting_is_bounded() {
        for src in [
            format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000)),
            format!("{}x", "!".repeat(100_000)),
            format!("{}x", "- ".repeat(100_000)),
        ] {
            let e = parse_expression(&src, FileId(0)).unwrap_err();
            assert!(e.message.contains("nested more than"), "{}", e.message);
        }
        let deep = format!(
            "option o {{ initial state s {{ decision {{ {}stay;{} }} action {{ }} }} }}",
            "{".repeat(50_000),
            "}".repeat(50_000)
        );
        assert!(parse_file(&deep, FileId(0)).is_err());
        let chain = (0..1000)
            .map(|i| format!("if (x > {i}) goto s; else "))
            .collect::<String>();
        let src = format!(
            "option o {{ initial state s {{ decision {{ {chain} stay; }} action {{ }} }} }}"
        );
        assert!(parse_file(&src, FileId(0)).is_err());
        assert!(parse_expression("((((x))))", FileId(0)).is_ok());
    }

    #[test]
    fn state_if_needs_else() {
        let src = "option o { initial state s { decision { if (a) stay; } action {} } }";
        let e = parse_file(src, FileId(0)).unwrap_err();
        assert!(e.message.contains("needs an `else`"), "{}", e.message);
    }

    #[test]
    fn namespace_items() {
        let src = r#"namespace n("N") {
  /** d */ float const c = -3.5 "mm";
  const k = 2;
  enum mode { a, b };
  enum mode internal { x };
  enum mode input m;
  bool output b;
  float internal i [0..1] "u";
  x;
  float input f "unit" ( float k; enum mode m; );
  behavior walk { float x; bool y; }
}"#;
        let f = parse_file(src, FileId(0)).unwrap();
        let Body::Namespace(n) = f.body else { panic!() };
        assert_eq!(n.items.len(), 10);
        match &n.items[0] {
            NamespaceItem::Const(c) => assert_eq!(c.value, "-3.5"),
            _ => panic!(),
        }
    }
}
