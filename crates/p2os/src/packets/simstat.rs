//! SIMSTAT (type 0x62, after SIM_STAT): the simulator's status as ARIA's `ArSimUtil` and
//! `ArSimulatedGPS` read it — two bytes ARIA ignores, flags, the simulation interval, the
//! real interval and the last interval (ms), the robot's true pose (x, y, z mm, th deg),
//! and, when flag bit 1 says the map has a geographic origin, the simulated GPS: latitude
//! and longitude (degrees × 10⁷), altitude (cm) and the fix's quality (DOP × 100, 0 a
//! bad fix, -1 none) in four bytes as AMRISim sends it, of which ARIA reads the first
//! (the low byte, signed).

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// Flag bit: the map has a geographic origin and the GPS fields follow the true pose.
pub const FLAG_GEO: u32 = 1 << 1;
/// Flag bit: odometry-error fields follow (we send none).
pub const FLAG_ODOMETRY_ERROR: u32 = 1 << 2;

/// The simulated GPS fields of a SIMSTAT.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SimGeo {
    /// Latitude, degrees × 10⁷.
    pub latitude: i32,
    /// Longitude, degrees × 10⁷.
    pub longitude: i32,
    /// Altitude, cm.
    pub altitude: i32,
    /// DOP × 100 (1..=127, a fix), 0 (a bad fix) or -1 (no fix).
    pub quality: i32,
}

/// A SIMSTAT packet (without odometry-error fields).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SimStat {
    /// Flags ([`FLAG_GEO`] is set on the wire exactly when `geo` is there).
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
    /// The simulated GPS, if the map has a geographic origin.
    pub geo: Option<SimGeo>,
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
        let flags = r.u32().ok_or(t("flags"))?;
        let mut s = Self {
            flags,
            sim_interval: r.u16().ok_or(t("simulation interval"))?,
            real_interval: r.u16().ok_or(t("real interval"))?,
            last_interval: r.u16().ok_or(t("last interval"))?,
            x: r.i32().ok_or(t("x"))?,
            y: r.i32().ok_or(t("y"))?,
            z: r.i32().ok_or(t("z"))?,
            th: r.i32().ok_or(t("th"))?,
            geo: None,
        };
        if flags & FLAG_GEO != 0 {
            s.geo = Some(SimGeo {
                latitude: r.i32().ok_or(t("latitude"))?,
                longitude: r.i32().ok_or(t("longitude"))?,
                altitude: r.i32().ok_or(t("altitude"))?,
                quality: r.i32().ok_or(t("GPS quality"))?,
            });
        }
        Ok(s)
    }

    /// Encode it.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        let flags = match self.geo {
            Some(_) => self.flags | FLAG_GEO,
            None => self.flags & !FLAG_GEO,
        };
        PacketBuf::build(ids::SIMSTAT, |w| {
            w.u8(0);
            w.u8(0);
            w.u32(flags);
            w.u16(self.sim_interval);
            w.u16(self.real_interval);
            w.u16(self.last_interval);
            w.i32(self.x);
            w.i32(self.y);
            w.i32(self.z);
            w.i32(self.th);
            if let Some(g) = &self.geo {
                w.i32(g.latitude);
                w.i32(g.longitude);
                w.i32(g.altitude);
                w.i32(g.quality);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The type and the data of an encoded packet: header (2), length (1), type (1),
    /// data, checksum (2).
    fn frame(p: &PacketBuf) -> (u8, Vec<u8>) {
        let b = p.as_bytes();
        (b[3], b[4..b.len() - 2].to_vec())
    }

    fn decode(id: u8, data: &[u8]) -> Result<SimStat, Error> {
        SimStat::decode(&Frame {
            id,
            data,
            bytes: &[],
        })
    }

    #[test]
    fn without_an_origin_the_packet_ends_at_the_true_heading() {
        let s = SimStat {
            flags: FLAG_GEO, // dropped: no GPS fields
            x: -1,
            th: 90,
            ..Default::default()
        };
        let p = s.encode().unwrap();
        let (id, data) = frame(&p);
        assert_eq!(id, ids::SIMSTAT);
        assert_eq!(data.len(), 2 + 4 + 3 * 2 + 4 * 4);
        assert_eq!(&data[2..6], &[0, 0, 0, 0]);
        let back = decode(id, &data).unwrap();
        assert_eq!(back.geo, None);
        assert_eq!((back.x, back.th), (-1, 90));
    }

    #[test]
    fn the_gps_fields_follow_the_pose_and_aria_reads_the_quality_s_first_byte() {
        let geo = SimGeo {
            latitude: 421_234_567,
            longitude: -717_654_321,
            altitude: 6_012,
            quality: 100,
        };
        let s = SimStat {
            sim_interval: 100,
            geo: Some(geo),
            ..Default::default()
        };
        let (id, data) = frame(&s.encode().unwrap());
        assert_eq!(data.len(), 2 + 4 + 3 * 2 + 4 * 4 + 4 * 4);
        assert_eq!(&data[2..6], &[2, 0, 0, 0], "flag bit 1 (ArUtil::BIT1)");
        assert_eq!(&data[28..32], &421_234_567i32.to_le_bytes());
        assert_eq!(&data[32..36], &(-717_654_321i32).to_le_bytes());
        assert_eq!(&data[36..40], &6_012i32.to_le_bytes());
        assert_eq!(
            data[40] as i8, 100,
            "the byte ArSimulatedGPS reads as DOP × 100"
        );
        let none = SimStat {
            geo: Some(SimGeo { quality: -1, ..geo }),
            ..s
        };
        let (_, d) = frame(&none.encode().unwrap());
        assert_eq!(d[40] as i8, -1, "no fix");
        let back = decode(id, &data).unwrap();
        assert_eq!(back.geo, Some(geo));
        assert_eq!(back.flags, FLAG_GEO);
        assert!(
            decode(id, &data[..38]).is_err(),
            "a packet cut inside the GPS fields is refused"
        );
    }
}
