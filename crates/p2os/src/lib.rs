//! The P2OS wire protocol of Pioneer-class robots, both sides of it.
//!
//! - the codec: [`checksum`], [`frame`] (packets on the wire and a streaming [`Framer`]
//!   that resynchronises after garbage), [`args`] (command arguments), [`command`] (every
//!   command number ARIA and P2OS define, with its argument and meaning), [`packets`]
//!   (SYNC replies, the standard SIP, CONFIGpac, GRIPPERpac, IOpac, ENCODERpac, TCM2pac,
//!   the PLAYLIST reply), [`params`] (unit scaling per robot subtype) and [`geometry`]
//!   (where each subtype's sonars are);
//! - [`client`]: what ARIA does — connect over TCP or a serial port, run the SYNC
//!   handshake, keep commands flowing, turn SIPs into a Skipper [`skipper_core::Vehicle`];
//! - [`server`]: what MobileSim does — serve robots behind the [`server::RobotFleet`]
//!   trait over P2OS, one TCP port per robot.
//!
//! Bytes that do not frame, or fail their checksum, are counted and skipped; decoders
//! return errors and never panic. Decoding a SIP and encoding one allocate nothing.

pub mod args;
pub mod checksum;
pub mod client;
pub mod command;
pub mod error;
pub mod frame;
#[doc(hidden)]
pub mod fuzzing;
pub mod geometry;
pub mod packets;
pub mod params;
pub mod server;
pub mod wire;

pub use args::Arg;
pub use command::{CommandId, CommandPacket};
pub use error::Error;
pub use frame::{Frame, Framer, FramerStats, PacketBuf};
pub use packets::{ConfigPac, EncoderPac, GripperPac, GripperState, IoPac, Sip, Tcm2Pac};
pub use params::RobotParams;
