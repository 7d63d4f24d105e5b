//! Expressions, decisions and actions as text: in XABSL's C-like syntax, and in the
//! words of the XABSL 2 option documentation (`time-of-state-execution`,
//! `subsequent-option-reached-target-state`, `::option.parameter`,
//! `transition-to-state(s)`), for the pseudo code of decision trees.

use crate::model::*;

/// How names of the engine's built-ins are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `state_time`, `@p`
    Source,
    /// `time-of-state-execution`, `::option.p`
    Spec,
}

fn prec(e: &Expr) -> u8 {
    match e {
        Expr::Cond { .. } => 0,
        Expr::Or(_) => 1,
        Expr::And(_) => 2,
        Expr::Compare(..) | Expr::EnumEq(..) => 3,
        Expr::Arith(ArithOp::Add | ArithOp::Sub, ..) => 4,
        Expr::Arith(..) => 5,
        Expr::Not(_) => 6,
        Expr::Number(v) if *v < 0.0 => 6,
        _ => 7,
    }
}

/// What a name in an expression or an action refers to (the documentation links it
/// to its definition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ref {
    /// an input, output or internal symbol
    Symbol(SymbolId),
    /// a constant
    Constant(ConstId),
    /// an enumeration (of an element)
    Enum(EnumId),
    /// a parameter of an option
    OptionParam(OptionId, usize),
    /// a parameter of a parameterised input symbol
    InputParam(SymbolId, usize),
    /// a parameter of a basic behavior
    BehaviorParam(BehaviorId, usize),
    /// an option
    Option(OptionId),
    /// a basic behavior
    Behavior(BehaviorId),
    /// a state of an option
    State(OptionId, StateId),
}

/// Where text goes: plain text, or HTML with links (the documentation's pages).
pub trait Out {
    /// Text as it is.
    fn text(&mut self, s: &str);
    /// A name that refers to a definition.
    fn name(&mut self, r: Ref, s: &str);
    /// The `k`-th condition of a decision (in the order the diagrams number them)
    /// starts.
    fn condition_start(&mut self, _k: usize) {}
    /// It ends.
    fn condition_end(&mut self) {}
}

impl Out for String {
    fn text(&mut self, s: &str) {
        self.push_str(s);
    }
    fn name(&mut self, _: Ref, s: &str) {
        self.push_str(s);
    }
}

/// A number as written in the documentation.
pub fn number(v: f64) -> String {
    crate::ic::ruby_number(v)
}

/// An expression as text.
pub fn expr(p: &Program, e: &Expr, style: Style) -> String {
    let mut s = String::new();
    write_expr(p, e, style, &mut s);
    s
}

/// An expression, written to `out`.
pub fn write_expr(p: &Program, e: &Expr, style: Style, out: &mut dyn Out) {
    let sub = |x: &Expr, min: u8, out: &mut dyn Out| {
        if prec(x) < min {
            out.text("(");
            write_expr(p, x, style, out);
            out.text(")");
        } else {
            write_expr(p, x, style, out);
        }
    };
    let infix = |a: &Expr, op: &str, b: &Expr, (pa, pb): (u8, u8), out: &mut dyn Out| {
        sub(a, pa, out);
        out.text(&format!(" {op} "));
        sub(b, pb, out);
    };
    match e {
        Expr::Number(v) => out.text(&number(*v)),
        Expr::Bool(b) => out.text(&b.to_string()),
        Expr::Constant(c) => out.name(
            Ref::Constant(*c),
            p.constants.get(*c).map_or("?", |c| c.name.as_str()),
        ),
        Expr::Param { option, index, .. } => param(p, *option, *index, style, out),
        Expr::Input { symbol, args, .. } => input(p, *symbol, args, style, out),
        Expr::Output { symbol, .. } => out.name(Ref::Symbol(*symbol), &p.symbols[*symbol].name),
        Expr::Element { enumeration, index } => out.name(
            Ref::Enum(*enumeration),
            p.enums
                .get(*enumeration)
                .and_then(|e| e.elements.get(*index))
                .map_or("", String::as_str),
        ),
        Expr::Arith(op, a, b) => {
            let (s, pr) = match op {
                ArithOp::Add => ("+", 4),
                ArithOp::Sub => ("-", 4),
                ArithOp::Mul => ("*", 5),
                ArithOp::Div => ("/", 5),
                ArithOp::Mod => ("%", 5),
            };
            infix(a, s, b, (pr, pr + 1), out)
        }
        Expr::Compare(op, a, b) => {
            let s = match op {
                CmpOp::Eq => "==",
                CmpOp::Ne => "!=",
                CmpOp::Lt => "<",
                CmpOp::Gt => ">",
                CmpOp::Le => "<=",
                CmpOp::Ge => ">=",
            };
            infix(a, s, b, (4, 4), out)
        }
        Expr::EnumEq(a, b) => infix(a, "==", b, (4, 4), out),
        Expr::Not(a) => match a.as_ref() {
            Expr::EnumEq(x, y) => infix(x, "!=", y, (4, 4), out),
            a => {
                out.text("!");
                sub(a, 6, out);
            }
        },
        Expr::And(v) | Expr::Or(v) => {
            let (op, min) = if matches!(e, Expr::And(_)) {
                (" && ", 3)
            } else {
                (" || ", 2)
            };
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    out.text(op);
                }
                sub(x, min, out);
            }
        }
        Expr::Cond {
            cond, then, other, ..
        } => {
            sub(cond, 1, out);
            out.text(" ? ");
            sub(then, 1, out);
            out.text(" : ");
            sub(other, 1, out);
        }
        Expr::StateTime | Expr::OptionTime | Expr::ActionDone | Expr::Conflict => {
            out.text(builtin(e, style))
        }
    }
}

fn builtin(e: &Expr, style: Style) -> &'static str {
    match (e, style) {
        (Expr::StateTime, Style::Source) => "state_time",
        (Expr::StateTime, Style::Spec) => "time-of-state-execution",
        (Expr::OptionTime, Style::Source) => "option_time",
        (Expr::OptionTime, Style::Spec) => "time-of-option-execution",
        (Expr::ActionDone, Style::Source) => "action_done",
        (Expr::ActionDone, Style::Spec) => "subsequent-option-reached-target-state",
        _ => "conflict",
    }
}

/// An option parameter: `@p` in the source, `::option.p` in the spec's words.
fn param(p: &Program, option: OptionId, index: usize, style: Style, out: &mut dyn Out) {
    let Some(o) = p.options.get(option) else {
        return out.text("?");
    };
    let par = o.params.get(index).map_or("?", |x| x.short.as_str());
    let r = Ref::OptionParam(option, index);
    match style {
        Style::Source => out.name(r, &format!("@{par}")),
        Style::Spec => out.name(r, &format!("::{}.{par}", o.name)),
    }
}

/// An input symbol, with the parameters given.
fn input(p: &Program, symbol: SymbolId, args: &[Arg], style: Style, out: &mut dyn Out) {
    let s = &p.symbols[symbol];
    out.name(Ref::Symbol(symbol), &s.name);
    if args.is_empty() {
        return;
    }
    out.text("(");
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.text(", ");
        }
        let name = s.params.get(a.param).map_or("?", |x| x.short.as_str());
        out.name(Ref::InputParam(symbol, a.param), name);
        out.text(" = ");
        write_expr(p, &a.value, style, out);
    }
    out.text(")");
}

/// A condition as the spec's pseudo code writes it: `(a)` alone, or each operand of a
/// top-level `&&`/`||` parenthesised on its own line.
pub fn condition(p: &Program, e: &Expr) -> String {
    let mut s = String::new();
    write_condition(p, e, &mut s);
    s
}

/// A condition as the pseudo code writes it, to `out`.
pub fn write_condition(p: &Program, e: &Expr, out: &mut dyn Out) {
    match e {
        Expr::And(v) | Expr::Or(v) => {
            let op = if matches!(e, Expr::And(_)) {
                "\n&& \n"
            } else {
                "\n|| \n"
            };
            out.text("(\n");
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    out.text(op);
                }
                write_condition(p, x, out);
            }
            out.text("\n)");
        }
        other => {
            out.text("(");
            write_expr(p, other, Style::Spec, out);
            out.text(")");
        }
    }
}

/// The pseudo code of a state's decision (the common decision first), in the spec's
/// words.
pub fn pseudo_code(p: &Program, opt: &OptionDef, state: StateId) -> String {
    let mut s = String::new();
    write_pseudo_code(p, opt, state, &mut s);
    s
}

/// The pseudo code of a state's decision, to `out`; each condition is marked with its
/// number (the common decision's first, then the state's, in the order written).
pub fn write_pseudo_code(p: &Program, opt: &OptionDef, state: StateId, out: &mut dyn Out) {
    let o = p
        .options
        .iter()
        .position(|x| std::ptr::eq(x, opt))
        .unwrap_or(0);
    let mut w = Pseudo {
        p,
        opt,
        o,
        out,
        k: 0,
    };
    match &opt.common_decision {
        Some(cd) => w.common(cd, state),
        None => w.own(state),
    }
}

/// Writing pseudo code, counting the conditions.
struct Pseudo<'a, 'b> {
    p: &'a Program,
    opt: &'a OptionDef,
    o: OptionId,
    out: &'b mut dyn Out,
    k: usize,
}

impl Pseudo<'_, '_> {
    fn own(&mut self, state: StateId) {
        match &self.opt.states[state].decision {
            Some(t) => self.tree(t),
            None => self.transition(state),
        }
    }

    fn transition(&mut self, s: StateId) {
        let name = self.opt.states.get(s).map_or("?", |s| s.name.as_str());
        self.out.text("transition-to-state(");
        self.out.name(Ref::State(self.o, s), name);
        self.out.text(");\n");
    }

    /// `if (cond)   // description` and the opening brace, the condition marked.
    fn if_line(&mut self, keyword: &str, cond: &Expr, doc: &Option<String>) {
        self.out.condition_start(self.k);
        self.k += 1;
        self.out.text(keyword);
        write_condition(self.p, cond, self.out);
        if let Some(d) = doc.as_deref().filter(|d| !d.is_empty()) {
            self.out.text(&format!("   // {}", d.replace('\n', " ")));
        }
        self.out.condition_end();
        self.out.text("\n{\n  \n");
    }

    fn common(&mut self, cd: &CommonDecision, state: StateId) {
        self.if_line("if ", &cd.cond, &cd.doc);
        self.tree(&cd.then);
        self.out.text("}\nelse\n{\n  \n");
        match &cd.other {
            Some(o) => self.common(o, state),
            None => self.own(state),
        }
        self.out.text("}\n");
    }

    fn tree(&mut self, t: &Tree) {
        let Tree::If {
            doc,
            cond,
            then,
            other,
        } = t
        else {
            if let Tree::Goto(s) = t {
                self.transition(*s);
            }
            return;
        };
        self.if_line("if ", cond, doc);
        self.tree(then);
        self.out.text("}\n");
        // else if chains as the spec prints them
        let mut rest: &Tree = other;
        while let Tree::If {
            doc,
            cond,
            then,
            other,
        } = rest
        {
            self.if_line("else if ", cond, doc);
            self.tree(then);
            self.out.text("}\n");
            rest = other;
        }
        self.out.text("else\n{\n  \n");
        self.tree(rest);
        self.out.text("}\n");
    }
}

/// The parameters set at a call, as `name = value` (declaration order; those not given
/// are 0 / false / first element).
pub fn call_parameters(p: &Program, params: &[Param], args: &[Arg]) -> Vec<(String, String)> {
    args.iter()
        .map(|a| {
            (
                params.get(a.param).map_or("?".into(), |x| x.name.clone()),
                expr(p, &a.value, Style::Spec),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::MemLoader;

    #[test]
    fn expressions_keep_their_precedence() {
        let mut m = MemLoader::new();
        m.add(
            "a.xabsl",
            "namespace s(\"S\") { float input a; float input b; bool input c; enum e { x, y }; enum e input m; float output o; }",
        );
        m.add(
            "o.xabsl",
            "include \"a.xabsl\";\noption o { float @p; initial state s { action { o = (a + b) * 2 - a / (b - 1); o = c && (a > 1 || !c) ? @p : -a; o = m != x ? state_time : 0; } } }",
        );
        let c = crate::compile("o.xabsl", &m);
        assert!(!c.diagnostics.has_errors(), "{}", c.render());
        let p = &c.program;
        let vals: Vec<String> = p.options[0].states[0]
            .actions
            .iter()
            .map(|a| match a {
                Action::Set { value, .. } => expr(p, value, Style::Source),
                _ => String::new(),
            })
            .collect();
        assert_eq!(vals[0], "(a + b) * 2 - a / (b - 1)");
        assert_eq!(vals[1], "c && (a > 1 || !c) ? @p : 0 - a");
        assert_eq!(vals[2], "m != e.x ? state_time : 0");
    }
}
