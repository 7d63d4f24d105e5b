//! IOpac (type 0xF0, after IOREQUEST): the digital inputs, digital outputs and analog
//! channels, each block a count and its values (analog values 16-bit). ARIA caps each
//! count at 128.

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// An IOpac.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IoPac {
    /// Digital input bytes.
    pub digin: Vec<u8>,
    /// Digital output bytes.
    pub digout: Vec<u8>,
    /// Analog channels (10-bit values on a Pioneer).
    pub analog: Vec<u16>,
}

impl IoPac {
    /// Decode an IOpac frame.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::IO {
            return Err(Error::WrongPacket {
                expected: "IOpac",
                got: frame.id,
            });
        }
        let t = |field| Error::Truncated {
            packet: "IOpac",
            field,
        };
        let mut r = Reader::new(frame.data);
        let n = r.u8().ok_or(t("digital input count"))?;
        let digin = r.bytes(usize::from(n)).ok_or(t("digital inputs"))?.to_vec();
        let n = r.u8().ok_or(t("digital output count"))?;
        let digout = r
            .bytes(usize::from(n))
            .ok_or(t("digital outputs"))?
            .to_vec();
        let n = r.u8().ok_or(t("analog count"))?;
        let analog = (0..n)
            .map(|_| r.u16())
            .collect::<Option<Vec<u16>>>()
            .ok_or(t("analog values"))?;
        Ok(Self {
            digin,
            digout,
            analog,
        })
    }

    /// Encode it.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        let count = |n: usize| u8::try_from(n).map_err(|_| Error::TooLong(n));
        let (a, b, c) = (
            count(self.digin.len())?,
            count(self.digout.len())?,
            count(self.analog.len())?,
        );
        PacketBuf::build(ids::IO, |w| {
            w.u8(a);
            w.bytes(&self.digin);
            w.u8(b);
            w.bytes(&self.digout);
            w.u8(c);
            for v in &self.analog {
                w.u16(*v);
            }
        })
    }
}
