//! Message values whose type is known only at run time: a [`DynMessage`] holds one
//! [`Value`] per field of its [`MsgSchema`], always of the field's type (every way in
//! checks it), so it encodes without failing. Decoding checks every length against what
//! is left and bounds what it allocates by the bytes it is given: arrays of fixed-size
//! builtins are kept as their wire bytes ([`Array::Packed`]), a count is refused when its
//! elements could not fit in the bytes left, and an array of types that take no bytes at
//! all (empty messages) may hold at most [`MAX_EMPTY_ELEMENTS`].

use super::parse::{Primitive, Shape};
use super::schema::{FieldKind, FieldSchema, MsgSchema};
use super::{DecodeError, Field, Reader};
use crate::time::{RosDuration, Time};
use std::fmt;
use std::sync::Arc;

/// The most elements an array of zero-size elements may have when decoded.
pub const MAX_EMPTY_ELEMENTS: usize = 1 << 16;

/// One field's value.
#[derive(Clone, PartialEq)]
pub enum Value {
    /// `bool`
    Bool(bool),
    /// `int8` / `byte`
    I8(i8),
    /// `uint8` / `char`
    U8(u8),
    /// `int16`
    I16(i16),
    /// `uint16`
    U16(u16),
    /// `int32`
    I32(i32),
    /// `uint32`
    U32(u32),
    /// `int64`
    I64(i64),
    /// `uint64`
    U64(u64),
    /// `float32`
    F32(f32),
    /// `float64`
    F64(f64),
    /// `string`
    String(String),
    /// `time`
    Time(Time),
    /// `duration`
    Duration(RosDuration),
    /// a nested message
    Message(DynMessage),
    /// an array (`T[]` or `T[N]`)
    Array(Array),
}

/// An array's elements.
#[derive(Clone, PartialEq)]
pub enum Array {
    /// Fixed-size builtins (every primitive but `string`), kept as their little-endian
    /// wire bytes: `bytes.len()` is the count times the element's size.
    Packed {
        /// the element type
        elem: Primitive,
        /// the elements' bytes
        bytes: Vec<u8>,
    },
    /// `string[]`
    Strings(Vec<String>),
    /// messages
    Messages(Vec<DynMessage>),
}

/// A message of a type known at run time.
#[derive(Clone)]
pub struct DynMessage {
    schema: Arc<MsgSchema>,
    values: Vec<Value>,
}

impl PartialEq for DynMessage {
    fn eq(&self, o: &Self) -> bool {
        same_type(&self.schema, &o.schema) && self.values == o.values
    }
}

/// Whether two schemas are the same type (the same object, or the same name and md5sum).
pub fn same_type(a: &Arc<MsgSchema>, b: &Arc<MsgSchema>) -> bool {
    Arc::ptr_eq(a, b) || (a.name == b.name && a.md5 == b.md5)
}

/// Why a value does not fit a field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// No field of that name.
    #[error("{ty} has no field `{field}` (its fields are {fields})")]
    NoField {
        /// the message type
        ty: String,
        /// the name asked for
        field: String,
        /// the fields it has
        fields: String,
    },
    /// A value of the wrong type.
    #[error("{path}: expected {want}, got {got}")]
    WrongType {
        /// the field (`pose.position.x`)
        path: String,
        /// the field's type
        want: String,
        /// what was given
        got: String,
    },
}

fn zero(p: Primitive) -> Value {
    match p {
        Primitive::Bool => Value::Bool(false),
        Primitive::Int8 => Value::I8(0),
        Primitive::UInt8 => Value::U8(0),
        Primitive::Int16 => Value::I16(0),
        Primitive::UInt16 => Value::U16(0),
        Primitive::Int32 => Value::I32(0),
        Primitive::UInt32 => Value::U32(0),
        Primitive::Int64 => Value::I64(0),
        Primitive::UInt64 => Value::U64(0),
        Primitive::Float32 => Value::F32(0.0),
        Primitive::Float64 => Value::F64(0.0),
        Primitive::String => Value::String(String::new()),
        Primitive::Time => Value::Time(Time::ZERO),
        Primitive::Duration => Value::Duration(RosDuration::default()),
    }
}

/// The default value of a field: zero, empty, or `N` defaults for `T[N]`.
pub fn default_value(f: &FieldSchema) -> Value {
    let n = match f.shape {
        Shape::Scalar => {
            return match &f.kind {
                FieldKind::Primitive(p) => zero(*p),
                FieldKind::Message(m) => Value::Message(DynMessage::new(m.clone())),
            }
        }
        Shape::Vec => 0,
        Shape::Fixed(n) => n,
    };
    Value::Array(match &f.kind {
        FieldKind::Primitive(Primitive::String) => Array::Strings(vec![String::new(); n]),
        FieldKind::Primitive(p) => Array::Packed {
            elem: *p,
            bytes: vec![0; n * p.size().unwrap_or(1)],
        },
        FieldKind::Message(m) => Array::Messages(vec![DynMessage::new(m.clone()); n]),
    })
}

impl Value {
    /// The primitive this scalar is, if it is one.
    pub fn primitive(&self) -> Option<Primitive> {
        Some(match self {
            Value::Bool(_) => Primitive::Bool,
            Value::I8(_) => Primitive::Int8,
            Value::U8(_) => Primitive::UInt8,
            Value::I16(_) => Primitive::Int16,
            Value::U16(_) => Primitive::UInt16,
            Value::I32(_) => Primitive::Int32,
            Value::U32(_) => Primitive::UInt32,
            Value::I64(_) => Primitive::Int64,
            Value::U64(_) => Primitive::UInt64,
            Value::F32(_) => Primitive::Float32,
            Value::F64(_) => Primitive::Float64,
            Value::String(_) => Primitive::String,
            Value::Time(_) => Primitive::Time,
            Value::Duration(_) => Primitive::Duration,
            Value::Message(_) | Value::Array(_) => return None,
        })
    }
    /// A number as `f64` (integers converted, `None` for anything else).
    pub fn as_f64(&self) -> Option<f64> {
        Some(match *self {
            Value::I8(x) => x.into(),
            Value::U8(x) => x.into(),
            Value::I16(x) => x.into(),
            Value::U16(x) => x.into(),
            Value::I32(x) => x.into(),
            Value::U32(x) => x.into(),
            Value::I64(x) => x as f64,
            Value::U64(x) => x as f64,
            Value::F32(x) => x.into(),
            Value::F64(x) => x,
            _ => return None,
        })
    }
    /// An integer as `i128` (`None` for anything else).
    pub fn as_int(&self) -> Option<i128> {
        Some(match *self {
            Value::I8(x) => x.into(),
            Value::U8(x) => x.into(),
            Value::I16(x) => x.into(),
            Value::U16(x) => x.into(),
            Value::I32(x) => x.into(),
            Value::U32(x) => x.into(),
            Value::I64(x) => x.into(),
            Value::U64(x) => x.into(),
            _ => return None,
        })
    }
    /// A string's text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    /// A bool.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// A nested message.
    pub fn as_message(&self) -> Option<&DynMessage> {
        match self {
            Value::Message(m) => Some(m),
            _ => None,
        }
    }
    /// An array.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    fn describe(&self) -> String {
        match self {
            Value::Message(m) => format!("a {}", m.schema.name),
            Value::Array(a) => format!("an array of {} {}", a.len(), a.element_name()),
            v => format!("a {}", v.primitive().map(Primitive::name).unwrap_or("?")),
        }
    }
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Value::Bool(x) => x.put(w),
            Value::I8(x) => x.put(w),
            Value::U8(x) => x.put(w),
            Value::I16(x) => x.put(w),
            Value::U16(x) => x.put(w),
            Value::I32(x) => x.put(w),
            Value::U32(x) => x.put(w),
            Value::I64(x) => x.put(w),
            Value::U64(x) => x.put(w),
            Value::F32(x) => x.put(w),
            Value::F64(x) => x.put(w),
            Value::String(x) => x.put(w),
            Value::Time(x) => x.put(w),
            Value::Duration(x) => x.put(w),
            Value::Message(m) => m.encode(w),
            Value::Array(a) => match a {
                Array::Packed { bytes, .. } => w.extend_from_slice(bytes),
                Array::Strings(v) => v.iter().for_each(|s| s.put(w)),
                Array::Messages(v) => v.iter().for_each(|m| m.encode(w)),
            },
        }
    }
}

/// Read one scalar of type `p`.
fn get_primitive(p: Primitive, r: &mut Reader<'_>) -> Result<Value, DecodeError> {
    Ok(match p {
        Primitive::Bool => Value::Bool(bool::get(r)?),
        Primitive::Int8 => Value::I8(i8::get(r)?),
        Primitive::UInt8 => Value::U8(u8::get(r)?),
        Primitive::Int16 => Value::I16(i16::get(r)?),
        Primitive::UInt16 => Value::U16(u16::get(r)?),
        Primitive::Int32 => Value::I32(i32::get(r)?),
        Primitive::UInt32 => Value::U32(u32::get(r)?),
        Primitive::Int64 => Value::I64(i64::get(r)?),
        Primitive::UInt64 => Value::U64(u64::get(r)?),
        Primitive::Float32 => Value::F32(f32::get(r)?),
        Primitive::Float64 => Value::F64(f64::get(r)?),
        Primitive::String => Value::String(String::get(r)?),
        Primitive::Time => Value::Time(Time::get(r)?),
        Primitive::Duration => Value::Duration(RosDuration::get(r)?),
    })
}

impl Array {
    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            Array::Packed { elem, bytes } => bytes.len() / elem.size().unwrap_or(1).max(1),
            Array::Strings(v) => v.len(),
            Array::Messages(v) => v.len(),
        }
    }
    /// `true` without elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `i` as a value.
    pub fn get(&self, i: usize) -> Option<Value> {
        match self {
            Array::Packed { elem, bytes } => {
                let size = elem.size()?;
                let b = bytes.get(i.checked_mul(size)?..(i + 1).checked_mul(size)?)?;
                get_primitive(*elem, &mut Reader::new(b)).ok()
            }
            Array::Strings(v) => v.get(i).cloned().map(Value::String),
            Array::Messages(v) => v.get(i).cloned().map(Value::Message),
        }
    }
    /// The elements as values.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        (0..self.len()).filter_map(move |i| self.get(i))
    }
    /// `float64[]` from numbers.
    pub fn from_f64s(v: &[f64]) -> Self {
        let mut bytes = Vec::with_capacity(v.len() * 8);
        v.iter().for_each(|x| x.put(&mut bytes));
        Array::Packed {
            elem: Primitive::Float64,
            bytes,
        }
    }
    /// An array of `elem` from scalar values of that type (`None` if one is not).
    pub fn from_values(elem: Primitive, values: &[Value]) -> Option<Self> {
        if elem == Primitive::String {
            return values
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .map(Array::Strings);
        }
        let mut bytes = Vec::with_capacity(values.len() * elem.size().unwrap_or(1));
        for v in values {
            if v.primitive() != Some(elem) {
                return None;
            }
            v.put(&mut bytes);
        }
        Some(Array::Packed { elem, bytes })
    }
    fn element_name(&self) -> &str {
        match self {
            Array::Packed { elem, .. } => elem.name(),
            Array::Strings(_) => "string",
            Array::Messages(v) => v.first().map(|m| m.schema.name()).unwrap_or("messages"),
        }
    }
}

/// Whether `v` is a value of field `f`'s type.
fn fits(f: &FieldSchema, v: &Value) -> bool {
    let elem_ok = |m: &Arc<MsgSchema>, x: &DynMessage| same_type(m, &x.schema);
    let count_ok = |n: usize| match f.shape {
        Shape::Fixed(want) => n == want,
        _ => true,
    };
    match (f.shape, &f.kind, v) {
        (Shape::Scalar, FieldKind::Primitive(p), v) => v.primitive() == Some(*p),
        (Shape::Scalar, FieldKind::Message(m), Value::Message(x)) => elem_ok(m, x),
        (_, FieldKind::Primitive(Primitive::String), Value::Array(Array::Strings(s))) => {
            f.shape != Shape::Scalar && count_ok(s.len())
        }
        (_, FieldKind::Primitive(p), Value::Array(a @ Array::Packed { elem, .. })) => {
            f.shape != Shape::Scalar && elem == p && count_ok(a.len())
        }
        (_, FieldKind::Message(m), Value::Array(Array::Messages(v))) => {
            f.shape != Shape::Scalar && count_ok(v.len()) && v.iter().all(|x| elem_ok(m, x))
        }
        _ => false,
    }
}

fn type_text(f: &FieldSchema) -> String {
    match f.shape {
        Shape::Scalar => f.element_type().to_string(),
        Shape::Vec => format!("{}[]", f.element_type()),
        Shape::Fixed(n) => format!("{}[{n}]", f.element_type()),
    }
}

impl DynMessage {
    /// A message of type `schema` with every field at its default (zero, empty).
    pub fn new(schema: Arc<MsgSchema>) -> Self {
        let values = schema.fields.iter().map(default_value).collect();
        Self { schema, values }
    }
    /// Its type.
    pub fn schema(&self) -> &Arc<MsgSchema> {
        &self.schema
    }
    /// The value of field `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        let (i, _) = self.schema.field(name)?;
        self.values.get(i)
    }
    /// The value at a dotted path (`pose.position.x`).
    pub fn path(&self, path: &str) -> Option<&Value> {
        let mut parts = path.split('.');
        let mut v = self.get(parts.next()?)?;
        for p in parts {
            v = v.as_message()?.get(p)?;
        }
        Some(v)
    }
    /// The fields and their values, in wire order.
    pub fn fields(&self) -> impl Iterator<Item = (&FieldSchema, &Value)> {
        self.schema.fields.iter().zip(&self.values)
    }
    /// The nested message in field `name`, to change it in place.
    pub fn message_mut(&mut self, name: &str) -> Option<&mut DynMessage> {
        let (i, _) = self.schema.field(name)?;
        match self.values.get_mut(i) {
            Some(Value::Message(m)) => Some(m),
            _ => None,
        }
    }
    /// Set field `name` to `v`, which must be of the field's type.
    pub fn set(&mut self, name: &str, v: Value) -> Result<(), ValueError> {
        let (i, f) = self.schema.field(name).ok_or_else(|| self.no_field(name))?;
        if !fits(f, &v) {
            return Err(ValueError::WrongType {
                path: name.to_string(),
                want: type_text(f),
                got: v.describe(),
            });
        }
        self.values[i] = v;
        Ok(())
    }
    /// Set the value at a dotted path (`pose.position.x`).
    pub fn set_path(&mut self, path: &str, v: Value) -> Result<(), ValueError> {
        match path.split_once('.') {
            None => self.set(path, v),
            Some((head, rest)) => {
                let ty = self.schema.name.clone();
                let m = self
                    .message_mut(head)
                    .ok_or_else(|| ValueError::WrongType {
                        path: head.to_string(),
                        want: format!("a message field of {ty}"),
                        got: "a path into something else".into(),
                    })?;
                m.set_path(rest, v).map_err(|e| prefix(head, e))
            }
        }
    }
    pub(crate) fn no_field(&self, name: &str) -> ValueError {
        ValueError::NoField {
            ty: self.schema.name.clone(),
            field: name.to_string(),
            fields: self
                .schema
                .fields
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
    /// Append the serialised body.
    pub fn encode(&self, w: &mut Vec<u8>) {
        for (f, v) in self.fields() {
            if f.shape == Shape::Vec {
                if let Value::Array(a) = v {
                    (a.len() as u32).put(w);
                }
            }
            v.put(w);
        }
    }
    /// The serialised body.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Vec::new();
        self.encode(&mut w);
        w
    }
    /// Decode a whole message body of type `schema`.
    pub fn decode(schema: &Arc<MsgSchema>, bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes);
        let m = Self::decode_fields(schema, &mut r)?;
        r.finish()?;
        Ok(m)
    }
    /// Read the fields of a `schema` message (the caller checks for bytes left over).
    pub fn decode_fields(schema: &Arc<MsgSchema>, r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let mut values = Vec::with_capacity(schema.fields.len());
        for f in &schema.fields {
            values.push(decode_field(f, r)?);
        }
        Ok(Self {
            schema: schema.clone(),
            values,
        })
    }
}

pub(crate) fn prefix(head: &str, e: ValueError) -> ValueError {
    match e {
        ValueError::WrongType { path, want, got } => ValueError::WrongType {
            path: format!("{head}.{path}"),
            want,
            got,
        },
        e => e,
    }
}

fn decode_field(f: &FieldSchema, r: &mut Reader<'_>) -> Result<Value, DecodeError> {
    let n = match f.shape {
        Shape::Scalar => {
            return match &f.kind {
                FieldKind::Primitive(p) => get_primitive(*p, r),
                FieldKind::Message(m) => DynMessage::decode_fields(m, r).map(Value::Message),
            }
        }
        Shape::Fixed(n) => n,
        Shape::Vec => {
            let offset = r.pos;
            let n = u32::get(r)? as usize;
            let min = match &f.kind {
                FieldKind::Primitive(p) => p.size().unwrap_or(4),
                FieldKind::Message(m) => m.min_size,
            };
            let too_many = if min == 0 {
                n > MAX_EMPTY_ELEMENTS
            } else {
                n.saturating_mul(min) > r.remaining()
            };
            if too_many {
                return Err(DecodeError::BadLength {
                    offset,
                    len: n,
                    left: r.remaining(),
                });
            }
            n
        }
    };
    Ok(Value::Array(match &f.kind {
        FieldKind::Primitive(Primitive::String) => {
            let mut v = Vec::with_capacity(n.min(r.remaining() / 4));
            for _ in 0..n {
                v.push(String::get(r)?);
            }
            Array::Strings(v)
        }
        FieldKind::Primitive(p) => {
            let size = p.size().unwrap_or(1);
            let bytes = r.take(n.saturating_mul(size))?;
            if *p == Primitive::Bool {
                // any non-zero byte is true; keep bools canonical
                Array::Packed {
                    elem: *p,
                    bytes: bytes.iter().map(|&b| u8::from(b != 0)).collect(),
                }
            } else {
                Array::Packed {
                    elem: *p,
                    bytes: bytes.to_vec(),
                }
            }
        }
        FieldKind::Message(m) => {
            let cap = n.min(
                r.remaining()
                    .checked_div(m.min_size)
                    .unwrap_or(MAX_EMPTY_ELEMENTS),
            );
            let mut v = Vec::with_capacity(cap);
            for _ in 0..n {
                v.push(DynMessage::decode_fields(m, r)?);
            }
            Array::Messages(v)
        }
    }))
}

impl fmt::Debug for DynMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.schema.name, super::json::to_json(self))
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", super::json::value_to_json(self))
    }
}

impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
