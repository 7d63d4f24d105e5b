//! GRIPPERpac (type 0xE0) and the gripper state byte of the P2OS manual, Table 10.
//!
//! | bit | meaning |
//! | --- | --- |
//! | 0 | grip limit: 0 when the paddles are fully open, else between or closed |
//! | 1 | lift limit: 0 when the lift is fully up or down, else in between |
//! | 2 | outer break beam: 0 when obstructed |
//! | 3 | inner break beam: 0 when obstructed |
//! | 4 | left paddle: 0 when grasping |
//! | 5 | right paddle: 0 when grasping |
//! | 6 | lift moving: 1 |
//! | 7 | gripper moving: 1 |
//!
//! ARIA's `ArGripper` reads every bit as Table 10 says except the two break beams, which
//! it takes as 1 = broken. It reads them so from a GRIPPERpac (its GRIPPAC mode) and from
//! the General-I/O switch byte in the SIP (the mode its default type query picks): the
//! GRIPPERpac keeps Table 10, the SIP's General-I/O byte is written the way ARIA reads it
//! ([`GripperState::to_general_io`]).

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// The Table 10 state byte.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GripperState(pub u8);

impl GripperState {
    fn bit(self, k: u8) -> bool {
        self.0 & (1 << k) != 0
    }
    /// Paddles fully open.
    pub fn paddles_open(self) -> bool {
        !self.bit(0)
    }
    /// Lift fully up or fully down.
    pub fn lift_at_limit(self) -> bool {
        !self.bit(1)
    }
    /// Something breaks the outer beam.
    pub fn outer_beam_obstructed(self) -> bool {
        !self.bit(2)
    }
    /// Something breaks the inner beam.
    pub fn inner_beam_obstructed(self) -> bool {
        !self.bit(3)
    }
    /// The left paddle is grasping.
    pub fn left_paddle_grasping(self) -> bool {
        !self.bit(4)
    }
    /// The right paddle is grasping.
    pub fn right_paddle_grasping(self) -> bool {
        !self.bit(5)
    }
    /// The lift is moving.
    pub fn lift_moving(self) -> bool {
        self.bit(6)
    }
    /// The paddles are moving.
    pub fn gripper_moving(self) -> bool {
        self.bit(7)
    }

    /// The break-beam bits (2 and 3), which ARIA and Table 10 read the opposite way.
    pub const BEAMS: u8 = 0b0000_1100;

    /// The byte as ARIA's General-I/O gripper reads it from the SIP: Table 10 with the
    /// break-beam bits meaning 1 = broken.
    pub fn to_general_io(self) -> u8 {
        self.0 ^ Self::BEAMS
    }

    /// A General-I/O switch byte from the SIP, as a Table 10 state.
    pub fn from_general_io(b: u8) -> Self {
        Self(b ^ Self::BEAMS)
    }
}

/// Gripper types a GRIPPERpac reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GripperType {
    /// No gripper (0, or anything ARIA does not know).
    None,
    /// User I/O gripper (1): paddle switches on DIGIN.
    UserIo,
    /// General I/O gripper (2).
    GeneralIo,
}

impl GripperType {
    /// From the packet's byte.
    pub fn from_byte(b: u8) -> Self {
        match b {
            1 => Self::UserIo,
            2 => Self::GeneralIo,
            _ => Self::None,
        }
    }
}

/// A GRIPPERpac.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GripperPac {
    /// Gripper type byte (0 none, 1 User I/O, 2 General I/O).
    pub kind: u8,
    /// The state byte.
    pub state: GripperState,
    /// Grasp time (20 ms units), if sent.
    pub grasp_time: Option<u8>,
}

impl GripperPac {
    /// Decode a GRIPPERpac frame.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::GRIPPER {
            return Err(Error::WrongPacket {
                expected: "GRIPPERpac",
                got: frame.id,
            });
        }
        let t = |field| Error::Truncated {
            packet: "GRIPPERpac",
            field,
        };
        let mut r = Reader::new(frame.data);
        Ok(Self {
            kind: r.u8().ok_or(t("gripper type"))?,
            state: GripperState(r.u8().ok_or(t("state byte"))?),
            grasp_time: r.u8(),
        })
    }

    /// Encode it.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        PacketBuf::build(ids::GRIPPER, |w| {
            w.u8(self.kind);
            w.u8(self.state.0);
            if let Some(g) = self.grasp_time {
                w.u8(g);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_10_bits() {
        // paddles open, lift at a limit, beams clear, nothing grasped, nothing moving
        let idle = GripperState(0b0011_1100);
        assert!(idle.paddles_open() && idle.lift_at_limit());
        assert!(!idle.outer_beam_obstructed() && !idle.inner_beam_obstructed());
        assert!(!idle.left_paddle_grasping() && !idle.right_paddle_grasping());
        assert!(!idle.lift_moving() && !idle.gripper_moving());
        // closed on an object that breaks both beams, lift rising
        let holding = GripperState(0b0100_0011);
        assert!(!holding.paddles_open() && !holding.lift_at_limit());
        assert!(holding.outer_beam_obstructed() && holding.inner_beam_obstructed());
        assert!(holding.left_paddle_grasping() && holding.right_paddle_grasping());
        assert!(holding.lift_moving() && !holding.gripper_moving());
    }

    #[test]
    fn general_io_flips_only_the_beams() {
        // open, lift down, inner beam broken (Table 10: bit 3 = 0), paddles free
        let s = GripperState(0b0011_0100);
        assert_eq!(
            s.to_general_io(),
            0b0011_1000,
            "ARIA: bit 3 set = inner broken"
        );
        assert_eq!(GripperState::from_general_io(s.to_general_io()), s);
    }
}
