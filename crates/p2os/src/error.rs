//! The crate's error type.

use std::time::Duration;

/// What went wrong in the codec, the client or the server.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A packet ended before a field it must have.
    #[error("{packet} packet too short: {field} is missing")]
    Truncated {
        /// packet kind
        packet: &'static str,
        /// the first missing field
        field: &'static str,
    },
    /// A packet of another kind than expected.
    #[error("expected a {expected} packet, got packet type 0x{got:02X}")]
    WrongPacket {
        /// what was expected
        expected: &'static str,
        /// the type ID received
        got: u8,
    },
    /// A packet would not fit in the one-byte count.
    #[error("packet too long: {0} bytes of payload (at most 253)")]
    TooLong(usize),
    /// An integer argument out of the range a command can carry.
    #[error("integer argument {0} out of range (-65535..=65535)")]
    ArgumentRange(i32),
    /// An argument-type byte this protocol does not define.
    #[error("unknown argument type 0x{0:02X}")]
    ArgumentType(u8),
    /// A string argument too long for a packet.
    #[error("string argument of {0} bytes is too long (at most 199)")]
    StringTooLong(usize),
    /// The link failed.
    #[error("link: {0}")]
    Io(#[from] std::io::Error),
    /// A serial port could not be opened or set up.
    #[error("serial port {path}: {message}")]
    Serial {
        /// device path
        path: String,
        /// what the driver said
        message: String,
    },
    /// The robot did not answer in time.
    #[error("no answer from the robot within {timeout:?} while {during}")]
    Timeout {
        /// how long we waited
        timeout: Duration,
        /// what we were doing
        during: &'static str,
    },
    /// The handshake did not complete.
    #[error("handshake failed: {0}")]
    Handshake(String),
    /// The robot reported a microcontroller reset or closed the link.
    #[error("the robot closed the connection: {0}")]
    Closed(String),
}
