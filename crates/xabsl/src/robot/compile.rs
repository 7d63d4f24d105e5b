//! The binding file compiled against an agent: input bindings, basic behaviors' and
//! output symbols' actuation, each expression checked (unknown names get the nearest
//! valid ones) and turned into an [`Bx`] tree.

use super::binding::{Actuation as ActSpec, BindingFile};
use super::expr::{Bx, Func};
use crate::ast::Expr;
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Program, SymbolKind, Type};
use crate::source::Span;
use skipper_core::vocabulary::{self, Vocabulary};
use skipper_core::GripperCommand;
use std::sync::Arc;

/// A bound input symbol.
pub(super) struct BoundInput {
    pub(super) symbol: usize,
    pub(super) value: Bx,
    /// for an enumerated input bound by name to a text signal: match element names
    pub(super) enum_text: Option<usize>,
}

/// A compiled actuation.
pub(super) enum Act {
    Drive(Bx, Bx),
    Stop,
    Gripper(GripperCommand),
    /// the command named by an enumerated parameter's element (per element)
    GripperParam(usize, Vec<Option<GripperCommand>>),
    Say(Arc<str>),
}

pub(super) struct OutputAct {
    pub(super) symbol: usize,
    pub(super) say: bool,
    /// element index → actuation
    pub(super) mappings: Vec<(usize, Act)>,
}

pub(super) fn gripper_command(name: &str) -> Option<GripperCommand> {
    Some(match name {
        "open" => GripperCommand::Open,
        "close" => GripperCommand::Close,
        "stop" => GripperCommand::Stop,
        "store" => GripperCommand::Store,
        "deploy" => GripperCommand::Deploy,
        "lift_up" => GripperCommand::LiftUp,
        "lift_down" => GripperCommand::LiftDown,
        "lift_stop" => GripperCommand::LiftStop,
        "halt" => GripperCommand::Halt,
        _ => return None,
    })
}

/// Compiles binding expressions.
pub(super) struct Compiler<'a> {
    pub(super) program: &'a Program,
    /// the robot's signals, when they are known: names are checked against them
    pub(super) vocabulary: Option<&'a Vocabulary>,
    pub(super) diags: Diagnostics,
    pub(super) signals: Vec<String>,
    pub(super) funcs: usize,
    /// input symbols bound so far: (symbol name, index into input values)
    pub(super) bound: Vec<(String, usize)>,
}

impl Compiler<'_> {
    /// Is `name` a signal of the robot (any name is, when its signals are not known)?
    pub(super) fn is_signal(&self, name: &str) -> bool {
        self.vocabulary.is_none_or(|v| v.resolve(name).is_some())
    }

    /// X8106: a name in a binding expression that is nothing the binding can read.
    pub(super) fn unknown_name(&mut self, n: &crate::ast::Name, params: &[(String, String)]) {
        let mut names: Vec<String> = params.iter().map(|(s, _)| s.clone()).collect();
        names.extend(self.bound.iter().map(|(s, _)| s.clone()));
        names.extend(self.program.constants.iter().map(|c| c.name.clone()));
        let mut near = vocabulary::nearest(&n.text, names.iter().map(String::as_str), 3);
        if let Some(v) = self.vocabulary {
            near.extend(v.nearest(&n.text, 3 - near.len().min(3)));
        }
        let what = if params.is_empty() {
            "an input symbol bound above, a constant of the agents"
        } else {
            "a parameter of the basic behavior, an input symbol bound above, a constant of the agents"
        };
        let mut msg = format!("`{}` is neither {what} nor a signal of the robot", n.text);
        if !near.is_empty() {
            let quoted: Vec<String> = near.iter().map(|s| format!("`{s}`")).collect();
            msg.push_str(&format!("; did you mean {}?", quoted.join(" or ")));
        }
        self.diags.push(Diagnostic::error("X8106", n.span, msg));
    }

    pub(super) fn signal(&mut self, name: &str) -> usize {
        match self.signals.iter().position(|s| s == name) {
            Some(i) => i,
            None => {
                self.signals.push(name.to_string());
                self.signals.len() - 1
            }
        }
    }

    /// Compile; `params` are the names visible as parameters (short, qualified).
    pub(super) fn expr(&mut self, e: &Expr, params: &[(String, String)]) -> Option<Bx> {
        Some(match e {
            Expr::Number(t, _) => Bx::Num(t.parse().unwrap_or(0.0)),
            Expr::Bool(b, _) => Bx::Num(f64::from(u8::from(*b))),
            Expr::Paren(x, _) => return self.expr(x, params),
            Expr::Not(x, _) => Bx::Not(Box::new(self.expr(x, params)?)),
            Expr::Neg(x, _) => Bx::Neg(Box::new(self.expr(x, params)?)),
            Expr::Binary(op, a, b, _) => {
                let a = self.expr(a, params);
                let b = self.expr(b, params);
                Bx::Bin(*op, Box::new(a?), Box::new(b?))
            }
            Expr::Cond(c, a, b, _) => {
                let c = self.expr(c, params);
                let a = self.expr(a, params);
                let b = self.expr(b, params);
                Bx::Cond(Box::new(c?), Box::new(a?), Box::new(b?))
            }
            Expr::Name(n) => {
                let t = n.text.as_str();
                if let Some(i) = params.iter().position(|(s, q)| s == t || q == t) {
                    return Some(Bx::Param(i));
                }
                if let Some((_, i)) = self.bound.iter().find(|(s, _)| s == t) {
                    return Some(Bx::Input(*i));
                }
                if t == "pi" {
                    return Some(Bx::Num(std::f64::consts::PI));
                }
                if let Some(c) = self.program.constants.iter().find(|c| c.name == t) {
                    return Some(Bx::Num(c.value));
                }
                let elements: Vec<usize> = self
                    .program
                    .enums
                    .iter()
                    .flat_map(|en| {
                        (0..en.elements.len())
                            .filter(move |&i| en.short(i) == t || en.elements[i] == t)
                    })
                    .collect();
                if let [i] = elements.as_slice() {
                    return Some(Bx::Num(*i as f64));
                }
                if !self.is_signal(t) {
                    self.unknown_name(n, params);
                    return None;
                }
                Bx::Signal(self.signal(t))
            }
            Expr::Call { name, args, .. } => {
                let Some((f, n)) = Func::by_name(&name.text) else {
                    self.diags.push(Diagnostic::error(
                        "X8101",
                        name.span,
                        format!(
                            "unknown function `{}`: expected abs, min, max, clamp, bit, rising, falling, cycles_while, ms_while or ms_since",
                            name.text
                        ),
                    ));
                    return None;
                };
                if args.len() != n {
                    self.diags.push(Diagnostic::error(
                        "X8102",
                        name.span,
                        format!(
                            "`{}` takes {n} argument{}, not {}",
                            name.text,
                            if n == 1 { "" } else { "s" },
                            args.len()
                        ),
                    ));
                    return None;
                }
                let mut xs = Vec::new();
                for a in args {
                    xs.push(self.expr(&a.value, params)?);
                }
                self.funcs += 1;
                Bx::Call(f, xs, self.funcs - 1)
            }
            Expr::StateTime(s) | Expr::OptionTime(s) | Expr::ActionDone(s) | Expr::Conflict(s) => {
                self.diags.push(Diagnostic::error(
                    "X8103",
                    *s,
                    "option times, `action_done` and `conflict` belong to options, not to bindings",
                ));
                return None;
            }
        })
    }

    pub(super) fn actuation(
        &mut self,
        a: &ActSpec,
        params: &[(String, String)],
        types: &[Type],
    ) -> Option<Act> {
        Some(match a {
            ActSpec::Drive(v, w, _) => {
                let v = self.expr(v, params);
                let w = self.expr(w, params);
                Act::Drive(v?, w?)
            }
            ActSpec::Stop(_) => Act::Stop,
            ActSpec::Say(t, _) => Act::Say(t.as_str().into()),
            ActSpec::Gripper(c, _) => {
                if let Some(g) = gripper_command(&c.text) {
                    return Some(Act::Gripper(g));
                }
                let pi = params
                    .iter()
                    .position(|(s, q)| *s == c.text || *q == c.text);
                match pi.and_then(|i| types.get(i).map(|t| (i, *t))) {
                    Some((i, Type::Enum(e))) => {
                        let en = &self.program.enums[e];
                        let cmds = (0..en.elements.len())
                            .map(|k| gripper_command(en.short(k)))
                            .collect();
                        Act::GripperParam(i, cmds)
                    }
                    _ => {
                        self.diags.push(Diagnostic::error(
                            "X8104",
                            c.span,
                            format!(
                                "`{}` is not a gripper command (open, close, stop, store, deploy, lift_up, lift_down, lift_stop, halt) nor an enumerated parameter",
                                c.text
                            ),
                        ));
                        return None;
                    }
                }
            }
        })
    }
}

/// What a binding file compiles to.
pub(super) struct Compiled {
    pub(super) inputs: Vec<BoundInput>,
    /// per basic behavior, its actuations
    pub(super) behaviors: Vec<Vec<Act>>,
    pub(super) outputs: Vec<OutputAct>,
    /// the signals the expressions read, by index
    pub(super) signals: Vec<String>,
    /// the call sites of stateful functions
    pub(super) funcs: usize,
}

impl<'a> Compiler<'a> {
    /// A compiler for `program`'s bindings; names are checked against `vocabulary` when
    /// it is known.
    pub(super) fn new(program: &'a Program, vocabulary: Option<&'a Vocabulary>) -> Self {
        Self {
            program,
            vocabulary,
            diags: Diagnostics::new(),
            signals: Vec::new(),
            funcs: 0,
            bound: Vec::new(),
        }
    }

    /// Compile `file`, or every mistake in it.
    pub(super) fn compile(mut self, file: &BindingFile) -> Result<Compiled, Diagnostics> {
        let mut inputs = self.bind_inputs(file);
        self.bind_unbound_inputs(&mut inputs);
        let behaviors = self.bind_behaviors(file);
        let outputs = self.bind_outputs(file);
        if self.diags.has_errors() {
            return Err(self.diags);
        }
        Ok(Compiled {
            inputs,
            behaviors,
            outputs,
            signals: self.signals,
            funcs: self.funcs,
        })
    }

    /// X8105: a binding that names nothing of the agent, or binds it wrongly.
    fn bad(&mut self, span: Span, msg: String) {
        self.diags.push(Diagnostic::error("X8105", span, msg));
    }

    /// The input symbols the file binds.
    fn bind_inputs(&mut self, file: &BindingFile) -> Vec<BoundInput> {
        let mut inputs = Vec::new();
        for ib in &file.inputs {
            let Some(sym) = self
                .program
                .symbols
                .iter()
                .position(|s| s.name == ib.name.text && s.kind == SymbolKind::Input)
            else {
                self.bad(
                    ib.name.span,
                    format!("no input symbol is called `{}`", ib.name.text),
                );
                continue;
            };
            if self.bound.iter().any(|(n, _)| *n == ib.name.text) {
                self.bad(ib.name.span, format!("`{}` is bound twice", ib.name.text));
                continue;
            }
            if !self.program.symbols[sym].params.is_empty() {
                self.bad(
                    ib.name.span,
                    format!("`{}` has parameters; parameterised input symbols cannot be bound to signals", ib.name.text),
                );
                continue;
            }
            if let Some(x) = self.expr(&ib.expr, &[]) {
                let idx = inputs.len();
                inputs.push(BoundInput {
                    symbol: sym,
                    value: x,
                    enum_text: None,
                });
                self.bound.push((ib.name.text.clone(), idx));
            }
        }
        inputs
    }

    /// Every other input symbol reads the signal of its name.
    fn bind_unbound_inputs(&mut self, inputs: &mut Vec<BoundInput>) {
        for (i, s) in self.program.symbols.iter().enumerate() {
            if s.kind != SymbolKind::Input || inputs.iter().any(|b: &BoundInput| b.symbol == i) {
                continue;
            }
            if !s.params.is_empty() {
                continue;
            }
            if !self.is_signal(&s.name) {
                let near = self
                    .vocabulary
                    .map(|v| v.nearest(&s.name, 3))
                    .unwrap_or_default();
                let mut msg = format!(
                    "input symbol `{}` has no binding, and the robot has no signal `{}`: bind it in the binding file (`input {} = EXPRESSION;`)",
                    s.name, s.name, s.name
                );
                if !near.is_empty() {
                    let quoted: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
                    msg.push_str(&format!(", or did you mean {}?", quoted.join(" or ")));
                }
                self.diags.push(Diagnostic::error("X8107", s.span, msg));
                continue;
            }
            let sig = self.signal(&s.name);
            inputs.push(BoundInput {
                symbol: i,
                value: Bx::Signal(sig),
                enum_text: match s.ty {
                    Type::Enum(_) => Some(sig),
                    _ => None,
                },
            });
        }
    }

    /// The basic behaviors' actuations.
    fn bind_behaviors(&mut self, file: &BindingFile) -> Vec<Vec<Act>> {
        let mut behaviors: Vec<Vec<Act>> =
            self.program.behaviors.iter().map(|_| Vec::new()).collect();
        for bb in &file.behaviors {
            let Some(b) = self.program.behavior(&bb.name.text) else {
                self.bad(
                    bb.name.span,
                    format!("no basic behavior is called `{}`", bb.name.text),
                );
                continue;
            };
            let params: Vec<(String, String)> = self.program.behaviors[b]
                .params
                .iter()
                .map(|p| (p.short.clone(), p.name.clone()))
                .collect();
            let types: Vec<Type> = self.program.behaviors[b]
                .params
                .iter()
                .map(|p| p.ty)
                .collect();
            for a in &bb.actuations {
                if let Some(x) = self.actuation(a, &params, &types) {
                    behaviors[b].push(x);
                }
            }
        }
        behaviors
    }

    /// The output symbols' actuations.
    fn bind_outputs(&mut self, file: &BindingFile) -> Vec<OutputAct> {
        let mut outputs = Vec::new();
        for ob in &file.outputs {
            let Some(sym) = self
                .program
                .symbols
                .iter()
                .position(|s| s.name == ob.name.text && s.is_output())
            else {
                self.bad(
                    ob.name.span,
                    format!("no output symbol is called `{}`", ob.name.text),
                );
                continue;
            };
            let mut o = OutputAct {
                symbol: sym,
                say: ob.say,
                mappings: Vec::new(),
            };
            for (el, a) in &ob.mappings {
                let Type::Enum(e) = self.program.symbols[sym].ty else {
                    self.bad(el.span, format!("`{}` is not enumerated; only enumerated outputs map elements to actuations", ob.name.text));
                    break;
                };
                let en = &self.program.enums[e];
                let Some(k) = (0..en.elements.len())
                    .find(|&k| en.short(k) == el.text || en.elements[k] == el.text)
                else {
                    self.bad(
                        el.span,
                        format!("`{}` is not an element of `{}`", el.text, en.name),
                    );
                    continue;
                };
                if let Some(x) = self.actuation(a, &[], &[]) {
                    o.mappings.push((k, x));
                }
            }
            outputs.push(o);
        }
        outputs
    }
}
