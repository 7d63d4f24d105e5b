//! SIMSTAT (type 0x62, after SIM_STAT): the simulator's status as ARIA's `ArSimUtil`
//! reads it — two bytes ARIA ignores, flags, the simulation interval, the real interval
//! and the last interval (ms), and the robot's true pose (x, y, z mm, th deg).

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// A SIMSTAT packet (without GPS or odometry-error extensions).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SimStat {
    /// Flags (bit 1 GPS, bit 2 odometry error; we send neither).
    pub flags: u32,
    /// Simulated time per cycle, ms.
    pub sim_interval: u16,
    /// Real time per cycle, ms.
    pub real_interval: u16,
    /// Real time the last cycle took, ms.
    pub last_interval: u16,
    /// True x, mm.
    pub x: i32,
    /// True y, mm.
    pub y: i32,
    /// True z, mm.
    pub z: i32,
    /// True heading, deg.
    pub th: i32,
}

impl SimStat {
    /// Decode a SIMSTAT frame.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::SIMSTAT {
            return Err(Error::WrongPacket {
                expected: "SIMSTAT",
                got: frame.id,
            });
        }
        let t = |field| Error::Truncated {
            packet: "SIMSTAT",
            field,
        };
        let mut r = Reader::new(frame.data);
        r.bytes(2).ok_or(t("reserved bytes"))?;
        Ok(Self {
            flags: r.u32().ok_or(t("flags"))?,
            sim_interval: r.u16().ok_or(t("simulation interval"))?,
            real_interval: r.u16().ok_or(t("real interval"))?,
            last_interval: r.u16().ok_or(t("last interval"))?,
            x: r.i32().ok_or(t("x"))?,
            y: r.i32().ok_or(t("y"))?,
            z: r.i32().ok_or(t("z"))?,
            th: r.i32().ok_or(t("th"))?,
        })
    }

    /// Encode it.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        PacketBuf::build(ids::SIMSTAT, |w| {
            w.u8(0);
            w.u8(0);
            w.u32(self.flags);
            w.u16(self.sim_interval);
            w.u16(self.real_interval);
            w.u16(self.last_interval);
            w.i32(self.x);
            w.i32(self.y);
            w.i32(self.z);
            w.i32(self.th);
        })
    }
}
