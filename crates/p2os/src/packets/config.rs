//! CONFIGpac (type 0x20), the reply to CONFIG: the robot's identity, its absolute and
//! current motion limits, its accessories and its firmware settings.
//!
//! The layout is ARIA's (`ArRobotConfigPacketReader`). Robots stop early — AMRISim after
//! the PowerBot charge threshold — so every field is optional from the end: a decoded
//! CONFIGpac remembers how many fields came ([`ConfigPac::fields`]) and any bytes after
//! the last whole one, and encodes back byte for byte.

use super::{ids, text};
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::{Reader, Writer};

macro_rules! field_type {
    (Str) => {
        String
    };
    (U8) => {
        u8
    };
    (I8) => {
        i8
    };
    (U16) => {
        u16
    };
    (I16) => {
        i16
    };
    (U32) => {
        u32
    };
}

macro_rules! read_field {
    ($r:expr, Str) => {
        $r.cstr().map(text)
    };
    ($r:expr, U8) => {
        $r.u8()
    };
    ($r:expr, I8) => {
        $r.i8()
    };
    ($r:expr, U16) => {
        $r.u16()
    };
    ($r:expr, I16) => {
        $r.i16()
    };
    ($r:expr, U32) => {
        $r.u32()
    };
}

macro_rules! write_field {
    ($w:expr, $v:expr, Str) => {
        $w.cstr($v.as_bytes())
    };
    ($w:expr, $v:expr, U8) => {
        $w.u8($v)
    };
    ($w:expr, $v:expr, I8) => {
        $w.i8($v)
    };
    ($w:expr, $v:expr, U16) => {
        $w.u16($v)
    };
    ($w:expr, $v:expr, I16) => {
        $w.i16($v)
    };
    ($w:expr, $v:expr, U32) => {
        $w.u32($v)
    };
}

macro_rules! config_pac {
    ($( $field:ident : $kind:ident, $doc:literal; )*) => {
        /// A CONFIGpac.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct ConfigPac {
            $( #[doc = $doc] pub $field: field_type!($kind), )*
            /// How many of the fields above the packet carries (the rest read as 0 or empty).
            pub fields: usize,
            /// Bytes after the last whole field (kept so that the packet encodes back as it came).
            pub extra: Vec<u8>,
        }

        /// Number of named fields.
        pub const CONFIG_FIELDS: usize = [$( stringify!($field) ),*].len();

        impl ConfigPac {
            fn read(&mut self, r: &mut Reader<'_>) {
                let mut n = 0;
                $(
                    if r.remaining() == 0 {
                        self.fields = n;
                        return;
                    }
                    let mut probe = r.clone();
                    match read_field!(probe, $kind) {
                        Some(v) => {
                            self.$field = v;
                            *r = probe;
                            n += 1;
                        }
                        None => {
                            self.fields = n;
                            self.extra = r.rest().to_vec();
                            return;
                        }
                    }
                )*
                self.fields = n;
                self.extra = r.rest().to_vec();
            }

            fn write(&self, w: &mut Writer<'_>) {
                let mut n = 0;
                $(
                    if n < self.fields {
                        write_field!(w, self.$field.clone(), $kind);
                        n += 1;
                    }
                )*
                let _ = n;
                w.bytes(&self.extra);
            }
        }
    };
}

config_pac! {
    robot_type: Str, "Robot class (`Pioneer`).";
    subtype: Str, "Subtype (`p3dx`).";
    serial: Str, "Serial number.";
    four_mots: U8, "4MOTS flag (unused).";
    rot_vel_top: U16, "Absolute maximum rotational velocity, deg/s.";
    trans_vel_top: U16, "Absolute maximum translational velocity, mm/s.";
    rot_acc_top: U16, "Absolute maximum rotational acceleration, deg/s².";
    trans_acc_top: U16, "Absolute maximum translational acceleration, mm/s².";
    pwm_max: U16, "Maximum motor PWM.";
    name: Str, "Robot name.";
    sip_cycle: U8, "SIP cycle, ms.";
    host_baud: U8, "Host serial baud code.";
    aux1_baud: U8, "AUX1 baud code.";
    has_gripper: U16, "Gripper fitted.";
    front_sonar: U16, "Front sonar array fitted.";
    rear_sonar: U8, "Rear sonar array fitted.";
    low_battery: U16, "Low-battery alarm, decivolts.";
    rev_count: U16, "Encoder counts per revolution.";
    watchdog: U16, "Watchdog time, ms: the robot stops when no command arrives for this long.";
    p2_mpacs: U8, "P2-style motor packets.";
    stall_val: U16, "Stall PWM limit.";
    stall_count: U16, "Stall recovery time.";
    joy_vel: U16, "Joystick velocity.";
    joy_rvel: U16, "Joystick rotational velocity.";
    rot_vel_max: U16, "Current maximum rotational velocity, deg/s.";
    trans_vel_max: U16, "Current maximum translational velocity, mm/s.";
    rot_accel: U16, "Rotational acceleration, deg/s².";
    rot_decel: U16, "Rotational deceleration, deg/s².";
    rot_kp: U16, "Rotational PID proportional gain.";
    rot_kv: U16, "Rotational PID derivative gain.";
    rot_ki: U16, "Rotational PID integral gain.";
    trans_accel: U16, "Translational acceleration, mm/s².";
    trans_decel: U16, "Translational deceleration, mm/s².";
    trans_kp: U16, "Translational PID proportional gain.";
    trans_kv: U16, "Translational PID derivative gain.";
    trans_ki: U16, "Translational PID integral gain.";
    front_bumps: U8, "Front bumper segments.";
    rear_bumps: U8, "Rear bumper segments.";
    charger: U8, "Charger type.";
    sonar_cycle: U8, "Sonar cycle, ms.";
    autobaud: U8, "Autobaud (2: the host baud may be switched).";
    has_gyro: U8, "Gyro type (1: has a gyro).";
    drift_factor: I16, "Drift factor.";
    aux2_baud: U8, "AUX2 baud code.";
    aux3_baud: U8, "AUX3 baud code.";
    ticks_mm: U16, "Encoder ticks per mm.";
    shutdown_voltage: U16, "Shutdown voltage, decivolts.";
    firmware_version: Str, "Firmware version.";
    gyro_cw: U16, "Gyro clockwise calibration.";
    gyro_ccw: U16, "Gyro counter-clockwise calibration.";
    kinematics_delay: U8, "Kinematics delay, ms.";
    lat_vel_top: U16, "Absolute maximum lateral velocity, mm/s.";
    lat_acc_top: U16, "Absolute maximum lateral acceleration, mm/s².";
    lat_vel_max: U16, "Current maximum lateral velocity, mm/s.";
    lat_accel: U16, "Lateral acceleration, mm/s².";
    lat_decel: U16, "Lateral deceleration, mm/s².";
    charge_threshold: U16, "PowerBot charge threshold.";
    pdb_port: U8, "Power distribution board port.";
    gyro_rate_limit: U16, "Gyro rate limit.";
    high_temp_shutdown: I8, "High-temperature shutdown, deg C.";
    power_bits: U16, "Power bits.";
    battery_type: U8, "Battery type.";
    soc_low: U16, "State-of-charge warning level.";
    soc_shutdown: U16, "State-of-charge shutdown level.";
    bootloader_version: Str, "Bootloader version.";
    config_flags: U32, "Configuration flags.";
    gyro_fw_version: I16, "Gyro firmware version.";
}

impl ConfigPac {
    /// Decode a CONFIGpac frame.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::CONFIG {
            return Err(Error::WrongPacket {
                expected: "CONFIGpac",
                got: frame.id,
            });
        }
        let mut c = Self::default();
        c.read(&mut Reader::new(frame.data));
        Ok(c)
    }

    /// Encode it.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        PacketBuf::build(ids::CONFIG, |w| self.write(w))
    }

    /// Every field present (as a server sends it up to and including the charge threshold,
    /// as AMRISim does, when `fields` is this).
    pub const THROUGH_CHARGE_THRESHOLD: usize = 57;
}
