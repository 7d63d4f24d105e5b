//! Reading a run log as a stream: the file's records one at a time, each chunk
//! decompressed into a buffer that is reused, every message handed to a [`Visit`] with
//! its topic. What is kept in memory is one chunk (about a megabyte), whatever the size
//! of the file; what a reader keeps of the messages is up to it.
//!
//! With [`read_file`], one thread reads and decompresses the chunks while the caller's
//! thread visits the messages of the one before (two buffers go back and forth), so a
//! report takes about as long as the slower of the two.
//!
//! Every message also comes with the offset of the top-level record that holds it (its
//! chunk), so that a reader can come back to it later with [`read_record_at`] (the replay
//! keeps a sparse index of these instead of the messages).

use crate::records::{self, op};
use crate::Error;
use std::collections::BTreeMap;
use std::io::{BufReader, ErrorKind, Read, Seek, SeekFrom};
use std::path::Path;

/// A message as the file has it: its topic, its log time and its payload (JSON).
#[derive(Debug, Clone, Copy)]
pub struct Raw<'a> {
    /// The channel's topic (`/pose`, ...).
    pub topic: &'a str,
    /// The log time (ns; the simulated time in Skipper's logs).
    pub log_time: u64,
    /// The payload.
    pub data: &'a [u8],
    /// Where the top-level record that holds it (its chunk) starts in the file.
    pub at: u64,
}

/// What a reader does with each message.
pub trait Visit {
    /// One message, in file order.
    fn message(&mut self, m: Raw<'_>);
    /// A top-level record with messages begins at byte `at` (a chunk, starting at
    /// `start_ns`); its messages follow.
    fn record(&mut self, _at: u64, _start_ns: Option<u64>) {}
}

/// How reading went.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Messages read.
    pub messages: u64,
    /// Records that did not decode (schemas, channels, chunks, messages of no channel).
    pub skipped: u64,
    /// Why reading stopped before the end of the data, if it did.
    pub truncated: Option<String>,
    /// Schema name per topic.
    pub schemas: BTreeMap<String, String>,
}

/// Records of the file, framed (opcode, length, body) in a buffer: a chunk's records,
/// decompressed, or one top-level record.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Batch {
    /// where its top-level record starts in the file
    at: u64,
    /// a chunk's start time (ns)
    start_ns: Option<u64>,
}

/// Reads the top-level records of an MCAP file from `R`, one batch at a time.
struct Batches<R> {
    src: R,
    /// bytes read so far (the offset of the next record)
    pos: u64,
    /// what the file can still hold, if known (bounds a record's length)
    left: Option<u64>,
    /// a record's body, reused
    body: Vec<u8>,
    skipped: u64,
    truncated: Option<String>,
    done: bool,
}

/// Bodies of other records than chunks are never this long in a run log.
const RECORD_LIMIT: u64 = records::CHUNK_LIMIT;

impl<R: Read> Batches<R> {
    /// After the magic: `len` is the file's length if known.
    fn new(mut src: R, len: Option<u64>) -> Result<Self, Error> {
        let mut magic = [0u8; 8];
        if src.read_exact(&mut magic).is_err() || magic != *mcap::MAGIC {
            return Err(Error::NotMcap);
        }
        Ok(Self {
            src,
            pos: 8,
            left: len.map(|l| l.saturating_sub(8)),
            body: Vec::new(),
            skipped: 0,
            truncated: None,
            done: false,
        })
    }

    fn stop(&mut self, why: String) -> Option<Batch> {
        self.truncated = Some(why);
        self.done = true;
        None
    }

    /// The next batch of records into `out` (cleared first); `None` at the end.
    fn next(&mut self, out: &mut Vec<u8>) -> Option<Batch> {
        while !self.done {
            let at = self.pos;
            let mut head = [0u8; 9];
            match read_full(&mut self.src, &mut head) {
                Ok(0) => {
                    return self.stop(format!("the file ends at byte {at}, before its data end"))
                }
                Ok(9) => {}
                Ok(_) => return self.stop(format!("the file ends inside the record at byte {at}")),
                Err(e) => return self.stop(format!("cannot read at byte {at}: {e}")),
            }
            let opcode = head[0];
            let len = u64::from_le_bytes(head[1..9].try_into().unwrap_or_default());
            let fits = self.left.is_none_or(|l| len <= l.saturating_sub(9));
            if opcode == op::DATA_END || opcode == 0x02 {
                self.done = true;
                return None;
            }
            if !fits || len > RECORD_LIMIT {
                return self.stop(format!(
                    "the record at byte {at} says it is {len} bytes long, more than the file has"
                ));
            }
            self.pos += 9 + len;
            self.left = self.left.map(|l| l.saturating_sub(9 + len));
            match opcode {
                op::SCHEMA | op::CHANNEL | op::MESSAGE | op::CHUNK => {}
                _ => {
                    // indexes, attachments, metadata...: not needed
                    if let Err(why) = skip(&mut self.src, len) {
                        return self.stop(format!("the record at byte {at} {why}"));
                    }
                    continue;
                }
            }
            if let Err(why) = read_body(&mut self.src, len, &mut self.body) {
                return self.stop(format!("the record at byte {at} {why}"));
            }
            out.clear();
            if opcode == op::CHUNK {
                if !records::decompress_chunk(&self.body, out) {
                    self.skipped += 1;
                    continue;
                }
                let start_ns = records::chunk_start(&self.body);
                return Some(Batch { at, start_ns });
            }
            out.push(opcode);
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&self.body);
            return Some(Batch { at, start_ns: None });
        }
        None
    }
}

/// Read until `buf` is full or the source ends; how many bytes were read.
fn read_full(src: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match src.read(buf.get_mut(n..).unwrap_or_default()) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A record's body of `len` bytes into `body`; it grows with what is really there.
fn read_body(src: &mut impl Read, len: u64, body: &mut Vec<u8>) -> Result<(), String> {
    body.clear();
    let n = src
        .take(len)
        .read_to_end(body)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if n as u64 == len {
        Ok(())
    } else {
        Err("is cut short (the run did not finish writing it)".into())
    }
}

fn skip(src: &mut impl Read, len: u64) -> Result<(), String> {
    let n = std::io::copy(&mut src.take(len), &mut std::io::sink())
        .map_err(|e| format!("cannot be read: {e}"))?;
    if n == len {
        Ok(())
    } else {
        Err("is cut short (the run did not finish writing it)".into())
    }
}

/// The schemas and channels seen so far, and what they map messages to.
#[derive(Debug, Clone, Default)]
pub struct Channels {
    schemas: BTreeMap<u16, String>,
    /// topic per channel id
    topics: Vec<Option<String>>,
    outcome: Outcome,
}

impl Channels {
    /// The topic of channel `id`.
    fn topic(&self, id: u16) -> Option<&str> {
        self.topics.get(usize::from(id))?.as_deref()
    }

    /// The records of one batch: schemas and channels are learnt, messages visited.
    fn batch(&mut self, b: Batch, records: &[u8], v: &mut impl Visit) {
        v.record(b.at, b.start_ns);
        for (opcode, data) in records::records_in(records) {
            match opcode {
                op::SCHEMA => match records::schema(data) {
                    Some((id, name)) => {
                        self.schemas.insert(id, name.to_string());
                    }
                    None => self.outcome.skipped += 1,
                },
                op::CHANNEL => match records::channel(data) {
                    Some((id, schema, topic)) => self.learn(id, schema, topic),
                    None => self.outcome.skipped += 1,
                },
                op::MESSAGE => {
                    self.outcome.messages += 1;
                    match records::message(data) {
                        Some((ch, log_time, data)) => match self.topic(ch) {
                            Some(topic) => v.message(Raw {
                                topic,
                                log_time,
                                data,
                                at: b.at,
                            }),
                            None => self.outcome.skipped += 1,
                        },
                        None => self.outcome.skipped += 1,
                    }
                }
                _ => {}
            }
        }
    }

    fn learn(&mut self, id: u16, schema: u16, topic: &str) {
        if let Some(name) = self.schemas.get(&schema) {
            self.outcome.schemas.insert(topic.to_string(), name.clone());
        }
        let i = usize::from(id);
        if self.topics.len() <= i {
            self.topics.resize(i + 1, None);
        }
        if let Some(slot) = self.topics.get_mut(i) {
            *slot = Some(topic.to_string());
        }
    }
}

/// Read a whole run log from `src` (of `len` bytes, if known) on this thread, visiting
/// every message; the channels learnt (for [`read_record_at`]) and how it went. An error
/// if it is not an MCAP file or not one message could be read.
pub fn read(
    src: impl Read,
    len: Option<u64>,
    v: &mut impl Visit,
) -> Result<(Channels, Outcome), Error> {
    let mut batches = Batches::new(src, len)?;
    let mut channels = Channels::default();
    let mut buf = Vec::new();
    while let Some(b) = batches.next(&mut buf) {
        channels.batch(b, &buf, v);
    }
    finish(channels, batches.skipped, batches.truncated)
}

fn finish(
    mut channels: Channels,
    skipped: u64,
    truncated: Option<String>,
) -> Result<(Channels, Outcome), Error> {
    channels.outcome.skipped += skipped;
    channels.outcome.truncated = truncated;
    if channels.outcome.messages == 0 {
        return Err(Error::NoMessages(channels.outcome.truncated));
    }
    let outcome = channels.outcome.clone();
    Ok((channels, outcome))
}

/// Read the run log at `path`, visiting every message: one thread reads and decompresses
/// while this one visits. Errors name the file.
pub fn read_file(path: &Path, v: &mut impl Visit) -> Result<(Channels, Outcome), Error> {
    let named = |e: Error| match e {
        Error::Io { .. } => e,
        e => Error::NotARunLog {
            path: path.to_path_buf(),
            source: Box::new(e),
        },
    };
    let file = std::fs::File::open(path).map_err(|e| Error::io("read", path, e))?;
    let len = file.metadata().ok().map(|m| m.len());
    let src = BufReader::with_capacity(1 << 20, file);
    let batches = Batches::new(src, len).map_err(named)?;
    read_in_two_threads(batches, v).map_err(named)
}

/// Counts the messages' bytes and does nothing else with them.
#[derive(Debug, Default)]
struct Bytes(u64);

impl Visit for Bytes {
    fn message(&mut self, m: Raw<'_>) {
        self.0 += m.data.len() as u64;
    }
}

/// Read the run log at `path` once and do nothing with its messages but count their bytes
/// (every chunk decompressed, every message visited): the least any reader of the file
/// does, which the report and the replay are measured against. How it went and the bytes.
pub fn read_once(path: &Path) -> Result<(Outcome, u64), Error> {
    let mut b = Bytes::default();
    let (_, outcome) = read_file(path, &mut b)?;
    Ok((outcome, b.0))
}

/// Batches are made on a thread of their own; two buffers go back and forth.
fn read_in_two_threads<R: Read + Send>(
    mut batches: Batches<R>,
    v: &mut impl Visit,
) -> Result<(Channels, Outcome), Error> {
    use std::sync::mpsc::sync_channel;
    let (full_tx, full_rx) = sync_channel::<(Batch, Vec<u8>)>(1);
    let (empty_tx, empty_rx) = sync_channel::<Vec<u8>>(2);
    for _ in 0..2 {
        let _ = empty_tx.send(Vec::new());
    }
    let mut channels = Channels::default();
    let (skipped, truncated) = std::thread::scope(|s| {
        let reader = s.spawn(move || {
            while let Ok(mut buf) = empty_rx.recv() {
                match batches.next(&mut buf) {
                    Some(b) => {
                        if full_tx.send((b, buf)).is_err() {
                            break;
                        }
                    }
                    None => break,
                }
            }
            (batches.skipped, batches.truncated)
        });
        while let Ok((b, buf)) = full_rx.recv() {
            channels.batch(b, &buf, v);
            if empty_tx.send(buf).is_err() {
                break;
            }
        }
        drop(empty_tx);
        reader
            .join()
            .unwrap_or_else(|_| (0, Some("the reading thread failed".into())))
    });
    finish(channels, skipped, truncated)
}

/// Count one message of `topic` (without a new key for a topic already counted).
pub fn count(counts: &mut BTreeMap<String, u64>, topic: &str) {
    match counts.get_mut(topic) {
        Some(n) => *n += 1,
        None => {
            counts.insert(topic.to_string(), 1);
        }
    }
}

/// The buffers [`read_record_at`] reuses from call to call.
#[derive(Debug, Default)]
pub struct Scratch {
    body: Vec<u8>,
    records: Vec<u8>,
}

/// Read the one top-level record at byte `at` of `src` (a chunk, or a message) again,
/// visiting its messages with the channels learnt by a whole read. `false` if there is
/// no such record there.
pub fn read_record_at(
    src: &mut (impl Read + Seek),
    at: u64,
    channels: &mut Channels,
    scratch: &mut Scratch,
    v: &mut impl Visit,
) -> bool {
    if src.seek(SeekFrom::Start(at)).is_err() {
        return false;
    }
    let mut batches = Batches {
        src: &mut *src,
        pos: at,
        left: None,
        body: std::mem::take(&mut scratch.body),
        skipped: 0,
        truncated: None,
        done: false,
    };
    let b = batches.next(&mut scratch.records);
    scratch.body = std::mem::take(&mut batches.body);
    match b {
        Some(b) if b.at == at => {
            channels.batch(b, &scratch.records, v);
            true
        }
        _ => false,
    }
}
