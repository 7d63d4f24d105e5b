//! The PLAYLIST reply (AmigoBot sounds).
//!
//! An AmigoBot's playlist is a series of 24-byte sound references — a 16-byte name and
//! two 32-bit integers, the sound's position and length in the playlist — followed by
//! the sound data. The manual says a robot without onboard sounds answers PLAYLIST with
//! a packet of 25 NUL bytes. Nothing more is specified and no peer reads the reply
//! (ARIA has no handler, AMRISim ignores the command), so we chose (and document in
//! `docs/p2os.md`): packet type 0x5B (the command's own number, 91); data = a count byte
//! N and N references. A robot without sounds sends count 0 and one all-NUL reference:
//! the manual's 25 NUL bytes. At most [`PER_PACKET`] references go in one packet; a
//! longer playlist takes several packets, each with its own count.

use super::ids;
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::wire::Reader;

/// Bytes of one sound reference.
pub const REF_LEN: usize = 24;
/// Bytes of a sound's name.
pub const NAME_LEN: usize = 16;
/// The most references one reply packet holds.
pub const PER_PACKET: usize = 10;

/// One sound reference.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SoundRef {
    /// Name, NUL-padded.
    pub name: [u8; NAME_LEN],
    /// Position of the sound data in the playlist.
    pub offset: u32,
    /// Length of the sound data.
    pub length: u32,
}

impl SoundRef {
    /// A reference named `name` (cut to 16 bytes).
    pub fn new(name: &str, offset: u32, length: u32) -> Self {
        let mut n = [0u8; NAME_LEN];
        for (d, s) in n.iter_mut().zip(name.bytes()) {
            *d = s;
        }
        Self {
            name: n,
            offset,
            length,
        }
    }
    /// The name without its padding.
    pub fn name(&self) -> String {
        let end = self.name.iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
        String::from_utf8_lossy(self.name.get(..end).unwrap_or(&[])).into_owned()
    }
}

/// A PLAYLIST reply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Playlist {
    /// The sound references in this packet.
    pub sounds: Vec<SoundRef>,
}

impl Playlist {
    /// Decode a reply frame.
    pub fn decode(frame: &Frame<'_>) -> Result<Self, Error> {
        if frame.id != ids::PLAYLIST {
            return Err(Error::WrongPacket {
                expected: "PLAYLIST reply",
                got: frame.id,
            });
        }
        let t = |field| Error::Truncated {
            packet: "PLAYLIST reply",
            field,
        };
        let mut r = Reader::new(frame.data);
        let n = r.u8().ok_or(t("count"))?;
        // bounded by the bytes left over the size of one reference
        let mut sounds = Vec::with_capacity(usize::from(n).min(r.remaining() / REF_LEN));
        for _ in 0..n {
            let name = r.bytes(NAME_LEN).ok_or(t("sound name"))?;
            let mut s = SoundRef::default();
            s.name.copy_from_slice(name);
            s.offset = r.u32().ok_or(t("sound position"))?;
            s.length = r.u32().ok_or(t("sound length"))?;
            sounds.push(s);
        }
        Ok(Self { sounds })
    }

    /// The reply packets for `sounds` (one packet of 25 NUL bytes when there are none).
    pub fn encode(sounds: &[SoundRef]) -> Result<Vec<PacketBuf>, Error> {
        if sounds.is_empty() {
            return Ok(vec![PacketBuf::build(ids::PLAYLIST, |w| {
                w.bytes(&[0; 1 + REF_LEN])
            })?]);
        }
        sounds
            .chunks(PER_PACKET)
            .map(|chunk| {
                PacketBuf::build(ids::PLAYLIST, |w| {
                    w.u8(chunk.len() as u8);
                    for s in chunk {
                        w.bytes(&s.name);
                        w.u32(s.offset);
                        w.u32(s.length);
                    }
                })
            })
            .collect()
    }
}
