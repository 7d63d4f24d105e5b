//! The run log's writer thread. The cycle's thread puts each message into a batch: rare
//! messages already encoded (bytes in one buffer), the per-cycle `/pose` and `/signals` as
//! what they say (a pose; the changed signals' slots and values, already rounded and
//! compared with what was last written). Full batches go to a thread that owns the MCAP
//! file: it encodes what is not yet encoded, indexes, compresses and writes the messages
//! in the order they were made, and hands the emptied batch back for reuse. Which
//! messages there are, and their sequence numbers, is decided on the cycle's thread, so
//! the file does not depend on thread timing.
//!
//! A bounded queue keeps memory bounded (the cycle waits if the writer falls behind), and
//! batches are recycled, so a steady run allocates nothing here.

use crate::mcap_file::McapFile;
use crate::robot::{self, Datum};
use crate::writer::LogStatus;
use skipper_core::Pose3;
use std::fs::File;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The MCAP writer of a run log.
pub type McapWriter = McapFile<File>;

/// A batch is sent to the writer when its bytes reach this size ...
const BATCH_BYTES: usize = 64 * 1024;
/// ... or when it holds this many entries.
const BATCH_ENTRIES: usize = 2048;
/// Full batches waiting for the writer, at most.
const QUEUE: usize = 4;

/// What one entry of a batch is; its bytes (if any) end at `Entry::end`.
#[derive(Clone, Copy)]
enum Kind {
    /// a message, its bytes encoded
    Encoded,
    /// a robot's `/pose` (the robot's tag is known to the writer)
    Pose(Pose3),
    /// a robot's `/signals`: its values end at this index of the batch's values
    Signals(usize),
    /// not a message: the bytes are a new robot's `"robot":"NAME"` tag
    Robot,
    /// not a message: the bytes are the next signal key of `robot`, logged at these
    /// decimals
    Key(Option<u8>),
}

/// One entry of a batch.
#[derive(Clone, Copy)]
struct Entry {
    kind: Kind,
    robot: usize,
    channel: u16,
    sequence: u32,
    time: Duration,
    end: usize,
}

/// Messages made on the cycle's thread, waiting to be written.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    values: Vec<Datum>,
    entries: Vec<Entry>,
}

/// The cycle's side: put messages into batches and send them to the writer thread.
pub struct Sink {
    batch: Batch,
    to_writer: Option<SyncSender<Batch>>,
    recycled: Receiver<Batch>,
    thread: Option<JoinHandle<()>>,
    seq: u32,
}

impl Sink {
    /// Start the writer thread with `writer` (schemas and channels already added).
    pub fn start(writer: McapWriter, status: Arc<Mutex<LogStatus>>) -> std::io::Result<Self> {
        let (to_writer, batches) = sync_channel::<Batch>(QUEUE);
        // every batch there is fits: the queue, the one being written, the one being filled
        let (give_back, recycled) = sync_channel::<Batch>(QUEUE + 2);
        let thread = std::thread::Builder::new()
            .name("run log".into())
            .spawn(move || write_all(writer, &batches, &give_back, &status))?;
        Ok(Self {
            batch: Batch::default(),
            to_writer: Some(to_writer),
            recycled,
            thread: Some(thread),
            seq: 0,
        })
    }

    /// Add an entry whose bytes were just written; a message entry takes the next
    /// sequence number.
    fn push(&mut self, kind: Kind, robot: usize, channel: u16, t: Duration) {
        let message = !matches!(kind, Kind::Robot | Kind::Key(_));
        if message {
            self.seq = self.seq.wrapping_add(1);
        }
        self.batch.entries.push(Entry {
            kind,
            robot,
            channel,
            sequence: self.seq,
            time: t,
            end: self.batch.bytes.len(),
        });
        if self.batch.bytes.len() >= BATCH_BYTES || self.batch.entries.len() >= BATCH_ENTRIES {
            self.send();
        }
    }

    /// Add one message on `channel` at time `t`, its bytes written by `encode`, which
    /// says `false` if there is nothing to write after all.
    pub fn message(
        &mut self,
        channel: u16,
        t: Duration,
        encode: impl FnOnce(&mut Vec<u8>) -> bool,
    ) {
        if self.to_writer.is_none() {
            return;
        }
        let start = self.batch.bytes.len();
        if !encode(&mut self.batch.bytes) {
            self.batch.bytes.truncate(start);
            return;
        }
        self.push(Kind::Encoded, 0, channel, t);
    }

    /// Tell the writer of the next robot (its index: the robots told before it), by its
    /// `"robot":"NAME"` tag.
    pub fn robot(&mut self, tag: &[u8]) {
        self.batch.bytes.extend_from_slice(tag);
        self.push(Kind::Robot, 0, 0, Duration::ZERO);
    }

    /// Tell the writer of robot `robot`'s next signal: its `"NAME":` key and decimals.
    pub fn key(&mut self, robot: usize, key: &[u8], decimals: Option<u8>) {
        self.batch.bytes.extend_from_slice(key);
        self.push(Kind::Key(decimals), robot, 0, Duration::ZERO);
    }

    /// Robot `robot`'s `/pose` at `t`, encoded by the writer.
    pub fn pose(&mut self, channel: u16, robot: usize, t: Duration, pose: Pose3) {
        if self.to_writer.is_some() {
            self.push(Kind::Pose(pose), robot, channel, t);
        }
    }

    /// Robot `robot`'s `/signals` at `t`: `fill` adds the values to write and says
    /// `false` if there are none.
    pub fn signals(
        &mut self,
        channel: u16,
        robot: usize,
        t: Duration,
        fill: impl FnOnce(&mut Vec<Datum>) -> bool,
    ) {
        if self.to_writer.is_none() {
            return;
        }
        let start = self.batch.values.len();
        if !fill(&mut self.batch.values) {
            self.batch.values.truncate(start);
            return;
        }
        let end = self.batch.values.len();
        self.push(Kind::Signals(end), robot, channel, t);
    }

    /// Send the batch being filled to the writer and take an emptied one.
    fn send(&mut self) {
        let Some(tx) = &self.to_writer else { return };
        let next = self.recycled.try_recv().unwrap_or_default();
        let full = std::mem::replace(&mut self.batch, next);
        if tx.send(full).is_err() {
            // the writer thread is gone (it panicked): nothing more can be written
            self.to_writer = None;
        }
    }

    /// Write what is left, finish the file and wait for the writer thread.
    pub fn close(&mut self) {
        if !self.batch.entries.is_empty() {
            self.send();
        }
        self.to_writer = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.close();
    }
}

/// What the writer knows of a robot: its tag and its signals' keys and decimals.
#[derive(Default)]
struct RobotText {
    tag: Vec<u8>,
    keys: Vec<(Vec<u8>, Option<u8>)>,
}

/// The writer thread: write every batch, hand it back, finish the file at the end.
fn write_all(
    w: McapWriter,
    batches: &Receiver<Batch>,
    give_back: &SyncSender<Batch>,
    status: &Mutex<LogStatus>,
) {
    let mut error: Option<String> = None;
    let mut written = 0u64;
    let mut w = Some(w);
    let mut robots: Vec<RobotText> = Vec::new();
    let mut text = Vec::new();
    let nobody = RobotText::default();
    for mut batch in batches.iter() {
        let (mut start, mut values) = (0, 0);
        for e in &batch.entries {
            let bytes = batch.bytes.get(start..e.end).unwrap_or_default();
            start = e.end;
            let data = match e.kind {
                Kind::Encoded => bytes,
                Kind::Robot => {
                    robots.push(RobotText {
                        tag: bytes.to_vec(),
                        keys: Vec::new(),
                    });
                    continue;
                }
                Kind::Key(decimals) => {
                    if let Some(r) = robots.get_mut(e.robot) {
                        r.keys.push((bytes.to_vec(), decimals));
                    }
                    continue;
                }
                Kind::Pose(p) => {
                    text.clear();
                    let r = robots.get(e.robot).unwrap_or(&nobody);
                    robot::pose(&mut text, &r.tag, p, e.time);
                    &text[..]
                }
                Kind::Signals(end) => {
                    let vals = batch.values.get(values..end).unwrap_or_default();
                    values = end;
                    text.clear();
                    let r = robots.get(e.robot).unwrap_or(&nobody);
                    robot::signals(&mut text, &r.tag, &r.keys, vals, e.time);
                    &text[..]
                }
            };
            let Some(file) = w.as_mut().filter(|_| error.is_none()) else {
                continue;
            };
            let ns = u64::try_from(e.time.as_nanos()).unwrap_or(u64::MAX);
            match file.message(e.channel, e.sequence, ns, ns, data) {
                Ok(()) => written += 1,
                Err(e) => error = Some(format!("cannot write the run log: {e}")),
            }
        }
        batch.bytes.clear();
        batch.values.clear();
        batch.entries.clear();
        let _ = give_back.try_send(batch);
    }
    if let Some(file) = w.filter(|_| error.is_none()) {
        if let Err(e) = file.finish() {
            error = Some(format!("cannot finish the run log: {e}"));
        }
    }
    if let Some(msg) = &error {
        tracing::error!("{msg}");
    }
    if let Ok(mut s) = status.lock() {
        s.messages += written;
        if let Some(msg) = error {
            s.error.get_or_insert(msg);
        }
    }
}
