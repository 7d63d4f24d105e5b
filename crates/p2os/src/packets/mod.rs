//! Robot-to-client packets: what each one holds, decoders and encoders (the robot's
//! and, for simulators, the simulated laser's scans, SIMSTAT and SIMINFO).
//!
//! Integers are little-endian, strings NUL-terminated. Decoders read a [`Frame`]'s data
//! and fail with [`crate::Error::Truncated`] instead of reading past the end; the SIP
//! decoder fills a value in place and allocates nothing.
//!
//! [`Frame`]: crate::frame::Frame

pub mod config;
pub mod encoder;
pub mod gripper;
pub mod io;
pub mod laser;
pub mod playlist;
pub mod siminfo;
pub mod simstat;
pub mod sip;
pub mod sync;
pub mod tcm2;

pub use config::ConfigPac;
pub use encoder::EncoderPac;
pub use gripper::{GripperPac, GripperState, GripperType};
pub use io::IoPac;
pub use laser::{LaserPac, ScanHeader};
pub use playlist::{Playlist, SoundRef};
pub use siminfo::{SimDevice, SimInfo};
pub use simstat::SimStat;
pub use sip::{Sip, SipTail, SonarReading};
pub use sync::Identity;
pub use tcm2::Tcm2Pac;

/// Packet type IDs (robot to client).
pub mod ids {
    /// SYNC0 reply.
    pub const SYNC0: u8 = 0x00;
    /// SYNC1 reply.
    pub const SYNC1: u8 = 0x01;
    /// SYNC2 reply (robot name, class, subtype).
    pub const SYNC2: u8 = 0x02;
    /// CONFIGpac.
    pub const CONFIG: u8 = 0x20;
    /// Standard SIP, robot stopped.
    pub const SIP_STOPPED: u8 = 0x32;
    /// Standard SIP, robot moving.
    pub const SIP_MOVING: u8 = 0x33;
    /// PLAYLIST reply. The manual gives no type for it and no peer reads it; we use
    /// 0x5B, the PLAYLIST command's own number (91).
    pub const PLAYLIST: u8 = 0x5B;
    /// Simulated laser scan packet.
    pub const LASER: u8 = 0x60;
    /// Simulated laser scan packet with reflectance and flags.
    pub const LASER_EXTENDED: u8 = 0x61;
    /// SIMSTAT (simulator status).
    pub const SIMSTAT: u8 = 0x62;
    /// SIMINFO (simulator name, version, devices).
    pub const SIMINFO: u8 = 0x63;
    /// ENCODERpac.
    pub const ENCODER: u8 = 0x90;
    /// TCM2pac.
    pub const TCM2: u8 = 0xC0;
    /// GRIPPERpac.
    pub const GRIPPER: u8 = 0xE0;
    /// IOpac.
    pub const IO: u8 = 0xF0;
    /// Microcontroller reset (ARIA disconnects).
    pub const RESET: u8 = 0xFF;
    /// Microcontroller reset, other form.
    pub const RESET_ALT: u8 = 0xFE;

    /// Is this a standard SIP?
    pub fn is_sip(id: u8) -> bool {
        id == SIP_STOPPED || id == SIP_MOVING
    }
}

/// Turn NUL-terminated bytes into text (lossy for non-UTF-8 bytes).
pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
