//! ENCODERpac (type 0x90, after ENCODER): the left and right wheel encoder counts.

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// An ENCODERpac.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EncoderPac {
    /// Left encoder.
    pub left: i32,
    /// Right encoder.
    pub right: i32,
}

impl EncoderPac {
    /// Decode an ENCODERpac frame.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::ENCODER {
            return Err(Error::WrongPacket {
                expected: "ENCODERpac",
                got: frame.id,
            });
        }
        let t = |field| Error::Truncated {
            packet: "ENCODERpac",
            field,
        };
        let mut r = Reader::new(frame.data);
        Ok(Self {
            left: r.i32().ok_or(t("left encoder"))?,
            right: r.i32().ok_or(t("right encoder"))?,
        })
    }

    /// Encode it.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        PacketBuf::build(ids::ENCODER, |w| {
            w.i32(self.left);
            w.i32(self.right);
        })
    }
}
