//! Publishing: a topic a node advertises, the subscribers connected to it over TCPROS
//! (their handshake, and one writer thread each for what could not be written at once),
//! and the [`Publisher`] handle that frames messages and hands them to every connection
//! without blocking (a full queue drops and counts).

use super::{lock, Inner, Node, RPC_TIMEOUT};
use crate::tcpros::{Header, TcprosError};
use std::collections::VecDeque;
use std::io::Write;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

pub(super) struct SubConn {
    pub(super) id: u64,
    pub(super) callerid: String,
    pub(super) out: Arc<Outbox>,
    pub(super) stream: TcpStream,
    pub(super) alive: Arc<AtomicBool>,
}

/// The frames on their way to one subscriber. The publishing thread writes a frame
/// itself when nothing is waiting and the socket takes it without blocking (one system
/// call, no thread to wake); otherwise the frame waits here for the connection's writer
/// thread, which may block on a slow subscriber without holding anybody up.
pub(super) struct Outbox {
    pub(super) q: Mutex<OutQueue>,
    pub(super) ready: Condvar,
    /// at most this many frames wait (more are dropped and counted)
    pub(super) cap: usize,
}

#[derive(Default)]
pub(super) struct OutQueue {
    /// frames and how much of each was written already
    pub(super) frames: VecDeque<(Arc<Vec<u8>>, usize)>,
    /// the writer thread is writing a frame (outside the lock)
    pub(super) busy: bool,
    pub(super) closed: bool,
}

/// What became of a frame handed to an [`Outbox`].
pub(super) enum Sent {
    /// written or queued
    Ok,
    /// the queue was full: dropped
    Dropped,
    /// the connection is gone
    Closed,
}

impl Outbox {
    fn new(cap: usize) -> Self {
        Self {
            q: Mutex::new(OutQueue::default()),
            ready: Condvar::new(),
            cap,
        }
    }

    /// Write `f` now if nothing is ahead of it and the socket takes it at once, else
    /// queue it for the writer thread (order kept).
    fn send(&self, s: &TcpStream, f: &Arc<Vec<u8>>) -> Sent {
        let mut q = lock(&self.q);
        if q.closed {
            return Sent::Closed;
        }
        if q.frames.is_empty() && !q.busy {
            let written = match send_now(s, f) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => 0,
                Err(_) => {
                    q.closed = true;
                    self.ready.notify_one();
                    return Sent::Closed;
                }
            };
            if written >= f.len() {
                return Sent::Ok;
            }
            q.frames.push_back((f.clone(), written));
        } else if q.frames.len() >= self.cap {
            return Sent::Dropped;
        } else {
            q.frames.push_back((f.clone(), 0));
        }
        self.ready.notify_one();
        Sent::Ok
    }

    fn close(&self) {
        lock(&self.q).closed = true;
        self.ready.notify_one();
    }
}

/// Once this many bytes of queued frames have drained (written by the writer threads, or
/// let go with their connection), the heap is handed back to the system when a queue
/// runs empty: after a burst the node's memory returns near its idle level instead of
/// keeping the freed pages in glibc's per-thread arenas.
pub const TRIM_AFTER: usize = 1 << 20;

/// Count `bytes` of queued frames that drained; trim the heap if enough have and `empty`
/// (nothing is queued on this connection now).
fn drained(inner: &Inner, bytes: usize, empty: bool) {
    let total = inner.drained.fetch_add(bytes, Ordering::Relaxed) + bytes;
    if empty && total >= TRIM_AFTER && inner.drained.swap(0, Ordering::Relaxed) >= TRIM_AFTER {
        trim_heap();
        inner.stats.trims.fetch_add(1, Ordering::Relaxed);
    }
}

/// Hand the heap's free pages back to the system (glibc; elsewhere nothing).
fn trim_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists; any thread may call it
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Write without blocking: how much the socket took.
#[cfg(unix)]
pub(super) fn send_now(s: &TcpStream, f: &[u8]) -> std::io::Result<usize> {
    socket2::SockRef::from(s).send_with_flags(f, libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL)
}

/// Elsewhere every frame goes through the writer thread.
#[cfg(not(unix))]
pub(super) fn send_now(_: &TcpStream, _: &[u8]) -> std::io::Result<usize> {
    Ok(0)
}

pub(super) struct PubTopic {
    pub(super) topic: String,
    pub(super) ty: String,
    pub(super) md5: String,
    pub(super) definition: String,
    pub(super) latched: bool,
    pub(super) last: Mutex<Option<Arc<Vec<u8>>>>,
    /// a frame nobody holds any more, for the next publication to reuse
    pub(super) spare: Mutex<Option<Arc<Vec<u8>>>>,
    pub(super) conns: Mutex<Vec<SubConn>>,
    /// the [`Publisher`] handles that share this publication
    pub(super) users: AtomicUsize,
    /// how many frames may wait for each subscriber
    pub(super) queue_size: AtomicUsize,
}

pub(super) fn tcpros_loop(inner: Arc<Inner>, l: TcpListener) {
    for s in l.incoming() {
        if inner.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(s) = s else { continue };
        let i2 = inner.clone();
        let _ = std::thread::Builder::new()
            .name("ros1-tcpros-conn".into())
            .spawn(move || serve_subscriber(&i2, s));
    }
}

pub(super) fn refuse(inner: &Inner, s: &mut TcpStream, why: String) {
    inner.stats.refused.fetch_add(1, Ordering::Relaxed);
    tracing::warn!("refusing a TCPROS connection: {why}");
    let _ = Header::default().with("error", &why).write(s);
    let _ = s.shutdown(Shutdown::Both);
}

pub(super) fn md5_matches(a: &str, b: &str) -> bool {
    a == "*" || b == "*" || a == b
}

/// An incoming subscriber connection: handshake, then this thread writes its messages.
pub(super) fn serve_subscriber(inner: &Arc<Inner>, mut s: TcpStream) {
    let _ = s.set_nodelay(true);
    let _ = s.set_read_timeout(Some(RPC_TIMEOUT));
    let h = match Header::read(&mut s) {
        Ok(h) => h,
        Err(TcprosError::Io(_)) => return,
        Err(e) => {
            inner.stats.bad_headers.fetch_add(1, Ordering::Relaxed);
            return refuse(inner, &mut s, e.to_string());
        }
    };
    if h.get("service").is_some() {
        return super::service::serve_service(inner, s, &h);
    }
    let (Some(topic), Some(md5), Some(callerid)) =
        (h.get("topic"), h.get("md5sum"), h.get("callerid"))
    else {
        inner.stats.bad_headers.fetch_add(1, Ordering::Relaxed);
        return refuse(
            inner,
            &mut s,
            "the header needs topic, md5sum and callerid".into(),
        );
    };
    let Some(p) = lock(&inner.pubs).get(topic).cloned() else {
        return refuse(
            inner,
            &mut s,
            format!("{} does not publish {topic}", inner.name),
        );
    };
    if !md5_matches(md5, &p.md5) {
        let theirs = h.get("type").unwrap_or("?");
        return refuse(
            inner,
            &mut s,
            format!(
                "md5sum mismatch on {topic}: subscriber {callerid} has {theirs}/{md5}, publisher {} has {}/{}",
                inner.name, p.ty, p.md5
            ),
        );
    }
    let reply = Header::default()
        .with("callerid", &inner.name)
        .with("latching", if p.latched { "1" } else { "0" })
        .with("md5sum", &p.md5)
        .with("message_definition", &p.definition)
        .with("topic", &p.topic)
        .with("type", &p.ty);
    if reply.write(&mut s).is_err() {
        return;
    }
    let _ = s.set_read_timeout(None);
    let out = Arc::new(Outbox::new(p.queue_size.load(Ordering::SeqCst)));
    let alive = Arc::new(AtomicBool::new(true));
    let Ok(stream) = s.try_clone() else { return };
    {
        let mut conns = lock(&p.conns);
        if p.latched {
            if let Some(last) = lock(&p.last).clone() {
                lock(&out.q).frames.push_back((last, 0));
            }
        }
        conns.push(SubConn {
            id: inner.next_conn.fetch_add(1, Ordering::Relaxed),
            callerid: callerid.to_string(),
            out: out.clone(),
            stream,
            alive: alive.clone(),
        });
    }
    let _ = s.set_read_timeout(Some(Duration::from_millis(1)));
    // the writer: what the publishing threads could not write at once
    loop {
        let next = {
            let mut q = lock(&out.q);
            if q.frames.is_empty() && !q.closed {
                q = match out.ready.wait_timeout(q, Duration::from_secs(1)) {
                    Ok((g, _)) => g,
                    Err(p) => p.into_inner().0,
                };
            }
            if q.closed {
                break;
            }
            let next = q.frames.pop_front();
            q.busy = next.is_some();
            next
        };
        match next {
            Some((f, done)) => {
                let ok = s.write_all(f.get(done..).unwrap_or(&[])).is_ok();
                let empty = {
                    let mut q = lock(&out.q);
                    q.busy = false;
                    q.frames.is_empty()
                };
                drained(inner, f.len(), empty);
                if !ok {
                    break;
                }
            }
            None => {
                // a subscriber never sends after its header: end of stream means it left
                let mut b = [0u8; 1];
                if matches!(s.peek(&mut b), Ok(0)) {
                    break;
                }
            }
        }
    }
    out.close();
    let left: usize = std::mem::take(&mut lock(&out.q).frames)
        .iter()
        .map(|(f, _)| f.len())
        .sum();
    drained(inner, left, true);
    alive.store(false, Ordering::SeqCst);
    let _ = s.shutdown(Shutdown::Both);
    lock(&p.conns).retain(|c| c.alive.load(Ordering::SeqCst));
}

pub(super) fn close_pub(p: &PubTopic) {
    for c in lock(&p.conns).drain(..) {
        c.alive.store(false, Ordering::SeqCst);
        c.out.close();
        let _ = c.stream.shutdown(Shutdown::Both);
    }
}

/// A publication; dropping it unadvertises the topic.
pub struct Publisher {
    pub(super) node: Node,
    pub(super) topic: Arc<PubTopic>,
}

impl Publisher {
    /// Publish a message body to every subscriber (and keep it if latched).
    pub fn publish(&self, body: &[u8]) {
        self.publish_with(|w| w.extend_from_slice(body));
    }

    /// Publish the message body that `encode` appends, framed in place in a recycled
    /// buffer (no allocation in steady state).
    pub fn publish_with(&self, encode: impl FnOnce(&mut Vec<u8>)) {
        let recycled = lock(&self.topic.spare).take();
        let mut f = recycled.unwrap_or_default();
        let w = Arc::make_mut(&mut f); // the spare is held by nobody else: no copy
        w.clear();
        w.extend_from_slice(&[0; 4]);
        encode(w);
        let len = (w.len() - 4) as u32;
        w[..4].copy_from_slice(&len.to_le_bytes());
        let replaced = if self.topic.latched {
            lock(&self.topic.last).replace(f.clone())
        } else {
            None
        };
        self.send_frame(&f);
        // reuse whichever frame no queue holds now: the one just sent, or the latched
        // one it replaced
        let done = if self.topic.latched {
            replaced
        } else {
            Some(f)
        };
        if let Some(done) = done.filter(|d| Arc::strong_count(d) == 1) {
            *lock(&self.topic.spare) = Some(done);
        }
    }

    fn send_frame(&self, f: &Arc<Vec<u8>>) {
        let mut conns = lock(&self.topic.conns);
        conns.retain(|c| {
            if !c.alive.load(Ordering::SeqCst) {
                return false;
            }
            match c.out.send(&c.stream, f) {
                Sent::Ok => true,
                Sent::Dropped => {
                    self.node
                        .inner
                        .stats
                        .dropped
                        .fetch_add(1, Ordering::Relaxed);
                    true
                }
                Sent::Closed => false,
            }
        });
    }
    /// Caller ids of the connected subscribers.
    pub fn subscribers(&self) -> Vec<String> {
        lock(&self.topic.conns)
            .iter()
            .filter(|c| c.alive.load(Ordering::SeqCst))
            .map(|c| c.callerid.clone())
            .collect()
    }
    /// The topic.
    pub fn topic(&self) -> &str {
        &self.topic.topic
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        if self.topic.users.fetch_sub(1, Ordering::SeqCst) > 1 {
            return; // another handle still publishes
        }
        let inner = &self.node.inner;
        let removed = {
            let mut pubs = lock(&inner.pubs);
            match pubs.get(&self.topic.topic) {
                Some(p) if Arc::ptr_eq(p, &self.topic) => pubs.remove(&self.topic.topic).is_some(),
                _ => false,
            }
        };
        if removed && !inner.stop.load(Ordering::SeqCst) {
            let _ = inner.master(
                "unregisterPublisher",
                vec![
                    self.topic.topic.as_str().into(),
                    inner.xmlrpc_uri.as_str().into(),
                ],
            );
        }
        close_pub(&self.topic);
    }
}
