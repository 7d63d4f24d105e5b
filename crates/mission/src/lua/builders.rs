//! The builder methods of items: `:SET(setting, value)` and `:SET(setting, Units.U, n)`
//! (also the table form's `Guidance.X.S:SET(v)`), `:WHEN`, `:WHILE`, `:PREEMPTIVE`,
//! `:UNTIL`, `:WITHIN`, `:REPEAT`; each setting is checked against the library at the call.

use super::clauses::as_clause;
use super::objects::{conv, ctx, fail, line, number, obj, type_name, Assign, Data, Obj, RawItem};
use crate::library::{BehaviorSpec, SettingType};
use crate::model::{Clause, Constant, Repeat, SettingValue};
use mlua::{AnyUserData, Lua, MultiValue, Value};
use skipper_core::units::Dimension;
use std::cell::RefCell;
use std::rc::Rc;

/// A setting value from `:SET(setting, value)` or `:SET(setting, Units.U, n)`.
fn setting_value(
    lua: &Lua,
    spec: &'static BehaviorSpec,
    index: usize,
    args: &[Value],
) -> mlua::Result<Option<SettingValue>> {
    let c = ctx(lua)?;
    let at = line(lua);
    let Some(s) = spec.settings.get(index) else {
        return Ok(None);
    };
    let full = format!("{}.{}", spec.name, s.name);
    // (unit, number) form first
    let data = match args {
        [Value::UserData(u), n]
            if matches!(obj(&Value::UserData(u.clone())), Some(Obj::Unit(_))) =>
        {
            let Some(Obj::Unit(unit)) = obj(&Value::UserData(u.clone())) else {
                return Ok(None);
            };
            match (number(n), obj(n)) {
                (Some(x), _) => {
                    Value::UserData(lua.create_userdata(Obj::Data(Data::Num(x, unit), at))?)
                }
                (None, Some(Obj::Data(Data::Num(x, from), _))) => match conv(x, from, unit) {
                    Ok(v) => {
                        Value::UserData(lua.create_userdata(Obj::Data(Data::Num(v, unit), at))?)
                    }
                    Err(_) => {
                        c.error(
                            at,
                            Some(s.name),
                            format!(
                                "SET {full}: the value is a {} but the unit Units.{} is a {}",
                                from.dimension, unit.name, unit.dimension
                            ),
                        );
                        return Ok(None);
                    }
                },
                _ => {
                    c.error(
                        at,
                        Some(s.name),
                        format!(
                            "SET {full}: after Units.{} a number is expected, not {}",
                            unit.name,
                            type_name(n)
                        ),
                    );
                    return Ok(None);
                }
            }
        }
        [v] => v.clone(),
        _ => {
            return Err(fail(
                lua,
                Some("SET"),
                format!("SET {full}: expected a value, or a unit and a number"),
            ))
        }
    };
    let got = type_name(&data);
    let bad = |expected: &str| {
        c.error(
            at,
            Some(s.name),
            format!("SET {full}: expected {expected}, not {got}"),
        );
        Ok(None)
    };
    match s.ty {
        SettingType::Quantity(dim) => match obj(&data) {
            Some(Obj::Data(d @ Data::Num(..), _)) if d.dimension() == dim => {
                Ok(Some(SettingValue::Const(d.constant())))
            }
            Some(Obj::Data(d, _)) => {
                c.error(
                    at,
                    Some(s.name),
                    format!(
                        "SET {full}: unit dimension mismatch: the setting is a {dim}, the value a {}",
                        d.dimension()
                    ),
                );
                Ok(None)
            }
            _ => bad(&format!("a {dim} with units")),
        },
        SettingType::Position => match obj(&data) {
            Some(Obj::Data(d @ Data::Pos(..), _)) => Ok(Some(SettingValue::Const(d.constant()))),
            _ => bad("a position, Units.DEGREE(lat, lon)"),
        },
        SettingType::Uri => match obj(&data) {
            Some(Obj::Uri(u, _)) => Ok(Some(SettingValue::Uri(u))),
            _ => bad("a URI, e.g. UniversalURI.DEPTH"),
        },
        SettingType::Bool => match &data {
            Value::Boolean(b) => Ok(Some(SettingValue::Const(Constant::Bool(*b)))),
            _ => match obj(&data) {
                Some(Obj::Data(Data::Num(v, u), _))
                    if matches!(u.dimension, Dimension::Bool | Dimension::Count) =>
                {
                    Ok(Some(SettingValue::Const(Constant::Bool(v != 0.0))))
                }
                _ => bad("true or false"),
            },
        },
    }
}

/// Resolve the setting object of a SET call to (spec, index), reporting unknown settings.
fn resolve_setting(
    lua: &Lua,
    setting: &Value,
    item: Option<&'static BehaviorSpec>,
) -> mlua::Result<Option<(&'static BehaviorSpec, usize)>> {
    let c = ctx(lua)?;
    let at = line(lua);
    let Some(Obj::Setting {
        behavior,
        behavior_name,
        name,
        ..
    }) = obj(setting)
    else {
        return Err(fail(
            lua,
            Some("SET"),
            format!(
                "SET expects a setting such as Guidance.Waypoint.CAPTURE_RADIUS first, not {}",
                type_name(setting)
            ),
        ));
    };
    let Some(spec) = behavior else {
        return Ok(None); // unknown behavior: reported where it was named
    };
    if let Some(item) = item {
        if item.kind != spec.kind {
            c.error(
                at,
                Some(&name),
                format!(
                    "{behavior_name}.{name} is a setting of {behavior_name}, not of {}",
                    item.name
                ),
            );
            return Ok(None);
        }
    }
    match spec.setting(&name) {
        Some(i) => Ok(Some((spec, i))),
        None => {
            let known: Vec<_> = spec.settings.iter().map(|s| s.name).collect();
            c.error(
                at,
                Some(&name),
                format!(
                    "unknown setting {behavior_name}.{name} (its settings: {})",
                    known.join(", ")
                ),
            );
            Ok(None)
        }
    }
}

fn item_of(this: &AnyUserData) -> mlua::Result<Rc<RefCell<RawItem>>> {
    match &*this.borrow::<Obj>()? {
        Obj::Item(i) => Ok(i.clone()),
        other => Err(mlua::Error::RuntimeError(format!(
            "{} has no such method",
            other.describe()
        ))),
    }
}

pub(super) fn builder_method(lua: &Lua, name: &str, args: MultiValue) -> mlua::Result<Value> {
    let mut args: Vec<Value> = args.into_iter().collect();
    let this = match args.first() {
        Some(Value::UserData(u)) => u.clone(),
        _ => {
            return Err(fail(
                lua,
                Some(name),
                format!("use `:{name}(...)`, with a colon"),
            ))
        }
    };
    args.remove(0);
    let this_obj = this.borrow::<Obj>()?.clone();
    let c = ctx(lua)?;
    let at = line(lua);
    if name == "SET" {
        if let Obj::Setting { behavior, .. } = &this_obj {
            // table form: Guidance.X.S:SET(value)
            let Some((spec, index)) =
                resolve_setting(lua, &Value::UserData(this.clone()), *behavior)?
            else {
                return Ok(Value::UserData(lua.create_userdata(Obj::Clause(
                    Rc::new(Clause::Const(false)),
                    at,
                ))?));
            };
            let value = setting_value(lua, spec, index, &args)?;
            return match value {
                Some(value) => Ok(Value::UserData(lua.create_userdata(Obj::Assign(
                    Assign {
                        behavior: spec,
                        index,
                        value,
                        line: at,
                    },
                ))?)),
                None => Ok(Value::Nil),
            };
        }
    }
    let Obj::Item(item) = this_obj else {
        return Err(fail(
            lua,
            Some(name),
            format!("{} has no method {name}", this_obj.describe()),
        ));
    };
    let _ = item_of(&this)?;
    let spec = item.borrow().behavior;
    let first = args.first().cloned().unwrap_or(Value::Nil);
    match name {
        "SET" => {
            let setting = first;
            if let Some((spec, index)) = resolve_setting(lua, &setting, spec)? {
                if let Some(value) = setting_value(lua, spec, index, args.get(1..).unwrap_or(&[]))?
                {
                    item.borrow_mut().sets.push(Assign {
                        behavior: spec,
                        index,
                        value,
                        line: at,
                    });
                }
            }
        }
        "WHEN" | "WHILE" | "PREEMPTIVE" | "UNTIL" => {
            let (cl, _) = as_clause(&c, &first, at, name);
            let mut it = item.borrow_mut();
            let slot = match name {
                "WHEN" => &mut it.when,
                "WHILE" => &mut it.while_,
                "PREEMPTIVE" => &mut it.preemptive,
                _ => &mut it.until,
            };
            if slot.is_some() {
                c.error(at, Some(name), format!("{name} is given twice"));
            }
            *slot = Some((cl, at));
        }
        "WITHIN" => {
            let secs = match (obj(&first), args.get(1)) {
                (Some(Obj::Data(Data::Num(v, u), _)), None) if u.dimension == Dimension::Time => {
                    Some(u.to_canonical(v))
                }
                (Some(Obj::Unit(u)), Some(n)) if u.dimension == Dimension::Time => {
                    number(n).map(|v| u.to_canonical(v))
                }
                _ => None,
            };
            match secs {
                Some(s) if s >= 0.0 && !s.is_nan() => item.borrow_mut().within = Some((s, at)),
                _ => c.error(
                    at,
                    Some("WITHIN"),
                    format!(
                        "WITHIN must be a time, e.g. Units.MINUTE(30) or Units.MINUTE, 30; not {}",
                        type_name(&first)
                    ),
                ),
            }
        }
        "REPEAT" => match repeat_count(&first) {
            Some(r) => item.borrow_mut().repeat = Some((r, at)),
            None => c.error(
                at,
                Some("REPEAT"),
                format!(
                    "REPEAT must be a non-negative whole number (or math.huge), not {}",
                    type_name(&first)
                ),
            ),
        },
        _ => return Err(fail(lua, Some(name), format!("unknown method {name}"))),
    }
    Ok(Value::UserData(this))
}

/// `REPEAT = n`: a non-negative whole number or `math.huge`.
pub(crate) fn repeat_count(v: &Value) -> Option<Repeat> {
    let n = number(v)?;
    if n == f64::INFINITY {
        Some(Repeat::Forever)
    } else if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) {
        Some(Repeat::Times(n as u32))
    } else {
        None
    }
}
