//! ROS 1 messages: the binary serialisation ("rosmsg": little-endian, no padding, strings
//! and variable arrays prefixed by a `u32` length), the [`Message`] trait that typed
//! messages implement, and the [`ros_message!`](crate::ros_message) macro that declares them.
//!
//! Decoding never panics: every read is checked against the bytes that are left, and a
//! message with bytes left over is refused ([`DecodeError`]).

pub mod actionlib_msgs;
pub mod common;
pub mod defs;
pub mod skipper_msgs;
pub mod test_actions;

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

/// Declare a ROS message struct: its fields in wire order and its `package/Type` name.
///
/// ```
/// skipper_actionlib::ros_message! {
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
