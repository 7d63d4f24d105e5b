//! The run log's writer thread. The cycle's thread encodes each message into a batch (one
//! buffer of message bytes and a list of where each ends); full batches go to a thread
//! that owns the MCAP writer, which indexes, compresses and writes them in the order they
//! were made and hands the emptied batch back for reuse. The file is the one the cycle's
//! thread would have written itself, byte for byte: only the work moved.
//!
//! A bounded queue keeps memory bounded (the cycle waits if the writer falls behind), and
//! batches are recycled, so a steady run allocates nothing here.

use super::LogStatus;
use mcap::records::MessageHeader;
use std::fs::File;
use std::io::BufWriter;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The MCAP writer of a run log.
pub type McapWriter = mcap::Writer<BufWriter<File>>;

/// A batch is sent to the writer when its bytes reach this size.
const BATCH_BYTES: usize = 64 * 1024;
/// Full batches waiting for the writer, at most.
const QUEUE: usize = 4;

/// One message of a batch: its bytes end at `end` in the batch's buffer.
struct Entry {
    header: MessageHeader,
    end: usize,
}

/// Messages encoded on the cycle's thread, waiting to be written.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    entries: Vec<Entry>,
}

/// The cycle's side: encode messages into batches and send them to the writer thread.
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
        self.seq = self.seq.wrapping_add(1);
        let ns = u64::try_from(t.as_nanos()).unwrap_or(u64::MAX);
        self.batch.entries.push(Entry {
            header: MessageHeader {
                channel_id: channel,
                sequence: self.seq,
                log_time: ns,
                publish_time: ns,
            },
            end: self.batch.bytes.len(),
        });
        if self.batch.bytes.len() >= BATCH_BYTES {
            self.send();
        }
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

/// The writer thread: write every batch, hand it back, finish the file at the end.
fn write_all(
    mut w: McapWriter,
    batches: &Receiver<Batch>,
    give_back: &SyncSender<Batch>,
    status: &Mutex<LogStatus>,
) {
    let mut error: Option<String> = None;
    let mut written = 0u64;
    for mut batch in batches.iter() {
        let mut start = 0;
        for e in &batch.entries {
            let data = batch.bytes.get(start..e.end).unwrap_or_default();
            start = e.end;
            if error.is_some() {
                continue;
            }
            match w.write_to_known_channel(&e.header, data) {
                Ok(()) => written += 1,
                Err(e) => error = Some(format!("cannot write the run log: {e}")),
            }
        }
        batch.bytes.clear();
        batch.entries.clear();
        let _ = give_back.try_send(batch);
    }
    if error.is_none() {
        if let Err(e) = w.finish() {
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
