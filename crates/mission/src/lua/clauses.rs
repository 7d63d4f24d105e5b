//! ValueClauses in the script: `true`/`false`, URIs and values used as truth values, the
//! comparisons `:NE/LT/LE/EQ/GE/GT`, `:NOT/AND/OR` and `uri:ELAPSED(T)`, each checked for
//! dimensions at the call (rules 32-35, §2.4 of the reference).

use super::objects::{ctx, fail, line, number, obj, type_name, Ctx, Data, Obj};
use crate::model::{Clause, CmpOp, Constant, Operand};
use crate::uri;
use mlua::{Lua, MultiValue, Value};
use skipper_core::units::Dimension;
use std::rc::Rc;

/// A Lua value used as a ValueClause (rules 32, 33; §2.4): `true`/`false`, a clause, a
/// boolean-like URI or DataValue. Anything else is recorded as an error and read as false.
pub(crate) fn as_clause(c: &Ctx, v: &Value, at: usize, what: &str) -> (Clause, usize) {
    let truthy_dim = |d: Dimension| {
        matches!(
            d,
            Dimension::Bool | Dimension::Count | Dimension::Dimensionless
        )
    };
    match v {
        Value::Boolean(b) => (Clause::Const(*b), at),
        _ => match obj(v) {
            Some(Obj::Clause(cl, l)) => ((*cl).clone(), l),
            Some(Obj::Uri(u, l)) if truthy_dim(uri::info(u).dimension()) => {
                (Clause::Truthy(Operand::Uri(u)), l)
            }
            Some(Obj::Uri(u, l)) => {
                let i = uri::info(u);
                c.error(
                    l,
                    Some(i.name),
                    format!(
                        "{what}: UniversalURI.{} is a {}, not a truth value; compare it, e.g. UniversalURI.{}:GT(...)",
                        i.name,
                        i.dimension(),
                        i.name
                    ),
                );
                (Clause::Const(false), l)
            }
            Some(Obj::Data(d @ Data::Num(..), l)) if truthy_dim(d.dimension()) => {
                (Clause::Truthy(Operand::Const(d.constant())), l)
            }
            _ => {
                c.error(
                    at,
                    None,
                    format!(
                        "{what} must be a ValueClause (true, false, a URI comparison, ...), not {}",
                        type_name(v)
                    ),
                );
                (Clause::Const(false), at)
            }
        },
    }
}

/// The operand of a comparison.
fn operand(c: &Ctx, v: &Value, at: usize) -> Option<(Operand, Dimension)> {
    match v {
        Value::Boolean(b) => Some((Operand::Const(Constant::Bool(*b)), Dimension::Bool)),
        _ => {
            if let Some(n) = number(v) {
                return Some((
                    Operand::Const(Constant::Number(n, Dimension::Dimensionless)),
                    Dimension::Dimensionless,
                ));
            }
            match obj(v) {
                Some(Obj::Uri(u, _)) => Some((Operand::Uri(u), uri::info(u).dimension())),
                Some(Obj::Data(d, _)) => Some((Operand::Const(d.constant()), d.dimension())),
                _ => {
                    c.error(
                        at,
                        None,
                        format!(
                            "a comparison needs a URI or a value with units, not {}",
                            type_name(v)
                        ),
                    );
                    None
                }
            }
        }
    }
}

fn compatible(a: Dimension, b: Dimension) -> bool {
    let plain = |d| {
        matches!(
            d,
            Dimension::Dimensionless | Dimension::Count | Dimension::Bool
        )
    };
    a == b || (plain(a) && plain(b))
}

fn compare(lua: &Lua, op: CmpOp, this: &Value, arg: &Value) -> mlua::Result<Obj> {
    let c = ctx(lua)?;
    let at = line(lua);
    let (Some((l, ld)), Some((r, rd))) = (operand(&c, this, at), operand(&c, arg, at)) else {
        return Ok(Obj::Clause(Rc::new(Clause::Const(false)), at));
    };
    if !compatible(ld, rd) {
        let hint = if rd == Dimension::Dimensionless {
            " (a bare number has no unit: write e.g. Units.METER(10))"
        } else {
            ""
        };
        c.error(
            at,
            Some(op.name()),
            format!("{}: cannot compare a {ld} with a {rd}{hint}", op.name()),
        );
    } else if ld == Dimension::Position && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
        c.error(
            at,
            Some(op.name()),
            format!(
                "{}: positions can only be compared with EQ or NE; distances are for behaviors",
                op.name()
            ),
        );
    }
    Ok(Obj::Clause(Rc::new(Clause::Cmp(op, l, r)), at))
}

pub(super) fn clause_method(lua: &Lua, name: &str, args: MultiValue) -> mlua::Result<Obj> {
    let c = ctx(lua)?;
    let at = line(lua);
    let mut it = args.into_iter();
    let this = it.next().unwrap_or(Value::Nil);
    let arg = it.next().unwrap_or(Value::Nil);
    let op = match name {
        "NE" => Some(CmpOp::Ne),
        "LT" => Some(CmpOp::Lt),
        "LE" => Some(CmpOp::Le),
        "EQ" => Some(CmpOp::Eq),
        "GE" => Some(CmpOp::Ge),
        "GT" => Some(CmpOp::Gt),
        _ => None,
    };
    if let Some(op) = op {
        return compare(lua, op, &this, &arg);
    }
    match name {
        "NOT" => {
            let (a, _) = as_clause(&c, &this, at, "NOT");
            Ok(Obj::Clause(Rc::new(Clause::Not(Box::new(a))), at))
        }
        "AND" | "OR" => {
            let (a, _) = as_clause(&c, &this, at, name);
            if arg.is_nil() {
                return Err(fail(
                    lua,
                    Some(name),
                    format!("{name} needs a ValueClause argument"),
                ));
            }
            let (b, _) = as_clause(&c, &arg, at, name);
            let cl = if name == "AND" {
                Clause::And(Box::new(a), Box::new(b))
            } else {
                Clause::Or(Box::new(a), Box::new(b))
            };
            Ok(Obj::Clause(Rc::new(cl), at))
        }
        "ELAPSED" => {
            let Some(Obj::Uri(u, _)) = obj(&this) else {
                return Err(fail(
                    lua,
                    Some("ELAPSED"),
                    format!("ELAPSED applies to a URI, not to {}", type_name(&this)),
                ));
            };
            let secs = match obj(&arg) {
                Some(Obj::Data(Data::Num(v, unit), _)) if unit.dimension == Dimension::Time => {
                    unit.to_canonical(v)
                }
                _ => {
                    c.error(
                        at,
                        Some("ELAPSED"),
                        format!(
                            "ELAPSED needs a time, e.g. Units.HOUR(1), not {}",
                            type_name(&arg)
                        ),
                    );
                    f64::INFINITY
                }
            };
            Ok(Obj::Clause(Rc::new(Clause::Elapsed(u, secs)), at))
        }
        _ => Err(fail(lua, Some(name), format!("unknown method {name}"))),
    }
}

pub(super) const CLAUSE_METHODS: &[&str] = &[
    "NOT", "AND", "OR", "NE", "LT", "LE", "EQ", "GE", "GT", "ELAPSED",
];
