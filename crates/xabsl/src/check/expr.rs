//! Expressions: names resolved against the scope (option parameters, the enumeration the
//! context expects, constants and symbols), operators typed, `&&`/`||` flattened, `!=` on
//! enumerations as `!(a == b)` and `-x` as `0 - x`, as the reference compiles them.

use super::actions::Owner;
use super::suggest::suggest;
use super::{Checker, Scope};
use crate::ast::{self, BinOp};
use crate::diag::Diagnostic;
use crate::model::*;
use crate::source::Span;

impl Checker {
    /// Is `x` of type `want`? Reports a mismatch.
    pub(super) fn expect_type(
        &mut self,
        x: &Expr,
        want: Type,
        span: Span,
        what: &str,
    ) -> Option<()> {
        let got = x.ty();
        if got == want {
            return Some(());
        }
        match (got, want) {
            (Type::Enum(g), Type::Enum(w)) => {
                let (g, w) = (self.enum_name(g).to_string(), self.enum_name(w).to_string());
                self.err(
                    "X5255",
                    span,
                    format!("mismatching domain: {what} takes an element of `{w}`, but this is an element of `{g}`"),
                );
            }
            _ => {
                let (g, w) = (self.prog.type_name(got), self.prog.type_name(want));
                self.err(
                    "X5525",
                    span,
                    format!("type mismatch: {what} takes {w}, but this is {g}"),
                );
            }
        }
        None
    }

    /// An expression, typed; `ctx` is the enumeration the context expects (for
    /// unqualified elements).
    pub(super) fn expr(
        &mut self,
        e: &ast::Expr,
        scope: Scope,
        ctx: Option<EnumId>,
    ) -> Option<Expr> {
        match e {
            ast::Expr::Paren(inner, _) => self.expr(inner, scope, ctx),
            ast::Expr::Number(t, _) => Some(Expr::Number(t.parse::<f64>().unwrap_or(0.0))),
            ast::Expr::Bool(b, _) => Some(Expr::Bool(*b)),
            ast::Expr::Name(n) => self.name_value(n, scope, ctx),
            ast::Expr::Call { name, args, span } => self.input_call(name, args, *span, scope),
            ast::Expr::StateTime(s)
            | ast::Expr::OptionTime(s)
            | ast::Expr::ActionDone(s)
            | ast::Expr::Conflict(s) => self.builtin(e, *s, scope),
            ast::Expr::Not(inner, s) => {
                let x = self.expr(inner, scope, ctx)?;
                if x.ty() != Type::Boolean {
                    let t = self.prog.type_name(x.ty());
                    self.err(
                        "X5525",
                        *s,
                        format!("type mismatch on `!`: it takes a boolean, but this is {t}"),
                    );
                    return None;
                }
                Some(Expr::Not(Box::new(x)))
            }
            ast::Expr::Neg(inner, s) => self.negation(inner, *s, scope, ctx),
            ast::Expr::Binary(op, a, b, s) => self.binary(*op, a, b, *s, scope, ctx),
            ast::Expr::Cond(c, a, b, s) => self.conditional([c, a, b], *s, scope, ctx),
        }
    }

    /// `state_time`, `option_time`, `action_done`, `conflict`.
    fn builtin(&mut self, e: &ast::Expr, s: Span, scope: Scope) -> Option<Expr> {
        let Scope::Option {
            state, capacity, ..
        } = scope
        else {
            self.err(
                "X8007",
                s,
                "`state_time`, `option_time`, `action_done` and `conflict` can only be used in an option",
            );
            return None;
        };
        Some(match e {
            ast::Expr::StateTime(_) => Expr::StateTime,
            ast::Expr::OptionTime(_) => Expr::OptionTime,
            ast::Expr::ActionDone(_) => Expr::ActionDone,
            _ => {
                if state.is_some() && !capacity {
                    self.warn(
                        "X8004",
                        s,
                        "`conflict` is always false outside a `capacity` state",
                    );
                }
                Expr::Conflict
            }
        })
    }

    /// `-x`: a negative literal, or `0 - x` as the reference compiles it.
    fn negation(
        &mut self,
        inner: &ast::Expr,
        s: Span,
        scope: Scope,
        ctx: Option<EnumId>,
    ) -> Option<Expr> {
        match self.expr(inner, scope, ctx)? {
            Expr::Number(v) => Some(Expr::Number(-v)),
            x if x.ty() == Type::Decimal => Some(Expr::Arith(
                ArithOp::Sub,
                Box::new(Expr::Number(0.0)),
                Box::new(x),
            )),
            x => {
                let t = self.prog.type_name(x.ty());
                self.err(
                    "X5525",
                    s,
                    format!("type mismatch on `-`: it takes a number, but this is {t}"),
                );
                None
            }
        }
    }

    /// `c ? a : b` (decimal or enumerated; the engine has no boolean one).
    fn conditional(
        &mut self,
        [c, a, b]: [&ast::Expr; 3],
        s: Span,
        scope: Scope,
        ctx: Option<EnumId>,
    ) -> Option<Expr> {
        let cond = self.expr(c, scope, ctx);
        let then = self.expr(a, scope, ctx);
        let other = self.expr(b, scope, ctx);
        let (cond, then, other) = (cond?, then?, other?);
        if cond.ty() != Type::Boolean {
            let t = self.prog.type_name(cond.ty());
            self.err(
                "X5525",
                c.span(),
                format!("type mismatch: the condition of `? :` must be a boolean, but this is {t}"),
            );
            return None;
        }
        let ty = then.ty();
        if other.ty() != ty {
            match (ty, other.ty()) {
                (Type::Enum(x), Type::Enum(y)) => {
                    let (x, y) = (self.enum_name(x).to_string(), self.enum_name(y).to_string());
                    self.err("X5255", s, format!("mismatching domain in `? :`: one branch is an element of `{x}`, the other of `{y}`"));
                }
                (x, y) => {
                    let (x, y) = (self.prog.type_name(x), self.prog.type_name(y));
                    self.err(
                        "X5525",
                        s,
                        format!("type mismatch in `? :`: one branch is {x}, the other {y}"),
                    );
                }
            }
            return None;
        }
        if ty == Type::Boolean {
            self.push(
                Diagnostic::error(
                    "X8002",
                    s,
                    "a conditional expression `c ? a : b` cannot give a boolean: the engine only has decimal and enumerated ones",
                )
                .note("write `(c && a) || (!c && b)`"),
            );
            return None;
        }
        Some(Expr::Cond {
            cond: Box::new(cond),
            then: Box::new(then),
            other: Box::new(other),
            ty,
        })
    }

    /// `a op b`.
    pub(super) fn binary(
        &mut self,
        op: BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        s: Span,
        scope: Scope,
        ctx: Option<EnumId>,
    ) -> Option<Expr> {
        if matches!(op, BinOp::Eq | BinOp::Ne) {
            return self.equality(op, a, b, s, scope, ctx);
        }
        let l = self.expr(a, scope, ctx);
        let r = self.expr(b, scope, ctx);
        let (l, r) = (l?, r?);
        let want = match op {
            BinOp::And | BinOp::Or => Type::Boolean,
            _ => Type::Decimal,
        };
        if l.ty() != want || r.ty() != want {
            let (x, y) = (self.prog.type_name(l.ty()), self.prog.type_name(r.ty()));
            let w = self.prog.type_name(want);
            self.err(
                "X5525",
                s,
                format!(
                    "type mismatch on `{}`: it takes {w} on both sides, but the left side is {x} and the right side {y}",
                    op.as_str()
                ),
            );
            return None;
        }

        Some(match op {
            BinOp::Add => Expr::Arith(ArithOp::Add, Box::new(l), Box::new(r)),
            BinOp::Sub => Expr::Arith(ArithOp::Sub, Box::new(l), Box::new(r)),
            BinOp::Mul => Expr::Arith(ArithOp::Mul, Box::new(l), Box::new(r)),
            BinOp::Div => Expr::Arith(ArithOp::Div, Box::new(l), Box::new(r)),
            BinOp::Mod => Expr::Arith(ArithOp::Mod, Box::new(l), Box::new(r)),
            BinOp::Lt => Expr::Compare(CmpOp::Lt, Box::new(l), Box::new(r)),
            BinOp::Gt => Expr::Compare(CmpOp::Gt, Box::new(l), Box::new(r)),
            BinOp::Le => Expr::Compare(CmpOp::Le, Box::new(l), Box::new(r)),
            BinOp::Ge => Expr::Compare(CmpOp::Ge, Box::new(l), Box::new(r)),
            BinOp::And | BinOp::Or => {
                let mut items = Vec::new();
                for x in [l, r] {
                    match (op, x) {
                        (BinOp::And, Expr::And(v)) | (BinOp::Or, Expr::Or(v)) => items.extend(v),
                        (_, x) => items.push(x),
                    }
                }
                if op == BinOp::And {
                    Expr::And(items)
                } else {
                    Expr::Or(items)
                }
            }
            BinOp::Eq | BinOp::Ne => return None,
        })
    }

    /// `a == b`, `a != b`: two numbers, or two elements of one enumeration (the
    /// right side's elements resolved against the left side's enumeration).
    fn equality(
        &mut self,
        op: BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        s: Span,
        scope: Scope,
        ctx: Option<EnumId>,
    ) -> Option<Expr> {
        let l = self.expr(a, scope, ctx)?;
        if let Type::Enum(le) = l.ty() {
            let r = self.expr(b, scope, Some(le))?;
            return match r.ty() {
                Type::Enum(re) if re == le => {
                    let eq = Expr::EnumEq(Box::new(l), Box::new(r));
                    Some(if op == BinOp::Ne {
                        Expr::Not(Box::new(eq))
                    } else {
                        eq
                    })
                }
                Type::Enum(re) => {
                    let (x, y) = (
                        self.enum_name(le).to_string(),
                        self.enum_name(re).to_string(),
                    );
                    self.err("X5255", s, format!("mismatching domain on `{}`: an element of `{x}` is compared with an element of `{y}`", op.as_str()));
                    None
                }
                other => {
                    let (x, y) = (self.prog.type_name(l.ty()), self.prog.type_name(other));
                    self.err(
                        "X5525",
                        s,
                        format!(
                            "type mismatch on `{}`: {x} is compared with {y}",
                            op.as_str()
                        ),
                    );
                    None
                }
            };
        }
        let r = self.expr(b, scope, ctx)?;
        if l.ty() != Type::Decimal || r.ty() != Type::Decimal {
            let (x, y) = (self.prog.type_name(l.ty()), self.prog.type_name(r.ty()));
            let mut d = Diagnostic::error(
                "X5525",
                s,
                format!("type mismatch on `{}`: it compares two numbers or two elements of one enumeration, but the left side is {x} and the right side {y}", op.as_str()),
            );
            if l.ty() == Type::Boolean && r.ty() == Type::Boolean {
                d = d.note(if op == BinOp::Eq {
                    "for booleans write `(a && b) || (!a && !b)`"
                } else {
                    "for booleans write `(a && !b) || (!a && b)`"
                });
            }
            self.push(d);
            return None;
        }
        let cmp = if op == BinOp::Eq {
            CmpOp::Eq
        } else {
            CmpOp::Ne
        };
        Some(Expr::Compare(cmp, Box::new(l), Box::new(r)))
    }

    /// A name in an expression: an option parameter (`@x`), an element of the
    /// enumeration the context expects, a parameter of the input symbol being defined,
    /// a constant or a symbol.
    pub(super) fn name_value(
        &mut self,
        n: &ast::Name,
        scope: Scope,
        ctx: Option<EnumId>,
    ) -> Option<Expr> {
        if let Some(rest) = n.text.strip_prefix('@') {
            return self.option_param(n, rest, scope);
        }
        if let Some(e) = ctx {
            if let Some(en) = self.prog.enums.get(e) {
                let q = format!("{}.{}", en.name, n.text);
                if let Some(i) = en.elements.iter().position(|x| *x == n.text || *x == q) {
                    self.refer(n.span, Def::Element(e, i));
                    return Some(Expr::Element {
                        enumeration: e,
                        index: i,
                    });
                }
            }
        }
        if let Scope::InputDefinition(s) = scope {
            if let Some(sym) = self.prog.symbols.get(s) {
                if let Some(i) = sym
                    .params
                    .iter()
                    .position(|p| p.short == n.text || p.name == n.text)
                {
                    let ty = sym.params[i].ty;
                    self.refer(n.span, Def::InputParam(s, i));
                    return Some(Expr::Param {
                        option: usize::MAX,
                        index: i,
                        ty,
                    });
                }
            }
        }
        let mut found: Vec<Expr> = Vec::new();
        if let Some(&c) = self.consts.get(&n.text) {
            found.push(Expr::Constant(c));
        }
        for &i in self.symbols.get(&n.text).map_or(&[][..], Vec::as_slice) {
            let s = &self.prog.symbols[i];
            found.push(if s.kind == SymbolKind::Input {
                Expr::Input {
                    symbol: i,
                    ty: s.ty,
                    args: Vec::new(),
                }
            } else {
                Expr::Output {
                    symbol: i,
                    ty: s.ty,
                }
            });
        }
        match found.len() {
            1 => {
                let def = match found.first() {
                    Some(Expr::Constant(c)) => Def::Constant(*c),
                    Some(Expr::Input { symbol, .. } | Expr::Output { symbol, .. }) => {
                        Def::Symbol(*symbol)
                    }
                    _ => return found.pop(),
                };
                self.refer(n.span, def);
                found.pop()
            }
            0 => {
                self.unknown_name(n, ctx);
                None
            }
            _ => {
                self.err(
                    "X5723",
                    n.span,
                    format!("`{}` is ambiguous: a constant or several symbols of different kinds have that name", n.text),
                );
                None
            }
        }
    }

    /// `@name`: a parameter of the option the expression is in.
    fn option_param(&mut self, n: &ast::Name, rest: &str, scope: Scope) -> Option<Expr> {
        let Scope::Option { option, .. } = scope else {
            self.err(
                "X5552",
                n.span,
                format!(
                    "`{}`: option parameters can only be used in an option",
                    n.text
                ),
            );
            return None;
        };
        let opt = self.prog.options.get(option)?;
        let q = format!("{}.{rest}", opt.name);
        if let Some(i) = opt.params.iter().position(|p| p.name == q) {
            let ty = opt.params[i].ty;
            self.refer(n.span, Def::OptionParam(option, i));
            return Some(Expr::Param {
                option,
                index: i,
                ty,
            });
        }
        let mut d = Diagnostic::error(
            "X5552",
            n.span,
            format!("option `{}` has no parameter called `{}`", opt.name, n.text),
        );
        if let Some(s) = suggest(rest, opt.params.iter().map(|p| p.short.as_str())) {
            d = d.note(format!("{s} (written `@` + name)"));
        }
        self.push(d);
        None
    }

    /// X5552 for a name that is nothing here, with what it is elsewhere or the nearest
    /// name.
    fn unknown_name(&mut self, n: &ast::Name, ctx: Option<EnumId>) {
        let mut d = Diagnostic::error(
            "X5552",
            n.span,
            match ctx {
                Some(e) => format!(
                    "`{}` is not an element of `{}`, a constant or a symbol",
                    n.text,
                    self.enum_name(e)
                ),
                None => format!(
                    "no constant, input, output or internal symbol is called `{}`",
                    n.text
                ),
            },
        );
        let elsewhere: Vec<String> = self
            .prog
            .enums
            .iter()
            .filter(|en| {
                en.elements
                    .iter()
                    .any(|x| *x == n.text || x.ends_with(&format!(".{}", n.text)))
            })
            .map(|en| format!("`{}`", en.name))
            .collect();
        if !elsewhere.is_empty() {
            d = d.note(match ctx {
                Some(e) => format!(
                    "`{}` is an element of {}, but an element of `{}` is expected here",
                    n.text,
                    elsewhere.join(", "),
                    self.enum_name(e)
                ),
                None => format!(
                    "`{}` is an element of {}; an element can only be used where an enumerated value is expected (after `==` with an enumerated value on the left, or in the value of an enumerated symbol or parameter)",
                    n.text,
                    elsewhere.join(", ")
                ),
            });
        } else {
            let mut cands: Vec<&str> = self
                .symbols
                .keys()
                .chain(self.consts.keys())
                .map(String::as_str)
                .collect();
            if let Some(e) = ctx.and_then(|e| self.prog.enums.get(e)) {
                for i in 0..e.elements.len() {
                    cands.push(e.short(i));
                }
            }
            if let Some(s) = suggest(&n.text, cands.into_iter()) {
                d = d.note(s);
            } else if self.options.contains_key(&n.text) {
                d = d.note(format!(
                    "`{}` is an option; options are called in actions",
                    n.text
                ));
            }
        }
        self.push(d);
    }

    pub(super) fn input_call(
        &mut self,
        name: &ast::Name,
        args: &[ast::Arg],
        span: Span,
        scope: Scope,
    ) -> Option<Expr> {
        let ins: Vec<SymbolId> = self
            .symbols
            .get(&name.text)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&i| self.prog.symbols[i].kind == SymbolKind::Input)
                    .collect()
            })
            .unwrap_or_default();
        let symbol = match ins.as_slice() {
            [one] => *one,
            [] => {
                let mut d = Diagnostic::error(
                    "X5552",
                    name.span,
                    format!("no input symbol is called `{}`", name.text),
                );
                if self.options.contains_key(&name.text) || self.behaviors.contains_key(&name.text)
                {
                    d = d.note(
                        "options and basic behaviors are called as actions, not in expressions",
                    );
                } else if let Some(s) = suggest(
                    &name.text,
                    self.prog
                        .symbols
                        .iter()
                        .filter(|s| s.kind == SymbolKind::Input)
                        .map(|s| s.name.as_str()),
                ) {
                    d = d.note(s);
                }
                self.push(d);
                return None;
            }
            _ => {
                self.err(
                    "X5723",
                    name.span,
                    format!("`{}` is ambiguous: several input symbols of different types have that name", name.text),
                );
                return None;
            }
        };
        let params = self.prog.symbols[symbol].params.clone();
        let ty = self.prog.symbols[symbol].ty;
        let args = self.args(&name.text, &params, args, span, scope, Owner::Input(symbol))?;
        self.refer(name.span, Def::Symbol(symbol));
        Some(Expr::Input { symbol, ty, args })
    }
}
