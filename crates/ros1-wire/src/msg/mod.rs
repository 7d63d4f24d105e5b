//! ROS 1 messages: the binary serialisation ("rosmsg": little-endian, no padding, strings
//! and variable arrays prefixed by a `u32` length), and the two kinds of message type:
//!
//! - compiled in: a Rust struct that implements [`Message`], declared with the
//!   [`ros_message!`](crate::ros_message) macro (`GotoGoal`, `PoseStamped`, ...);
//! - known at run time: a [`schema::MsgSchema`] parsed from `.msg` text ([`parse`]) and
//!   found by type name on the package path ([`loader::TypeLoader`]), whose values are
//!   [`dynamic::DynMessage`]s (to and from JSON in [`json`], rostopic-style YAML in
//!   [`yaml`]).
//!
//! [`MessageType`] is what both kinds share: the state machines and transports encode,
//! decode and name messages through it, so every server, client, publisher and
//! subscriber works with either.
//!
//! Decoding never panics: every read is checked against the bytes that are left, and a
//! message with bytes left over is refused ([`DecodeError`]).

pub mod actionlib_msgs;
pub mod common;
pub mod defs;
pub mod dynamic;
pub mod json;
pub mod loader;
pub mod parse;
pub mod schema;
pub mod sensor;
pub mod skipper_msgs;
pub mod test_actions;
pub mod yaml;

use std::marker::PhantomData;
use std::sync::Arc;

use crate::time::{RosDuration, Time};

/// Why bytes did not decode into a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The bytes ended inside a field.
    #[error("truncated message: needed {needed} more bytes at offset {offset}")]
    Truncated {
        /// where the read started
        offset: usize,
        /// how many bytes were missing
        needed: usize,
    },
    /// A length or count larger than what is left of the message.
    #[error("length {len} at offset {offset} exceeds the {left} bytes left")]
    BadLength {
        /// where the length was read
        offset: usize,
        /// the length read
        len: usize,
        /// bytes left after it
        left: usize,
    },
    /// A string that is not UTF-8.
    #[error("string at offset {0} is not UTF-8")]
    NotUtf8(usize),
    /// Bytes left over after the last field.
    #[error("{0} bytes left over after the last field")]
    Trailing(usize),
}

/// Reads fields from a message body, checking every length.
#[derive(Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }
    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }
    /// Take the next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.buf.len());
        match end.and_then(|e| self.buf.get(self.pos..e)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(DecodeError::Truncated {
                offset: self.pos,
                needed: n.saturating_sub(self.remaining()),
            }),
        }
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    /// A `u32` byte length (of a string), checked against what is left. Element counts
    /// of arrays are read with [`Reader::count`].
    pub fn length(&mut self) -> Result<usize, DecodeError> {
        let offset = self.pos;
        let len = u32::from_le_bytes(self.array()?) as usize;
        if len > self.remaining() {
            return Err(DecodeError::BadLength {
                offset,
                len,
                left: self.remaining(),
            });
        }
        Ok(len)
    }
    /// A `u32` element count of an array whose elements take at least `min_size` bytes
    /// each on the wire, checked against what is left: the count can never ask for more
    /// elements than the bytes left could hold, so a capacity reserved from it is
    /// bounded by the message's own size.
    pub fn count(&mut self, min_size: usize) -> Result<usize, DecodeError> {
        let offset = self.pos;
        let n = u32::from_le_bytes(self.array()?) as usize;
        let left = self.remaining();
        if n > left / min_size.max(1) {
            return Err(DecodeError::BadLength {
                offset,
                len: n,
                left,
            });
        }
        Ok(n)
    }
    /// A string field, borrowed from the bytes.
    pub fn str(&mut self) -> Result<&'a str, DecodeError> {
        let len = self.length()?;
        let at = self.pos;
        let b = self.take(len)?;
        std::str::from_utf8(b).map_err(|_| DecodeError::NotUtf8(at))
    }
    /// Fail if bytes are left.
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(DecodeError::Trailing(n)),
        }
    }
}

/// A field type of a ROS message: how it is written and read.
pub trait Field: Sized {
    /// The fewest bytes a value of this type takes on the wire (an empty array or string
    /// still has its 4-byte length): what bounds the elements a count may ask for.
    const MIN_WIRE_SIZE: usize;
    /// Append the field's bytes.
    fn put(&self, w: &mut Vec<u8>);
    /// Read the field.
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError>;
}

macro_rules! le_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            const MIN_WIRE_SIZE: usize = std::mem::size_of::<$t>();
            fn put(&self, w: &mut Vec<u8>) {
                w.extend_from_slice(&self.to_le_bytes());
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                Ok(<$t>::from_le_bytes(r.array()?))
            }
        }
    )*};
}
le_field!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl Field for bool {
    const MIN_WIRE_SIZE: usize = 1;
    fn put(&self, w: &mut Vec<u8>) {
        w.push(u8::from(*self));
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(u8::get(r)? != 0)
    }
}

impl Field for String {
    const MIN_WIRE_SIZE: usize = 4;
    fn put(&self, w: &mut Vec<u8>) {
        (self.len() as u32).put(w);
        w.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.str().map(str::to_owned)
    }
}

impl Field for Time {
    const MIN_WIRE_SIZE: usize = 8;
    fn put(&self, w: &mut Vec<u8>) {
        self.secs.put(w);
        self.nsecs.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(Time {
            secs: u32::get(r)?,
            nsecs: u32::get(r)?,
        })
    }
}

impl Field for RosDuration {
    const MIN_WIRE_SIZE: usize = 8;
    fn put(&self, w: &mut Vec<u8>) {
        self.secs.put(w);
        self.nsecs.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(RosDuration {
            secs: i32::get(r)?,
            nsecs: i32::get(r)?,
        })
    }
}

impl<T: Field> Field for Vec<T> {
    const MIN_WIRE_SIZE: usize = 4;
    fn put(&self, w: &mut Vec<u8>) {
        (self.len() as u32).put(w);
        for x in self {
            x.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        // bounded by the bytes left over the element's smallest wire size
        let n = r.count(T::MIN_WIRE_SIZE)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(T::get(r)?);
        }
        Ok(v)
    }
}

impl<T: Field + Default + Copy, const N: usize> Field for [T; N] {
    const MIN_WIRE_SIZE: usize = N * T::MIN_WIRE_SIZE;
    fn put(&self, w: &mut Vec<u8>) {
        for x in self {
            x.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let mut a = [T::default(); N];
        for x in a.iter_mut() {
            *x = T::get(r)?;
        }
        Ok(a)
    }
}

/// A ROS 1 message type.
pub trait Message: Clone + Default + Send + Sync + std::fmt::Debug + 'static {
    /// The full type name, `package/Type`.
    fn type_name() -> &'static str;
    /// Append the serialised body (without the length prefix).
    fn encode(&self, w: &mut Vec<u8>);
    /// Read the fields (the caller checks that nothing is left over).
    fn decode_fields(r: &mut Reader<'_>) -> Result<Self, DecodeError>;

    /// Decode a whole message body.
    fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes);
        let m = Self::decode_fields(&mut r)?;
        r.finish()?;
        Ok(m)
    }
    /// The serialised body.
    fn to_bytes(&self) -> Vec<u8> {
        let mut w = Vec::new();
        self.encode(&mut w);
        w
    }
    /// The type's md5sum (from the definitions registered in [`defs`]).
    fn md5sum() -> &'static str {
        defs::md5sum(Self::type_name()).unwrap_or("*")
    }
    /// The full definition text (`message_definition` of the TCPROS header).
    fn definition() -> &'static str {
        defs::full_definition(Self::type_name()).unwrap_or("")
    }
}

/// A message type as the state machines and transports handle it, for values of type
/// `V`: a compiled-in [`Message`] ([`Typed<M>`], `V = M`) or a runtime schema
/// ([`schema::MsgSchema`], `V = DynMessage`).
pub trait MessageType<V>: Send + Sync {
    /// `package/Type`.
    fn type_name(&self) -> &str;
    /// The md5sum (`*` when the definition is unknown).
    fn md5sum(&self) -> &str;
    /// The full definition text.
    fn definition(&self) -> &str;
    /// A default-constructed message.
    fn default_value(&self) -> V;
    /// Append `v`'s serialised body.
    fn encode(&self, v: &V, w: &mut Vec<u8>);
    /// Read a message's fields (the caller checks that nothing is left over).
    fn decode_fields(&self, r: &mut Reader<'_>) -> Result<V, DecodeError>;
    /// `Err` with a reason when `v` is not a value of this type (a runtime message of
    /// another schema); compiled-in types always fit.
    fn check(&self, _v: &V) -> Result<(), String> {
        Ok(())
    }
    /// Decode a whole body.
    fn decode(&self, bytes: &[u8]) -> Result<V, DecodeError> {
        let mut r = Reader::new(bytes);
        let v = self.decode_fields(&mut r)?;
        r.finish()?;
        Ok(v)
    }
}

/// The [`MessageType`] of a compiled-in message `M`.
pub struct Typed<M>(PhantomData<fn() -> M>);

impl<M> Typed<M> {
    /// The type.
    pub const NEW: Self = Typed(PhantomData);
}

impl<M> Clone for Typed<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M> Copy for Typed<M> {}
impl<M> Default for Typed<M> {
    fn default() -> Self {
        Self::NEW
    }
}
impl<M> std::fmt::Debug for Typed<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Typed<{}>", std::any::type_name::<M>())
    }
}

impl<M: Message> MessageType<M> for Typed<M> {
    fn type_name(&self) -> &str {
        M::type_name()
    }
    fn md5sum(&self) -> &str {
        M::md5sum()
    }
    fn definition(&self) -> &str {
        M::definition()
    }
    fn default_value(&self) -> M {
        M::default()
    }
    fn encode(&self, v: &M, w: &mut Vec<u8>) {
        v.encode(w)
    }
    fn decode_fields(&self, r: &mut Reader<'_>) -> Result<M, DecodeError> {
        M::decode_fields(r)
    }
}

impl MessageType<dynamic::DynMessage> for Arc<schema::MsgSchema> {
    fn type_name(&self) -> &str {
        self.name()
    }
    fn md5sum(&self) -> &str {
        schema::MsgSchema::md5sum(self)
    }
    fn definition(&self) -> &str {
        schema::MsgSchema::definition(self)
    }
    fn default_value(&self) -> dynamic::DynMessage {
        dynamic::DynMessage::new(self.clone())
    }
    fn encode(&self, v: &dynamic::DynMessage, w: &mut Vec<u8>) {
        v.encode(w)
    }
    fn decode_fields(&self, r: &mut Reader<'_>) -> Result<dynamic::DynMessage, DecodeError> {
        dynamic::DynMessage::decode_fields(self, r)
    }
    fn check(&self, v: &dynamic::DynMessage) -> Result<(), String> {
        if dynamic::same_type(v.schema(), self) {
            Ok(())
        } else {
            Err(format!(
                "a {} where a {} is expected",
                v.schema().name(),
                self.name()
            ))
        }
    }
}

/// Declare a ROS message struct: its fields in wire order and its `package/Type` name.
///
/// ```
/// skipper_ros1_wire::ros_message! {
///     /// A point.
///     pub struct Point2 = "my_msgs/Point2" { pub x: f64, pub y: f64 }
/// }
/// ```
#[macro_export]
macro_rules! ros_message {
    ($(#[$m:meta])* $vis:vis struct $name:ident = $ty:literal {
        $( $(#[$fm:meta])* $fvis:vis $f:ident : $ft:ty ),* $(,)?
    }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Default, PartialEq)]
        $vis struct $name { $( $(#[$fm])* $fvis $f: $ft ),* }
        impl $crate::msg::Message for $name {
            fn type_name() -> &'static str { $ty }
            #[allow(unused_variables)]
            fn encode(&self, w: &mut Vec<u8>) { $( $crate::msg::Field::put(&self.$f, w); )* }
            #[allow(unused_variables)]
            fn decode_fields(r: &mut $crate::msg::Reader<'_>) -> Result<Self, $crate::msg::DecodeError> {
                Ok(Self { $( $f: $crate::msg::Field::get(r)? ),* })
            }
        }
        impl $crate::msg::Field for $name {
            const MIN_WIRE_SIZE: usize = 0 $( + <$ft as $crate::msg::Field>::MIN_WIRE_SIZE )*;
            fn put(&self, w: &mut Vec<u8>) { $crate::msg::Message::encode(self, w) }
            fn get(r: &mut $crate::msg::Reader<'_>) -> Result<Self, $crate::msg::DecodeError> {
                <$name as $crate::msg::Message>::decode_fields(r)
            }
        }
    };
}

/// Feed a definition and a message to the runtime-type parser and decoder (the fuzz
/// target `ros1_msg_definition` and its corpus replay): the first byte picks what the
/// text is (a `.msg`, `.srv` or `.action`, or a `.msg` followed by a NUL and a message
/// body of that type, decoded, printed as YAML and JSON, and encoded back). Returns
/// whether the input was accepted; panics only if a decoded message does not encode back
/// to as many bytes (a finding for the fuzzer).
#[doc(hidden)]
pub fn fuzz_definition(data: &[u8]) -> bool {
    let Some((&which, rest)) = data.split_first() else {
        return false;
    };
    let l = loader::TypeLoader::builtin_only();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match which % 4 {
        0 => l.add_msg("fuzz_msgs/M", &text(rest)).is_ok(),
        1 => l.add_srv("fuzz_msgs/S", &text(rest)).is_ok(),
        2 => l.add_action("fuzz_msgs/A", &text(rest)).is_ok(),
        _ => {
            let (def, body) = match rest.iter().position(|&b| b == 0) {
                Some(i) => (&rest[..i], &rest[i + 1..]),
                None => (rest, &[][..]),
            };
            let Ok(s) = l.add_msg("fuzz_msgs/M", &text(def)) else {
                return false;
            };
            let Ok(m) = dynamic::DynMessage::decode(&s, body) else {
                return false;
            };
            let _ = yaml::to_yaml(&m);
            let j = json::to_json(&m);
            let _ = json::from_json(&s, &j);
            assert_eq!(m.to_bytes().len(), body.len(), "re-encoded length");
            true
        }
    }
}
