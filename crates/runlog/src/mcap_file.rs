//! The run log's MCAP writer: chunks of message records, each compressed with one zstd call
//! and written to the file with one write, then at the end the summary (schemas,
//! channels, statistics, chunk indexes, summary offsets) and the footer.
//!
//! A message costs a copy into the chunk and its record header (31 bytes of fixed-size
//! fields); CRCs are computed once per chunk and once per section over whole buffers.
//! Everything written depends only on the messages given, so equal runs give equal files.
//! A killed run keeps every chunk already written: the file is written chunk by chunk,
//! without a buffer in between.
//!
//! Record layouts are those of the MCAP specification (version 0): an opcode, a u64
//! little-endian length and the fields; strings and maps are prefixed with a u32 length.

use std::io::{self, Write};

/// The file's first and last bytes.
pub const MAGIC: &[u8; 8] = b"\x89MCAP0\r\n";

/// A chunk is closed when its uncompressed records exceed this many bytes.
pub const CHUNK_SIZE: usize = 1024 * 1024;

mod op {
    pub const HEADER: u8 = 0x01;
    pub const FOOTER: u8 = 0x02;
    pub const SCHEMA: u8 = 0x03;
    pub const CHANNEL: u8 = 0x04;
    pub const MESSAGE: u8 = 0x05;
    pub const CHUNK: u8 = 0x06;
    pub const MESSAGE_INDEX: u8 = 0x07;
    pub const CHUNK_INDEX: u8 = 0x08;
    pub const STATISTICS: u8 = 0x0B;
    pub const SUMMARY_OFFSET: u8 = 0x0E;
    pub const DATA_END: u8 = 0x0F;
}

/// A message record's fields before its data: channel id, sequence, log and publish time.
const MESSAGE_HEADER_LEN: u64 = 2 + 4 + 8 + 8;

/// Little-endian field writers on a byte buffer.
trait Put {
    fn u8(&mut self, v: u8);
    fn u16(&mut self, v: u16);
    fn u32(&mut self, v: u32);
    fn u64(&mut self, v: u64);
    fn str(&mut self, s: &str);
    /// an opcode and a record length
    fn record(&mut self, opcode: u8, len: u64);
}

impl Put for Vec<u8> {
    fn u8(&mut self, v: u8) {
        self.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u32(len32(s.len()));
        self.extend_from_slice(s.as_bytes());
    }
    fn record(&mut self, opcode: u8, len: u64) {
        self.u8(opcode);
        self.u64(len);
    }
}

fn len32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A record's body is built after its opcode and a placeholder length, which this fills in.
fn end_record(buf: &mut [u8], record_start: usize) {
    let len = (buf.len() - record_start - 9) as u64;
    if let Some(slot) = buf.get_mut(record_start + 1..record_start + 9) {
        slot.copy_from_slice(&len.to_le_bytes());
    }
}

struct Schema {
    id: u16,
    name: String,
    encoding: String,
    data: Vec<u8>,
}

struct Channel {
    id: u16,
    schema_id: u16,
    topic: String,
    encoding: String,
}

/// What the summary's chunk index says of one chunk.
struct ChunkIndex {
    start_time: u64,
    end_time: u64,
    offset: u64,
    length: u64,
    /// (channel, offset of its message index)
    message_index_offsets: Vec<(u16, u64)>,
    message_index_length: u64,
    compressed_size: u64,
    uncompressed_size: u64,
}

/// An MCAP file being written to `W`.
pub struct McapFile<W: Write> {
    out: W,
    /// bytes written so far
    pos: u64,
    /// the CRC of the data section so far
    data_crc: crc32fast::Hasher,
    schemas: Vec<Schema>,
    channels: Vec<Channel>,
    /// the open chunk's records, uncompressed
    chunk: Vec<u8>,
    chunk_bounds: Option<(u64, u64)>,
    /// per channel id: (log time, offset in the chunk) of the open chunk's messages
    index: Vec<Vec<(u64, u64)>>,
    /// per channel id: messages written
    counts: Vec<u64>,
    bounds: Option<(u64, u64)>,
    chunks: Vec<ChunkIndex>,
    zstd: zstd::bulk::Compressor<'static>,
    /// the compressed chunk, then the whole chunk record and its message indexes
    compressed: Vec<u8>,
    record: Vec<u8>,
}

impl<W: Write> McapFile<W> {
    /// Start a file: the magic and the header record (`profile`, `library`); chunks are
    /// compressed with zstd at `level`.
    pub fn new(out: W, profile: &str, library: &str, level: i32) -> io::Result<Self> {
        let mut f = Self {
            out,
            pos: 0,
            data_crc: crc32fast::Hasher::new(),
            schemas: Vec::new(),
            channels: Vec::new(),
            chunk: Vec::with_capacity(CHUNK_SIZE + 64 * 1024),
            chunk_bounds: None,
            index: Vec::new(),
            counts: Vec::new(),
            bounds: None,
            chunks: Vec::new(),
            zstd: zstd::bulk::Compressor::new(level)?,
            compressed: Vec::new(),
            record: Vec::new(),
        };
        let mut b = MAGIC.to_vec();
        b.record(op::HEADER, (4 + profile.len() + 4 + library.len()) as u64);
        b.str(profile);
        b.str(library);
        f.write_data(&b)?;
        Ok(f)
    }

    /// Write bytes of the data section.
    fn write_data(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.data_crc.update(bytes);
        self.out.write_all(bytes)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    /// Add a schema (written at once, before any chunk); its id (from 1).
    pub fn add_schema(&mut self, name: &str, encoding: &str, data: &[u8]) -> io::Result<u16> {
        let id = u16::try_from(self.schemas.len() + 1)
            .map_err(|_| io::Error::other("too many schemas"))?;
        let s = Schema {
            id,
            name: name.into(),
            encoding: encoding.into(),
            data: data.into(),
        };
        let mut b = Vec::new();
        schema_record(&mut b, &s);
        self.write_data(&b)?;
        self.schemas.push(s);
        Ok(id)
    }

    /// Add a channel (no metadata) on a schema; its id (from 1).
    pub fn add_channel(&mut self, schema_id: u16, topic: &str, encoding: &str) -> io::Result<u16> {
        let id = u16::try_from(self.channels.len() + 1)
            .map_err(|_| io::Error::other("too many channels"))?;
        let c = Channel {
            id,
            schema_id,
            topic: topic.into(),
            encoding: encoding.into(),
        };
        let mut b = Vec::new();
        channel_record(&mut b, &c);
        self.write_data(&b)?;
        self.channels.push(c);
        self.index.resize(usize::from(id) + 1, Vec::new());
        self.counts.resize(usize::from(id) + 1, 0);
        Ok(id)
    }

    /// Add a message to the open chunk (a full chunk is written first).
    pub fn message(
        &mut self,
        channel: u16,
        sequence: u32,
        log_time: u64,
        publish_time: u64,
        data: &[u8],
    ) -> io::Result<()> {
        let ch = usize::from(channel);
        if ch == 0 || ch >= self.counts.len() {
            return Err(io::Error::other(format!("no channel {channel}")));
        }
        if self.chunk.len() > CHUNK_SIZE {
            self.finish_chunk()?;
        }
        let offset = self.chunk.len() as u64;
        if let Some(i) = self.index.get_mut(ch) {
            i.push((log_time, offset));
        }
        if let Some(c) = self.counts.get_mut(ch) {
            *c += 1;
        }
        for b in [&mut self.chunk_bounds, &mut self.bounds] {
            *b = Some(b.map_or((log_time, log_time), |(s, e)| {
                (s.min(log_time), e.max(log_time))
            }));
        }
        let c = &mut self.chunk;
        c.record(op::MESSAGE, MESSAGE_HEADER_LEN + data.len() as u64);
        c.u16(channel);
        c.u32(sequence);
        c.u64(log_time);
        c.u64(publish_time);
        c.extend_from_slice(data);
        Ok(())
    }

    /// Compress and write the open chunk and its message indexes (nothing if it is empty).
    fn finish_chunk(&mut self) -> io::Result<()> {
        let Some((start_time, end_time)) = self.chunk_bounds.take() else {
            return Ok(());
        };
        let uncompressed_crc = crc32fast::hash(&self.chunk);
        self.compressed.clear();
        self.compressed
            .reserve(zstd::zstd_safe::compress_bound(self.chunk.len()));
        self.zstd
            .compress_to_buffer(&self.chunk[..], &mut self.compressed)?;
        let r = &mut self.record;
        r.clear();
        r.record(op::CHUNK, 0);
        r.u64(start_time);
        r.u64(end_time);
        r.u64(self.chunk.len() as u64);
        r.u32(uncompressed_crc);
        r.str("zstd");
        r.u64(self.compressed.len() as u64);
        r.extend_from_slice(&self.compressed);
        end_record(r, 0);
        let chunk_length = r.len() as u64;
        let mut message_index_offsets = Vec::new();
        for (ch, entries) in self.index.iter_mut().enumerate() {
            if entries.is_empty() {
                continue;
            }
            let channel = u16::try_from(ch).unwrap_or(u16::MAX);
            message_index_offsets.push((channel, self.pos + r.len() as u64));
            r.record(op::MESSAGE_INDEX, 2 + 4 + 16 * entries.len() as u64);
            r.u16(channel);
            r.u32(len32(16 * entries.len()));
            for &(t, at) in entries.iter() {
                r.u64(t);
                r.u64(at);
            }
            entries.clear();
        }
        let index = ChunkIndex {
            start_time,
            end_time,
            offset: self.pos,
            length: chunk_length,
            message_index_offsets,
            message_index_length: r.len() as u64 - chunk_length,
            compressed_size: self.compressed.len() as u64,
            uncompressed_size: self.chunk.len() as u64,
        };
        self.chunk.clear();
        let record = std::mem::take(&mut self.record);
        let written = self.write_data(&record);
        self.record = record;
        written?;
        self.chunks.push(index);
        Ok(())
    }

    /// Write the last chunk, the data end, the summary and the footer; the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        self.finish_chunk()?;
        let mut b = Vec::new();
        b.record(op::DATA_END, 4);
        b.u32(self.data_crc.clone().finalize());
        self.write_data(&b)?;
        let summary_start = self.pos;
        let mut s = Vec::new();
        // (opcode, start, length) of each group of the summary
        let mut groups: Vec<(u8, u64, u64)> = Vec::new();
        let mut group = |s: &Vec<u8>, opcode: u8, from: usize| {
            if s.len() > from {
                groups.push((opcode, summary_start + from as u64, (s.len() - from) as u64));
            }
        };
        let from = s.len();
        for schema in &self.schemas {
            schema_record(&mut s, schema);
        }
        group(&s, op::SCHEMA, from);
        let from = s.len();
        for channel in &self.channels {
            channel_record(&mut s, channel);
        }
        group(&s, op::CHANNEL, from);
        let from = s.len();
        self.statistics(&mut s);
        group(&s, op::STATISTICS, from);
        let from = s.len();
        for c in &self.chunks {
            chunk_index_record(&mut s, c);
        }
        group(&s, op::CHUNK_INDEX, from);
        let summary_offset_start = summary_start + s.len() as u64;
        for (opcode, start, length) in groups {
            s.record(op::SUMMARY_OFFSET, 1 + 8 + 8);
            s.u8(opcode);
            s.u64(start);
            s.u64(length);
        }
        s.record(op::FOOTER, 8 + 8 + 4);
        s.u64(summary_start);
        s.u64(summary_offset_start);
        // the summary's CRC covers the footer up to the CRC itself
        s.u32(crc32fast::hash(&s));
        s.extend_from_slice(MAGIC);
        self.out.write_all(&s)?;
        self.out.flush()?;
        Ok(self.out)
    }

    fn statistics(&self, s: &mut Vec<u8>) {
        let start = s.len();
        s.record(op::STATISTICS, 0);
        s.u64(self.counts.iter().sum());
        s.u16(u16::try_from(self.schemas.len()).unwrap_or(u16::MAX));
        s.u32(len32(self.channels.len()));
        s.u32(0); // attachments
        s.u32(0); // metadata
        s.u32(len32(self.chunks.len()));
        let (t0, t1) = self.bounds.unwrap_or((0, 0));
        s.u64(t0);
        s.u64(t1);
        let counted: Vec<(usize, u64)> = self
            .counts
            .iter()
            .copied()
            .enumerate()
            .filter(|&(_, n)| n > 0)
            .collect();
        s.u32(len32(counted.len() * 10));
        for (ch, n) in counted {
            s.u16(u16::try_from(ch).unwrap_or(u16::MAX));
            s.u64(n);
        }
        end_record(s, start);
    }
}

fn schema_record(b: &mut Vec<u8>, s: &Schema) {
    let start = b.len();
    b.record(op::SCHEMA, 0);
    b.u16(s.id);
    b.str(&s.name);
    b.str(&s.encoding);
    b.u32(len32(s.data.len()));
    b.extend_from_slice(&s.data);
    end_record(b, start);
}

fn channel_record(b: &mut Vec<u8>, c: &Channel) {
    let start = b.len();
    b.record(op::CHANNEL, 0);
    b.u16(c.id);
    b.u16(c.schema_id);
    b.str(&c.topic);
    b.str(&c.encoding);
    b.u32(0); // metadata: an empty map
    end_record(b, start);
}

fn chunk_index_record(b: &mut Vec<u8>, c: &ChunkIndex) {
    let start = b.len();
    b.record(op::CHUNK_INDEX, 0);
    b.u64(c.start_time);
    b.u64(c.end_time);
    b.u64(c.offset);
    b.u64(c.length);
    b.u32(len32(c.message_index_offsets.len() * 10));
    for &(ch, at) in &c.message_index_offsets {
        b.u16(ch);
        b.u64(at);
    }
    b.u64(c.message_index_length);
    b.str("zstd");
    b.u64(c.compressed_size);
    b.u64(c.uncompressed_size);
    end_record(b, start);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with `n` messages on two channels, read back with the mcap crate.
    fn written(n: u32) -> Vec<u8> {
        let mut f = McapFile::new(Vec::new(), "", "test", 1).unwrap();
        let s = f.add_schema("a.B", "jsonschema", b"{}").unwrap();
        let c1 = f.add_channel(s, "/one", "json").unwrap();
        let c2 = f.add_channel(s, "/two", "json").unwrap();
        for i in 0..n {
            let body = format!(
                "{{\"i\":{i},\"pad\":\"{}\"}}",
                "x".repeat((i % 397) as usize)
            );
            let ch = if i % 3 == 0 { c2 } else { c1 };
            f.message(
                ch,
                i,
                u64::from(i) * 1000,
                u64::from(i) * 1000,
                body.as_bytes(),
            )
            .unwrap();
        }
        f.finish().unwrap()
    }

    #[test]
    fn the_mcap_crate_reads_the_messages_summary_and_indexes() {
        // enough for several chunks
        let n = 10_000;
        let bytes = written(n);
        let summary = mcap::Summary::read(&bytes).unwrap().unwrap();
        let stats = summary.stats.as_ref().unwrap();
        assert_eq!(stats.message_count, u64::from(n));
        assert_eq!(stats.channel_count, 2);
        assert_eq!(stats.message_end_time, u64::from(n - 1) * 1000);
        assert!(
            summary.chunk_indexes.len() > 1,
            "{:?}",
            summary.chunk_indexes.len()
        );
        assert_eq!(summary.channels[&2].topic, "/two");
        assert_eq!(summary.schemas[&1].name, "a.B");
        // the chunk indexes point at chunks whose message indexes find every message (each
        // seek decompresses the chunk: a sample of them is looked at)
        let mut via_index = 0;
        for ci in &summary.chunk_indexes {
            let idx = summary.read_message_indexes(&bytes, ci).unwrap();
            for (channel, entries) in idx {
                for e in entries.iter().step_by(1000) {
                    let m = summary.seek_message(&bytes, ci, e).unwrap();
                    assert_eq!(m.channel.id, channel.id);
                    assert_eq!(m.log_time, e.log_time);
                }
                via_index += entries.len();
            }
        }
        assert_eq!(via_index, n as usize);
        // and a linear read (which checks the CRCs) gives them in order
        let mut i = 0;
        for m in mcap::MessageStream::new(&bytes).unwrap() {
            let m = m.unwrap();
            assert_eq!(m.sequence, i);
            let v: serde_json::Value = serde_json::from_slice(&m.data).unwrap();
            assert_eq!(v["i"], i);
            i += 1;
        }
        assert_eq!(i, n);
    }

    #[test]
    fn equal_messages_give_equal_files() {
        assert_eq!(written(5000), written(5000));
    }

    #[test]
    fn a_file_cut_after_a_chunk_keeps_its_messages() {
        let bytes = written(10_000);
        let summary = mcap::Summary::read(&bytes).unwrap().unwrap();
        let first = &summary.chunk_indexes[0];
        let cut =
            (first.chunk_start_offset + first.chunk_length + first.message_index_length) as usize;
        let read = mcap::MessageStream::new(&bytes[..cut])
            .unwrap()
            .take_while(Result::is_ok)
            .count();
        assert!(read > 0, "the first chunk's messages read");
    }

    #[test]
    fn an_empty_file_has_a_summary() {
        let f = McapFile::new(Vec::new(), "", "test", 1).unwrap();
        let bytes = f.finish().unwrap();
        assert!(bytes.starts_with(MAGIC) && bytes.ends_with(MAGIC));
        let summary = mcap::Summary::read(&bytes).unwrap().unwrap();
        assert_eq!(summary.stats.unwrap().message_count, 0);
    }
}
