//! The simulated laser's scan packets, as MobileSim sends them and ARIA's simulated
//! laser (`ArSimulatedLaser`) reads them.
//!
//! One scan goes out as consecutive packets of at most [`MAX_READINGS`] readings each:
//!
//! - **0x60**: the robot's odometry x, y (mm) and heading (degrees) as three int16 (ARIA
//!   skips them); the scan's total number of readings (uint16); the index of this
//!   packet's first reading (uint16); the number of readings here (uint8); one uint16
//!   range (mm) per reading.
//! - **0x61** (asked for with laser-enable value 2): the same three counts without the
//!   pose; each reading is a uint16 range, a reflectance byte and two reserved bytes;
//!   then the laser's index (uint8) and a flags byte (bit 0: the simulator moved the
//!   robot since the last scan).
//!
//! Reading k lies at the configured start angle plus k times the increment; ARIA takes
//! a scan as complete when a packet's first index plus its count reaches the total.

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// Readings per packet (MobileSim's figure: an extended packet of 32 stays well under
/// the 253-byte payload).
pub const MAX_READINGS: usize = 32;

/// Flags bit: the simulator moved the robot (SIM_SET_POSE, SIM_RESET) since the last scan.
pub const FLAG_MOVED: u8 = 1;

/// What the packets of one scan share.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScanHeader {
    /// Extended packets (0x61) rather than plain ones (0x60).
    pub extended: bool,
    /// Odometry x mm, y mm, heading degrees (plain packets only).
    pub pose: [i16; 3],
    /// Readings in the whole scan.
    pub total: u16,
    /// Flags byte of extended packets ([`FLAG_MOVED`]).
    pub flags: u8,
}

/// One decoded scan packet; the readings stay in the frame's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaserPac<'a> {
    /// Extended (0x61).
    pub extended: bool,
    /// Odometry pose (plain packets; zero in extended ones).
    pub pose: [i16; 3],
    /// Readings in the whole scan.
    pub total: u16,
    /// Index of the first reading here.
    pub first: u16,
    /// Laser index (extended packets).
    pub device: u8,
    /// Flags (extended packets).
    pub flags: u8,
    readings: &'a [u8],
}

impl<'a> LaserPac<'a> {
    /// Decode a 0x60 or 0x61 frame.
    pub fn decode(frame: &Frame<'a>) -> Result<Self, Error> {
        let extended = match frame.id {
            ids::LASER => false,
            ids::LASER_EXTENDED => true,
            got => {
                return Err(Error::WrongPacket {
                    expected: "simulated laser",
                    got,
                })
            }
        };
        let t = |field| Error::Truncated {
            packet: "simulated laser",
            field,
        };
        let mut r = Reader::new(frame.data);
        let mut pose = [0i16; 3];
        if !extended {
            for p in &mut pose {
                *p = r.i16().ok_or(t("pose"))?;
            }
        }
        let total = r.u16().ok_or(t("total readings"))?;
        let first = r.u16().ok_or(t("first reading"))?;
        let count = usize::from(r.u8().ok_or(t("reading count"))?);
        let readings = r
            .bytes(count * Self::reading_len(extended))
            .ok_or(t("readings"))?;
        let (device, flags) = if extended {
            (r.u8().ok_or(t("laser index"))?, r.u8().ok_or(t("flags"))?)
        } else {
            (0, 0)
        };
        Ok(Self {
            extended,
            pose,
            total,
            first,
            device,
            flags,
            readings,
        })
    }

    fn reading_len(extended: bool) -> usize {
        if extended {
            5
        } else {
            2
        }
    }

    /// Readings in this packet.
    pub fn len(&self) -> usize {
        self.readings.len() / Self::reading_len(self.extended)
    }

    /// `true` if it holds no reading.
    pub fn is_empty(&self) -> bool {
        self.readings.is_empty()
    }

    /// Each reading: range (mm) and reflectance (0 in plain packets).
    pub fn readings(&self) -> impl Iterator<Item = (u16, u8)> + 'a {
        let n = Self::reading_len(self.extended);
        self.readings.chunks_exact(n).map(|c| match *c {
            [lo, hi, refl, ..] => (u16::from_le_bytes([lo, hi]), refl),
            [lo, hi] => (u16::from_le_bytes([lo, hi]), 0),
            _ => (0, 0),
        })
    }

    /// Encode one packet of a scan: `ranges` (mm, at most [`MAX_READINGS`]) starting at
    /// reading `first`, into `out`; returns the packet's bytes.
    pub fn encode_into<'b>(
        header: &ScanHeader,
        first: u16,
        ranges: &[u16],
        out: &'b mut PacketBuf,
    ) -> Result<&'b [u8], Error> {
        if ranges.len() > MAX_READINGS {
            return Err(Error::TooLong(ranges.len() * 5));
        }
        let id = if header.extended {
            ids::LASER_EXTENDED
        } else {
            ids::LASER
        };
        out.rebuild(id, |w| {
            if !header.extended {
                for p in header.pose {
                    w.i16(p);
                }
            }
            w.u16(header.total);
            w.u16(first);
            w.u8(ranges.len() as u8);
            for &r in ranges {
                w.u16(r);
                if header.extended {
                    w.u8(0); // reflectance: nothing in the simulated world reflects
                    w.u8(0);
                    w.u8(0);
                }
            }
            if header.extended {
                w.u8(0); // the robot's first (only) laser
                w.u8(header.flags);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Framer;

    fn round_trip(h: &ScanHeader, first: u16, ranges: &[u16]) {
        let mut buf = PacketBuf::default();
        let bytes = LaserPac::encode_into(h, first, ranges, &mut buf)
            .unwrap()
            .to_vec();
        let mut framer = Framer::new();
        let mut seen = 0;
        framer.feed(&bytes, |f| {
            let p = LaserPac::decode(&f).unwrap();
            assert_eq!(p.extended, h.extended);
            assert_eq!((p.total, p.first, p.len()), (h.total, first, ranges.len()));
            let got: Vec<u16> = p.readings().map(|(r, _)| r).collect();
            assert_eq!(got, ranges);
            if h.extended {
                assert_eq!(p.flags, h.flags);
            } else {
                assert_eq!(p.pose, h.pose);
            }
            seen += 1;
        });
        assert_eq!(seen, 1);
    }

    #[test]
    fn plain_and_extended_packets_round_trip() {
        let ranges: Vec<u16> = (0..32).map(|k| 1000 + 7 * k).collect();
        let plain = ScanHeader {
            extended: false,
            pose: [120, -45, 90],
            total: 181,
            flags: 0,
        };
        round_trip(&plain, 160, &ranges[..21]);
        let ext = ScanHeader {
            extended: true,
            flags: FLAG_MOVED,
            ..plain
        };
        round_trip(&ext, 0, &ranges);
    }

    #[test]
    fn layout_of_an_extended_packet() {
        let h = ScanHeader {
            extended: true,
            total: 3,
            ..Default::default()
        };
        let mut buf = PacketBuf::default();
        LaserPac::encode_into(&h, 1, &[0x1234], &mut buf).unwrap();
        // total 3, first 1, one reading: range, reflectance, two reserved; index, flags
        assert_eq!(buf.id(), 0x61);
        assert_eq!(buf.data(), &[3, 0, 1, 0, 1, 0x34, 0x12, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn short_packets_are_errors_and_too_many_readings_refused() {
        let frame = |id, data: &'static [u8]| Frame {
            id,
            data,
            bytes: data,
        };
        assert!(LaserPac::decode(&frame(0x61, &[181, 0, 0, 0, 2, 1, 0])).is_err());
        assert!(LaserPac::decode(&frame(0x60, &[0, 0])).is_err());
        assert!(LaserPac::decode(&frame(0x32, &[])).is_err());
        let mut buf = PacketBuf::default();
        let h = ScanHeader::default();
        assert!(LaserPac::encode_into(&h, 0, &[0; 33], &mut buf).is_err());
    }
}
