//! Subscribing: a topic a node subscribes to, one reader thread per publisher of it
//! (connected as the master's `publisherUpdate` lists them, dropped when they vanish),
//! each reading length-prefixed frames and handing them to the subscription's handler,
//! and the [`Subscriber`] handle.

use super::publish::md5_matches;
use super::{lock, Handler, Inner, Node, RPC_TIMEOUT};
use crate::tcpros::{self, Header, TcprosError};
use crate::xmlrpc::{self, Value};
use std::collections::HashMap;
use std::collections::VecDeque;
use std::io::BufReader;
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

pub(super) struct PubConn {
    pub(super) id: u64,
    pub(super) callerid: Arc<Mutex<Option<String>>>,
    pub(super) stream: Arc<Mutex<Option<TcpStream>>>,
    pub(super) stop: Arc<AtomicBool>,
}

pub(super) struct SubTopic {
    pub(super) topic: String,
    pub(super) ty: String,
    pub(super) md5: String,
    pub(super) definition: String,
    /// every handle's handler (a snapshot: a reader clones the `Arc`, not the list)
    pub(super) handlers: RwLock<Arc<[(u64, Handler)]>>,
    pub(super) conns: Mutex<HashMap<String, PubConn>>,
    /// of the messages read together, at most this many are handled (`usize::MAX`:
    /// every one)
    pub(super) queue_size: AtomicUsize,
}

impl SubTopic {
    pub(super) fn add_handler(&self, id: u64, h: Handler) {
        let mut hs = self.handlers.write().unwrap_or_else(|p| p.into_inner());
        let mut v: Vec<(u64, Handler)> = hs.iter().cloned().collect();
        v.push((id, h));
        *hs = Arc::from(v);
    }

    /// Drop a handle's handler; how many are left.
    fn remove_handler(&self, id: u64) -> usize {
        let mut hs = self.handlers.write().unwrap_or_else(|p| p.into_inner());
        let v: Vec<(u64, Handler)> = hs.iter().filter(|(i, _)| *i != id).cloned().collect();
        *hs = Arc::from(v);
        hs.len()
    }

    fn handlers(&self) -> Arc<[(u64, Handler)]> {
        self.handlers
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

pub(super) fn close_conn(c: &PubConn) {
    c.stop.store(true, Ordering::SeqCst);
    if let Some(s) = lock(&c.stream).as_ref() {
        let _ = s.shutdown(Shutdown::Both);
    }
}

pub(super) fn close_sub(s: &SubTopic) {
    for (_, c) in lock(&s.conns).drain() {
        close_conn(&c);
    }
}

/// Connect to new publishers of `sub`, drop vanished ones (the master's
/// `publisherUpdate` lists them all).
pub(super) fn update_publishers(inner: &Arc<Inner>, sub: &Arc<SubTopic>, uris: &[String]) {
    connect_publishers(inner, sub, uris, true);
}

/// The publisher URIs in a master's answer (`registerSubscriber`); anything else in the
/// list is passed over.
pub(super) fn uri_list(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or(&[])
        .iter()
        .filter_map(|u| u.as_str().map(str::to_string))
        .collect()
}

/// Connect to the publishers `registerSubscriber` returned. That list may be older than a
/// `publisherUpdate` the slave API already applied (a publisher that registered while
/// the subscription did), so it only adds: dropping what it lacks would close a
/// connection the newer update made, and the subscription would never hear from that
/// publisher.
pub(super) fn add_publishers(inner: &Arc<Inner>, sub: &Arc<SubTopic>, uris: &[String]) {
    connect_publishers(inner, sub, uris, false);
}

fn connect_publishers(inner: &Arc<Inner>, sub: &Arc<SubTopic>, uris: &[String], drop_others: bool) {
    let mut conns = lock(&sub.conns);
    conns.retain(|uri, c| {
        let keep = (!drop_others || uris.contains(uri)) && !c.stop.load(Ordering::SeqCst);
        if !keep {
            close_conn(c);
        }
        keep
    });
    for uri in uris {
        if conns.contains_key(uri) || inner.stop.load(Ordering::SeqCst) {
            continue;
        }
        let c = PubConn {
            id: inner.next_conn.fetch_add(1, Ordering::Relaxed),
            callerid: Arc::new(Mutex::new(None)),
            stream: Arc::new(Mutex::new(None)),
            stop: Arc::new(AtomicBool::new(false)),
        };
        let (i2, s2, u2) = (inner.clone(), sub.clone(), uri.clone());
        let (cid, stream, stop) = (c.callerid.clone(), c.stream.clone(), c.stop.clone());
        conns.insert(uri.clone(), c);
        let _ = std::thread::Builder::new()
            .name("ros1-sub-conn".into())
            .spawn(move || {
                if let Err(e) = read_publisher(&i2, &s2, &u2, &cid, &stream, &stop) {
                    if !stop.load(Ordering::SeqCst) {
                        tracing::warn!("{}: connection to {u2} ended: {e}", s2.topic);
                    }
                }
                *lock(&cid) = None;
                stop.store(true, Ordering::SeqCst);
            });
    }
}

pub(super) fn read_publisher(
    inner: &Inner,
    sub: &SubTopic,
    uri: &str,
    callerid: &Mutex<Option<String>>,
    slot: &Mutex<Option<TcpStream>>,
    stop: &AtomicBool,
) -> Result<(), String> {
    let v = xmlrpc::call(
        uri,
        "requestTopic",
        &[
            inner.name.as_str().into(),
            sub.topic.as_str().into(),
            Value::Array(vec![Value::Array(vec!["TCPROS".into()])]),
        ],
        RPC_TIMEOUT,
    )
    .map_err(|e| e.to_string())?;
    let proto = v
        .as_array()
        .filter(|a| a.first().and_then(Value::as_int) == Some(1))
        .and_then(|a| a.get(2))
        .and_then(Value::as_array)
        .ok_or_else(|| format!("requestTopic refused: {v:?}"))?;
    let (Some(host), Some(port)) = (
        proto.get(1).and_then(Value::as_str),
        proto.get(2).and_then(Value::as_int),
    ) else {
        return Err(format!("requestTopic gave no TCPROS address: {v:?}"));
    };
    let port = u16::try_from(port).map_err(|_| format!("bad port {port}"))?;
    let addr = (host, port)
        .to_socket_addrs()
        .map_err(|e| e.to_string())?
        .next()
        .ok_or("no address")?;
    let mut s = TcpStream::connect_timeout(&addr, RPC_TIMEOUT).map_err(|e| e.to_string())?;
    let _ = s.set_nodelay(true);
    *lock(slot) = s.try_clone().ok();
    if stop.load(Ordering::SeqCst) {
        return Ok(());
    }
    Header::default()
        .with("callerid", &inner.name)
        .with("topic", &sub.topic)
        .with("md5sum", &sub.md5)
        .with("type", &sub.ty)
        .with("message_definition", &sub.definition)
        .with("tcp_nodelay", "1")
        .write(&mut s)
        .map_err(|e| e.to_string())?;
    let _ = s.set_read_timeout(Some(RPC_TIMEOUT));
    let h = Header::read(&mut s).map_err(|e| {
        inner.stats.bad_headers.fetch_add(1, Ordering::Relaxed);
        e.to_string()
    })?;
    if let Some(e) = h.get("error") {
        inner.stats.refused.fetch_add(1, Ordering::Relaxed);
        return Err(format!("the publisher refused: {e}"));
    }
    let theirs = h.get("md5sum").unwrap_or("");
    if !md5_matches(theirs, &sub.md5) {
        inner.stats.refused.fetch_add(1, Ordering::Relaxed);
        let _ = s.shutdown(Shutdown::Both);
        return Err(format!(
            "md5sum mismatch: the publisher has {}/{theirs}, we expect {}/{}",
            h.get("type").unwrap_or("?"),
            sub.ty,
            sub.md5
        ));
    }
    let who = h.get("callerid").unwrap_or(uri).to_string();
    *lock(callerid) = Some(who.clone());
    let _ = s.set_read_timeout(None);
    let mut r = BufReader::with_capacity(64 << 10, s);
    let mut inbox = Inbox::default();
    loop {
        match inbox.read(&mut r, sub.queue_size.load(Ordering::Relaxed)) {
            Ok(dropped) => {
                if dropped > 0 {
                    inner.stats.dropped_in.fetch_add(dropped, Ordering::Relaxed);
                }
                let handlers = sub.handlers();
                for buf in inbox.frames() {
                    for (_, handler) in handlers.iter() {
                        if let Err(e) = handler(buf, &who) {
                            inner.stats.bad_messages.fetch_add(1, Ordering::Relaxed);
                            tracing::warn!("{}: skipped a message from {who}: {e}", sub.topic);
                        }
                    }
                }
            }
            Err(TcprosError::TooLarge(n)) => {
                inner.stats.bad_messages.fetch_add(1, Ordering::Relaxed);
                return Err(format!("a {n}-byte message is over the limit; closing"));
            }
            Err(e) => {
                return if stop.load(Ordering::SeqCst) {
                    Ok(())
                } else {
                    Err(e.to_string())
                };
            }
        }
    }
}

/// The messages of one read of a publisher's connection, at most `queue_size` of them
/// (rospy's subscriber queue: of the messages that arrived together, the newest are
/// handled). Frame buffers are reused.
#[derive(Default)]
pub(super) struct Inbox {
    /// frame bodies; the first `len` are the current messages
    bufs: VecDeque<Vec<u8>>,
    len: usize,
}

impl Inbox {
    /// Read one frame (waiting for it), then every further frame already whole in the
    /// reader's buffer, keeping the newest `queue_size`: how many older ones it dropped.
    pub(super) fn read(
        &mut self,
        r: &mut BufReader<impl std::io::Read>,
        queue_size: usize,
    ) -> Result<u64, TcprosError> {
        self.len = 0;
        let mut dropped = 0;
        loop {
            if self.len == queue_size.max(1) {
                // the oldest goes: its buffer becomes the newest's
                if let Some(b) = self.bufs.pop_front() {
                    self.bufs.push_back(b);
                }
                self.len -= 1;
                dropped += 1;
            }
            if self.bufs.len() == self.len {
                self.bufs.push_back(Vec::new());
            }
            let buf = &mut self.bufs[self.len];
            tcpros::read_frame(r, buf)?;
            self.len += 1;
            if queue_size == usize::MAX || !whole_frame_buffered(r.buffer()) {
                return Ok(dropped);
            }
        }
    }

    /// The current messages, oldest first.
    pub(super) fn frames(&self) -> impl Iterator<Item = &[u8]> {
        self.bufs.iter().take(self.len).map(Vec::as_slice)
    }
}

/// Whether `b` starts with a whole length-prefixed frame.
fn whole_frame_buffered(b: &[u8]) -> bool {
    match b.get(..4) {
        Some(l) => {
            let n = u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize;
            b.len() - 4 >= n
        }
        None => false,
    }
}

/// A subscription; dropping it unsubscribes.
pub struct Subscriber {
    pub(super) node: Node,
    pub(super) topic: Arc<SubTopic>,
    /// this handle's handler in the subscription
    pub(super) id: u64,
}

impl Subscriber {
    /// Caller ids of the publishers we are connected to.
    pub fn publishers(&self) -> Vec<String> {
        lock(&self.topic.conns)
            .values()
            .filter_map(|c| lock(&c.callerid).clone())
            .collect()
    }
    /// The topic.
    pub fn topic(&self) -> &str {
        &self.topic.topic
    }
}

impl Drop for Subscriber {
    fn drop(&mut self) {
        if self.topic.remove_handler(self.id) > 0 {
            return; // another handle still listens
        }
        let inner = &self.node.inner;
        let removed = {
            let mut subs = lock(&inner.subs);
            match subs.get(&self.topic.topic) {
                Some(s) if Arc::ptr_eq(s, &self.topic) => subs.remove(&self.topic.topic).is_some(),
                _ => false,
            }
        };
        if removed && !inner.stop.load(Ordering::SeqCst) {
            let _ = inner.master(
                "unregisterSubscriber",
                vec![
                    self.topic.topic.as_str().into(),
                    inner.xmlrpc_uri.as_str().into(),
                ],
            );
        }
        close_sub(&self.topic);
    }
}
