//! TCM2pac (type 0xC0, after TCM2 2 or 3): the TCM2 compass module's heading, pitch and
//! roll (0.1 degree), magnetic field (0.01), temperature (0.1 deg C), error code and
//! calibration scores.

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// A TCM2pac.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tcm2Pac {
    /// Heading, 0.1 deg.
    pub heading: i16,
    /// Pitch, 0.1 deg.
    pub pitch: i16,
    /// Roll, 0.1 deg.
    pub roll: i16,
    /// Magnetic field X, 0.01.
    pub mag_x: i16,
    /// Magnetic field Y, 0.01.
    pub mag_y: i16,
    /// Magnetic field Z, 0.01.
    pub mag_z: i16,
    /// Temperature, 0.1 deg C.
    pub temperature: i16,
    /// Error code.
    pub error: i16,
    /// Calibration H score.
    pub cal_h: u8,
    /// Calibration V score.
    pub cal_v: u8,
    /// Calibration M score, 0.01.
    pub cal_m: i16,
}

impl Tcm2Pac {
    /// Decode a TCM2pac frame.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::TCM2 {
            return Err(Error::WrongPacket {
                expected: "TCM2pac",
                got: frame.id,
            });
        }
        let t = |field| Error::Truncated {
            packet: "TCM2pac",
            field,
        };
        let mut r = Reader::new(frame.data);
        Ok(Self {
            heading: r.i16().ok_or(t("heading"))?,
            pitch: r.i16().ok_or(t("pitch"))?,
            roll: r.i16().ok_or(t("roll"))?,
            mag_x: r.i16().ok_or(t("magnetic X"))?,
            mag_y: r.i16().ok_or(t("magnetic Y"))?,
            mag_z: r.i16().ok_or(t("magnetic Z"))?,
            temperature: r.i16().ok_or(t("temperature"))?,
            error: r.i16().ok_or(t("error code"))?,
            cal_h: r.u8().ok_or(t("calibration H"))?,
            cal_v: r.u8().ok_or(t("calibration V"))?,
            cal_m: r.i16().ok_or(t("calibration M"))?,
        })
    }

    /// Encode it.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        PacketBuf::build(ids::TCM2, |w| {
            for v in [
                self.heading,
                self.pitch,
                self.roll,
                self.mag_x,
                self.mag_y,
                self.mag_z,
                self.temperature,
                self.error,
            ] {
                w.i16(v);
            }
            w.u8(self.cal_h);
            w.u8(self.cal_v);
            w.i16(self.cal_m);
        })
    }
}
