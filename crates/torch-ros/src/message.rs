//! Messages as torch-ros scripts use them: `ros.MsgSpec(type)`, `ros.SrvSpec(type)`,
//! `ros.actionlib.ActionSpec(type)` (from their definitions at run time, or from the
//! text given as the second argument), and `ros.Message(spec)`: a Lua table with one
//! entry per field (prefilled with defaults), nested messages as nested message tables,
//! arrays as Lua sequences, times and durations as `ros.Time` / `ros.Duration`.
//!
//! Scripts read and write fields by name; writing a field the type does not have is an
//! error that names the fields it has. A message crosses into Rust (to be published, as
//! a result, a request, ...) by [`from_lua`], which checks every value against the
//! field's type (`feedback.sequence[3]: expected int32, got string`) and fills what is
//! missing with defaults; messages that arrive become tables by [`to_lua`].
//! `print(msg)` prints as torch-ros prints (see [`format_message`]).

use crate::runtime::fail;
use crate::time::{LuaDuration, LuaTime};
use mlua::{AnyUserData, Lua, Table, UserData, Value};
use skipper_actionlib::DynMessage;
use skipper_ros1_wire::msg::dynamic::{Array, Value as Dyn};
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::msg::parse::{Primitive, Shape};
use skipper_ros1_wire::msg::schema::{ActionSchema, FieldKind, FieldSchema, MsgSchema, SrvSchema};
use std::sync::Arc;

/// A message type, hidden in each message's metatable.
pub(crate) struct SchemaRef(pub Arc<MsgSchema>);
impl UserData for SchemaRef {}

fn loader() -> &'static TypeLoader {
    TypeLoader::global()
}

fn registry_table(lua: &Lua, name: &str) -> mlua::Result<Table> {
    match lua.named_registry_value::<Option<Table>>(name)? {
        Some(t) => Ok(t),
        None => {
            let t = lua.create_table()?;
            lua.set_named_registry_value(name, t.clone())?;
            Ok(t)
        }
    }
}

/// A message schema by name, or the script's error.
pub(crate) fn message_schema(lua: &Lua, name: &str) -> mlua::Result<Arc<MsgSchema>> {
    loader().message(name).map_err(|e| fail(lua, e))
}

/// The schema a spec argument names: a type name, a `ros.MsgSpec`, or a message.
pub(crate) fn schema_arg(lua: &Lua, v: &Value) -> mlua::Result<Arc<MsgSchema>> {
    match v {
        Value::String(s) => message_schema(lua, &s.to_str()?),
        Value::Table(t) => {
            if let Some(s) = schema_of_message(t) {
                return Ok(s);
            }
            match t.raw_get::<Value>("type")? {
                Value::String(s) => message_schema(lua, &s.to_str()?),
                _ => Err(fail(lua, "expected a message type name or a ros.MsgSpec")),
            }
        }
        _ => Err(fail(lua, "expected a message type name or a ros.MsgSpec")),
    }
}

/// The type of a message table (`None` for a plain table).
pub(crate) fn schema_of_message(t: &Table) -> Option<Arc<MsgSchema>> {
    let mt = t.metatable()?;
    let ud: AnyUserData = mt.raw_get("__skipper_schema").ok()?;
    let s = ud.borrow::<SchemaRef>().ok()?;
    Some(s.0.clone())
}

/// The field's type as torch-ros writes it: `std_msgs/Header`, `float64[]`,
/// `geometry_msgs/Pose[3]`.
fn resolved_type(f: &FieldSchema) -> String {
    let base = f.element_type();
    match f.shape {
        Shape::Scalar => base.to_string(),
        Shape::Vec => format!("{base}[]"),
        Shape::Fixed(n) => format!("{base}[{n}]"),
    }
}

/// `ros.MsgSpec(type)`: the spec table of a type (cached).
pub(crate) fn spec_table(lua: &Lua, s: &Arc<MsgSchema>) -> mlua::Result<Table> {
    let cache = registry_table(lua, "skipper.specs")?;
    if let Some(t) = cache.raw_get::<Option<Table>>(s.name())? {
        return Ok(t);
    }
    let t = lua.create_table()?;
    cache.raw_set(s.name(), t.clone())?;
    let (pkg, short) = s.name().split_once('/').unwrap_or(("", s.name()));
    t.raw_set("type", s.name())?;
    t.raw_set("package", pkg)?;
    t.raw_set("short_type", short)?;
    t.raw_set("definition", s.text())?;
    t.raw_set("md5sum", s.md5sum())?;
    let fields = lua.create_table()?;
    for (i, f) in s.fields().iter().enumerate() {
        let info = lua.create_table()?;
        let ty = resolved_type(f);
        let nested = match &f.kind {
            FieldKind::Message(m) => Some(spec_table(lua, m)?),
            FieldKind::Primitive(_) => None,
        };
        info.raw_set(1, ty.as_str())?;
        info.raw_set(2, f.name.as_str())?;
        info.raw_set(3, nested.clone())?;
        info.raw_set("type", ty.as_str())?;
        info.raw_set("name", f.name.as_str())?;
        info.raw_set("base_type", f.element_type())?;
        info.raw_set("spec", nested.clone())?;
        info.raw_set("is_array", f.shape != Shape::Scalar)?;
        info.raw_set("is_builtin", nested.is_none())?;
        if let Shape::Fixed(n) = f.shape {
            info.raw_set("fixed_array_size", n)?;
        }
        info.raw_set("value_index", i + 1)?;
        fields.raw_set(i + 1, info.clone())?;
        fields.raw_set(f.name.as_str(), info)?;
    }
    t.raw_set("fields", fields)?;
    let constants = lua.create_table()?;
    for (i, c) in s.constants().iter().enumerate() {
        let value: Value = match c.text.trim().parse::<i64>() {
            Ok(n) => Value::Integer(n),
            Err(_) => match c.text.trim().parse::<f64>() {
                Ok(x) if c.ty != Primitive::String => Value::Number(x),
                _ => Value::String(lua.create_string(&c.text)?),
            },
        };
        let by_name = lua.create_table()?;
        by_name.raw_set(1, c.ty_text.as_str())?;
        by_name.raw_set(2, value.clone())?;
        by_name.raw_set("type", c.ty_text.as_str())?;
        by_name.raw_set("value", value.clone())?;
        constants.raw_set(c.name.as_str(), by_name)?;
        let listed = lua.create_table()?;
        listed.raw_set(1, c.ty_text.as_str())?;
        listed.raw_set(2, c.name.as_str())?;
        listed.raw_set(3, value)?;
        constants.raw_set(i + 1, listed)?;
    }
    t.raw_set("constants", constants)?;
    t.raw_set(
        "has_header",
        s.fields()
            .first()
            .is_some_and(|f| f.element_type() == "std_msgs/Header" && f.shape == Shape::Scalar),
    )?;
    t.set_metatable(Some(class_meta(lua, "skipper.MsgSpec")?))?;
    Ok(t)
}

/// The shared metatable of a class whose methods the prelude defines (`skipper.MsgSpec`).
pub(crate) fn class_meta(lua: &Lua, name: &str) -> mlua::Result<Table> {
    registry_table(lua, name)
}

/// The metatable of messages of one type (cached): `spec` and the methods through
/// `__index`, a check of unknown fields in `__newindex`, torch-ros's `__tostring`.
fn message_meta(lua: &Lua, s: &Arc<MsgSchema>) -> mlua::Result<Table> {
    let cache = registry_table(lua, "skipper.msgmeta")?;
    if let Some(t) = cache.raw_get::<Option<Table>>(s.name())? {
        return Ok(t);
    }
    let mt = lua.create_table()?;
    let spec = spec_table(lua, s)?;
    let methods = class_meta(lua, "skipper.Message")?;
    mt.raw_set(
        "__index",
        lua.create_function(move |_, (_, k): (Value, Value)| {
            if let Value::String(k) = &k {
                if k.as_bytes() == b"spec" {
                    return Ok(Value::Table(spec.clone()));
                }
            }
            methods.raw_get::<Value>(k)
        })?,
    )?;
    let s2 = s.clone();
    mt.raw_set(
        "__newindex",
        lua.create_function(move |lua, (t, k, v): (Table, Value, Value)| {
            let known = match &k {
                Value::String(name) => s2.field(&name.to_string_lossy()).is_some(),
                _ => false,
            };
            if !known {
                let k = crate::runtime::describe(&k);
                return Err(fail(
                    lua,
                    format!(
                        "{} has no field `{k}` (its fields are {})",
                        s2.name(),
                        s2.describe()
                    ),
                ));
            }
            t.raw_set(k, v)
        })?,
    )?;
    let s3 = s.clone();
    mt.raw_set(
        "__tostring",
        lua.create_function(move |_, t: Table| {
            let mut out = String::new();
            format_message(&t, &s3, "", &mut out);
            Ok(out)
        })?,
    )?;
    mt.raw_set("__name", s.name())?;
    mt.raw_set("__skipper_schema", SchemaRef(s.clone()))?;
    cache.raw_set(s.name(), mt.clone())?;
    Ok(mt)
}

/// A message table holding `m`'s values.
pub(crate) fn to_lua(lua: &Lua, m: &DynMessage) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(0, m.schema().fields().len())?;
    for (f, v) in m.fields() {
        t.raw_set(f.name.as_str(), value_to_lua(lua, v)?)?;
    }
    t.set_metatable(Some(message_meta(lua, m.schema())?))?;
    Ok(t)
}

/// A new message of type `s` with every field at its default.
pub(crate) fn new_message(lua: &Lua, s: &Arc<MsgSchema>) -> mlua::Result<Table> {
    to_lua(lua, &DynMessage::new(s.clone()))
}

fn value_to_lua(lua: &Lua, v: &Dyn) -> mlua::Result<Value> {
    Ok(match v {
        Dyn::Bool(b) => Value::Boolean(*b),
        Dyn::I8(x) => Value::Integer(i64::from(*x)),
        Dyn::U8(x) => Value::Integer(i64::from(*x)),
        Dyn::I16(x) => Value::Integer(i64::from(*x)),
        Dyn::U16(x) => Value::Integer(i64::from(*x)),
        Dyn::I32(x) => Value::Integer(i64::from(*x)),
        Dyn::U32(x) => Value::Integer(i64::from(*x)),
        Dyn::I64(x) => Value::Integer(*x),
        Dyn::U64(x) => match i64::try_from(*x) {
            Ok(i) => Value::Integer(i),
            Err(_) => Value::Number(*x as f64),
        },
        Dyn::F32(x) => Value::Number(f64::from(*x)),
        Dyn::F64(x) => Value::Number(*x),
        Dyn::String(s) => Value::String(lua.create_string(s)?),
        Dyn::Time(t) => Value::UserData(lua.create_userdata(LuaTime::from_ros(*t))?),
        Dyn::Duration(d) => Value::UserData(lua.create_userdata(LuaDuration::from_ros(*d))?),
        Dyn::Message(m) => Value::Table(to_lua(lua, m)?),
        Dyn::Array(a) => {
            let t = lua.create_table_with_capacity(a.len(), 0)?;
            for (i, x) in a.iter().enumerate() {
                t.raw_set(i + 1, value_to_lua(lua, &x)?)?;
            }
            Value::Table(t)
        }
    })
}

/// What a Lua value is, for errors (`a string`, `an integer 300`).
fn what(v: &Value) -> String {
    match v {
        Value::Integer(i) => format!("{i}"),
        Value::Number(n) => format!("{n}"),
        Value::String(s) => format!("the string \"{}\"", s.to_string_lossy()),
        Value::Boolean(b) => b.to_string(),
        Value::Table(t) => match schema_of_message(t) {
            Some(s) => format!("a {} message", s.name()),
            None => "a table".into(),
        },
        Value::UserData(u) if u.is::<LuaTime>() => "a ros.Time".into(),
        Value::UserData(u) if u.is::<LuaDuration>() => "a ros.Duration".into(),
        other => format!("a {}", other.type_name()),
    }
}

fn wrong(lua: &Lua, path: &str, want: &str, v: &Value) -> mlua::Error {
    fail(lua, format!("{path}: expected {want}, got {}", what(v)))
}

/// A message of type `s` from a message table of that type or a plain table of fields
/// (missing fields take their defaults).
pub(crate) fn from_lua(
    lua: &Lua,
    s: &Arc<MsgSchema>,
    v: &Value,
    path: &str,
) -> mlua::Result<DynMessage> {
    let Value::Table(t) = v else {
        return Err(wrong(lua, path, &format!("a {} message", s.name()), v));
    };
    if let Some(other) = schema_of_message(t) {
        if other.name() != s.name() || other.md5sum() != s.md5sum() {
            return Err(wrong(lua, path, &format!("a {} message", s.name()), v));
        }
    }
    let mut m = DynMessage::new(s.clone());
    for f in s.fields() {
        let x: Value = t.raw_get(f.name.as_str())?;
        if x.is_nil() {
            continue;
        }
        let p = if path.is_empty() {
            f.name.clone()
        } else {
            format!("{path}.{}", f.name)
        };
        let val = field_from_lua(lua, f, &x, &p)?;
        m.set(&f.name, val).map_err(|e| fail(lua, e))?;
    }
    Ok(m)
}

/// The most elements reserved ahead for an array from a table. A table's length (`#t`) is
/// a border, and a table of 33 keys can have the border 2^30, so the length says nothing
/// about how many elements there are; past this the vector grows with the elements that
/// really are there.
const MAX_RESERVE: usize = 4096;

fn field_from_lua(lua: &Lua, f: &FieldSchema, v: &Value, path: &str) -> mlua::Result<Dyn> {
    let fixed = match f.shape {
        Shape::Scalar => {
            return match &f.kind {
                FieldKind::Primitive(p) => prim_from_lua(lua, *p, v, path),
                FieldKind::Message(m) => from_lua(lua, m, v, path).map(Dyn::Message),
            }
        }
        Shape::Vec => None,
        Shape::Fixed(n) => Some(n),
    };
    // a byte string for uint8[] / int8[]
    if let (Value::String(s), FieldKind::Primitive(p @ (Primitive::UInt8 | Primitive::Int8))) =
        (v, &f.kind)
    {
        let bytes = s.as_bytes().to_vec();
        check_len(lua, path, fixed, bytes.len())?;
        return Ok(Dyn::Array(Array::Packed { elem: *p, bytes }));
    }
    let Value::Table(t) = v else {
        return Err(wrong(
            lua,
            path,
            &format!("an array of {}", f.element_type()),
            v,
        ));
    };
    let n = t.raw_len();
    check_len(lua, path, fixed, n)?;
    let at = |i: usize| format!("{path}[{i}]");
    Ok(Dyn::Array(match &f.kind {
        FieldKind::Message(m) => {
            let mut out = Vec::with_capacity(n.min(MAX_RESERVE));
            for i in 1..=n {
                out.push(from_lua(lua, m, &t.raw_get(i)?, &at(i))?);
            }
            Array::Messages(out)
        }
        FieldKind::Primitive(p) => {
            let mut out = Vec::with_capacity(n.min(MAX_RESERVE));
            for i in 1..=n {
                out.push(prim_from_lua(lua, *p, &t.raw_get(i)?, &at(i))?);
            }
            match Array::from_values(*p, &out) {
                Some(a) => a,
                None => return Err(fail(lua, format!("{path}: not an array of {}", p.name()))),
            }
        }
    }))
}

fn check_len(lua: &Lua, path: &str, fixed: Option<usize>, n: usize) -> mlua::Result<()> {
    match fixed {
        Some(want) if want != n => Err(fail(
            lua,
            format!(
                "{path}: wrong number of elements in a fixed-size array (expected {want}, got {n})"
            ),
        )),
        _ => Ok(()),
    }
}

/// An integer from a Lua number (floats only when whole).
fn int_of(v: &Value) -> Option<i128> {
    match v {
        Value::Integer(i) => Some(i128::from(*i)),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 1.9e19 => Some(*n as i128),
        _ => None,
    }
}

fn prim_from_lua(lua: &Lua, p: Primitive, v: &Value, path: &str) -> mlua::Result<Dyn> {
    let bad = || wrong(lua, path, p.name(), v);
    macro_rules! int {
        ($variant:ident, $t:ty) => {{
            let i = int_of(v).ok_or_else(bad)?;
            <$t>::try_from(i).map(Dyn::$variant).map_err(|_| {
                fail(
                    lua,
                    format!("{path}: {i} is out of the range of {}", p.name()),
                )
            })
        }};
    }
    let float = || match v {
        Value::Integer(i) => Ok(*i as f64),
        Value::Number(n) => Ok(*n),
        _ => Err(bad()),
    };
    match p {
        Primitive::Bool => match v {
            Value::Boolean(b) => Ok(Dyn::Bool(*b)),
            Value::Integer(_) | Value::Number(_) => Ok(Dyn::Bool(int_of(v).is_none_or(|i| i != 0))),
            _ => Err(bad()),
        },
        Primitive::Int8 => int!(I8, i8),
        Primitive::UInt8 => int!(U8, u8),
        Primitive::Int16 => int!(I16, i16),
        Primitive::UInt16 => int!(U16, u16),
        Primitive::Int32 => int!(I32, i32),
        Primitive::UInt32 => int!(U32, u32),
        Primitive::Int64 => int!(I64, i64),
        Primitive::UInt64 => int!(U64, u64),
        Primitive::Float32 => Ok(Dyn::F32(float()? as f32)),
        Primitive::Float64 => Ok(Dyn::F64(float()?)),
        Primitive::String => match v {
            Value::String(s) => match s.to_str() {
                Ok(s) => Ok(Dyn::String(s.to_string())),
                Err(_) => Err(fail(lua, format!("{path}: the string is not UTF-8"))),
            },
            _ => Err(bad()),
        },
        Primitive::Time => match v {
            Value::UserData(u) if u.is::<LuaTime>() => {
                Ok(Dyn::Time(u.borrow::<LuaTime>()?.to_ros()))
            }
            Value::Integer(_) | Value::Number(_) => {
                Ok(Dyn::Time(LuaTime((float()? * 1e9) as i64).to_ros()))
            }
            _ => Err(bad()),
        },
        Primitive::Duration => match v {
            Value::UserData(u) if u.is::<LuaDuration>() => {
                Ok(Dyn::Duration(u.borrow::<LuaDuration>()?.to_ros()))
            }
            Value::Integer(_) | Value::Number(_) => {
                Ok(Dyn::Duration(LuaDuration((float()? * 1e9) as i64).to_ros()))
            }
            _ => Err(bad()),
        },
    }
}

/// A number as LuaJIT's `tostring` prints it (`%.14g`), which torch-ros's messages show.
pub(crate) fn fmt_number(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let sci = format!("{x:.13e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..14).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mant), exp.abs())
    } else {
        let decimals = (13 - exp).max(0) as usize;
        trim(&format!("{x:.decimals$}"))
    }
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => fmt_number(*n),
        Value::Boolean(b) => b.to_string(),
        Value::Nil => "nil".into(),
        Value::String(s) => s.to_string_lossy(),
        Value::UserData(u) => match (u.borrow::<LuaTime>(), u.borrow::<LuaDuration>()) {
            (Ok(t), _) => format!("{:.6}", t.0 as f64 / 1e9),
            (_, Ok(d)) => format!("{:.6}", d.0 as f64 / 1e9),
            _ => "userdata".into(),
        },
        other => other.type_name().to_string(),
    }
}

/// torch's name of the tensor a numeric array field is in torch-ros.
fn tensor_name(p: Primitive) -> Option<&'static str> {
    Some(match p {
        Primitive::UInt8 => "torch.ByteTensor",
        Primitive::Int8 => "torch.CharTensor",
        Primitive::Int16 | Primitive::UInt16 => "torch.ShortTensor",
        Primitive::Int32 | Primitive::UInt32 => "torch.IntTensor",
        Primitive::Float32 => "torch.FloatTensor",
        Primitive::Float64 => "torch.DoubleTensor",
        _ => return None,
    })
}

/// A numeric array as torch prints a 1-d tensor: one value a line, right-aligned (whole
/// numbers without decimals, others with four), then
/// `[torch.DoubleTensor of size N]` (over 100 values: only that line).
fn format_tensor(name: &str, items: &[Value], is_float: bool) -> String {
    if items.is_empty() {
        return format!("[{name} with no dimension]\n");
    }
    // torch prints whole numbers without decimals, others with four
    let whole = items.iter().all(|v| match v {
        Value::Number(n) => n.fract() == 0.0 && n.abs() < 1e15,
        _ => true,
    });
    let cells: Vec<String> = items
        .iter()
        .map(|v| match (v, is_float && !whole) {
            (Value::Integer(i), true) => format!("{:.4}", *i as f64),
            (Value::Number(n), true) => format!("{n:.4}"),
            (Value::Number(n), false) if n.fract() == 0.0 => format!("{}", *n as i64),
            (other, _) => scalar_text(other),
        })
        .collect();
    let width = cells.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for c in &cells {
        out.push_str(&format!(" {c:>width$}\n"));
    }
    out.push_str(&format!("[{name} of size {}]\n", items.len()));
    out
}

/// torch-ros's print form of a message: `type {`, one `name : value` line per field
/// (strings quoted, nested messages on the lines below, indented), `}`, each line ending
/// with a newline.
pub(crate) fn format_message(t: &Table, s: &MsgSchema, indent: &str, out: &mut String) {
    out.push_str(&format!("{indent}{} {{\n", s.name()));
    for f in s.fields() {
        let v: Value = t.raw_get(f.name.as_str()).unwrap_or(Value::Nil);
        let prefix = format!("{indent}  {} : ", f.name);
        format_field(f, &v, indent, &prefix, out);
    }
    out.push_str(&format!("{indent}}}\n"));
}

fn format_field(f: &FieldSchema, v: &Value, indent: &str, prefix: &str, out: &mut String) {
    let inner = format!("{indent}  ");
    match (&f.kind, f.shape, v) {
        (FieldKind::Primitive(p), Shape::Vec | Shape::Fixed(_), Value::Table(t)) => {
            let items: Vec<Value> = t.clone().sequence_values::<Value>().flatten().collect();
            if let Some(name) = tensor_name(*p) {
                if items.len() > 100 {
                    out.push_str(&format!("{prefix}[{name} of size {}]\n", items.len()));
                } else {
                    out.push_str(&format!("{prefix}\n"));
                    out.push_str(&format_tensor(
                        name,
                        &items,
                        matches!(p, Primitive::Float32 | Primitive::Float64),
                    ));
                }
            } else if items.is_empty() {
                out.push_str(&format!("{prefix}[]\n"));
            } else {
                out.push_str(&format!("{prefix}[\n"));
                for x in &items {
                    let text = match (p, x) {
                        (Primitive::String, Value::String(s)) => {
                            format!("\"{}\"", s.to_string_lossy())
                        }
                        _ => scalar_text(x),
                    };
                    out.push_str(&format!("{inner}{text},\n"));
                }
                out.push_str(&format!("{indent}]\n"));
            }
        }
        (FieldKind::Message(m), Shape::Vec | Shape::Fixed(_), Value::Table(t)) => {
            let items: Vec<Table> = t.clone().sequence_values::<Table>().flatten().collect();
            if items.is_empty() {
                out.push_str(&format!("{prefix}[]\n"));
            } else {
                out.push_str(&format!("{prefix}[\n"));
                for x in &items {
                    format_message(x, m, &format!("{inner}  "), out);
                }
                out.push_str(&format!("{inner}]\n"));
            }
        }
        (FieldKind::Message(m), Shape::Scalar, Value::Table(t)) => {
            out.push_str(&format!("{prefix}\n"));
            format_message(t, m, &inner, out);
        }
        (FieldKind::Primitive(Primitive::String), Shape::Scalar, Value::String(s)) => {
            out.push_str(&format!("{prefix}\"{}\"\n", s.to_string_lossy()));
        }
        (_, _, other) => out.push_str(&format!("{prefix}{}\n", scalar_text(other))),
    }
}

/// `ros.SrvSpec(type[, text])`: `type`, `request_spec`, `response_spec`, `md5()`.
pub(crate) fn srv_spec_table(lua: &Lua, s: &Arc<SrvSchema>) -> mlua::Result<Table> {
    let cache = registry_table(lua, "skipper.srvspecs")?;
    if let Some(t) = cache.raw_get::<Option<Table>>(s.name())? {
        return Ok(t);
    }
    let t = lua.create_table()?;
    let (pkg, short) = s.name().split_once('/').unwrap_or(("", s.name()));
    t.raw_set("type", s.name())?;
    t.raw_set("package", pkg)?;
    t.raw_set("short_type", short)?;
    t.raw_set("md5sum", s.md5sum())?;
    t.raw_set("request_spec", spec_table(lua, s.request())?)?;
    t.raw_set("response_spec", spec_table(lua, s.response())?)?;
    t.set_metatable(Some(class_meta(lua, "skipper.SrvSpec")?))?;
    cache.raw_set(s.name(), t.clone())?;
    Ok(t)
}

/// `ros.actionlib.ActionSpec(type[, text])`: the seven messages' specs.
pub(crate) fn action_spec_table(lua: &Lua, a: &Arc<ActionSchema>) -> mlua::Result<Table> {
    let cache = registry_table(lua, "skipper.actionspecs")?;
    if let Some(t) = cache.raw_get::<Option<Table>>(a.name())? {
        return Ok(t);
    }
    let t = lua.create_table()?;
    let (pkg, short) = a.name().split_once('/').unwrap_or(("", a.name()));
    t.raw_set("type", a.name())?;
    t.raw_set("package", pkg)?;
    t.raw_set("short_type", short)?;
    for (k, s) in [
        ("goal_spec", a.goal()),
        ("result_spec", a.result()),
        ("feedback_spec", a.feedback()),
        ("action_goal_spec", a.action_goal()),
        ("action_result_spec", a.action_result()),
        ("action_feedback_spec", a.action_feedback()),
    ] {
        t.raw_set(k, spec_table(lua, s)?)?;
    }
    t.set_metatable(Some(class_meta(lua, "skipper.ActionSpec")?))?;
    cache.raw_set(a.name(), t.clone())?;
    Ok(t)
}

/// An action type from a type name or an `ActionSpec` table.
pub(crate) fn action_arg(lua: &Lua, v: &Value) -> mlua::Result<Arc<ActionSchema>> {
    let name = match v {
        Value::String(s) => s.to_str()?.to_string(),
        Value::Table(t) => match t.raw_get::<Value>("type")? {
            Value::String(s) => s.to_str()?.to_string(),
            _ => {
                return Err(fail(
                    lua,
                    "expected an action type name or a ros.actionlib.ActionSpec",
                ))
            }
        },
        _ => {
            return Err(fail(
                lua,
                "expected an action type name or a ros.actionlib.ActionSpec",
            ))
        }
    };
    loader().action(&name).map_err(|e| fail(lua, e))
}

/// A service type from a type name or a `SrvSpec` table.
pub(crate) fn srv_arg(lua: &Lua, v: &Value) -> mlua::Result<Arc<SrvSchema>> {
    let name = match v {
        Value::String(s) => s.to_str()?.to_string(),
        Value::Table(t) => match t.raw_get::<Value>("type")? {
            Value::String(s) => s.to_str()?.to_string(),
            _ => return Err(fail(lua, "expected a service type name or a ros.SrvSpec")),
        },
        _ => return Err(fail(lua, "expected a service type name or a ros.SrvSpec")),
    };
    loader().service(&name).map_err(|e| fail(lua, e))
}

/// `ros.MsgSpec`, `ros.SrvSpec`, `ros.Message`, `ros.actionlib.ActionSpec`.
pub(crate) fn install(lua: &Lua, ros: &Table, actionlib: &Table) -> mlua::Result<()> {
    ros.raw_set(
        "MsgSpec",
        lua.create_function(|lua, (ty, text): (String, Option<String>)| {
            let s = match text {
                Some(text) => loader().add_msg(&ty, &text).map_err(|e| fail(lua, e))?,
                None => message_schema(lua, &ty)?,
            };
            spec_table(lua, &s)
        })?,
    )?;
    ros.raw_set(
        "get_msgspec",
        lua.create_function(|lua, ty: String| spec_table(lua, &message_schema(lua, &ty)?))?,
    )?;
    ros.raw_set(
        "SrvSpec",
        lua.create_function(|lua, (ty, text): (String, Option<String>)| {
            let s = match text {
                Some(text) => loader().add_srv(&ty, &text).map_err(|e| fail(lua, e))?,
                None => loader().service(&ty).map_err(|e| fail(lua, e))?,
            };
            srv_spec_table(lua, &s)
        })?,
    )?;
    actionlib.raw_set(
        "ActionSpec",
        lua.create_function(|lua, (ty, text): (String, Option<String>)| {
            let a = match text {
                Some(text) => loader().add_action(&ty, &text).map_err(|e| fail(lua, e))?,
                None => loader().action(&ty).map_err(|e| fail(lua, e))?,
            };
            action_spec_table(lua, &a)
        })?,
    )?;
    ros.raw_set(
        "Message",
        lua.create_function(|lua, (spec, no_prefill): (Value, Option<bool>)| {
            let s = schema_arg(lua, &spec)?;
            if no_prefill == Some(true) {
                let t = lua.create_table()?;
                t.set_metatable(Some(message_meta(lua, &s)?))?;
                return Ok(t);
            }
            new_message(lua, &s)
        })?,
    )?;
    // for the prelude: the print form of a spec, and messages' metatables
    ros.raw_set(
        "_format_spec",
        lua.create_function(|lua, (spec, indent): (Value, Option<String>)| {
            let s = schema_arg(lua, &spec)?;
            let mut out = String::new();
            format_spec(&s, indent.as_deref().unwrap_or(""), &mut out);
            Ok(out)
        })?,
    )?;
    Ok(())
}

/// torch-ros's print form of a spec: `Message type`, `Fields:`, one `type name` line per
/// field (nested specs below, indented), `MD5:    md5sum`.
fn format_spec(s: &MsgSchema, indent: &str, out: &mut String) {
    out.push_str(&format!("{indent}Message {}\n{indent}Fields:\n", s.name()));
    for f in s.fields() {
        out.push_str(&format!("{indent}  {} {}\n", resolved_type(f), f.name));
        if let FieldKind::Message(m) = &f.kind {
            format_spec(m, &format!("{indent}    "), out);
        }
    }
    out.push_str(&format!("{indent}MD5:    {}\n", s.md5sum()));
}

#[cfg(test)]
mod tests {
    use super::fmt_number;

    #[test]
    fn numbers_print_as_luajit_prints_them() {
        for (x, want) in [
            (0.0, "0"),
            (1.0, "1"),
            (0.5, "0.5"),
            (-2.25, "-2.25"),
            (1.0 / 3.0, "0.33333333333333"),
            (123456789012345.0, "1.2345678901234e+14"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (100.0, "100"),
        ] {
            assert_eq!(fmt_number(x), want, "{x}");
        }
    }
}
