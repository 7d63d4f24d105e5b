//! MCAP records as the reader sees them: the fields of the schema, channel, message and
//! chunk records, read with every length checked against the bytes there are, and a
//! chunk's records decompressed into a buffer that is reused from chunk to chunk.
//!
//! Nothing here trusts a length from the file: a bad one ends what is being read, never
//! a panic or an allocation larger than the data it describes.

use std::io::Read;

/// MCAP opcodes the reader acts on.
pub mod op {
    /// A schema: id, name, encoding, data.
    pub const SCHEMA: u8 = 0x03;
    /// A channel: id, schema id, topic, encoding, metadata.
    pub const CHANNEL: u8 = 0x04;
    /// A message: channel id, sequence, log time, publish time, data.
    pub const MESSAGE: u8 = 0x05;
    /// A chunk of records, compressed.
    pub const CHUNK: u8 = 0x06;
    /// The end of the data section: the summary follows.
    pub const DATA_END: u8 = 0x0F;
}

/// The largest chunk decompressed (writers use chunks of about a megabyte).
pub const CHUNK_LIMIT: u64 = 256 << 20;

/// A little-endian reader over a record's bytes: every read is checked against what is
/// left.
pub struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = rest;
        Some(head)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn str(&mut self) -> Option<&'a str> {
        let n = usize::try_from(self.u32()?).ok()?;
        std::str::from_utf8(self.take(n)?).ok()
    }
}

/// A Schema record: its id and name.
pub fn schema(data: &[u8]) -> Option<(u16, &str)> {
    let mut b = Bytes(data);
    Some((b.u16()?, b.str()?))
}

/// A Channel record: its id, its schema's id, its topic.
pub fn channel(data: &[u8]) -> Option<(u16, u16, &str)> {
    let mut b = Bytes(data);
    Some((b.u16()?, b.u16()?, b.str()?))
}

/// A Message record: its channel id, its log time (ns) and its payload.
pub fn message(data: &[u8]) -> Option<(u16, u64, &[u8])> {
    let mut b = Bytes(data);
    let channel = b.u16()?;
    b.take(4)?; // sequence
    let log_time = b.u64()?;
    b.take(8)?; // publish time
    Some((channel, log_time, b.0))
}

/// The records (opcode, body) in a chunk's records; stops at the first bad length.
pub fn records_in(data: &[u8]) -> impl Iterator<Item = (u8, &[u8])> {
    let mut b = Bytes(data);
    std::iter::from_fn(move || {
        let opcode = *b.take(1)?.first()?;
        let len = usize::try_from(b.u64()?).ok()?;
        Some((opcode, b.take(len)?))
    })
}

/// A chunk's records, decompressed (zstd, or none) into `out` (cleared first) and checked
/// against the size the chunk declares; `false` for a bad chunk or another compression.
pub fn decompress_chunk(data: &[u8], out: &mut Vec<u8>) -> bool {
    decompress(data, out).is_some()
}

fn decompress(data: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let mut b = Bytes(data);
    b.take(8 + 8)?; // message start and end times
    let size = b.u64()?;
    b.u32()?; // uncompressed CRC
    let compression = b.str()?;
    let n = usize::try_from(b.u64()?).ok()?;
    let records = b.take(n)?;
    out.clear();
    match compression {
        "" if records.len() as u64 == size => out.extend_from_slice(records),
        "zstd" if size <= CHUNK_LIMIT => {
            // the buffer grows with what really decompresses (at most `size`), not with
            // what the chunk announces
            zstd::stream::read::Decoder::with_buffer(records)
                .ok()?
                .take(size)
                .read_to_end(out)
                .ok()?;
            if out.len() as u64 != size {
                return None;
            }
        }
        _ => return None,
    }
    Some(())
}

/// The start time (ns) a Chunk record declares.
pub fn chunk_start(data: &[u8]) -> Option<u64> {
    Bytes(data).u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_or_lying_records_are_none() {
        assert!(schema(&[1]).is_none());
        assert!(channel(&[1, 0, 1, 0, 9, 0, 0, 0, b'a']).is_none());
        assert!(message(&[0; 10]).is_none());
        let mut out = Vec::new();
        assert!(!decompress_chunk(&[0; 12], &mut out));
        // a chunk that announces more than it holds
        let mut c = vec![0u8; 16];
        c.extend_from_slice(&5u64.to_le_bytes());
        c.extend_from_slice(&0u32.to_le_bytes());
        c.extend_from_slice(&0u32.to_le_bytes()); // no compression
        c.extend_from_slice(&3u64.to_le_bytes());
        c.extend_from_slice(b"abc");
        assert!(!decompress_chunk(&c, &mut out));
        let records: Vec<_> = records_in(&[5, 200, 0, 0, 0, 0, 0, 0, 0, 1]).collect();
        assert!(records.is_empty());
    }
}
