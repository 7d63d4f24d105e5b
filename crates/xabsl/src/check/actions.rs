//! The second pass, actions: output symbol assignments and calls of options and basic
//! behaviors, with their parameters (set twice X3725, missing X3752, wrong type or
//! domain X5525, X5255, X5526).

use super::suggest::suggest;
use super::{Checker, Scope};
use crate::ast;
use crate::diag::Diagnostic;
use crate::model::*;
use crate::source::Span;

impl Checker {
    pub(super) fn actions(&mut self, acts: &[ast::Action], scope: Scope) -> Vec<Action> {
        let mut out = Vec::new();
        for a in acts {
            match a {
                ast::Action::Assign { name, value } => {
                    if let Some(x) = self.assignment(name, value, scope) {
                        out.push(x);
                    }
                }
                ast::Action::Call {
                    name,
                    kind,
                    args,
                    span,
                } => {
                    if let Some(x) = self.call(name, *kind, args, *span, scope) {
                        out.push(x);
                    }
                }
            }
        }
        out
    }

    pub(super) fn assignment(
        &mut self,
        name: &ast::Name,
        value: &ast::Expr,
        scope: Scope,
    ) -> Option<Action> {
        let outs: Vec<SymbolId> = self
            .symbols
            .get(&name.text)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&i| self.prog.symbols[i].is_output())
                    .collect()
            })
            .unwrap_or_default();
        let symbol = match outs.as_slice() {
            [one] => {
                self.refer(name.span, Def::Symbol(*one));
                *one
            }
            [] => {
                let mut d = Diagnostic::error(
                    "X5552",
                    name.span,
                    format!("no output or internal symbol is called `{}`", name.text),
                );
                if self.symbols.contains_key(&name.text) {
                    d = d.note(format!(
                        "`{}` is an input symbol; only output and internal symbols can be set",
                        name.text
                    ));
                } else if let Some(s) = suggest(
                    &name.text,
                    self.prog
                        .symbols
                        .iter()
                        .filter(|s| s.is_output())
                        .map(|s| s.name.as_str()),
                ) {
                    d = d.note(s);
                }
                self.push(d);
                // still check the value for further errors
                let _ = self.expr(value, scope, None);
                return None;
            }
            _ => {
                self.err(
                    "X5723",
                    name.span,
                    format!("`{}` is ambiguous: several output symbols of different types have that name", name.text),
                );
                return None;
            }
        };
        let ty = self.prog.symbols[symbol].ty;
        let ctx = match ty {
            Type::Enum(e) => Some(e),
            _ => None,
        };
        let x = self.expr(value, scope, ctx)?;
        self.expect_type(&x, ty, value.span(), &format!("the symbol `{}`", name.text))?;
        Some(Action::Set {
            symbol,
            value: x,
            span: name.span.to(value.span()),
        })
    }
    pub(super) fn call(
        &mut self,
        name: &ast::Name,
        kind: Option<ast::CallKind>,
        args: &[ast::Arg],
        span: Span,
        scope: Scope,
    ) -> Option<Action> {
        let opt = self.options.get(&name.text).copied();
        let bb = self.behaviors.get(&name.text).copied();
        let (opt, bb) = match kind {
            Some(ast::CallKind::Option) => (opt, None),
            Some(ast::CallKind::Behavior) => (None, bb),
            None => (opt, bb),
        };
        match (opt, bb) {
            (Some(_), Some(_)) => {
                self.push(
                    Diagnostic::error(
                        "X5723",
                        name.span,
                        format!("`{}` is both an option and a basic behavior", name.text),
                    )
                    .note(format!(
                        "write `{0} option(...)` or `{0} behavior(...)`",
                        name.text
                    )),
                );
                None
            }
            (Some(o), None) => {
                let params = self.prog.options[o].params.clone();
                let args = self.args(&name.text, &params, args, span, scope, Owner::Option(o))?;
                self.refer(name.span, Def::Option(o));
                Some(Action::Option {
                    option: o,
                    args,
                    span,
                })
            }
            (None, Some(b)) => {
                let params = self.prog.behaviors[b].params.clone();
                let args = self.args(&name.text, &params, args, span, scope, Owner::Behavior(b))?;
                self.refer(name.span, Def::Behavior(b));
                Some(Action::Behavior {
                    behavior: b,
                    args,
                    span,
                })
            }
            (None, None) => {
                let what = match kind {
                    Some(ast::CallKind::Option) => "option",
                    Some(ast::CallKind::Behavior) => "basic behavior",
                    None => "option or basic behavior",
                };
                let mut d = Diagnostic::error(
                    "X5552",
                    name.span,
                    format!("no {what} is called `{}`", name.text),
                );
                let cands: Vec<&str> = self
                    .options
                    .keys()
                    .chain(self.behaviors.keys())
                    .map(String::as_str)
                    .collect();
                if let Some(s) = suggest(&name.text, cands.into_iter()) {
                    d = d.note(s);
                } else if self.symbols.contains_key(&name.text) {
                    d = d.note(format!(
                        "`{}` is a symbol; set an output symbol with `{} = value;`",
                        name.text, name.text
                    ));
                }
                self.push(d);
                None
            }
        }
    }

    /// The parameters given at a call (option, basic behavior or input symbol); `None`
    /// when one of them is wrong (each is reported).
    pub(super) fn args(
        &mut self,
        callee: &str,
        params: &[Param],
        args: &[ast::Arg],
        call_span: Span,
        scope: Scope,
        owner: Owner,
    ) -> Option<Vec<Arg>> {
        let mut out: Vec<Arg> = Vec::new();
        let mut ok = true;
        for a in args {
            match self.arg(callee, params, a, &out, scope) {
                Some(x) => {
                    self.refer(a.name.span, owner.param(x.param));
                    out.push(x);
                }
                None => ok = false,
            }
        }
        // missing parameters of basic behaviors are normal (the reference suppresses
        // the warning for all)
        if !matches!(owner, Owner::Behavior(_)) {
            self.warn_missing(callee, params, args, &out, call_span);
        }
        ok.then_some(out)
    }

    /// One parameter given at a call, checked against the callee's parameters and
    /// those already given (`out`).
    fn arg(
        &mut self,
        callee: &str,
        params: &[Param],
        a: &ast::Arg,
        out: &[Arg],
        scope: Scope,
    ) -> Option<Arg> {
        let Some(pi) = self.arg_param(callee, params, a) else {
            // still check the value for further errors
            let _ = self.expr(&a.value, scope, None);
            return None;
        };
        if out.iter().any(|o| o.param == pi) {
            self.err(
                "X3725",
                a.name.span,
                format!("the parameter `{}` is set more than once", a.name.text),
            );
            return None;
        }
        let p = &params[pi];
        let ctx = match p.ty {
            Type::Enum(e) => Some(e),
            _ => None,
        };
        let x = self.expr(&a.value, scope, ctx)?;
        if let (Type::Enum(g), Type::Enum(w)) = (x.ty(), p.ty) {
            if g != w {
                let (g, w) = (self.enum_name(g).to_string(), self.enum_name(w).to_string());
                self.err(
                    "X5526",
                    a.value.span(),
                    format!("enumeration mismatch on `{}`: expected an element of `{w}`, found an element of `{g}`", p.short),
                );
                return None;
            }
        }
        let what = format!("the parameter `{}`", p.short);
        self.expect_type(&x, p.ty, a.value.span(), &what)?;
        Some(Arg {
            param: pi,
            value: x,
            span: a.name.span,
        })
    }

    /// The callee's parameter a call names; reported when there is none.
    fn arg_param(&mut self, callee: &str, params: &[Param], a: &ast::Arg) -> Option<usize> {
        if let Some(rest) = a.name.text.strip_prefix('@') {
            self.push(
                Diagnostic::error(
                    "X5255",
                    a.name.span,
                    format!(
                        "`{}` names a parameter of the calling option, not of `{callee}`",
                        a.name.text
                    ),
                )
                .note(format!(
                    "write the callee's parameter without `@`: `{rest} = ...`"
                )),
            );
            return None;
        }
        if let Some(pi) = params
            .iter()
            .position(|p| p.short == a.name.text || p.name == a.name.text)
        {
            return Some(pi);
        }
        let mut d = Diagnostic::error(
            "X5552",
            a.name.span,
            format!("`{callee}` has no parameter called `{}`", a.name.text),
        );
        d = d.note(if params.is_empty() {
            format!("`{callee}` has no parameters")
        } else {
            let names: Vec<String> = params.iter().map(|p| format!("`{}`", p.short)).collect();
            format!("its parameters are {}", names.join(", "))
        });
        self.push(d);
        None
    }

    /// X3752 for each parameter a call leaves out.
    fn warn_missing(
        &mut self,
        callee: &str,
        params: &[Param],
        args: &[ast::Arg],
        out: &[Arg],
        call_span: Span,
    ) {
        for (i, p) in params.iter().enumerate() {
            if out.iter().any(|a| a.param == i) || args.iter().any(|a| a.name.text == p.short) {
                continue;
            }
            let default = match p.ty {
                Type::Decimal => "0".to_string(),
                Type::Boolean => "false".to_string(),
                Type::Enum(e) => {
                    format!("`{}`", self.prog.enums.get(e).map_or("", |e| e.short(0)))
                }
            };
            self.warn(
                "X3752",
                call_span,
                format!(
                    "the parameter `{}` is missing in this call to `{callee}`; it is set to {default}",
                    p.short
                ),
            );
        }
    }
}

/// Whose parameters a call sets.
#[derive(Debug, Clone, Copy)]
pub(super) enum Owner {
    /// an option's
    Option(OptionId),
    /// a basic behavior's
    Behavior(BehaviorId),
    /// a parameterised input symbol's
    Input(SymbolId),
}

impl Owner {
    fn param(self, i: usize) -> Def {
        match self {
            Owner::Option(o) => Def::OptionParam(o, i),
            Owner::Behavior(b) => Def::BehaviorParam(b, i),
            Owner::Input(s) => Def::InputParam(s, i),
        }
    }
}
