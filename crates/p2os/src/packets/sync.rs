//! SYNC replies: SYNC0 and SYNC1 echo their number with no data; SYNC2 carries the
//! robot's name, class and subtype as three NUL-terminated strings.

use super::{ids, text};
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// Who the robot says it is (the SYNC2 reply).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// Robot name (`AMRISim`, or the robot's own name).
    pub name: String,
    /// Robot class (`Pioneer`).
    pub class: String,
    /// Subtype (`p3dx-sh`); ARIA lower-cases it to pick parameters.
    pub subtype: String,
}

impl Identity {
    /// Read a SYNC2 reply.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::SYNC2 {
            return Err(Error::WrongPacket {
                expected: "SYNC2",
                got: frame.id,
            });
        }
        let mut r = Reader::new(frame.data);
        let mut field = |field| {
            r.cstr().map(text).ok_or(Error::Truncated {
                packet: "SYNC2",
                field,
            })
        };
        Ok(Self {
            name: field("robot name")?,
            class: field("robot class")?,
            subtype: field("robot subtype")?,
        })
    }

    /// Write the SYNC2 reply.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        PacketBuf::build(ids::SYNC2, |w| {
            w.cstr(self.name.as_bytes());
            w.cstr(self.class.as_bytes());
            w.cstr(self.subtype.as_bytes());
        })
    }
}
