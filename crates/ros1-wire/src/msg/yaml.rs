//! YAML for runtime messages, as the ROS command-line tools write and read it:
//!
//! - [`to_yaml`] prints a message the way `rostopic echo` does (genpy's layout: `field:
//!   value` lines, nested messages and times indented by two spaces under `field: `,
//!   lists of numbers in brackets, lists of messages as `- ` items, strings in double
//!   quotes, floats as Python prints them, `True` / `False`);
//! - [`message_from_args`] builds a message from command-line arguments, each either
//!   `path=value` (`x=2`, `target_pose.pose.position.x=1.5`; a string field takes the
//!   text as it is, any other field a YAML value) or a YAML mapping as `rostopic pub`
//!   takes it (`'{order: 5}'`, `'{target_pose: {header: {frame_id: map}}}'`).

use super::dynamic::{Array, DynMessage, Value, ValueError};
use super::json::{field_from_json, merge_json};
use super::parse::{Primitive, Shape};
use super::schema::{FieldKind, MsgSchema};
use serde_json::{Map, Number, Value as Json};
use std::fmt::Write as _;
use std::sync::Arc;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::{Yaml, YamlLoader};

/// How deeply YAML input may nest.
const MAX_DEPTH: usize = 64;

/// A message as `rostopic echo` prints it (without the `---` line).
pub fn to_yaml(m: &DynMessage) -> String {
    let mut out = String::new();
    message(&mut out, m, "");
    out
}

fn message(out: &mut String, m: &DynMessage, indent: &str) {
    let inner = format!("{indent}  ");
    for (i, (f, v)) in m.fields().enumerate() {
        if i > 0 || !indent.is_empty() {
            out.push('\n');
        }
        let _ = write!(out, "{indent}{}: ", f.name);
        value(out, v, &inner);
    }
}

fn value(out: &mut String, v: &Value, indent: &str) {
    match v {
        Value::Bool(b) => out.push_str(if *b { "True" } else { "False" }),
        Value::F32(x) => out.push_str(&py_float(f64::from(*x))),
        Value::F64(x) => out.push_str(&py_float(*x)),
        Value::String(s) => out.push_str(&quoted(s)),
        Value::Time(t) => {
            let _ = write!(
                out,
                "\n{indent}secs: {}\n{indent}nsecs: {:9}",
                t.secs, t.nsecs
            );
        }
        Value::Duration(d) => {
            let _ = write!(
                out,
                "\n{indent}secs: {}\n{indent}nsecs: {:9}",
                d.secs, d.nsecs
            );
        }
        Value::Message(m) => message(out, m, indent),
        Value::Array(a) => array(out, a, indent),
        v => {
            if let Some(n) = v.as_int() {
                let _ = write!(out, "{n}");
            }
        }
    }
}

fn array(out: &mut String, a: &Array, indent: &str) {
    if a.is_empty() {
        out.push_str("[]");
        return;
    }
    match a {
        Array::Packed {
            elem: Primitive::Time | Primitive::Duration,
            ..
        }
        | Array::Messages(_) => {
            let inner = format!("{indent}  ");
            for v in a.iter() {
                let _ = write!(out, "\n{indent}- ");
                value(out, &v, &inner);
            }
        }
        Array::Strings(v) => {
            for s in v {
                let _ = write!(out, "\n{indent}- {}", plain_or_quoted(s));
            }
        }
        Array::Packed { .. } => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                value(out, &v, indent);
            }
            out.push(']');
        }
    }
}

/// A string as genpy writes it: `''` when empty, else YAML double-quoted.
fn quoted(s: &str) -> String {
    if s.is_empty() {
        return "''".into();
    }
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            '\r' => q.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(q, "\\x{:02X}", c as u32);
            }
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// A list item as PyYAML writes it: plain when that reads back as the same string.
fn plain_or_quoted(s: &str) -> String {
    let special = s.is_empty()
        || s.trim() != s
        || s.starts_with(|c: char| "!&*-?:,[]{}#|>@`'\"%".contains(c))
        || s.contains(": ")
        || s.contains(" #")
        || s.chars().any(|c| c.is_control())
        || matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
        )
        || s.parse::<f64>().is_ok();
    if special {
        format!("'{}'", s.replace('\'', "''"))
    } else {
        s.to_string()
    }
}

/// A float as Python's `str()` prints it ([`crate::python`], which ROS 2's output
/// shares).
pub use crate::python::float_repr as py_float;

/// What is wrong with command-line message input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// YAML that does not parse.
    #[error("`{text}` is not YAML: {msg}")]
    Yaml {
        /// the argument
        text: String,
        /// the parser's message
        msg: String,
    },
    /// YAML that is not a mapping of fields.
    #[error("`{0}` is not FIELD=VALUE nor a YAML mapping of fields ({{field: value, ...}})")]
    NotMapping(String),
    /// A value that does not fit its field.
    #[error("{0}")]
    Value(#[from] ValueError),
}

/// Parse a YAML document into JSON (YAML's numbers, strings, bools, lists and mappings;
/// keys become strings).
pub fn parse_yaml(text: &str) -> Result<Json, InputError> {
    let error = |msg| InputError::Yaml {
        text: text.to_string(),
        msg,
    };
    if let Some(msg) = DocShape::of(text) {
        return Err(error(msg));
    }
    let docs = YamlLoader::load_from_str(text).map_err(|e| error(e.to_string()))?;
    let doc = docs.into_iter().next().unwrap_or(Yaml::Null);
    yaml_to_json(&doc).map_err(error)
}

/// The shape of the document `text` loads as, measured on the parser's events one at a
/// time before the loader runs: how deep it nests (the loader builds by recursion, a
/// call or two per level, so YAML nested hundreds deep overflowed the stack; found by
/// the `command_line` fuzz target) and how many values its aliases add (the loader
/// copies an anchored value for every alias, so ten aliases of ten aliases of ... grow
/// exponentially: "billion laughs").
#[derive(Default)]
struct DocShape {
    /// the collections open around the parser's position
    open: Vec<Open>,
    /// each anchor's value: (values in it, height)
    anchors: std::collections::HashMap<usize, (usize, usize)>,
    /// values so far, aliases counted as the values they copy
    values: usize,
    /// values the aliases added
    copied: usize,
}

/// A collection being parsed.
struct Open {
    /// its anchor id (0: none)
    anchor: usize,
    /// [`DocShape::values`] before it began
    values_before: usize,
    /// the height of its tallest value so far
    tallest: usize,
}

/// How many values aliases may add to one document.
const MAX_ALIAS_VALUES: usize = 100_000;

impl DocShape {
    /// What makes `text` too big to load, if anything (a syntax error is left to the
    /// loader, which reports it).
    fn of(text: &str) -> Option<String> {
        let mut shape = DocShape::default();
        let mut parser = Parser::new_from_str(text);
        loop {
            let height = match parser.next_token() {
                Ok((Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _), _)) => {
                    shape.open.push(Open {
                        anchor,
                        values_before: shape.values,
                        tallest: 0,
                    });
                    shape.values += 1;
                    0
                }
                Ok((Event::SequenceEnd | Event::MappingEnd, _)) => match shape.open.pop() {
                    Some(o) => shape.ended(o.anchor, shape.values - o.values_before, o.tallest + 1),
                    None => 0,
                },
                Ok((Event::Scalar(_, _, anchor, _), _)) => {
                    shape.values += 1;
                    shape.ended(anchor, 1, 0)
                }
                Ok((Event::Alias(id), _)) => {
                    let (size, height) = shape.anchors.get(&id).copied().unwrap_or((1, 0));
                    shape.values += size;
                    shape.copied += size;
                    shape.ended(0, size, height)
                }
                Ok((Event::StreamEnd, _)) | Err(_) => return None,
                Ok(_) => 0,
            };
            if shape.open.len() + height > MAX_DEPTH {
                return Some(format!("nested more than {MAX_DEPTH} levels"));
            }
            if shape.copied > MAX_ALIAS_VALUES {
                return Some(format!(
                    "its aliases copy more than {MAX_ALIAS_VALUES} values"
                ));
            }
        }
    }

    /// A value of `size` values (itself and all inside it) and `height` levels of
    /// collections has ended: note it for its anchor and its parent. Returns `height`.
    fn ended(&mut self, anchor: usize, size: usize, height: usize) -> usize {
        if anchor > 0 {
            self.anchors.insert(anchor, (size, height));
        }
        if let Some(parent) = self.open.last_mut() {
            parent.tallest = parent.tallest.max(height);
        }
        height
    }
}

/// The JSON of a YAML document, or what in it has no JSON (the depth is bounded by
/// [`DocShape`] before the document is loaded).
fn yaml_to_json(y: &Yaml) -> Result<Json, String> {
    Ok(match y {
        Yaml::Real(s) => real_to_json(s)?,
        Yaml::Integer(i) => Json::from(*i),
        Yaml::String(s) => Json::String(s.clone()),
        Yaml::Boolean(b) => Json::Bool(*b),
        Yaml::Array(a) => Json::Array(a.iter().map(yaml_to_json).collect::<Result<_, _>>()?),
        Yaml::Hash(h) => {
            let mut o = Map::new();
            for (k, v) in h {
                let key = match k {
                    Yaml::String(s) | Yaml::Real(s) => s.clone(),
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    _ => return Err("a key that is a list, a mapping or empty".into()),
                };
                o.insert(key, yaml_to_json(v)?);
            }
            Json::Object(o)
        }
        Yaml::Null => Json::Null,
        // the loader copies an alias's value in, so `Alias` does not reach here;
        // `BadValue` is what it makes of a value it cannot read (`!!float abc`)
        Yaml::Alias(_) | Yaml::BadValue => return Err("a value it cannot read".into()),
    })
}

/// A YAML float as JSON: a number, or `"inf"`, `"-inf"`, `"nan"` as strings (JSON has
/// no such numbers; the field reader takes them back).
fn real_to_json(s: &str) -> Result<Json, String> {
    let x = match s.trim_start_matches('+') {
        ".inf" | ".Inf" | ".INF" => f64::INFINITY,
        "-.inf" | "-.Inf" | "-.INF" => f64::NEG_INFINITY,
        ".nan" | ".NaN" | ".NAN" => f64::NAN,
        t => t.parse().map_err(|_| format!("`{s}` is not a number"))?,
    };
    Ok(Number::from_f64(x).map(Json::Number).unwrap_or_else(|| {
        Json::String(if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        })
    }))
}

/// Whether an argument is `path=value` (a field path, then `=`).
fn split_assignment(arg: &str) -> Option<(&str, &str)> {
    let (k, v) = arg.split_once('=')?;
    let ok = k.split('.').all(super::parse::is_field_name);
    ok.then_some((k, v))
}

/// The goal of action `action` (whose goal message is `goal`) from command-line
/// arguments, as [`message_from_args`] reads them; the error says what is wrong and lists
/// the goal's fields.
pub fn goal_from_args(
    action: &str,
    goal: &Arc<MsgSchema>,
    args: &[String],
) -> Result<DynMessage, String> {
    message_from_args(goal, args)
        .map_err(|e| format!("{e}\n(the goal of {action} has: {})", goal.describe()))
}

/// A message of type `schema` from command-line arguments: `path=value` pairs and YAML
/// mappings, applied in order over the defaults.
pub fn message_from_args(
    schema: &Arc<MsgSchema>,
    args: &[String],
) -> Result<DynMessage, InputError> {
    let mut m = DynMessage::new(schema.clone());
    for a in args {
        match split_assignment(a) {
            Some((path, text)) => assign(&mut m, path, text)?,
            None => {
                let j = parse_yaml(a)?;
                match j {
                    Json::Object(_) => merge_json(&mut m, &j)?,
                    Json::Null => {}
                    _ => return Err(InputError::NotMapping(a.clone())),
                }
            }
        }
    }
    Ok(m)
}

/// Set `path` (`a.b.c`) from the text after `=`.
fn assign(m: &mut DynMessage, path: &str, text: &str) -> Result<(), InputError> {
    let (head, rest) = match path.rsplit_once('.') {
        Some((h, r)) => (Some(h), r),
        None => (None, path),
    };
    // find the message that holds the last field, to know its type
    let holder = match head {
        None => m.schema().clone(),
        Some(h) => match m.path(h) {
            Some(Value::Message(x)) => x.schema().clone(),
            _ => {
                return Err(ValueError::WrongType {
                    path: h.to_string(),
                    want: format!("a message field of {}", m.schema().name()),
                    got: "something else".into(),
                }
                .into())
            }
        },
    };
    let (_, f) = holder.field(rest).ok_or_else(|| ValueError::NoField {
        ty: holder.name().to_string(),
        field: rest.to_string(),
        fields: holder
            .fields()
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    })?;
    let v = if matches!(f.kind, FieldKind::Primitive(Primitive::String)) && f.shape == Shape::Scalar
    {
        Value::String(text.to_string())
    } else {
        let j = parse_yaml(text)?;
        field_from_json(f, &j).map_err(|e| match e {
            ValueError::WrongType { want, got, .. } => ValueError::WrongType {
                path: path.to_string(),
                want,
                got,
            },
            e => e,
        })?
    };
    m.set_path(path, v)?;
    Ok(())
}

/// The message type [`fuzz_goal_args`] builds: every kind of field a goal can have.
const FUZZ_GOAL: &str = "float64 x\nint8 small\nuint32 count\nbool flag\nstring name\n\
time stamp\nduration wait\nfloat32[3] fixed\nuint8[] bytes\nstring[] words\n\
fuzz_msgs/Inner one\nfuzz_msgs/Inner[] many\n";

/// Feed command-line goal arguments to [`message_from_args`] (the fuzz target
/// `command_line` and its corpus replay): `data` split at newlines is the argument list.
/// A message that builds must print as YAML and JSON and encode to bytes that decode to
/// the same bytes again; a panic is a finding. Returns whether the arguments built one.
#[doc(hidden)]
pub fn fuzz_goal_args(data: &[u8]) -> bool {
    static SCHEMA: std::sync::OnceLock<Arc<MsgSchema>> = std::sync::OnceLock::new();
    let schema = SCHEMA.get_or_init(|| {
        let l = super::loader::TypeLoader::builtin_only();
        l.add_msg("fuzz_msgs/Inner", "int32 a\nstring b\nfloat64[] c\n")
            .and_then(|_| l.add_msg("fuzz_msgs/Goal", FUZZ_GOAL))
            .expect("the fuzz goal type")
    });
    let text = String::from_utf8_lossy(data);
    let args: Vec<String> = text.split('\n').map(str::to_string).collect();
    let Ok(m) = message_from_args(schema, &args) else {
        return false;
    };
    let _ = to_yaml(&m);
    let _ = super::json::to_json(&m);
    let bytes = m.to_bytes();
    let back = DynMessage::decode(schema, &bytes).expect("an encoded goal decodes");
    assert_eq!(back.to_bytes(), bytes, "a goal decodes to the bytes it was");
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_becomes_json() {
        let j = parse_yaml("{linear: {x: 0.3}, n: 3, s: hi, l: [1, 2.5], b: true}").unwrap();
        assert_eq!(
            j,
            serde_json::json!({"linear": {"x": 0.3}, "n": 3, "s": "hi", "l": [1, 2.5], "b": true})
        );
        assert!(parse_yaml("{a: [").is_err());
        let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(parse_yaml(&deep).is_err());
    }

    #[test]
    fn yaml_without_json_says_what_it_has() {
        for (text, says) in [
            ("{[1, 2]: 3}", "a key that is a list"),
            ("{a: !!float abc}", "a value it cannot read"),
        ] {
            match parse_yaml(text) {
                Err(InputError::Yaml { msg, .. }) => assert!(msg.contains(says), "{text}: {msg}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        let n = parse_yaml("{a: .inf, b: -.inf, c: 1.5}").unwrap();
        assert_eq!(n, serde_json::json!({"a": "inf", "b": "-inf", "c": 1.5}));
    }

    #[test]
    fn aliases_copy_values_up_to_a_bound() {
        let a = parse_yaml("{a: &x [1, 2], b: *x}").unwrap();
        assert_eq!(a, serde_json::json!({"a": [1, 2], "b": [1, 2]}));
        // "billion laughs": each level ten aliases of the one before, 10^6 values at the
        // sixth (the loader copied every one)
        let mut laughs = String::from("{l0: &l0 [x, x, x, x, x, x, x, x, x, x]");
        for i in 1..=6 {
            let p = format!("*l{}", i - 1);
            write!(laughs, ", l{i}: &l{i} [{}]", [p.as_str(); 10].join(", ")).unwrap();
        }
        laughs.push('}');
        match parse_yaml(&laughs) {
            Err(InputError::Yaml { msg, .. }) => assert!(msg.contains("aliases copy"), "{msg}"),
            other => panic!("{other:?}"),
        }
        // an alias of a deep value under a deep value nests as deep as both
        let deep = format!("{}1{}", "[".repeat(40), "]".repeat(40));
        let under = format!("{}*d{}", "[".repeat(30), "]".repeat(30));
        match parse_yaml(&format!("{{d: &d {deep}, u: {under}}}")) {
            Err(InputError::Yaml { msg, .. }) => assert!(msg.contains("nested"), "{msg}"),
            other => panic!("{other:?}"),
        }
        assert!(parse_yaml(&format!("{{d: &d {deep}, u: [*d]}}")).is_ok());
    }

    #[test]
    fn yaml_nested_thousands_deep_is_an_error_not_a_stack_overflow() {
        let n = 20_000;
        for deep in [
            format!("{}{}", "[".repeat(n), "]".repeat(n)),
            format!("{}1{}", "{a: ".repeat(n), "}".repeat(n)),
            format!("{}x", "- ".repeat(n)),
            (0..n).map(|i| format!("{}k:\n", " ".repeat(i))).collect(),
        ] {
            // (the scanner stops flow collections at 255 levels itself)
            match parse_yaml(&deep) {
                Err(InputError::Yaml { msg, .. }) => {
                    assert!(msg.contains("nested") || msg.contains("recursion"), "{msg}")
                }
                other => panic!("{other:?}"),
            }
        }
        // as deep as allowed still loads
        let ok = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse_yaml(&ok).is_ok());
    }
}
