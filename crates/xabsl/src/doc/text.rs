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

/// A number as written in the documentation.
pub fn number(v: f64) -> String {
    crate::ic::ruby_number(v)
}

/// An expression; `option` is the option it is written in.
pub fn expr(p: &Program, e: &Expr, style: Style) -> String {
    let sub = |x: &Expr, min: u8| {
        let s = expr(p, x, style);
        if prec(x) < min {
            format!("({s})")
        } else {
            s
        }
    };
    match e {
        Expr::Number(v) => number(*v),
        Expr::Bool(b) => b.to_string(),
        Expr::Constant(c) => p.constants.get(*c).map_or("?".into(), |c| c.name.clone()),
        Expr::Param { option, index, .. } => {
            let Some(o) = p.options.get(*option) else {
                return "?".into();
            };
            let par = o.params.get(*index).map_or("?", |x| x.short.as_str());
            match style {
                Style::Source => format!("@{par}"),
                Style::Spec => format!("::{}.{par}", o.name),
            }
        }
        Expr::Input { symbol, args, .. } => {
            let s = &p.symbols[*symbol];
            if args.is_empty() {
                s.name.clone()
            } else {
                let a: Vec<String> = args
                    .iter()
                    .map(|a| {
                        format!(
                            "{} = {}",
                            s.params.get(a.param).map_or("?", |x| x.short.as_str()),
                            expr(p, &a.value, style)
                        )
                    })
                    .collect();
                format!("{}({})", s.name, a.join(", "))
            }
        }
        Expr::Output { symbol, .. } => p.symbols[*symbol].name.clone(),
        Expr::Element { enumeration, index } => p
            .enums
            .get(*enumeration)
            .and_then(|e| e.elements.get(*index))
            .cloned()
            .unwrap_or_default(),
        Expr::Arith(op, a, b) => {
            let (s, pr) = match op {
                ArithOp::Add => ("+", 4),
                ArithOp::Sub => ("-", 4),
                ArithOp::Mul => ("*", 5),
                ArithOp::Div => ("/", 5),
                ArithOp::Mod => ("%", 5),
            };
            format!("{} {s} {}", sub(a, pr), sub(b, pr + 1))
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
            format!("{} {s} {}", sub(a, 4), sub(b, 4))
        }
        Expr::EnumEq(a, b) => format!("{} == {}", sub(a, 4), sub(b, 4)),
        Expr::Not(a) => match a.as_ref() {
            Expr::EnumEq(x, y) => format!("{} != {}", sub(x, 4), sub(y, 4)),
            a => format!("!{}", sub(a, 6)),
        },
        Expr::And(v) => v.iter().map(|x| sub(x, 3)).collect::<Vec<_>>().join(" && "),
        Expr::Or(v) => v.iter().map(|x| sub(x, 2)).collect::<Vec<_>>().join(" || "),
        Expr::Cond {
            cond, then, other, ..
        } => format!("{} ? {} : {}", sub(cond, 1), sub(then, 1), sub(other, 1)),
        Expr::StateTime => match style {
            Style::Source => "state_time".into(),
            Style::Spec => "time-of-state-execution".into(),
        },
        Expr::OptionTime => match style {
            Style::Source => "option_time".into(),
            Style::Spec => "time-of-option-execution".into(),
        },
        Expr::ActionDone => match style {
            Style::Source => "action_done".into(),
            Style::Spec => "subsequent-option-reached-target-state".into(),
        },
        Expr::Conflict => "conflict".into(),
    }
}

/// A condition as the spec's pseudo code writes it: `(a)` alone, or each operand of a
/// top-level `&&`/`||` parenthesised on its own line.
pub fn condition(p: &Program, e: &Expr) -> String {
    fn block(p: &Program, e: &Expr) -> String {
        match e {
            Expr::And(v) | Expr::Or(v) => {
                let op = if matches!(e, Expr::And(_)) {
                    "&&"
                } else {
                    "||"
                };
                let parts: Vec<String> = v.iter().map(|x| block(p, x)).collect();
                format!("(\n{}\n)", parts.join(&format!("\n{op} \n")))
            }
            other => format!("({})", expr(p, other, Style::Spec)),
        }
    }
    match e {
        Expr::And(_) | Expr::Or(_) => block(p, e),
        other => format!("({})", expr(p, other, Style::Spec)),
    }
}

/// The pseudo code of a state's decision (the common decision first), in the spec's
/// words.
pub fn pseudo_code(p: &Program, opt: &OptionDef, state: StateId) -> String {
    let mut out = String::new();
    let st = &opt.states[state];
    let own = |out: &mut String| match &st.decision {
        Some(t) => tree(p, opt, t, out),
        None => transition(opt, state, out),
    };
    match &opt.common_decision {
        Some(cd) => common(p, opt, cd, &own, &mut out),
        None => own(&mut out),
    }
    out
}

fn transition(opt: &OptionDef, s: StateId, out: &mut String) {
    let name = opt.states.get(s).map_or("?", |s| s.name.as_str());
    out.push_str(&format!("transition-to-state({name});\n"));
}

fn comment(doc: &Option<String>) -> String {
    match doc {
        Some(d) if !d.is_empty() => format!("   // {}", d.replace('\n', " ")),
        _ => String::new(),
    }
}

fn common(
    p: &Program,
    opt: &OptionDef,
    cd: &CommonDecision,
    own: &dyn Fn(&mut String),
    out: &mut String,
) {
    out.push_str(&format!(
        "if {}{}\n{{\n  \n",
        condition(p, &cd.cond),
        comment(&cd.doc)
    ));
    tree(p, opt, &cd.then, out);
    out.push_str("}\nelse\n{\n  \n");
    match &cd.other {
        Some(o) => common(p, opt, o, own, out),
        None => own(out),
    }
    out.push_str("}\n");
}

fn tree(p: &Program, opt: &OptionDef, t: &Tree, out: &mut String) {
    match t {
        Tree::Goto(s) => transition(opt, *s, out),
        Tree::If {
            doc,
            cond,
            then,
            other,
        } => {
            out.push_str(&format!(
                "if {}{}\n{{\n  \n",
                condition(p, cond),
                comment(doc)
            ));
            tree(p, opt, then, out);
            out.push_str("}\n");
            // else if chains as the spec prints them
            let mut rest: &Tree = other;
            loop {
                match rest {
                    Tree::If {
                        doc,
                        cond,
                        then,
                        other,
                    } => {
                        out.push_str(&format!(
                            "else if {}{}\n{{\n  \n",
                            condition(p, cond),
                            comment(doc)
                        ));
                        tree(p, opt, then, out);
                        out.push_str("}\n");
                        rest = other;
                    }
                    Tree::Goto(_) => {
                        out.push_str("else\n{\n  \n");
                        tree(p, opt, rest, out);
                        out.push_str("}\n");
                        break;
                    }
                }
            }
        }
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
