//! Client commands: every command number ARIA and P2OS define, with its argument and
//! meaning, and command packets.
//!
//! Commands 35, 36 and 37 are ADSEL, GRIPPERVAL and GRIPPERPACREQUEST as in P2OS and
//! ARIA. MobileSim/AMRISim reads them, with 38, as the old SRISim simulated-laser
//! commands that ARIA's simulated laser still sends; the server tells the two apart
//! (`server::OldLaserCommands`).

use crate::args::Arg;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};

/// What argument a command takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// No argument.
    None,
    /// No argument, or an integer (ARIA sends OPEN, CLOSE, SETO, STOP with `int 1` or none).
    OptionalInt,
    /// A signed integer.
    Int,
    /// Two bytes packed in an integer (high byte, low byte).
    TwoBytes,
    /// A string.
    Str,
    /// Three 4-byte little-endian integers after a zero type byte.
    ThreeInt4,
}

/// One row of the command table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandInfo {
    /// The command.
    pub id: CommandId,
    /// Its number on the wire.
    pub number: u8,
    /// ARIA's name.
    pub name: &'static str,
    /// Its argument.
    pub arg: ArgKind,
    /// What it does.
    pub meaning: &'static str,
}

macro_rules! commands {
    ($( $variant:ident = $num:literal, $name:literal, $arg:ident, $meaning:literal; )*) => {
        /// A command number.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum CommandId {
            $(
                #[doc = $meaning]
                $variant = $num,
            )*
        }

        /// Every command, in number order.
        pub const COMMANDS: &[CommandInfo] = &[
            $( CommandInfo {
                id: CommandId::$variant,
                number: $num,
                name: $name,
                arg: ArgKind::$arg,
                meaning: $meaning,
            }, )*
        ];

        impl CommandId {
            /// The command with this number, if it is one we know.
            pub fn from_number(n: u8) -> Option<Self> {
                match n {
                    $( $num => Some(CommandId::$variant), )*
                    _ => None,
                }
            }
            /// Its row of the table.
            pub fn info(self) -> &'static CommandInfo {
                match self {
                    $( CommandId::$variant => &CommandInfo {
                        id: CommandId::$variant,
                        number: $num,
                        name: $name,
                        arg: ArgKind::$arg,
                        meaning: $meaning,
                    }, )*
                }
            }
        }
    };
}

commands! {
    Pulse = 0, "PULSE", None, "Keep-alive (also SYNC0 during the handshake); resets the watchdog.";
    Open = 1, "OPEN", OptionalInt, "Start the controller's servers and the SIP stream (also SYNC1).";
    Close = 2, "CLOSE", OptionalInt, "Close the connection and stop the servers (also SYNC2).";
    Polling = 3, "POLLING", Str, "Sonar polling sequence.";
    Enable = 4, "ENABLE", Int, "1 enables, 0 disables the motors.";
    SetA = 5, "SETA", Int, "Translational acceleration (positive) or deceleration (negative), mm/s².";
    SetV = 6, "SETV", Int, "Maximum translational velocity, mm/s.";
    SetO = 7, "SETO", OptionalInt, "Reset the odometry origin to 0, 0, 0.";
    Move = 8, "MOVE", Int, "Translate this far, mm (relative).";
    Rotate = 9, "ROTATE", Int, "Rotational velocity, deg/s (same as RVEL).";
    SetRv = 10, "SETRV", Int, "Maximum rotational velocity, deg/s.";
    Vel = 11, "VEL", Int, "Translational velocity, mm/s (signed).";
    Head = 12, "HEAD", Int, "Turn to an absolute heading, degrees 0-359 (odometry frame).";
    DHead = 13, "DHEAD", Int, "Turn by this many degrees from the current heading.";
    Say = 15, "SAY", Str, "Play tones: up to 20 pairs of (duration in 20 ms units, tone as a half-cycle value).";
    JoyInfo = 17, "JOYINFO", Int, "Joystick packet request: 0 stop, 1 one, 2 continuous.";
    Config = 18, "CONFIG", Int, "Request a CONFIGpac (0x20).";
    Encoder = 19, "ENCODER", Int, "ENCODERpac (0x90) stream: 0 stop, 1 one, 2 continuous.";
    SetRvDir = 20, "SETRVDIR", Int, "Maximum rotational velocity per direction.";
    RVel = 21, "RVEL", Int, "Rotational velocity, deg/s (signed, counter-clockwise positive).";
    DcHead = 22, "DCHEAD", Int, "Heading set-point relative to the current control point, degrees.";
    SetRa = 23, "SETRA", Int, "Rotational acceleration (positive) or deceleration (negative), deg/s².";
    ImuRequest = 26, "IMUREQUEST", Int, "IMU packet request.";
    Sonar = 28, "SONAR", Int, "1 enables, 0 disables the sonar (P2OS: bits select arrays).";
    Stop = 29, "STOP", OptionalInt, "Stop the robot.";
    DigOut = 30, "DIGOUT", TwoBytes, "Digital outputs: high byte = mask of outputs to change, low byte = their new states.";
    Timer = 31, "TIMER", Int, "P2OS user input timer (ARIA leaves 31 unnamed; AMRISim: PeopleBot SETPBIOPORT).";
    Vel2 = 32, "VEL2", TwoBytes, "Independent wheel velocities: high byte left, low byte right, each a signed byte times Vel2Divisor mm/s.";
    Gripper = 33, "GRIPPER", Int, "Gripper server command (GRIP_OPEN 1 ... LIFT_CARRY 17).";
    Adsel = 35, "ADSEL", Int, "Select the A/D port reported in the SIP's analog byte (default 5).";
    GripperVal = 36, "GRIPPERVAL", Int, "Value for GRIP_PRESSURE or LIFT_CARRY, 20 ms units.";
    GripperPacRequest = 37, "GRIPPERPACREQUEST", Int, "GRIPPERpac (0xE0): 0 stop, 1 one, 2 continuous.";
    IoRequest = 40, "IOREQUEST", Int, "IOpac (0xF0): 0 stop, 1 one, 2 continuous.";
    PtuPos = 41, "PTUPOS", TwoBytes, "Pan-tilt unit: high byte port, low byte pulse width.";
    Tty2 = 42, "TTY2", Str, "Send bytes to the AUX1 serial port.";
    GetAux = 43, "GETAUX", Int, "Request 1-200 bytes from AUX1 (reply 0xB0); 0 flushes.";
    BumpStall = 44, "BUMPSTALL", Int, "Stall on bumper contact: 0 off, 1 front, 2 rear, 3 both.";
    Tcm2 = 45, "TCM2", Int, "TCM2 compass: 0 off, 1 compass only, 2 one TCM2pac, 3 continuous, 4 user calibration, 5 auto calibration, 6 stop calibration, 7 soft reset.";
    JoyDrive = 47, "JOYDRIVE", Int, "Drive with the joystick on the robot.";
    MovingBlink = 49, "MOVINGBLINK", Int, "Blink a light while moving.";
    HostBaud = 50, "HOSTBAUD", Int, "Host serial baud: 0=9600 1=19200 2=38400 3=57600 4=115200.";
    Aux1Baud = 51, "AUX1BAUD", Int, "AUX1 serial baud (codes as HOSTBAUD).";
    Aux2Baud = 52, "AUX2BAUD", Int, "AUX2 serial baud (codes as HOSTBAUD).";
    Estop = 55, "ESTOP", OptionalInt, "Emergency stop: wheels to zero at once.";
    Gyro = 58, "GYRO", Int, "Gyro packets (0x98).";
    BatteryInfo = 62, "BATTERYINFO", Int, "Battery packets (0xFA): 0 stop, 1 one, 2 continuous.";
    CalComp = 65, "CALCOMP", Int, "Compass calibration.";
    Sound = 90, "SOUND", Int, "AmigoBot: play the sound with this number.";
    Playlist = 91, "PLAYLIST", Int, "AmigoBot: request sound names (0 = all); a robot without sounds answers 25 NUL bytes.";
    SoundTog = 92, "SOUNDTOG", Int, "AmigoBot: sound on (1) or off (0).";
    LatVel = 110, "LATVEL", Int, "Lateral velocity, mm/s (Seekur).";
    LatAccel = 113, "LATACCEL", Int, "Lateral acceleration (Seekur).";
    SimSetPose = 224, "SIM_SET_POSE", ThreeInt4, "Simulator: move the robot to this true pose (x mm, y mm, th deg); odometry unchanged.";
    SimReset = 225, "SIM_RESET", OptionalInt, "Simulator: back to the start pose, odometry zero.";
    SimLrfEnable = 230, "SIM_LRF_ENABLE", Int, "Simulator: simulated laser off (0), on with plain 0x60 packets (1) or extended 0x61 packets (2).";
    SimLrfSetFovStart = 231, "SIM_LRF_SET_FOV_START", Int, "Simulator: laser field of view start, degrees.";
    SimLrfSetFovEnd = 232, "SIM_LRF_SET_FOV_END", Int, "Simulator: laser field of view end, degrees.";
    SimLrfSetRes = 233, "SIM_LRF_SET_RES", Int, "Simulator: degrees between laser readings, in hundredths (as MobileSim reads it).";
    SimCtrl = 236, "SIM_CTRL", Int, "Simulator meta-operation (1 load map, 6 request SIMINFO 0x63, ...).";
    SimStat = 237, "SIM_STAT", OptionalInt, "Simulator: request SIMSTAT (0x62).";
    SimMessage = 238, "SIM_MESSAGE", Str, "Simulator: log this text.";
    SimExit = 239, "SIM_EXIT", Int, "Simulator: exit with this code.";
    BatTest = 250, "BATTEST", Int, "Simulator: set the battery voltage, decivolts.";
    PowerOnLikeReset = 253, "POWERONLIKE_RESET", OptionalInt, "Reset the controller as at power-on.";
}

/// The SYNC0 command number (PULSE).
pub const SYNC0: u8 = 0;
/// The SYNC1 command number (OPEN).
pub const SYNC1: u8 = 1;
/// The SYNC2 command number (CLOSE).
pub const SYNC2: u8 = 2;

/// A command packet: its number and argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandPacket<'a> {
    /// Command number (may be one [`CommandId`] does not name).
    pub number: u8,
    /// Argument.
    pub arg: Arg<'a>,
}

impl<'a> CommandPacket<'a> {
    /// A command with no argument.
    pub fn bare(id: CommandId) -> Self {
        Self {
            number: id as u8,
            arg: Arg::None,
        }
    }
    /// A command with an integer argument.
    pub fn int(id: CommandId, v: i32) -> Self {
        Self {
            number: id as u8,
            arg: Arg::Int(v),
        }
    }
    /// A command with a string argument.
    pub fn str(id: CommandId, s: &'a [u8]) -> Self {
        Self {
            number: id as u8,
            arg: Arg::Str(s),
        }
    }
    /// A command with two bytes packed in an integer (DIGOUT, VEL2, PTUPOS).
    pub fn two_bytes(id: CommandId, hi: u8, lo: u8) -> Self {
        Self::int(id, crate::args::two_bytes(hi, lo))
    }

    /// Read a command from a frame.
    pub fn decode(frame: &Frame<'a>) -> Result<Self, Error> {
        let arg = if frame.id == CommandId::SimSetPose as u8 {
            // AMRISim ignores the type byte here; ARIA sends a zero
            match frame.data.split_first() {
                Some((&kind, rest)) => Arg::Raw(kind, rest),
                None => Arg::None,
            }
        } else {
            Arg::decode(frame.data)?
        };
        Ok(Self {
            number: frame.id,
            arg,
        })
    }

    /// The command's table entry, if it is a known one.
    pub fn id(&self) -> Option<CommandId> {
        CommandId::from_number(self.number)
    }

    /// Encode into a packet.
    pub fn encode(&self) -> Result<PacketBuf, Error> {
        let mut result = Ok(());
        let p = PacketBuf::build(self.number, |w| result = self.arg.encode(w))?;
        result.map(|()| p)
    }

    /// The SIM_SET_POSE argument: (x mm, y mm, th deg).
    pub fn sim_pose(&self) -> Option<(i32, i32, i32)> {
        let Arg::Raw(_, b) = self.arg else {
            return None;
        };
        let mut r = crate::wire::Reader::new(b);
        Some((r.i32()?, r.i32()?, r.i32()?))
    }

    /// A SIM_SET_POSE command as ARIA's `ArSimUtil` sends it.
    pub fn encode_sim_set_pose(x_mm: i32, y_mm: i32, th_deg: i32) -> Result<PacketBuf, Error> {
        PacketBuf::build(CommandId::SimSetPose as u8, |w| {
            w.u8(0);
            w.i32(x_mm);
            w.i32(y_mm);
            w.i32(th_deg);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Framer;

    #[test]
    fn the_table_is_consistent() {
        for (k, c) in COMMANDS.iter().enumerate() {
            assert_eq!(c.id as u8, c.number);
            assert_eq!(CommandId::from_number(c.number), Some(c.id));
            assert_eq!(c.id.info(), c);
            if let Some(next) = COMMANDS.get(k + 1) {
                assert!(next.number > c.number, "{} out of order", next.name);
            }
        }
        assert_eq!(CommandId::Adsel as u8, 35);
        assert_eq!(CommandId::GripperVal as u8, 36);
        assert_eq!(CommandId::GripperPacRequest as u8, 37);
        assert_eq!(CommandId::from_number(14), None);
    }

    fn decode_one(bytes: &[u8]) -> (u8, Vec<u8>) {
        let mut f = Framer::new();
        let mut out = None;
        f.feed(bytes, |fr| out = Some((fr.id, fr.data.to_vec())));
        out.expect("one frame")
    }

    #[test]
    fn golden_command_packets_from_aria() {
        let golden: &[(&[u8], CommandPacket<'_>)] = &[
            (
                &[0xFA, 0xFB, 0x03, 0x00, 0x00, 0x00],
                CommandPacket::bare(CommandId::Pulse),
            ),
            (
                &[0xFA, 0xFB, 0x03, 0x01, 0x00, 0x01],
                CommandPacket::bare(CommandId::Open),
            ),
            (
                &[0xFA, 0xFB, 0x03, 0x02, 0x00, 0x02],
                CommandPacket::bare(CommandId::Close),
            ),
            (
                &[0xFA, 0xFB, 0x06, 0x01, 0x3B, 0x01, 0x00, 0x02, 0x3B],
                CommandPacket::int(CommandId::Open, 1),
            ),
            (
                &[0xFA, 0xFB, 0x06, 0x0B, 0x3B, 0xFA, 0x00, 0x05, 0x3B],
                CommandPacket::int(CommandId::Vel, 250),
            ),
            (
                &[0xFA, 0xFB, 0x06, 0x05, 0x1B, 0x2C, 0x01, 0x31, 0x1C],
                CommandPacket::int(CommandId::SetA, -300),
            ),
            (
                &[0xFA, 0xFB, 0x06, 0x02, 0x3B, 0x01, 0x00, 0x03, 0x3B],
                CommandPacket::int(CommandId::Close, 1),
            ),
        ];
        for (bytes, cmd) in golden {
            let (id, data) = decode_one(bytes);
            let frame = Frame {
                id,
                data: &data,
                bytes,
            };
            assert_eq!(&CommandPacket::decode(&frame).unwrap(), cmd);
            assert_eq!(cmd.encode().unwrap().as_bytes(), *bytes);
        }
    }

    #[test]
    fn sim_set_pose_carries_three_int4() {
        let p = CommandPacket::encode_sim_set_pose(1500, -2000, 90).unwrap();
        let (id, data) = decode_one(p.as_bytes());
        let frame = Frame {
            id,
            data: &data,
            bytes: p.as_bytes(),
        };
        let c = CommandPacket::decode(&frame).unwrap();
        assert_eq!(c.id(), Some(CommandId::SimSetPose));
        assert_eq!(c.sim_pose(), Some((1500, -2000, 90)));
    }

    #[test]
    fn say_goes_out_with_a_trailing_nul() {
        let p = CommandPacket::str(CommandId::Say, &[10, 50, 10, 60])
            .encode()
            .unwrap();
        assert_eq!(p.data(), [0x2B, 4, 10, 50, 10, 60, 0]);
    }
}
