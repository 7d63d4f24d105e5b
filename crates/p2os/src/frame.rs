//! Packets on the wire, and a streaming framer.
//!
//! A packet is `0xFA 0xFB`, a count N (the bytes after it, checksum included), the
//! payload (a command number or packet type, then data) and the checksum, high byte
//! first. The count is one byte, so a payload holds at most 253 bytes.
//!
//! [`Framer`] takes bytes as they arrive (any split) and yields every packet whose
//! checksum verifies. It hunts for the header, and after a bad checksum it skips only
//! the first header byte and looks again, so a packet that follows a corrupted one (or
//! hides inside a garbage run that happened to look like a header) is still found.
//! Skipped bytes and bad checksums are counted. Its buffer is allocated once.

use crate::checksum::checksum;
use crate::error::Error;
use crate::wire::Writer;

/// First header byte.
pub const HEADER0: u8 = 0xFA;
/// Second header byte.
pub const HEADER1: u8 = 0xFB;
/// Largest payload (type byte and data).
pub const MAX_PAYLOAD: usize = 253;
/// Largest data (payload less the type byte).
pub const MAX_DATA: usize = MAX_PAYLOAD - 1;
/// Largest packet on the wire.
pub const MAX_PACKET: usize = MAX_PAYLOAD + 5;

/// One packet, built on the stack.
#[derive(Clone)]
pub struct PacketBuf {
    buf: [u8; MAX_PACKET],
    len: usize,
}

impl std::fmt::Debug for PacketBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PacketBuf(")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl PartialEq for PacketBuf {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Default for PacketBuf {
    fn default() -> Self {
        Self {
            buf: [0; MAX_PACKET],
            len: 0,
        }
    }
}

impl PacketBuf {
    /// A packet of type (or command number) `id` whose data `fill` writes.
    pub fn build(id: u8, fill: impl FnOnce(&mut Writer<'_>)) -> Result<Self, Error> {
        let mut p = Self::default();
        p.rebuild(id, fill)?;
        Ok(p)
    }

    /// Build into this buffer again (no new memory); returns the packet's bytes.
    pub fn rebuild(&mut self, id: u8, fill: impl FnOnce(&mut Writer<'_>)) -> Result<&[u8], Error> {
        self.len = 0;
        let n = {
            let Some(data) = self.buf.get_mut(4..4 + MAX_DATA) else {
                return Err(Error::TooLong(0));
            };
            let mut w = Writer::new(data);
            fill(&mut w);
            if w.overflowed() {
                return Err(Error::TooLong(1 + w.wanted()));
            }
            w.len()
        };
        self.buf[0] = HEADER0;
        self.buf[1] = HEADER1;
        self.buf[2] = (n + 3) as u8;
        self.buf[3] = id;
        let sum = checksum(&self.buf[3..4 + n]);
        self.buf[4 + n..6 + n].copy_from_slice(&sum.to_be_bytes());
        self.len = n + 6;
        Ok(self.as_bytes())
    }

    /// Build a packet whose data is exactly `n` bytes, written by `fill` into the slice
    /// it is given (the fast path for fixed layouts); returns the packet's bytes.
    pub fn rebuild_exact(
        &mut self,
        id: u8,
        n: usize,
        fill: impl FnOnce(&mut [u8]),
    ) -> Result<&[u8], Error> {
        self.len = 0;
        if n > MAX_DATA {
            return Err(Error::TooLong(n + 1));
        }
        let Some(data) = self.buf.get_mut(4..4 + n) else {
            return Err(Error::TooLong(n + 1));
        };
        fill(data);
        self.buf[0] = HEADER0;
        self.buf[1] = HEADER1;
        self.buf[2] = (n + 3) as u8;
        self.buf[3] = id;
        let sum = checksum(&self.buf[3..4 + n]);
        self.buf[4 + n..6 + n].copy_from_slice(&sum.to_be_bytes());
        self.len = n + 6;
        Ok(self.as_bytes())
    }

    /// A packet with no data.
    pub fn bare(id: u8) -> Self {
        Self::build(id, |_| {}).unwrap_or_default()
    }

    /// The bytes on the wire (empty for a default buffer).
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// The type byte (command number).
    pub fn id(&self) -> u8 {
        if self.len == 0 {
            0
        } else {
            self.buf[3]
        }
    }

    /// The data after the type byte.
    pub fn data(&self) -> &[u8] {
        self.buf.get(4..self.len.saturating_sub(2)).unwrap_or(&[])
    }
}

/// A packet found by the framer, borrowed from its buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame<'a> {
    /// Packet type (robot to client) or command number (client to robot).
    pub id: u8,
    /// The data after the type byte.
    pub data: &'a [u8],
    /// The whole packet as it was on the wire.
    pub bytes: &'a [u8],
}

/// Counters of what the framer saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FramerStats {
    /// Packets that verified.
    pub packets: u64,
    /// Bytes skipped while hunting for a header (garbage, the remains of bad packets).
    pub skipped_bytes: u64,
    /// Candidate packets whose checksum failed.
    pub bad_checksums: u64,
    /// Candidate headers with an impossible count (less than 3).
    pub bad_counts: u64,
    /// Partial packets given up on after a gap ([`Framer::expire`]).
    pub expired: u64,
}

/// Capacity of the framer's buffer.
const CAPACITY: usize = 1024;

/// Finds packets in a byte stream.
#[derive(Debug, Clone)]
pub struct Framer {
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    stats: FramerStats,
}

impl Default for Framer {
    fn default() -> Self {
        Self::new()
    }
}

impl Framer {
    /// An empty framer.
    pub fn new() -> Self {
        Self {
            buf: vec![0; CAPACITY].into_boxed_slice(),
            start: 0,
            end: 0,
            stats: FramerStats::default(),
        }
    }

    /// What it has seen so far.
    pub fn stats(&self) -> FramerStats {
        self.stats
    }

    /// Bytes waiting (a partial packet, or not yet looked at).
    pub fn pending(&self) -> usize {
        self.end - self.start
    }

    /// Forget every buffered byte (a new connection).
    pub fn reset(&mut self) {
        self.start = 0;
        self.end = 0;
    }

    /// Copy in as many bytes as fit; returns how many. Take packets out with
    /// [`Framer::next_frame`] to make room (after that, at least 766 bytes fit).
    pub fn push(&mut self, data: &[u8]) -> usize {
        if self.end == self.buf.len() && self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        let room = self.buf.len() - self.end;
        let n = room.min(data.len());
        if let (Some(dst), Some(src)) = (self.buf.get_mut(self.end..self.end + n), data.get(..n)) {
            dst.copy_from_slice(src);
            self.end += n;
        }
        n
    }

    /// Push `data` and hand every packet found to `on_frame`.
    pub fn feed(&mut self, mut data: &[u8], mut on_frame: impl FnMut(Frame<'_>)) {
        loop {
            let n = self.push(data);
            data = data.get(n..).unwrap_or(&[]);
            while let Some(f) = self.next_frame() {
                on_frame(f);
            }
            if data.is_empty() {
                break;
            }
            if n == 0 {
                // cannot happen once drained (a partial packet is < 258 bytes), but never spin
                self.expire();
            }
        }
    }

    /// Give up on a partial packet (no byte came for a while, ~100 ms in ARIA): skip its
    /// first byte so that the bytes after it are looked at again.
    pub fn expire(&mut self) {
        if self.start < self.end {
            self.start += 1;
            self.stats.skipped_bytes += 1;
            self.stats.expired += 1;
        }
    }

    /// The next packet, if a whole one has arrived.
    pub fn next_frame(&mut self) -> Option<Frame<'_>> {
        let (start, total) = self.find()?;
        self.start = start + total;
        let bytes = self.buf.get(start..start + total)?;
        let id = *bytes.get(3)?;
        let data = bytes.get(4..total - 2)?;
        Some(Frame { id, data, bytes })
    }

    /// Find the next verified packet: its start and length; drops what precedes it.
    fn find(&mut self) -> Option<(usize, usize)> {
        loop {
            let avail = self.buf.get(self.start..self.end)?;
            // hunt for 0xFA 0xFB
            let mut skip = 0;
            while skip < avail.len() {
                if avail[skip] == HEADER0 && avail.get(skip + 1).is_none_or(|&b| b == HEADER1) {
                    break;
                }
                skip += 1;
            }
            self.start += skip;
            self.stats.skipped_bytes += skip as u64;
            let avail = self.buf.get(self.start..self.end)?;
            if avail.len() < 3 {
                return None;
            }
            let count = usize::from(avail[2]);
            if count < 3 {
                self.stats.bad_counts += 1;
                self.start += 1;
                self.stats.skipped_bytes += 1;
                continue;
            }
            let total = count + 3;
            if avail.len() < total {
                return None;
            }
            let payload = &avail[3..total - 2];
            let sum = u16::from_be_bytes([avail[total - 2], avail[total - 1]]);
            if checksum(payload) != sum {
                self.stats.bad_checksums += 1;
                self.start += 1;
                self.stats.skipped_bytes += 1;
                continue;
            }
            self.stats.packets += 1;
            return Some((self.start, total));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(f: &mut Framer, bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
        let mut out = Vec::new();
        f.feed(bytes, |fr| out.push((fr.id, fr.data.to_vec())));
        out
    }

    #[test]
    fn builds_the_golden_command_packets() {
        let vel = PacketBuf::build(11, |w| {
            w.u8(0x3B);
            w.u16(250)
        })
        .unwrap();
        assert_eq!(
            vel.as_bytes(),
            [0xFA, 0xFB, 0x06, 0x0B, 0x3B, 0xFA, 0x00, 0x05, 0x3B]
        );
        assert_eq!(PacketBuf::bare(0).as_bytes(), [0xFA, 0xFB, 3, 0, 0, 0]);
        assert_eq!(vel.id(), 11);
        assert_eq!(vel.data(), [0x3B, 0xFA, 0x00]);
    }

    #[test]
    fn refuses_too_long_packets() {
        assert!(matches!(
            PacketBuf::build(1, |w| w.bytes(&[0; 253])),
            Err(Error::TooLong(254))
        ));
        assert!(PacketBuf::build(1, |w| w.bytes(&[0; 252])).is_ok());
    }

    #[test]
    fn finds_packets_split_anywhere_and_after_garbage() {
        let mut stream = vec![0x00, 0xFA, 0x13, 0xFB];
        stream.extend_from_slice(PacketBuf::bare(1).as_bytes());
        stream.extend_from_slice(&[0xFA, 0xFB, 0x05, 0x01, 0x02, 0x03, 0x00, 0x00]); // bad sum
        stream.extend_from_slice(PacketBuf::bare(2).as_bytes());
        for split in 0..stream.len() {
            let mut f = Framer::new();
            let mut got = frames(&mut f, &stream[..split]);
            got.extend(frames(&mut f, &stream[split..]));
            assert_eq!(got, vec![(1, vec![]), (2, vec![])], "split at {split}");
            assert_eq!(f.stats().bad_checksums, 1);
            assert_eq!(f.stats().packets, 2);
        }
    }

    #[test]
    fn a_corrupted_count_does_not_swallow_the_next_packet_for_ever() {
        // a header whose count claims more bytes than ever come
        let mut stream = vec![0xFA, 0xFB, 0xF0, 0x01];
        stream.extend_from_slice(PacketBuf::bare(7).as_bytes());
        let mut f = Framer::new();
        assert!(frames(&mut f, &stream).is_empty());
        f.expire();
        assert_eq!(frames(&mut f, &[]), vec![(7, vec![])]);
    }

    #[test]
    fn impossible_counts_are_skipped() {
        let mut stream = vec![0xFA, 0xFB, 0x02, 0xFA, 0xFB, 0x00];
        stream.extend_from_slice(PacketBuf::bare(9).as_bytes());
        let mut f = Framer::new();
        assert_eq!(frames(&mut f, &stream), vec![(9, vec![])]);
        assert_eq!(f.stats().bad_counts, 2);
    }

    #[test]
    fn large_feeds_are_taken_in_pieces() {
        let one = PacketBuf::build(0x32, |w| w.bytes(&[7; 200])).unwrap();
        let stream: Vec<u8> = (0..50).flat_map(|_| one.as_bytes().to_vec()).collect();
        let mut f = Framer::new();
        assert_eq!(frames(&mut f, &stream).len(), 50);
        assert_eq!(f.pending(), 0);
    }
}
