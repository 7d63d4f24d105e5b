//! The standard SIP (server information packet, type 0x32 stopped / 0x33 moving).
//!
//! Field order as ARIA reads it: XPOS, YPOS (15-bit, wrapping), THPOS, left and right
//! wheel velocities, battery (0.1 V), stall and bumper bits, CONTROL, FLAGS, COMPASS
//! (degrees / 2), the number of sonar readings in this packet and (number, range) for
//! each. Everything after the sonar readings is optional and read only while bytes
//! remain: two bytes ARIA reads as one 16-bit word (`getAnalogPortSelected()`: the
//! selected analog port in its low byte, the General-I/O gripper switches in its high
//! byte, which is where ARIA's gripper looks for them), ANALOG, DIGIN, DIGOUT (P2OS),
//! then BATTERYX10, CHARGESTATE, ROTVEL, FAULTFLAGS, LATVEL, TEMPERATURE, STATE OF
//! CHARGE, uC TIME, FLAGS3 (ARCOS). Those bytes are kept as they came
//! ([`Sip::tail_bytes`]), so a decoded SIP encodes back byte for byte; [`SipTail`]
//! names them.
//!
//! Values here are raw (robot units); [`crate::params::RobotParams`] scales them.

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf, MAX_DATA};
use crate::wire::{Reader, Writer};

/// Bytes before the sonar readings.
const FIXED: usize = 19;
/// The most sonar readings one SIP can hold.
pub const MAX_SONAR_READINGS: usize = (MAX_DATA - FIXED) / 3;
/// The most bytes after the sonar readings.
pub const MAX_TAIL: usize = MAX_DATA - FIXED;

/// One sonar reading: transducer number and range (robot units).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SonarReading {
    /// transducer number
    pub index: u8,
    /// range, in RangeConvFactor units
    pub range: u16,
}

/// A standard SIP, in robot units.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Sip {
    /// Sent as 0x33 (moving) rather than 0x32 (stopped).
    pub moving: bool,
    /// X position, 15 bits, DistConvFactor units.
    pub x: u16,
    /// Y position, 15 bits.
    pub y: u16,
    /// Heading, AngleConvFactor units (4096 per turn).
    pub th: i16,
    /// Left wheel velocity, VelConvFactor units.
    pub left_vel: i16,
    /// Right wheel velocity.
    pub right_vel: i16,
    /// Battery, 0.1 V.
    pub battery: u8,
    /// Bit 0 left wheel stalled, bits 1-7 rear bumpers; bit 8 right wheel stalled, bits
    /// 9-15 front bumpers.
    pub stall_bumpers: u16,
    /// Heading set-point (obsolete).
    pub control: i16,
    /// Bit 0 motors enabled, bits 1-4 sonar arrays, bit 5 estop, ...
    pub flags: u16,
    /// Compass heading / 2 (0: no compass).
    pub compass: u8,
    sonar_count: u8,
    sonar: [SonarReading; MAX_SONAR_READINGS],
    tail_len: u8,
    tail: [u8; MAX_TAIL],
}

impl Default for Sip {
    fn default() -> Self {
        Self {
            moving: false,
            x: 0,
            y: 0,
            th: 0,
            left_vel: 0,
            right_vel: 0,
            battery: 0,
            stall_bumpers: 0,
            control: 0,
            flags: 0,
            compass: 0,
            sonar_count: 0,
            sonar: [SonarReading::default(); MAX_SONAR_READINGS],
            tail_len: 0,
            tail: [0; MAX_TAIL],
        }
    }
}

impl std::fmt::Debug for Sip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sip")
            .field("moving", &self.moving)
            .field("x", &self.x)
            .field("y", &self.y)
            .field("th", &self.th)
            .field("left_vel", &self.left_vel)
            .field("right_vel", &self.right_vel)
            .field("battery", &self.battery)
            .field("stall_bumpers", &self.stall_bumpers)
            .field("control", &self.control)
            .field("flags", &self.flags)
            .field("compass", &self.compass)
            .field("sonar", &self.sonar())
            .field("tail", &self.tail())
            .finish()
    }
}

/// Flag bit: motors enabled.
pub const FLAG_MOTORS: u16 = 1 << 0;
/// Flag bits: sonar arrays 1-4 enabled.
pub const FLAG_SONARS: u16 = 0b1_1110;
/// Flag bit: estop pressed.
pub const FLAG_ESTOP: u16 = 1 << 5;

impl Sip {
    /// Decode a SIP frame.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        let mut s = Self::default();
        s.decode_from(frame)?;
        Ok(s)
    }

    /// Decode into this value (no new memory; the hot path).
    pub fn decode_from(&mut self, frame: &Frame<'_>) -> Result<(), Error> {
        if !ids::is_sip(frame.id) {
            return Err(Error::WrongPacket {
                expected: "SIP",
                got: frame.id,
            });
        }
        let t = |field| Error::Truncated {
            packet: "SIP",
            field,
        };
        if frame.data.len() > MAX_DATA {
            return Err(Error::TooLong(frame.data.len() + 1));
        }
        let mut r = Reader::new(frame.data);
        self.moving = frame.id == ids::SIP_MOVING;
        self.x = r.u16().ok_or(t("XPOS"))?;
        self.y = r.u16().ok_or(t("YPOS"))?;
        self.th = r.i16().ok_or(t("THPOS"))?;
        self.left_vel = r.i16().ok_or(t("L VEL"))?;
        self.right_vel = r.i16().ok_or(t("R VEL"))?;
        self.battery = r.u8().ok_or(t("BATTERY"))?;
        self.stall_bumpers = r.u16().ok_or(t("STALL AND BUMPERS"))?;
        self.control = r.i16().ok_or(t("CONTROL"))?;
        self.flags = r.u16().ok_or(t("FLAGS"))?;
        self.compass = r.u8().ok_or(t("COMPASS"))?;
        let n = r.u8().ok_or(t("SONAR COUNT"))?;
        if usize::from(n) > MAX_SONAR_READINGS {
            return Err(t("sonar readings"));
        }
        let raw = r.bytes(3 * usize::from(n)).ok_or(t("sonar readings"))?;
        for (dst, src) in self.sonar.iter_mut().zip(raw.chunks_exact(3)) {
            if let [index, lo, hi] = *src {
                *dst = SonarReading {
                    index,
                    range: u16::from_le_bytes([lo, hi]),
                };
            }
        }
        self.sonar_count = n;
        let rest = r.rest();
        let dst = self.tail.get_mut(..rest.len()).ok_or(t("sonar readings"))?;
        dst.copy_from_slice(rest);
        self.tail_len = rest.len() as u8;
        Ok(())
    }

    /// Encode into `out` (no new memory); returns the packet's bytes.
    pub fn encode_into<'b>(&self, out: &'b mut PacketBuf) -> Result<&'b [u8], Error> {
        let id = if self.moving {
            ids::SIP_MOVING
        } else {
            ids::SIP_STOPPED
        };
        let sonar = self.sonar();
        let tail = self.tail_bytes();
        let n = FIXED + 3 * sonar.len() + tail.len();
        out.rebuild_exact(id, n, |d| {
            let (head, rest) = d.split_at_mut(FIXED);
            let mut fixed = [0u8; FIXED];
            fixed[0..2].copy_from_slice(&self.x.to_le_bytes());
            fixed[2..4].copy_from_slice(&self.y.to_le_bytes());
            fixed[4..6].copy_from_slice(&self.th.to_le_bytes());
            fixed[6..8].copy_from_slice(&self.left_vel.to_le_bytes());
            fixed[8..10].copy_from_slice(&self.right_vel.to_le_bytes());
            fixed[10] = self.battery;
            fixed[11..13].copy_from_slice(&self.stall_bumpers.to_le_bytes());
            fixed[13..15].copy_from_slice(&self.control.to_le_bytes());
            fixed[15..17].copy_from_slice(&self.flags.to_le_bytes());
            fixed[17] = self.compass;
            fixed[18] = sonar.len() as u8;
            head.copy_from_slice(&fixed);
            let (readings, after) = rest.split_at_mut(3 * sonar.len());
            for (dst, s) in readings.chunks_exact_mut(3).zip(sonar) {
                let [lo, hi] = s.range.to_le_bytes();
                dst.copy_from_slice(&[s.index, lo, hi]);
            }
            after.copy_from_slice(tail);
        })
    }

    /// Encode into a new packet.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        let mut p = PacketBuf::default();
        self.encode_into(&mut p)?;
        Ok(p)
    }

    /// The sonar readings in this SIP.
    pub fn sonar(&self) -> &[SonarReading] {
        self.sonar
            .get(..usize::from(self.sonar_count))
            .unwrap_or(&[])
    }

    /// Replace the sonar readings (at most [`MAX_SONAR_READINGS`]; the rest are dropped).
    pub fn set_sonar(&mut self, readings: impl IntoIterator<Item = SonarReading>) {
        let mut n = 0;
        for (dst, src) in self.sonar.iter_mut().zip(readings) {
            *dst = src;
            n += 1;
        }
        self.sonar_count = n as u8;
    }

    /// The bytes after the sonar readings, as they came.
    pub fn tail_bytes(&self) -> &[u8] {
        self.tail.get(..usize::from(self.tail_len)).unwrap_or(&[])
    }

    /// The optional fields after the sonar readings.
    pub fn tail(&self) -> SipTail {
        SipTail::read(self.tail_bytes())
    }

    /// Set the optional fields (written in order up to the first missing one).
    pub fn set_tail(&mut self, tail: &SipTail) {
        let mut w = Writer::new(&mut self.tail);
        tail.write(&mut w);
        self.tail_len = w.len() as u8;
    }

    /// Left wheel stalled.
    pub fn left_stalled(&self) -> bool {
        self.stall_bumpers & 1 != 0
    }
    /// Right wheel stalled.
    pub fn right_stalled(&self) -> bool {
        self.stall_bumpers & (1 << 8) != 0
    }
    /// Rear bumper segments (bit k = segment k).
    pub fn rear_bumpers(&self) -> u8 {
        ((self.stall_bumpers >> 1) & 0x7F) as u8
    }
    /// Front bumper segments (bit k = segment k).
    pub fn front_bumpers(&self) -> u8 {
        ((self.stall_bumpers >> 9) & 0x7F) as u8
    }
    /// Pack stall and bumper bits.
    pub fn pack_stall_bumpers(left: bool, right: bool, front: u8, rear: u8) -> u16 {
        u16::from(left)
            | (u16::from(rear & 0x7F) << 1)
            | (u16::from(right) << 8)
            | (u16::from(front & 0x7F) << 9)
    }
    /// Motors enabled.
    pub fn motors_enabled(&self) -> bool {
        self.flags & FLAG_MOTORS != 0
    }
    /// Any sonar array enabled.
    pub fn sonar_enabled(&self) -> bool {
        self.flags & FLAG_SONARS != 0
    }
    /// Estop pressed.
    pub fn estop(&self) -> bool {
        self.flags & FLAG_ESTOP != 0
    }
}

/// The optional fields after the sonar readings; each is present only if every one
/// before it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SipTail {
    /// Selected analog port (ADSEL): the first byte after the sonar readings, the low
    /// byte of ARIA's `getAnalogPortSelected()`.
    pub anport: Option<u8>,
    /// Gripper switches as ARIA's General-I/O gripper reads them: the second byte, the
    /// high byte of ARIA's `getAnalogPortSelected()` (see
    /// [`GripperState::to_general_io`](super::GripperState::to_general_io)).
    pub grip_state: Option<u8>,
    /// Value of that port, 8 bits.
    pub analog: Option<u8>,
    /// Digital inputs.
    pub digin: Option<u8>,
    /// Digital outputs.
    pub digout: Option<u8>,
    /// Battery, 0.1 V, 16 bits.
    pub battery_x10: Option<u16>,
    /// 0 not charging, 1 bulk, 2 overcharge, 3 float.
    pub charge_state: Option<u8>,
    /// Rotational velocity, 0.1 deg/s.
    pub rot_vel: Option<i16>,
    /// Fault flags.
    pub fault_flags: Option<u16>,
    /// Lateral velocity, mm/s.
    pub lat_vel: Option<i16>,
    /// Temperature, deg C (-127 unknown).
    pub temperature: Option<i8>,
    /// State of charge, percent.
    pub state_of_charge: Option<u8>,
    /// Microcontroller time, microseconds.
    pub uc_time: Option<u32>,
    /// More flags.
    pub flags3: Option<u32>,
}

impl SipTail {
    fn read(b: &[u8]) -> Self {
        let mut r = Reader::new(b);
        let mut t = Self::default();
        // each field only if all before it were there
        (|| {
            t.anport = Some(r.u8()?);
            t.grip_state = Some(r.u8()?);
            t.analog = Some(r.u8()?);
            t.digin = Some(r.u8()?);
            t.digout = Some(r.u8()?);
            t.battery_x10 = Some(r.u16()?);
            t.charge_state = Some(r.u8()?);
            t.rot_vel = Some(r.i16()?);
            t.fault_flags = Some(r.u16()?);
            t.lat_vel = Some(r.i16()?);
            t.temperature = Some(r.i8()?);
            t.state_of_charge = Some(r.u8()?);
            t.uc_time = Some(r.u32()?);
            t.flags3 = Some(r.u32()?);
            Some(())
        })();
        t
    }

    fn write(&self, w: &mut Writer<'_>) {
        (|| {
            w.u8(self.anport?);
            w.u8(self.grip_state?);
            w.u8(self.analog?);
            w.u8(self.digin?);
            w.u8(self.digout?);
            w.u16(self.battery_x10?);
            w.u8(self.charge_state?);
            w.i16(self.rot_vel?);
            w.u16(self.fault_flags?);
            w.i16(self.lat_vel?);
            w.i8(self.temperature?);
            w.u8(self.state_of_charge?);
            w.u32(self.uc_time?);
            w.u32(self.flags3?);
            Some(())
        })();
    }
}
