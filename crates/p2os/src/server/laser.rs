//! The simulated laser of one session, as MobileSim serves it to ARIA.
//!
//! A client configures the scan (start and end angle, degrees; increment, hundredths
//! of a degree) and switches it on (1: plain 0x60 packets, 2: extended 0x61) or off
//! (0), with the simulator commands SIM_LRF_ENABLE / _SET_FOV_START / _SET_FOV_END /
//! _SET_RES (230-233), or with the old SRISim numbers ARIA's simulated laser still
//! sends, back to back: 36 start, 37 end, 38 increment, 35 enable. In P2OS 35, 36 and
//! 37 are ADSEL, GRIPPERVAL and GRIPPERPACREQUEST, so [`OldLaserCommands`] decides how
//! to read them. Once on, every SIP cycle brings one whole scan, cut into packets of at
//! most [`MAX_READINGS`] readings, ray-cast by the robot behind the server.

use crate::frame::PacketBuf;
use crate::packets::laser::{LaserPac, ScanHeader, FLAG_MOVED, MAX_READINGS};
use skipper_core::Pose2;

/// How a session reads commands 35-38, which P2OS and MobileSim define differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OldLaserCommands {
    /// As ARIA's simulated laser sends them: 38 (no P2OS meaning) is always the laser
    /// increment; 36 is the laser's start angle unless it completes a GRIP_PRESSURE or
    /// LIFT_CARRY; 37 right after such a 36 is the end angle, else GRIPPERPACREQUEST;
    /// 35 right after 38 switches the laser, else it is ADSEL.
    #[default]
    Sequence,
    /// As MobileSim does by default: 35-38 are always the old laser commands.
    Always,
    /// As P2OS does: ADSEL, GRIPPERVAL, GRIPPERPACREQUEST; 38 is ignored.
    Never,
}

/// Where an old laser configuration sequence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OldStep {
    /// 36 came: the start angle.
    Start,
    /// 37 came after it: the end angle.
    End,
    /// 38 came: the increment.
    Increment,
}

/// Most readings in one scan (0.25° over a full turn).
pub const MAX_SCAN: usize = 1441;

/// One session's simulated laser.
#[derive(Debug)]
pub struct SimLaser {
    on: bool,
    extended: bool,
    start_deg: f64,
    end_deg: f64,
    increment_deg: f64,
    moved: bool,
    ranges: Vec<f64>,
    mm: Vec<u16>,
    packet: PacketBuf,
    missing_warned: bool,
}

impl Default for SimLaser {
    fn default() -> Self {
        Self {
            on: false,
            extended: false,
            start_deg: -90.0,
            end_deg: 90.0,
            increment_deg: 1.0,
            moved: false,
            ranges: Vec::new(),
            mm: Vec::new(),
            packet: PacketBuf::default(),
            missing_warned: false,
        }
    }
}

impl SimLaser {
    /// Laser on (1 plain packets, 2 extended) or off (0).
    pub fn enable(&mut self, value: i32) {
        self.on = value != 0;
        self.extended = value == 2;
        self.missing_warned = false;
    }
    /// Is it on?
    pub fn is_on(&self) -> bool {
        self.on
    }
    /// First reading's angle, degrees (robot frame, counter-clockwise positive).
    pub fn set_start(&mut self, deg: i32) {
        self.start_deg = f64::from(deg);
    }
    /// Last reading's angle, degrees.
    pub fn set_end(&mut self, deg: i32) {
        self.end_deg = f64::from(deg);
    }
    /// Degrees between readings, given in hundredths; 0 or less is refused.
    pub fn set_increment(&mut self, hundredths: i32) -> bool {
        if hundredths <= 0 {
            return false;
        }
        self.increment_deg = f64::from(hundredths) / 100.0;
        true
    }
    /// The simulator moved the robot: the next extended scan says so.
    pub fn moved(&mut self) {
        self.moved = true;
    }

    /// Readings per scan and the signed step between them (end before start scans
    /// backwards), at most [`MAX_SCAN`] readings: a finer increment is coarsened.
    pub fn geometry(&self) -> (usize, f64) {
        let span = self.end_deg - self.start_deg;
        let mut step = self.increment_deg;
        if span.abs() / step + 1.0 > MAX_SCAN as f64 {
            step = span.abs() / (MAX_SCAN - 1) as f64;
        }
        let n = (span.abs() / step + 1e-9).floor() as usize + 1;
        (n.min(MAX_SCAN), if span < 0.0 { -step } else { step })
    }

    /// One scan's packets, appended to `out`. `scan` ray-casts the robot's laser for
    /// (first angle, step, ranges) and says whether the robot has one; `odometry` is
    /// the robot's odometry pose for plain packets.
    pub fn cycle(
        &mut self,
        odometry: Pose2,
        scan: impl FnOnce(f64, f64, &mut [f64]) -> bool,
        out: &mut Vec<u8>,
    ) -> usize {
        if !self.on {
            return 0;
        }
        let (n, step) = self.geometry();
        self.ranges.resize(n, 0.0);
        if !scan(self.start_deg, step, &mut self.ranges) {
            if !self.missing_warned {
                tracing::warn!("laser switched on, but the robot has no laser: no scans");
                self.missing_warned = true;
            }
            return 0;
        }
        self.mm.clear();
        self.mm.extend(
            self.ranges
                .iter()
                .map(|r| (r * 1000.0).round().clamp(0.0, 65535.0) as u16),
        );
        let sat = |v: f64| v.round().clamp(-32768.0, 32767.0) as i16;
        let header = ScanHeader {
            extended: self.extended,
            pose: [
                sat(odometry.x * 1000.0),
                sat(odometry.y * 1000.0),
                sat(odometry.yaw.to_degrees()),
            ],
            total: n as u16,
            flags: if self.moved { FLAG_MOVED } else { 0 },
        };
        self.moved = false;
        let mut packets = 0;
        for (k, chunk) in self.mm.chunks(MAX_READINGS).enumerate() {
            let first = (k * MAX_READINGS) as u16;
            if let Ok(b) = LaserPac::encode_into(&header, first, chunk, &mut self.packet) {
                out.extend_from_slice(b);
                packets += 1;
            }
        }
        packets
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_follows_the_configuration() {
        let mut l = SimLaser::default();
        assert_eq!(l.geometry(), (181, 1.0), "-90..90 at 1°");
        l.set_increment(50);
        assert_eq!(l.geometry(), (361, 0.5));
        l.set_start(45);
        l.set_end(-45);
        assert_eq!(
            l.geometry(),
            (181, -0.5),
            "end before start scans backwards"
        );
        assert!(!l.set_increment(0));
        l.set_start(-180);
        l.set_end(180);
        l.set_increment(1);
        assert_eq!(l.geometry().0, MAX_SCAN, "a finer scan is coarsened");
    }

    #[test]
    fn a_scan_is_cut_into_packets_of_32() {
        let mut l = SimLaser::default();
        let mut out = Vec::new();
        let scan = |_: f64, _: f64, r: &mut [f64]| {
            r.fill(2.5);
            true
        };
        assert_eq!(l.cycle(Pose2::default(), scan, &mut out), 0, "off");
        l.enable(2);
        assert_eq!(
            l.cycle(Pose2::default(), scan, &mut out),
            6,
            "181 = 5 × 32 + 21"
        );
        out.clear();
        assert_eq!(l.cycle(Pose2::default(), |_, _, _| false, &mut out), 0);
        assert!(out.is_empty(), "no laser, no packets");
    }
}
