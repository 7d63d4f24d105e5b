//! A ROS 1 node: it registers with the master over XML-RPC, serves the slave API
//! (`requestTopic`, `publisherUpdate`, `getBusInfo`, `getPid`, ... — what `rostopic` and
//! `rosnode` use), publishes and subscribes over TCPROS.
//!
//! Threads: one accepting XML-RPC calls, one accepting TCPROS subscribers, one writer per
//! subscriber connection, one reader per publisher we subscribe to. A publisher writes a
//! message to a subscriber itself when nothing is queued for it and the socket takes it
//! without blocking (one system call, no thread woken); otherwise the message waits in
//! the connection's bounded queue for its writer thread, so a slow subscriber never
//! blocks a publisher (beyond the queue, messages are dropped and counted). Every socket
//! has TCP_NODELAY.
//! A bad peer (malformed header, wrong md5sum, oversized or truncated message, garbage
//! XML-RPC) gets an error, its connection is closed, it is counted in [`NodeStats`], and
//! the node keeps serving the others.

use super::tcpros::{self, Header, TcprosError};
use super::xmlrpc::{self, Value};
use std::collections::{HashMap, VecDeque};
use std::io::{BufReader, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// Errors of the ROS 1 node.
#[derive(Debug, thiserror::Error)]
pub enum RosError {
    /// The master could not be reached or refused a call.
    #[error("ROS master at {uri}: {msg}")]
    Master {
        /// master URI
        uri: String,
        /// what happened
        msg: String,
    },
    /// A socket could not be opened.
    #[error("cannot listen on {0}: {1}")]
    Listen(String, std::io::Error),
    /// A bad name.
    #[error("{0}")]
    BadName(String),
}

/// How a node is set up.
#[derive(Debug, Clone)]
pub struct NodeConfig {
    /// The node name (`/skipper`).
    pub name: String,
    /// The master (`http://127.0.0.1:11311/`).
    pub master_uri: String,
    /// The address the node's servers listen on (127.0.0.1 unless told otherwise).
    pub bind: IpAddr,
    /// The host name put in the node's URIs (ROS_HOSTNAME / ROS_IP, else the bind address).
    pub advertise_host: String,
    /// Outgoing queue length per subscriber connection (messages beyond it are dropped).
    pub queue_size: usize,
}

/// The default master URI.
pub const DEFAULT_MASTER: &str = "http://127.0.0.1:11311/";

impl NodeConfig {
    /// A node named `name`, master from `ROS_MASTER_URI` (default 127.0.0.1:11311),
    /// listening on 127.0.0.1, advertising `ROS_HOSTNAME` / `ROS_IP` if set.
    pub fn from_env(name: &str) -> Self {
        let bind = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let advertise_host = std::env::var("ROS_HOSTNAME")
            .ok()
            .filter(|s| !s.is_empty())
            .or_else(|| std::env::var("ROS_IP").ok().filter(|s| !s.is_empty()))
            .unwrap_or_else(|| bind.to_string());
        Self {
            name: name.to_string(),
            master_uri: std::env::var("ROS_MASTER_URI")
                .ok()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| DEFAULT_MASTER.to_string()),
            bind,
            advertise_host,
            queue_size: 100,
        }
    }
}

/// Counts of what went wrong with peers.
#[derive(Debug, Default)]
pub struct NodeStats {
    /// malformed TCPROS headers received
    pub bad_headers: AtomicU64,
    /// connections refused (wrong md5sum, unknown topic, ...) either way
    pub refused: AtomicU64,
    /// messages that did not decode (counted and skipped)
    pub bad_messages: AtomicU64,
    /// XML-RPC requests that did not parse
    pub bad_xmlrpc: AtomicU64,
    /// messages dropped because a subscriber's queue was full
    pub dropped: AtomicU64,
}

/// A handler for received message bodies: (bytes, publisher's caller id).
pub type Handler = Arc<dyn Fn(&[u8], &str) -> Result<(), String> + Send + Sync>;

struct SubConn {
    id: u64,
    callerid: String,
    out: Arc<Outbox>,
    stream: TcpStream,
    alive: Arc<AtomicBool>,
}

/// The frames on their way to one subscriber. The publishing thread writes a frame
/// itself when nothing is waiting and the socket takes it without blocking (one system
/// call, no thread to wake); otherwise the frame waits here for the connection's writer
/// thread, which may block on a slow subscriber without holding anybody up.
struct Outbox {
    q: Mutex<OutQueue>,
    ready: Condvar,
    /// at most this many frames wait (more are dropped and counted)
    cap: usize,
}

#[derive(Default)]
struct OutQueue {
    /// frames and how much of each was written already
    frames: VecDeque<(Arc<Vec<u8>>, usize)>,
    /// the writer thread is writing a frame (outside the lock)
    busy: bool,
    closed: bool,
}

/// What became of a frame handed to an [`Outbox`].
enum Sent {
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

/// Write without blocking: how much the socket took.
#[cfg(unix)]
fn send_now(s: &TcpStream, f: &[u8]) -> std::io::Result<usize> {
    socket2::SockRef::from(s).send_with_flags(f, libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL)
}

/// Elsewhere every frame goes through the writer thread.
#[cfg(not(unix))]
fn send_now(_: &TcpStream, _: &[u8]) -> std::io::Result<usize> {
    Ok(0)
}

struct PubTopic {
    topic: String,
    ty: String,
    md5: String,
    definition: String,
    latched: bool,
    last: Mutex<Option<Arc<Vec<u8>>>>,
    /// a frame nobody holds any more, for the next publication to reuse
    spare: Mutex<Option<Arc<Vec<u8>>>>,
    conns: Mutex<Vec<SubConn>>,
}

struct PubConn {
    id: u64,
    callerid: Arc<Mutex<Option<String>>>,
    stream: Arc<Mutex<Option<TcpStream>>>,
    stop: Arc<AtomicBool>,
}

struct SubTopic {
    topic: String,
    ty: String,
    md5: String,
    definition: String,
    handler: Handler,
    conns: Mutex<HashMap<String, PubConn>>,
}

struct Inner {
    name: String,
    master_uri: String,
    host: String,
    xmlrpc_uri: String,
    xmlrpc_addr: SocketAddr,
    tcpros_addr: SocketAddr,
    tcpros_port: u16,
    queue_size: usize,
    pubs: Mutex<HashMap<String, Arc<PubTopic>>>,
    subs: Mutex<HashMap<String, Arc<SubTopic>>>,
    stop: AtomicBool,
    shutdown_requested: AtomicBool,
    next_conn: AtomicU64,
    stats: NodeStats,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// A ROS 1 node; clones share it. Dropping the last clone shuts it down.
#[derive(Clone)]
pub struct Node {
    inner: Arc<Inner>,
    _guard: Arc<ShutdownGuard>,
}

struct ShutdownGuard(Arc<Inner>);

impl Drop for ShutdownGuard {
    fn drop(&mut self) {
        self.0.shutdown();
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

const RPC_TIMEOUT: Duration = Duration::from_secs(5);

/// Check a graph resource name: absolute, `/`-separated, `[A-Za-z0-9_/]`.
pub fn check_name(name: &str) -> Result<(), RosError> {
    let ok = name.starts_with('/')
        && name.len() > 1
        && !name.ends_with('/')
        && !name.contains("//")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/')
        && name.split('/').skip(1).all(|p| {
            p.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        });
    if ok {
        Ok(())
    } else {
        Err(RosError::BadName(format!(
            "`{name}` is not a ROS name (expected /a/b: letters, digits and _, each part starting with a letter)"
        )))
    }
}

impl Node {
    /// Start a node: open its XML-RPC and TCPROS servers and check that the master answers.
    pub fn new(config: NodeConfig) -> Result<Self, RosError> {
        check_name(&config.name)?;
        let xl = TcpListener::bind((config.bind, 0))
            .map_err(|e| RosError::Listen(config.bind.to_string(), e))?;
        let tl = TcpListener::bind((config.bind, 0))
            .map_err(|e| RosError::Listen(config.bind.to_string(), e))?;
        let xmlrpc_addr = xl
            .local_addr()
            .map_err(|e| RosError::Listen(config.bind.to_string(), e))?;
        let tcpros_addr = tl
            .local_addr()
            .map_err(|e| RosError::Listen(config.bind.to_string(), e))?;
        let inner = Arc::new(Inner {
            name: config.name.clone(),
            master_uri: config.master_uri.clone(),
            host: config.advertise_host.clone(),
            xmlrpc_uri: format!("http://{}:{}/", config.advertise_host, xmlrpc_addr.port()),
            xmlrpc_addr,
            tcpros_addr,
            tcpros_port: tcpros_addr.port(),
            queue_size: config.queue_size.max(1),
            pubs: Mutex::new(HashMap::new()),
            subs: Mutex::new(HashMap::new()),
            stop: AtomicBool::new(false),
            shutdown_requested: AtomicBool::new(false),
            next_conn: AtomicU64::new(1),
            stats: NodeStats::default(),
            threads: Mutex::new(Vec::new()),
        });
        // the master must answer before anything else
        inner.master("getUri", vec![])?;
        let i2 = inner.clone();
        let t1 = std::thread::Builder::new()
            .name("ros1-xmlrpc".into())
            .spawn(move || xmlrpc_loop(i2, xl))
            .map_err(|e| RosError::Listen("thread".into(), e))?;
        let i3 = inner.clone();
        let t2 = std::thread::Builder::new()
            .name("ros1-tcpros".into())
            .spawn(move || tcpros_loop(i3, tl))
            .map_err(|e| RosError::Listen("thread".into(), e))?;
        lock(&inner.threads).extend([t1, t2]);
        Ok(Node {
            _guard: Arc::new(ShutdownGuard(inner.clone())),
            inner,
        })
    }

    /// The node name.
    pub fn name(&self) -> &str {
        &self.inner.name
    }
    /// The node's XML-RPC URI.
    pub fn uri(&self) -> &str {
        &self.inner.xmlrpc_uri
    }
    /// The master URI.
    pub fn master_uri(&self) -> &str {
        &self.inner.master_uri
    }
    /// What went wrong with peers so far.
    pub fn stats(&self) -> &NodeStats {
        &self.inner.stats
    }
    /// The TCPROS server's address.
    pub fn tcpros_addr(&self) -> SocketAddr {
        self.inner.tcpros_addr
    }
    /// `true` once the master asked this node to shut down (another node took its name).
    pub fn shutdown_requested(&self) -> bool {
        self.inner.shutdown_requested.load(Ordering::SeqCst)
    }

    /// Advertise a topic and register it with the master.
    pub fn advertise(
        &self,
        topic: &str,
        ty: &str,
        md5: &str,
        definition: &str,
        latched: bool,
    ) -> Result<Publisher, RosError> {
        check_name(topic)?;
        let t = Arc::new(PubTopic {
            topic: topic.to_string(),
            ty: ty.to_string(),
            md5: md5.to_string(),
            definition: definition.to_string(),
            latched,
            last: Mutex::new(None),
            spare: Mutex::new(None),
            conns: Mutex::new(Vec::new()),
        });
        lock(&self.inner.pubs).insert(topic.to_string(), t.clone());
        self.inner.master(
            "registerPublisher",
            vec![
                topic.into(),
                ty.into(),
                self.inner.xmlrpc_uri.clone().into(),
            ],
        )?;
        Ok(Publisher {
            node: self.clone(),
            topic: t,
        })
    }

    /// Subscribe to a topic: `handler` gets each message body and its publisher's caller id.
    pub fn subscribe(
        &self,
        topic: &str,
        ty: &str,
        md5: &str,
        definition: &str,
        handler: Handler,
    ) -> Result<Subscriber, RosError> {
        check_name(topic)?;
        let t = Arc::new(SubTopic {
            topic: topic.to_string(),
            ty: ty.to_string(),
            md5: md5.to_string(),
            definition: definition.to_string(),
            handler,
            conns: Mutex::new(HashMap::new()),
        });
        lock(&self.inner.subs).insert(topic.to_string(), t.clone());
        let v = self.inner.master(
            "registerSubscriber",
            vec![
                topic.into(),
                ty.into(),
                self.inner.xmlrpc_uri.clone().into(),
            ],
        )?;
        let uris: Vec<String> = v
            .as_array()
            .unwrap_or(&[])
            .iter()
            .filter_map(|u| u.as_str().map(str::to_string))
            .collect();
        update_publishers(&self.inner, &t, &uris);
        Ok(Subscriber {
            node: self.clone(),
            topic: t,
        })
    }

    /// A parameter's value (`None` if it is not set).
    pub fn get_param(&self, key: &str) -> Option<Value> {
        self.inner.master("getParam", vec![key.into()]).ok()
    }

    /// Search the parameter tree upward from this node's namespace for `key`.
    pub fn search_param(&self, key: &str) -> Option<String> {
        self.inner
            .master("searchParam", vec![key.into()])
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
    }

    /// The topics the master knows and their types.
    pub fn topic_types(&self) -> Result<Vec<(String, String)>, RosError> {
        let v = self.inner.master("getTopicTypes", vec![])?;
        Ok(v.as_array()
            .unwrap_or(&[])
            .iter()
            .filter_map(|p| {
                let a = p.as_array()?;
                Some((
                    a.first()?.as_str()?.to_string(),
                    a.get(1)?.as_str()?.to_string(),
                ))
            })
            .collect())
    }

    /// Unregister everything and close every connection (also done on drop).
    pub fn shutdown(&self) {
        self.inner.shutdown();
    }
}

impl Inner {
    /// Call the master; the reply's value when its code is 1.
    fn master(&self, method: &str, mut params: Vec<Value>) -> Result<Value, RosError> {
        params.insert(0, self.name.as_str().into());
        let err = |msg: String| RosError::Master {
            uri: self.master_uri.clone(),
            msg,
        };
        let v = xmlrpc::call(&self.master_uri, method, &params, RPC_TIMEOUT)
            .map_err(|e| err(e.to_string()))?;
        let a = v
            .as_array()
            .ok_or_else(|| err(format!("{method}: the reply is not [code, message, value]")))?;
        match (a.first().and_then(Value::as_int), a.get(1), a.get(2)) {
            (Some(1), _, Some(v)) => Ok(v.clone()),
            (Some(c), m, _) => Err(err(format!(
                "{method} failed ({c}): {}",
                m.and_then(Value::as_str).unwrap_or("")
            ))),
            _ => Err(err(format!("{method}: malformed reply"))),
        }
    }

    fn shutdown(&self) {
        if self.stop.swap(true, Ordering::SeqCst) {
            return;
        }
        let pubs: Vec<_> = lock(&self.pubs).drain().map(|x| x.1).collect();
        for p in pubs {
            let _ = self.master(
                "unregisterPublisher",
                vec![p.topic.as_str().into(), self.xmlrpc_uri.as_str().into()],
            );
            close_pub(&p);
        }
        let subs: Vec<_> = lock(&self.subs).drain().map(|x| x.1).collect();
        for s in subs {
            let _ = self.master(
                "unregisterSubscriber",
                vec![s.topic.as_str().into(), self.xmlrpc_uri.as_str().into()],
            );
            close_sub(&s);
        }
        // wake the accept loops
        let _ = TcpStream::connect_timeout(&self.xmlrpc_addr, Duration::from_millis(200));
        let _ = TcpStream::connect_timeout(&self.tcpros_addr, Duration::from_millis(200));
        let threads: Vec<_> = lock(&self.threads).drain(..).collect();
        for t in threads {
            if t.thread().id() != std::thread::current().id() {
                let _ = t.join();
            }
        }
    }

    fn bus_info(&self) -> Value {
        let mut out = Vec::new();
        for p in lock(&self.pubs).values() {
            for c in lock(&p.conns).iter() {
                out.push(Value::Array(vec![
                    Value::Int(c.id as i32),
                    c.callerid.as_str().into(),
                    "o".into(),
                    "TCPROS".into(),
                    p.topic.as_str().into(),
                    Value::Bool(c.alive.load(Ordering::SeqCst)),
                    format!(
                        "TCPROS connection on port {} to [{}]",
                        self.tcpros_port, c.callerid
                    )
                    .into(),
                ]));
            }
        }
        for s in lock(&self.subs).values() {
            for (uri, c) in lock(&s.conns).iter() {
                let who = lock(&c.callerid).clone().unwrap_or_else(|| uri.clone());
                out.push(Value::Array(vec![
                    Value::Int(c.id as i32),
                    who.as_str().into(),
                    "i".into(),
                    "TCPROS".into(),
                    s.topic.as_str().into(),
                    Value::Bool(lock(&c.callerid).is_some()),
                    format!("TCPROS connection to [{who}] for topic [{}]", s.topic).into(),
                ]));
            }
        }
        Value::Array(out)
    }

    fn dispatch(self: &Arc<Self>, method: &str, params: &[Value]) -> Value {
        let ok = |msg: &str, v: Value| Value::Array(vec![1.into(), msg.into(), v]);
        let fail = |code: i32, msg: String| Value::Array(vec![code.into(), msg.into(), 0.into()]);
        let str_at = |i: usize| params.get(i).and_then(Value::as_str);
        match method {
            "getPid" => ok("", Value::Int(std::process::id() as i32)),
            "getMasterUri" => ok("", self.master_uri.as_str().into()),
            "getBusInfo" => ok("bus info", self.bus_info()),
            "getBusStats" => ok(
                "",
                Value::Array(vec![
                    Value::Array(vec![]),
                    Value::Array(vec![]),
                    Value::Array(vec![]),
                ]),
            ),
            "getPublications" | "getSubscriptions" => {
                let list: Vec<Value> = if method == "getPublications" {
                    lock(&self.pubs)
                        .values()
                        .map(|p| Value::Array(vec![p.topic.as_str().into(), p.ty.as_str().into()]))
                        .collect()
                } else {
                    lock(&self.subs)
                        .values()
                        .map(|s| Value::Array(vec![s.topic.as_str().into(), s.ty.as_str().into()]))
                        .collect()
                };
                ok("", Value::Array(list))
            }
            "paramUpdate" => ok("", 0.into()),
            "shutdown" => {
                tracing::warn!(
                    "the ROS master asked node {} to shut down: {}",
                    self.name,
                    str_at(1).unwrap_or("")
                );
                self.shutdown_requested.store(true, Ordering::SeqCst);
                ok("shutdown", 0.into())
            }
            "publisherUpdate" => {
                let (Some(topic), Some(list)) =
                    (str_at(1), params.get(2).and_then(Value::as_array))
                else {
                    return fail(
                        -1,
                        "publisherUpdate(caller_id, topic, publishers) expected".into(),
                    );
                };
                let uris: Vec<String> = list
                    .iter()
                    .filter_map(|u| u.as_str().map(str::to_string))
                    .collect();
                let sub = lock(&self.subs).get(topic).cloned();
                if let Some(s) = sub {
                    update_publishers(self, &s, &uris);
                }
                ok("", 0.into())
            }
            "requestTopic" => {
                let Some(topic) = str_at(1) else {
                    return fail(
                        -1,
                        "requestTopic(caller_id, topic, protocols) expected".into(),
                    );
                };
                if !lock(&self.pubs).contains_key(topic) {
                    return fail(-1, format!("not a publisher of [{topic}]"));
                }
                let tcpros = params
                    .get(2)
                    .and_then(Value::as_array)
                    .unwrap_or(&[])
                    .iter()
                    .any(|p| {
                        p.as_array().and_then(|a| a.first()).and_then(Value::as_str)
                            == Some("TCPROS")
                    });
                if !tcpros {
                    return fail(0, "no supported protocol (only TCPROS)".into());
                }
                ok(
                    &format!("ready on {}:{}", self.host, self.tcpros_port),
                    Value::Array(vec![
                        "TCPROS".into(),
                        self.host.as_str().into(),
                        Value::Int(i32::from(self.tcpros_port)),
                    ]),
                )
            }
            other => fail(-1, format!("unknown method {other}")),
        }
    }
}

fn xmlrpc_loop(inner: Arc<Inner>, l: TcpListener) {
    for s in l.incoming() {
        if inner.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(s) = s else { continue };
        let i2 = inner.clone();
        let _ = std::thread::Builder::new()
            .name("ros1-xmlrpc-conn".into())
            .spawn(move || serve_xmlrpc(&i2, s));
    }
}

fn serve_xmlrpc(inner: &Arc<Inner>, s: TcpStream) {
    let _ = s.set_nodelay(true);
    let _ = s.set_read_timeout(Some(RPC_TIMEOUT));
    let Ok(w) = s.try_clone() else { return };
    let mut w = w;
    let mut r = BufReader::new(s);
    let reply = match xmlrpc::read_message(&mut r) {
        Err(e) => {
            inner.stats.bad_xmlrpc.fetch_add(1, Ordering::Relaxed);
            tracing::warn!("bad XML-RPC request: {e}");
            xmlrpc::fault_xml(-1, &e.to_string())
        }
        Ok((_, body)) => match xmlrpc::parse_call(&body) {
            Err(e) => {
                inner.stats.bad_xmlrpc.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("bad XML-RPC request: {e}");
                xmlrpc::fault_xml(-1, &e.to_string())
            }
            Ok((method, params)) => xmlrpc::response_xml(&inner.dispatch(&method, &params)),
        },
    };
    let _ = xmlrpc::write_response(&mut w, &reply);
    let _ = w.shutdown(Shutdown::Both);
}

fn tcpros_loop(inner: Arc<Inner>, l: TcpListener) {
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

fn refuse(inner: &Inner, s: &mut TcpStream, why: String) {
    inner.stats.refused.fetch_add(1, Ordering::Relaxed);
    tracing::warn!("refusing a TCPROS connection: {why}");
    let _ = Header::default().with("error", &why).write(s);
    let _ = s.shutdown(Shutdown::Both);
}

fn md5_matches(a: &str, b: &str) -> bool {
    a == "*" || b == "*" || a == b
}

/// An incoming subscriber connection: handshake, then this thread writes its messages.
fn serve_subscriber(inner: &Arc<Inner>, mut s: TcpStream) {
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
        return refuse(inner, &mut s, "this node offers no services".into());
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
    let out = Arc::new(Outbox::new(inner.queue_size));
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
                lock(&out.q).busy = false;
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
    alive.store(false, Ordering::SeqCst);
    let _ = s.shutdown(Shutdown::Both);
    lock(&p.conns).retain(|c| c.alive.load(Ordering::SeqCst));
}

fn close_pub(p: &PubTopic) {
    for c in lock(&p.conns).drain(..) {
        c.alive.store(false, Ordering::SeqCst);
        c.out.close();
        let _ = c.stream.shutdown(Shutdown::Both);
    }
}

fn close_conn(c: &PubConn) {
    c.stop.store(true, Ordering::SeqCst);
    if let Some(s) = lock(&c.stream).as_ref() {
        let _ = s.shutdown(Shutdown::Both);
    }
}

fn close_sub(s: &SubTopic) {
    for (_, c) in lock(&s.conns).drain() {
        close_conn(&c);
    }
}

/// Connect to new publishers of `sub`, drop vanished ones.
fn update_publishers(inner: &Arc<Inner>, sub: &Arc<SubTopic>, uris: &[String]) {
    let mut conns = lock(&sub.conns);
    conns.retain(|uri, c| {
        let keep = uris.contains(uri) && !c.stop.load(Ordering::SeqCst);
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

fn read_publisher(
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
    let mut buf = Vec::new();
    loop {
        match tcpros::read_frame(&mut r, &mut buf) {
            Ok(()) => {
                if let Err(e) = (sub.handler)(&buf, &who) {
                    inner.stats.bad_messages.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!("{}: skipped a message from {who}: {e}", sub.topic);
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

/// A publication; dropping it unadvertises the topic.
pub struct Publisher {
    node: Node,
    topic: Arc<PubTopic>,
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

/// A subscription; dropping it unsubscribes.
pub struct Subscriber {
    node: Node,
    topic: Arc<SubTopic>,
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
