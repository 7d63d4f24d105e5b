//! The reference compiler's intermediate code (`xabsl.rb -i`): the token stream the C++
//! engine loads, written byte for byte as the reference writes it (CRLF line ends, the
//! same line breaks and spaces), so the two can be compared with `cmp`.
//!
//! Layout: a comment line; internal enumerations; internal symbols; the options (sorted
//! by name, case-insensitively) with their parameters; each option's states, initial
//! state, and per state the target flag, the actions (common action first) and the
//! decision tree (common decision inlined before the state's own tree, in prefix order);
//! the agents. See `docs/xabsl.md`.

use crate::model::*;
use std::fmt::Write as _;

const ENDL: &str = "\r\n";

/// Write the intermediate code of a checked program.
pub fn write(p: &Program) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "// Intermediate code for the agents of {}{ENDL}{ENDL}",
        p.title.as_deref().unwrap_or("")
    );
    let mut enums: Vec<&Enum> = p.enums.iter().filter(|e| e.internal).collect();
    enums.sort_by_key(|e| e.name.to_lowercase());
    let _ = write!(out, "{}{ENDL}", enums.len());
    for e in enums {
        let _ = write!(out, "{} {}", e.name, e.elements.len());
        for el in &e.elements {
            let _ = write!(out, " {el}");
        }
        out.push_str(ENDL);
    }
    let mut internals: Vec<&Symbol> = p
        .symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::Internal)
        .collect();
    internals.sort_by_key(|s| s.name.to_lowercase());
    let _ = write!(out, "{}{ENDL}", internals.len());
    for s in internals {
        let _ = write!(out, "{}{}{ENDL}", type_prefix(p, s.ty), s.name);
    }
    out.push_str(ENDL);
    let mut order: Vec<OptionId> = (0..p.options.len()).collect();
    order.sort_by_key(|&o| p.options[o].name.to_lowercase());
    let _ = write!(out, "{}{ENDL}", order.len());
    for &o in &order {
        let opt = &p.options[o];
        let _ = write!(out, "{} {}", opt.name, opt.params.len());
        for par in &opt.params {
            let t = type_prefix(p, par.ty);
            let _ = write!(out, " {}{}", t, par.name);
        }
        out.push_str(ENDL);
    }
    out.push_str(ENDL);
    for &o in &order {
        option(&mut out, p, o);
    }
    let _ = write!(out, "{}{ENDL}", p.agents.len());
    let agents: Vec<String> = p
        .agents
        .iter()
        .map(|a| format!("{} {}", a.name, p.options[a.root].name))
        .collect();
    let _ = write!(out, "{}{ENDL}", agents.join(" "));
    out
}

/// `d `, `b ` or `e ENUM ` before a typed name.
fn type_prefix(p: &Program, t: Type) -> String {
    match t {
        Type::Decimal => "d ".into(),
        Type::Boolean => "b ".into(),
        Type::Enum(e) => format!("e {} ", p.enums.get(e).map_or("", |e| e.name.as_str())),
    }
}

fn option(out: &mut String, p: &Program, o: OptionId) {
    let opt = &p.options[o];
    let _ = write!(out, "{}{ENDL}", opt.states.len());
    for s in &opt.states {
        match &s.coop {
            Coop::Normal => {
                let _ = write!(out, "{} n{ENDL}", s.name);
            }
            Coop::Capacity(_, raw) => {
                let _ = write!(out, "{} c {raw}{ENDL}", s.name);
            }
            Coop::Synchronized(_, raw) => {
                let _ = write!(out, "{} s {raw}{ENDL}", s.name);
            }
        }
    }
    out.push_str(ENDL);
    let initial = opt.states.get(opt.initial).map_or("", |s| s.name.as_str());
    let _ = write!(out, "{initial}{ENDL}");
    for (sid, s) in opt.states.iter().enumerate() {
        let _ = write!(out, "{}{ENDL}", if s.target { 1 } else { 0 });
        let _ = write!(out, "{}{ENDL}", opt.common_action.len() + s.actions.len());
        for a in opt.common_action.iter().chain(&s.actions) {
            action(out, p, a);
        }
        if let Some(cd) = &opt.common_decision {
            common(out, p, opt, cd);
        }
        match &s.decision {
            Some(t) => tree(out, p, opt, t),
            None => {
                let _ = write!(out, "t {}{ENDL}", opt.states[sid].name);
            }
        }
    }
    let _ = write!(out, "{ENDL}{ENDL}{ENDL}");
}

fn action(out: &mut String, p: &Program, a: &Action) {
    match a {
        Action::Option { option, args, .. } => {
            let callee = &p.options[*option];
            let _ = write!(out, "o {}{ENDL}{}{ENDL}", callee.name, args.len());
            set_params(out, p, &callee.params, args);
        }
        Action::Behavior { behavior, args, .. } => {
            let callee = &p.behaviors[*behavior];
            let _ = write!(out, "a {}{ENDL}{}{ENDL}", callee.name, args.len());
            set_params(out, p, &callee.params, args);
        }
        Action::Set { symbol, value, .. } => {
            let s = &p.symbols[*symbol];
            let t = match s.ty {
                Type::Decimal => "d",
                Type::Boolean => "b",
                Type::Enum(_) => "e",
            };
            let _ = write!(out, "{t} {}{ENDL}", s.name);
            expr(out, p, value);
        }
    }
}

fn set_params(out: &mut String, p: &Program, params: &[Param], args: &[Arg]) {
    for a in args {
        if let Some(par) = params.get(a.param) {
            let _ = write!(out, "{}{}{ENDL}", type_prefix(p, par.ty), par.name);
        }
        expr(out, p, &a.value);
    }
}

fn common(out: &mut String, p: &Program, opt: &OptionDef, cd: &CommonDecision) {
    let _ = write!(out, "i{ENDL}");
    expr(out, p, &cd.cond);
    tree(out, p, opt, &cd.then);
    if let Some(o) = &cd.other {
        common(out, p, opt, o);
    }
}

fn tree(out: &mut String, p: &Program, opt: &OptionDef, t: &Tree) {
    match t {
        Tree::Goto(s) => {
            let _ = write!(
                out,
                "t {}{ENDL}",
                opt.states.get(*s).map_or("", |s| s.name.as_str())
            );
        }
        Tree::If {
            cond, then, other, ..
        } => {
            let _ = write!(out, "i{ENDL}");
            expr(out, p, cond);
            tree(out, p, opt, then);
            tree(out, p, opt, other);
        }
    }
}

fn expr(out: &mut String, p: &Program, e: &Expr) {
    match e {
        Expr::Number(v) => {
            let _ = write!(out, "v {}{ENDL}", ruby_number(*v));
        }
        Expr::Bool(b) => {
            let _ = write!(out, "v {b}{ENDL}");
        }
        Expr::Constant(c) => {
            let _ = write!(out, "c {}{ENDL}", p.constants[*c].raw);
        }
        Expr::Param { option, index, .. } => {
            let name = p
                .options
                .get(*option)
                .and_then(|o| o.params.get(*index))
                .map_or("", |x| x.name.as_str());
            let _ = write!(out, "p {name}{ENDL}");
        }
        Expr::Input { symbol, args, .. } => {
            let s = &p.symbols[*symbol];
            let _ = write!(out, "i {}{ENDL}{}{ENDL}", s.name, args.len());
            set_params(out, p, &s.params, args);
        }
        Expr::Output { symbol, .. } => {
            let _ = write!(out, "o {}{ENDL}", p.symbols[*symbol].name);
        }
        Expr::Element { enumeration, index } => {
            let el = p
                .enums
                .get(*enumeration)
                .and_then(|e| e.elements.get(*index))
                .map_or("", String::as_str);
            let _ = write!(out, "v {el} {ENDL}");
        }
        Expr::Arith(op, a, b) => {
            let c = match op {
                ArithOp::Add => "+",
                ArithOp::Sub => "-",
                ArithOp::Mul => "*",
                ArithOp::Div => "d",
                ArithOp::Mod => "%",
            };
            let _ = write!(out, "{c}{ENDL}");
            expr(out, p, a);
            expr(out, p, b);
        }
        Expr::Compare(op, a, b) => {
            let c = match op {
                CmpOp::Eq => "=",
                CmpOp::Ne => "n",
                CmpOp::Lt => "<",
                CmpOp::Gt => ">",
                CmpOp::Le => "l",
                CmpOp::Ge => "g",
            };
            let _ = write!(out, "{c}{ENDL}");
            expr(out, p, a);
            expr(out, p, b);
        }
        Expr::EnumEq(a, b) => {
            let _ = write!(out, "c{ENDL}");
            expr(out, p, a);
            expr(out, p, b);
        }
        Expr::Not(a) => {
            let _ = write!(out, "!{ENDL}");
            expr(out, p, a);
        }
        Expr::And(v) | Expr::Or(v) => {
            let c = if matches!(e, Expr::And(_)) { '&' } else { '|' };
            let _ = write!(out, "{c} {}{ENDL}", v.len());
            for x in v {
                expr(out, p, x);
            }
        }
        Expr::Cond {
            cond, then, other, ..
        } => {
            let _ = write!(out, "q{ENDL}");
            expr(out, p, cond);
            expr(out, p, then);
            expr(out, p, other);
        }
        Expr::StateTime => {
            let _ = write!(out, "s{ENDL}");
        }
        Expr::OptionTime | Expr::ActionDone => {
            let _ = write!(out, "t{ENDL}");
        }
        Expr::Conflict => {
            let _ = write!(out, "x{ENDL}");
        }
    }
}

/// A number as the reference writes a decimal value: an integral value as an integer
/// (`2`, `-5`, `100000000000000000000`), any other as Ruby's `Float#to_s` (the shortest
/// text that reads back as the same double: `0.57`, `1.0e-05`).
pub fn ruby_number(v: f64) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "NaN".into()
        } else if v > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    if v == v.trunc() {
        if v == 0.0 {
            return "0".into();
        }
        return format!("{v:.0}");
    }
    // shortest round-trip digits and the decimal exponent
    let e = format!("{:e}", v.abs());
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if v < 0.0 { "-" } else { "" };
    let decpt = exp + 1;
    let n = digits.len() as i32;
    let body = if decpt > 0 {
        if decpt <= 16 {
            if decpt >= n {
                format!("{digits}{}.0", "0".repeat((decpt - n) as usize))
            } else {
                format!(
                    "{}.{}",
                    &digits[..decpt as usize],
                    &digits[decpt as usize..]
                )
            }
        } else {
            exp_form(&digits, decpt)
        }
    } else if decpt > -4 {
        format!("0.{}{digits}", "0".repeat((-decpt) as usize))
    } else {
        exp_form(&digits, decpt)
    };
    format!("{sign}{body}")
}

fn exp_form(digits: &str, decpt: i32) -> String {
    let (first, rest) = digits.split_at(1.min(digits.len()));
    let rest = if rest.is_empty() { "0" } else { rest };
    format!("{first}.{rest}e{:+03}", decpt - 1)
}

#[cfg(test)]
mod tests {
    use super::ruby_number;

    #[test]
    fn numbers_as_ruby_writes_them() {
        assert_eq!(ruby_number(2.0), "2");
        assert_eq!(ruby_number(-5.0), "-5");
        assert_eq!(ruby_number(-0.0), "0");
        assert_eq!(ruby_number(0.57), "0.57");
        assert_eq!(ruby_number(0.1), "0.1");
        assert_eq!(ruby_number(-0.55), "-0.55");
        assert_eq!(ruby_number(1e-5), "1.0e-05");
        assert_eq!(ruby_number(0.0001), "0.0001");
        assert_eq!(ruby_number(123.456), "123.456");
        assert_eq!(ruby_number(1e20), "100000000000000000000");
        assert_eq!(ruby_number(1.5e-7), "1.5e-07");
        assert_eq!(ruby_number(12345678.5), "12345678.5");
    }
}
