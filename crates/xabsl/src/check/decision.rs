//! The second pass, decisions: each option's common decision and every state's decision
//! tree, with the option's states and parameters visible; the `else` rules (X7325,
//! X7352) and `action_done` in a state that calls no option (X8003).

use super::suggest::suggest;
use super::{Checker, Scope};
use crate::ast;
use crate::diag::Diagnostic;
use crate::model::*;
use crate::source::Span;

impl Checker {
    pub(super) fn option_body(&mut self, oid: OptionId, o: &ast::OptionDecl) {
        // `oid` indexes option_asts, which parallels prog.options.
        let has_common = o.common_decision.is_some();
        let scope = Scope::Option {
            option: oid,
            state: None,
            capacity: false,
        };
        let common_decision = o
            .common_decision
            .as_ref()
            .and_then(|cd| self.common_tree(cd, scope, None));
        let common_action = self.actions(&o.common_action, scope);
        let common_calls_option = self.may_call_option(&o.common_action);
        let mut states = Vec::new();
        for (sid, s) in o.states.iter().enumerate() {
            let capacity = matches!(s.coop, ast::Coop::Capacity(..));
            let scope = Scope::Option {
                option: oid,
                state: Some(sid),
                capacity,
            };
            let actions = self.actions(&s.actions, scope);
            // from the calls as written: a call dropped for a wrong parameter still calls
            let calls_option = common_calls_option || self.may_call_option(&s.actions);
            let decision = match &s.decision {
                None => None,
                Some(d) => {
                    match (d.starts_with_else, has_common) {
                        (Some(e), false) => self.err(
                            "X7352",
                            e,
                            "a decision must not start with `else` when the option has no common decision",
                        ),
                        (None, true) => self.warn(
                            "X7325",
                            d.span,
                            "the option has a common decision, so this decision should start with `else`",
                        ),
                        _ => {}
                    }
                    let done = (!calls_option).then(|| action_done_in(&d.tree)).flatten();
                    if let Some(at) = done {
                        self.warn(
                            "X8003",
                            at,
                            format!(
                                "`action_done` is always false in state `{}`: it calls no option",
                                s.name.text
                            ),
                        );
                    }
                    self.tree(&d.tree, scope, Some(sid))
                }
            };
            states.push((actions, decision));
        }
        if let Some(opt) = self.prog.options.get_mut(oid) {
            opt.common_decision = common_decision;
            opt.common_action = common_action;
            for (st, (actions, decision)) in opt.states.iter_mut().zip(states) {
                st.actions = actions;
                st.decision = decision;
            }
        }
    }

    /// Whether the actions as written may call an option: a call of an option, or of a
    /// name that is no basic behavior (an unknown one is reported as such, and this
    /// keeps a second, misleading message away).
    fn may_call_option(&self, acts: &[ast::Action]) -> bool {
        acts.iter().any(|a| match a {
            ast::Action::Call { name, kind, .. } => match kind {
                Some(ast::CallKind::Option) => true,
                Some(ast::CallKind::Behavior) => false,
                None => {
                    self.options.contains_key(&name.text)
                        || !self.behaviors.contains_key(&name.text)
                }
            },
            ast::Action::Assign { .. } => false,
        })
    }

    pub(super) fn state_id(&mut self, scope: Scope, n: &ast::Name) -> Option<StateId> {
        let Scope::Option { option, .. } = scope else {
            return None;
        };
        let opt = self.prog.options.get(option)?;
        if let Some(i) = opt.states.iter().position(|s| s.name == n.text) {
            self.refer(n.span, Def::State(option, i));
            return Some(i);
        }
        let note = suggest(&n.text, opt.states.iter().map(|s| s.name.as_str()));
        let mut d = Diagnostic::error(
            "X5552",
            n.span,
            format!("option `{}` has no state called `{}`", opt.name, n.text),
        );
        if let Some(s) = note {
            d = d.note(s);
        }
        self.push(d);
        None
    }

    /// A decision tree; `me` is the state it decides for (none in the common decision).
    pub(super) fn tree(
        &mut self,
        t: &ast::Tree,
        scope: Scope,
        me: Option<StateId>,
    ) -> Option<Tree> {
        match t {
            ast::Tree::Goto(n) => self.state_id(scope, n).map(Tree::Goto),
            ast::Tree::Stay(s) => match me {
                Some(me) => Some(Tree::Goto(me)),
                None => {
                    self.err(
                        "X8006",
                        *s,
                        "`stay` cannot be used in the common decision: there is no current state to stay in; use `goto STATE;`",
                    );
                    None
                }
            },
            ast::Tree::If(i) => {
                let cond = self.condition(&i.cond, scope);
                let then = self.tree(&i.then, scope, me);
                let other = self.tree(&i.other, scope, me);
                Some(Tree::If {
                    doc: i.doc.clone(),
                    cond: cond?,
                    then: Box::new(then?),
                    other: Box::new(other?),
                })
            }
        }
    }

    pub(super) fn common_tree(
        &mut self,
        t: &ast::CommonTree,
        scope: Scope,
        _: Option<()>,
    ) -> Option<CommonDecision> {
        let cond = self.condition(&t.cond, scope);
        // `stay` has no state of its own in the common decision (the reference
        // compiler crashes on it)
        let then = self.tree(&t.then, scope, None);
        let rest = t.other.as_ref().map(|o| self.common_tree(o, scope, None));
        Some(CommonDecision {
            doc: t.doc.clone(),
            cond: cond?,
            then: then?,
            other: match rest {
                Some(Some(r)) => Some(Box::new(r)),
                Some(None) => return None,
                None => None,
            },
        })
    }

    pub(super) fn condition(&mut self, e: &ast::Expr, scope: Scope) -> Option<Expr> {
        let x = self.expr(e, scope, None)?;
        if x.ty() != Type::Boolean {
            let t = self.prog.type_name(x.ty());
            self.err(
                "X5525",
                e.span(),
                format!("type mismatch: a condition must be a boolean, but this is {t}"),
            );
            return None;
        }
        Some(x)
    }
}

/// Where the first `action_done` of a decision tree is written, if it uses one.
fn action_done_in(t: &ast::Tree) -> Option<Span> {
    fn expr(e: &ast::Expr) -> Option<Span> {
        match e {
            ast::Expr::ActionDone(s) => Some(*s),
            ast::Expr::Not(x, _) | ast::Expr::Neg(x, _) | ast::Expr::Paren(x, _) => expr(x),
            ast::Expr::Binary(_, a, b, _) => expr(a).or_else(|| expr(b)),
            ast::Expr::Cond(c, a, b, _) => expr(c).or_else(|| expr(a)).or_else(|| expr(b)),
            ast::Expr::Call { args, .. } => args.iter().find_map(|a| expr(&a.value)),
            _ => None,
        }
    }
    match t {
        ast::Tree::If(i) => expr(&i.cond)
            .or_else(|| action_done_in(&i.then))
            .or_else(|| action_done_in(&i.other)),
        _ => None,
    }
}
