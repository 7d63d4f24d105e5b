//! SIMINFO (type 0x63): the simulator's answer to SIM_CTRL 6, as MobileSim sends it.
//!
//! The simulator's name and version (strings), feature flags (uint32: bit 0 a GUI, bit 1
//! restarted after a crash), the number of devices (uint32), then per device its name
//! and type (strings), its index among devices of that kind (uint8) and a status
//! (uint32). ARIA has no handler for it; scripts written for MobileSim read it with
//! their own.

use super::{ids, text};
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// Flags bit: the simulator shows a GUI.
pub const FLAG_GUI: u32 = 1;
/// Flags bit: the simulator restarted after a crash.
pub const FLAG_RESTARTED: u32 = 1 << 1;

/// One simulated device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimDevice {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: String,
    /// Index among devices of the same kind.
    pub which: u8,
    /// Status (0 = fine).
    pub status: u32,
}

/// A SIMINFO packet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimInfo {
    /// Simulator name.
    pub app: String,
    /// Simulator version.
    pub version: String,
    /// Feature flags.
    pub flags: u32,
    /// The robot's devices.
    pub devices: Vec<SimDevice>,
}

impl SimInfo {
    /// Decode a SIMINFO frame. The device count is bounded by what the packet holds.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::SIMINFO {
            return Err(Error::WrongPacket {
                expected: "SIMINFO",
                got: frame.id,
            });
        }
        let t = |field| Error::Truncated {
            packet: "SIMINFO",
            field,
        };
        let mut r = Reader::new(frame.data);
        let app = text(r.cstr().ok_or(t("name"))?);
        let version = text(r.cstr().ok_or(t("version"))?);
        let flags = r.u32().ok_or(t("flags"))?;
        let n = r.u32().ok_or(t("device count"))?;
        // a device takes at least 7 bytes: never reserve more than the packet can hold
        let mut devices = Vec::with_capacity((n as usize).min(r.remaining() / 7));
        for _ in 0..n {
            devices.push(SimDevice {
                name: text(r.cstr().ok_or(t("device name"))?),
                kind: text(r.cstr().ok_or(t("device type"))?),
                which: r.u8().ok_or(t("device index"))?,
                status: r.u32().ok_or(t("device status"))?,
            });
        }
        Ok(Self {
            app,
            version,
            flags,
            devices,
        })
    }

    /// Encode it (fails if it does not fit in one packet).
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        PacketBuf::build(ids::SIMINFO, |w| {
            w.cstr(self.app.as_bytes());
            w.cstr(self.version.as_bytes());
            w.u32(self.flags);
            w.u32(self.devices.len() as u32);
            for d in &self.devices {
                w.cstr(d.name.as_bytes());
                w.cstr(d.kind.as_bytes());
                w.u8(d.which);
                w.u32(d.status);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_a_lying_device_count() {
        let info = SimInfo {
            app: "Skipper".into(),
            version: "0.1.0".into(),
            flags: 0,
            devices: vec![SimDevice {
                name: "laser".into(),
                kind: "laser".into(),
                which: 0,
                status: 0,
            }],
        };
        let p = info.encode().unwrap();
        let f = Frame {
            id: p.id(),
            data: p.data(),
            bytes: p.as_bytes(),
        };
        assert_eq!(SimInfo::decode(&f).unwrap(), info);
        // a count of 4 billion devices in a short packet is an error, not an allocation
        let mut data = p.data().to_vec();
        let at = "Skipper\0".len() + "0.1.0\0".len() + 4;
        data[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let f = Frame {
            id: 0x63,
            data: &data,
            bytes: &data,
        };
        assert!(SimInfo::decode(&f).is_err());
    }
}
