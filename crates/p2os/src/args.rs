//! Command arguments (client to robot).
//!
//! After the command number comes nothing, or an argument-type byte and the argument:
//! `0x3B` a positive integer and `0x1B` a negative one (both a 16-bit little-endian
//! magnitude), `0x2B` a string (a length byte, the characters and — as ARIA's `comStr`
//! sends it — a trailing NUL, which a server must tolerate but not require). ARIA's
//! `comDataN` sends `0x2B` and raw bytes with no length byte; a `0x2B` argument whose
//! length byte does not match what follows is read that way. `SIM_SET_POSE` carries a
//! zero type byte and three 4-byte integers ([`Arg::Raw`]).

use crate::error::Error;
use crate::wire::Writer;

/// Type byte of a positive (or zero) integer.
pub const INTARG: u8 = 0x3B;
/// Type byte of a negative integer.
pub const NINTARG: u8 = 0x1B;
/// Type byte of a string.
pub const STRARG: u8 = 0x2B;
/// Longest string ARIA sends (200 less the length byte).
pub const MAX_STRING: usize = 199;

/// A command's argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg<'a> {
    /// No argument.
    None,
    /// A signed integer; the magnitude travels in 16 bits, so -65535..=65535.
    Int(i32),
    /// A string (without the length byte or a trailing NUL).
    Str(&'a [u8]),
    /// Bytes after a type byte that is neither an integer nor a length-prefixed string:
    /// `(type byte, bytes)`.
    Raw(u8, &'a [u8]),
}

impl<'a> Arg<'a> {
    /// Read an argument from a command's data (what follows the command number).
    pub fn decode(data: &'a [u8]) -> Result<Self, Error> {
        let Some((&kind, rest)) = data.split_first() else {
            return Ok(Arg::None);
        };
        match kind {
            INTARG | NINTARG => {
                let [lo, hi, ..] = *rest else {
                    return Err(Error::Truncated {
                        packet: "command",
                        field: "integer argument",
                    });
                };
                let mag = i32::from(u16::from_le_bytes([lo, hi]));
                Ok(Arg::Int(if kind == INTARG { mag } else { -mag }))
            }
            STRARG => match rest.split_first() {
                Some((&len, chars))
                    if chars.len() == usize::from(len)
                        || (chars.len() == usize::from(len) + 1 && chars.last() == Some(&0)) =>
                {
                    Ok(Arg::Str(chars.get(..usize::from(len)).unwrap_or(&[])))
                }
                _ => Ok(Arg::Raw(kind, rest)),
            },
            0 => Ok(Arg::Raw(kind, rest)),
            other => Err(Error::ArgumentType(other)),
        }
    }

    /// Write the argument (type byte and value).
    pub fn encode(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        match *self {
            Arg::None => {}
            Arg::Int(v) => {
                let mag = u16::try_from(v.unsigned_abs()).map_err(|_| Error::ArgumentRange(v))?;
                w.u8(if v >= 0 { INTARG } else { NINTARG });
                w.u16(mag);
            }
            Arg::Str(s) => {
                if s.len() > MAX_STRING {
                    return Err(Error::StringTooLong(s.len()));
                }
                w.u8(STRARG);
                w.u8(s.len() as u8);
                w.bytes(s);
                w.u8(0);
            }
            Arg::Raw(kind, b) => {
                w.u8(kind);
                w.bytes(b);
            }
        }
        Ok(())
    }

    /// The integer, if it is one.
    pub fn int(&self) -> Option<i32> {
        match *self {
            Arg::Int(v) => Some(v),
            _ => None,
        }
    }

    /// The integer as the 16 bits ARIA's `com2Bytes` packed (high byte, low byte): a
    /// negative value is the two's complement of its magnitude.
    pub fn two_bytes(&self) -> Option<(u8, u8)> {
        self.int().map(|v| {
            let [lo, hi] = (v as u16).to_le_bytes();
            (hi, lo)
        })
    }
}

/// The integer argument ARIA's `com2Bytes(hi, lo)` sends: `(hi << 8) | lo` as a C short.
pub fn two_bytes(hi: u8, lo: u8) -> i32 {
    i32::from(i16::from_be_bytes([hi, lo]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(a: Arg<'_>) -> Vec<u8> {
        let mut buf = [0u8; 260];
        let mut w = Writer::new(&mut buf);
        a.encode(&mut w).unwrap();
        let n = w.len();
        buf[..n].to_vec()
    }

    #[test]
    fn integers_carry_sign_in_the_type_byte() {
        assert_eq!(enc(Arg::Int(250)), [0x3B, 0xFA, 0x00]);
        assert_eq!(enc(Arg::Int(-300)), [0x1B, 0x2C, 0x01]);
        assert_eq!(enc(Arg::Int(0)), [0x3B, 0, 0]);
        assert_eq!(Arg::decode(&[0x1B, 0x2C, 0x01]).unwrap(), Arg::Int(-300));
        assert_eq!(Arg::decode(&[0x3B, 0xFF, 0xFF]).unwrap(), Arg::Int(65535));
        assert!(Arg::decode(&[0x3B, 0xFF]).is_err());
        let mut buf = [0u8; 8];
        assert!(Arg::Int(70000).encode(&mut Writer::new(&mut buf)).is_err());
    }

    #[test]
    fn strings_with_or_without_the_trailing_nul() {
        assert_eq!(enc(Arg::Str(b"abcd")), [0x2B, 4, b'a', b'b', b'c', b'd', 0]);
        assert_eq!(
            Arg::decode(&[0x2B, 4, b'a', b'b', b'c', b'd', 0]).unwrap(),
            Arg::Str(b"abcd")
        );
        assert_eq!(
            Arg::decode(&[0x2B, 4, b'a', b'b', b'c', b'd']).unwrap(),
            Arg::Str(b"abcd")
        );
        // comDataN: no length byte
        assert_eq!(
            Arg::decode(&[0x2B, 9, 9, 9]).unwrap(),
            Arg::Raw(0x2B, &[9, 9, 9])
        );
        assert!(matches!(
            Arg::decode(&[0x44, 1]),
            Err(Error::ArgumentType(0x44))
        ));
    }

    #[test]
    fn two_byte_arguments_round_trip() {
        // DIGOUT mask 0xFF, value 0x05 goes out as a negative short
        let v = two_bytes(0xFF, 0x05);
        assert!(v < 0);
        assert_eq!(enc(Arg::Int(v))[0], NINTARG);
        assert_eq!(Arg::Int(v).two_bytes(), Some((0xFF, 0x05)));
        assert_eq!(
            Arg::Int(two_bytes(0x0F, 0x05)).two_bytes(),
            Some((0x0F, 0x05))
        );
    }
}
