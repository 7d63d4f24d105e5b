//! [`DynMessage`]s to and from JSON values (`serde_json::Value`): a message is an object
//! of its fields, an array a list, `time` and `duration` `{"secs": s, "nsecs": n}`.
//! Reading a value checks it against the schema and converts what a person would expect
//! (an integer for a `float64`, a number of seconds for a `time`), with errors that name
//! the field's path and type; fields left out keep their defaults.

use super::dynamic::{default_value, prefix, Array, DynMessage, Value, ValueError};
use super::parse::{int_in_range, Primitive, Shape};
use super::schema::{FieldKind, FieldSchema, MsgSchema};
use crate::time::{RosDuration, Time};
use serde_json::{Map, Number, Value as Json};
use std::sync::Arc;

/// A message as a JSON object of its fields.
pub fn to_json(m: &DynMessage) -> Json {
    let mut o = Map::new();
    for (f, v) in m.fields() {
        o.insert(f.name.clone(), value_to_json(v));
    }
    Json::Object(o)
}

fn float(x: f64) -> Json {
    Number::from_f64(x).map(Json::Number).unwrap_or(Json::Null)
}

/// A value as JSON.
pub fn value_to_json(v: &Value) -> Json {
    match v {
        Value::Bool(b) => Json::Bool(*b),
        Value::I8(x) => (*x).into(),
        Value::U8(x) => (*x).into(),
        Value::I16(x) => (*x).into(),
        Value::U16(x) => (*x).into(),
        Value::I32(x) => (*x).into(),
        Value::U32(x) => (*x).into(),
        Value::I64(x) => (*x).into(),
        Value::U64(x) => (*x).into(),
        Value::F32(x) => float(f64::from(*x)),
        Value::F64(x) => float(*x),
        Value::String(s) => Json::String(s.clone()),
        Value::Time(t) => serde_json::json!({"secs": t.secs, "nsecs": t.nsecs}),
        Value::Duration(d) => serde_json::json!({"secs": d.secs, "nsecs": d.nsecs}),
        Value::Message(m) => to_json(m),
        Value::Array(a) => Json::Array(a.iter().map(|v| value_to_json(&v)).collect()),
    }
}

fn what(j: &Json) -> String {
    match j {
        Json::Null => "null".into(),
        Json::Bool(b) => format!("{b}"),
        Json::Number(n) => format!("the number {n}"),
        Json::String(s) => format!("the string {s:?}"),
        Json::Array(a) => format!("a list of {}", a.len()),
        Json::Object(_) => "a mapping".into(),
    }
}

/// A message of type `schema` from a JSON object (fields left out are defaults).
pub fn from_json(schema: &Arc<MsgSchema>, j: &Json) -> Result<DynMessage, ValueError> {
    let mut m = DynMessage::new(schema.clone());
    merge_json(&mut m, j)?;
    Ok(m)
}

/// Set the fields a JSON object names (the others are left as they are).
pub fn merge_json(m: &mut DynMessage, j: &Json) -> Result<(), ValueError> {
    let schema = m.schema().clone();
    let Json::Object(o) = j else {
        return Err(ValueError::WrongType {
            path: schema.name().to_string(),
            want: format!(
                "a mapping of the fields of {} ({})",
                schema.name(),
                schema.describe()
            ),
            got: what(j),
        });
    };
    for (k, v) in o {
        let (_, f) = schema.field(k).ok_or_else(|| m.no_field(k))?;
        let value = match (&f.kind, f.shape, m.get(k)) {
            // a nested message: merge into what is there
            (FieldKind::Message(_), Shape::Scalar, Some(Value::Message(cur))) => {
                let mut cur = cur.clone();
                merge_json(&mut cur, v).map_err(|e| prefix(k, e))?;
                Value::Message(cur)
            }
            _ => field_from_json(f, v).map_err(|e| prefix_top(k, e))?,
        };
        m.set(k, value)?;
    }
    Ok(())
}

fn prefix_top(k: &str, e: ValueError) -> ValueError {
    match e {
        ValueError::WrongType { path, want, got } if path.is_empty() => ValueError::WrongType {
            path: k.to_string(),
            want,
            got,
        },
        e => prefix(k, e),
    }
}

fn wrong(want: impl Into<String>, j: &Json) -> ValueError {
    ValueError::WrongType {
        path: String::new(),
        want: want.into(),
        got: what(j),
    }
}

/// A field's value from JSON.
pub fn field_from_json(f: &FieldSchema, j: &Json) -> Result<Value, ValueError> {
    let n = match f.shape {
        Shape::Scalar => {
            return match &f.kind {
                FieldKind::Primitive(p) => primitive_from_json(*p, j),
                FieldKind::Message(m) => from_json(m, j).map(Value::Message),
            }
        }
        Shape::Vec => None,
        Shape::Fixed(n) => Some(n),
    };
    let list: Vec<Json> = match j {
        Json::Array(a) => a.clone(),
        // a string for uint8[] / char[] is its bytes (as genpy takes it)
        Json::String(s) if matches!(f.kind, FieldKind::Primitive(Primitive::UInt8)) => {
            s.bytes().map(Json::from).collect()
        }
        _ => return Err(wrong(format!("a list of {}", f.element_type()), j)),
    };
    if let Some(n) = n {
        if list.len() != n {
            return Err(wrong(
                format!("a list of exactly {n} {}", f.element_type()),
                j,
            ));
        }
    }
    let at = |i: usize, e: ValueError| prefix_top(&format!("[{i}]"), e);
    Ok(Value::Array(match &f.kind {
        FieldKind::Primitive(p) => {
            let mut vals = Vec::with_capacity(list.len());
            for (i, x) in list.iter().enumerate() {
                vals.push(primitive_from_json(*p, x).map_err(|e| at(i, e))?);
            }
            Array::from_values(*p, &vals).ok_or_else(|| wrong(p.name(), j))?
        }
        FieldKind::Message(m) => {
            let mut v = Vec::with_capacity(list.len());
            for (i, x) in list.iter().enumerate() {
                v.push(from_json(m, x).map_err(|e| at(i, e))?);
            }
            Array::Messages(v)
        }
    }))
}

fn stamp_parts(p: Primitive, j: &Json) -> Result<(i64, i64), ValueError> {
    let want = format!("a {p}: seconds, or {{secs: S, nsecs: N}}");
    match j {
        Json::Number(n) => {
            let s = n.as_f64().ok_or_else(|| wrong(&want, j))?;
            if !s.is_finite() {
                return Err(wrong(&want, j));
            }
            let secs = s.floor();
            Ok((secs as i64, ((s - secs) * 1e9).round() as i64))
        }
        Json::Object(o) => {
            let part = |k: &str| -> Result<i64, ValueError> {
                match o.get(k) {
                    None => Ok(0),
                    Some(v) => v.as_i64().ok_or_else(|| wrong(&want, j)),
                }
            };
            if o.keys().any(|k| k != "secs" && k != "nsecs") {
                return Err(wrong(&want, j));
            }
            Ok((part("secs")?, part("nsecs")?))
        }
        _ => Err(wrong(&want, j)),
    }
}

/// A scalar of type `p` from JSON.
pub fn primitive_from_json(p: Primitive, j: &Json) -> Result<Value, ValueError> {
    let int = || -> Result<i128, ValueError> {
        let n = match j {
            Json::Number(n) => n
                .as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from))
                .or_else(|| {
                    n.as_f64()
                        .filter(|f| f.fract() == 0.0 && f.abs() < 1e30)
                        .map(|f| f as i128)
                }),
            Json::Bool(b) => Some(i128::from(*b)),
            _ => None,
        };
        n.filter(|&n| int_in_range(p, n))
            .ok_or_else(|| wrong(format!("a whole number in the range of {p}"), j))
    };
    Ok(match p {
        Primitive::Bool => match j {
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) if n.as_i64() == Some(0) || n.as_i64() == Some(1) => {
                Value::Bool(n.as_i64() == Some(1))
            }
            _ => return Err(wrong("a bool (true or false)", j)),
        },
        Primitive::Int8 => Value::I8(int()? as i8),
        Primitive::UInt8 => Value::U8(int()? as u8),
        Primitive::Int16 => Value::I16(int()? as i16),
        Primitive::UInt16 => Value::U16(int()? as u16),
        Primitive::Int32 => Value::I32(int()? as i32),
        Primitive::UInt32 => Value::U32(int()? as u32),
        Primitive::Int64 => Value::I64(int()? as i64),
        Primitive::UInt64 => Value::U64(int()? as u64),
        Primitive::Float32 | Primitive::Float64 => {
            let x = match j {
                Json::Number(n) => n.as_f64(),
                Json::String(s) => match s.as_str() {
                    "nan" | "NaN" | ".nan" => Some(f64::NAN),
                    "inf" | ".inf" => Some(f64::INFINITY),
                    "-inf" | "-.inf" => Some(f64::NEG_INFINITY),
                    _ => None,
                },
                _ => None,
            }
            .ok_or_else(|| wrong(format!("a number ({p})"), j))?;
            if p == Primitive::Float32 {
                Value::F32(x as f32)
            } else {
                Value::F64(x)
            }
        }
        Primitive::String => match j {
            Json::String(s) => Value::String(s.clone()),
            Json::Number(n) => Value::String(n.to_string()),
            Json::Bool(b) => Value::String(b.to_string()),
            _ => return Err(wrong("a string", j)),
        },
        Primitive::Time => {
            let (s, n) = stamp_parts(p, j)?;
            let total = s.checked_mul(1_000_000_000).and_then(|x| x.checked_add(n));
            match total.and_then(|t| u64::try_from(t).ok()) {
                Some(t) if t / 1_000_000_000 <= u64::from(u32::MAX) => {
                    Value::Time(Time::from_nanos(t))
                }
                _ => return Err(wrong("a time from 0 to 4294967295 s", j)),
            }
        }
        Primitive::Duration => {
            let (s, n) = stamp_parts(p, j)?;
            let total = s.checked_mul(1_000_000_000).and_then(|x| x.checked_add(n));
            let Some(t) = total.filter(|t| (t / 1_000_000_000).abs() <= i64::from(i32::MAX)) else {
                return Err(wrong("a duration within ±2147483647 s", j));
            };
            Value::Duration(RosDuration {
                secs: (t.div_euclid(1_000_000_000)) as i32,
                nsecs: (t.rem_euclid(1_000_000_000)) as i32,
            })
        }
    })
}

/// The default of each field of `schema` as JSON (what a goal is without fields given).
pub fn default_json(schema: &Arc<MsgSchema>) -> Json {
    let mut o = Map::new();
    for f in schema.fields() {
        o.insert(f.name.clone(), value_to_json(&default_value(f)));
    }
    Json::Object(o)
}
