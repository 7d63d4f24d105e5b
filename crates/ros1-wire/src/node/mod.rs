//! A ROS 1 node: it registers with the master over XML-RPC, serves the slave API
//! (`requestTopic`, `publisherUpdate`, `getBusInfo`, `getPid`, ... — what `rostopic` and
//! `rosnode` use), publishes and subscribes over TCPROS, and offers services.
//!
//! Threads: one accepting XML-RPC calls, one accepting TCPROS subscribers, one writer per
//! subscriber connection, one reader per publisher we subscribe to. A publisher writes a
//! message to a subscriber itself when nothing is queued for it and the socket takes it
//! without blocking (one system call, no thread woken); otherwise the message waits in
//! the connection's bounded queue for its writer thread, so a slow subscriber never
//! blocks a publisher (beyond the queue, messages are dropped and counted). Every socket
//! has TCP_NODELAY. One more thread watches the master and registers everything again
//! when it was restarted ([`watch`]).
//! A bad peer (malformed header, wrong md5sum, oversized or truncated message, garbage
//! XML-RPC) gets an error, its connection is closed, it is counted in [`NodeStats`], and
//! the node keeps serving the others.

mod publish;
pub(crate) mod service;
mod slave;
mod subscribe;
pub mod watch;

pub use publish::{Publisher, TRIM_AFTER};
pub use subscribe::Subscriber;

use super::names::{Names, ParamValue, RosArgs};
use super::xmlrpc::{self, Value};
use publish::{close_pub, tcpros_loop, PubTopic};
use slave::xmlrpc_loop;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::thread::JoinHandle;
use std::time::Duration;
use subscribe::{add_publishers, close_sub, uri_list, SubTopic};

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
    /// Nothing answers at the master's URI.
    #[error("no ROS master at {uri} ({why}): start roscore, or give the master's URI in ROS_MASTER_URI or __master:=")]
    NoMaster {
        /// master URI
        uri: String,
        /// why it cannot be reached (the system's words)
        why: String,
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
    /// The namespace relative names resolve in (`ROS_NAMESPACE`, `__ns:=`; `/` when
    /// empty).
    pub namespace: String,
    /// Remappings `from:=to` (resolved in the namespace when the node starts).
    pub remaps: Vec<(String, String)>,
    /// Private parameters `_name:=value`, set on the parameter server as `~name`.
    pub private_params: Vec<(String, ParamValue)>,
}

/// The default master URI.
pub const DEFAULT_MASTER: &str = "http://127.0.0.1:11311/";

impl NodeConfig {
    /// A node named `name` (its default name: `__name:=` renames it), set up as roscpp
    /// and rospy set a node up: master from `ROS_MASTER_URI` (default 127.0.0.1:11311),
    /// namespace from `ROS_NAMESPACE`, the host in its URIs from `ROS_HOSTNAME` /
    /// `ROS_IP`, then the ROS arguments of the process's command line (`__name`,
    /// `__ns`, `__master`, `__ip`, `__hostname`, remaps, `_param:=value`, see
    /// [`super::names`]) over them. It listens on 127.0.0.1. Bad ROS arguments are an
    /// error of [`Node::new`].
    pub fn from_env(name: &str) -> Self {
        let mut c = Self::from_env_only(name);
        if let Some(a) = super::names::process_args() {
            c.apply(a);
        }
        c
    }

    /// Apply ROS arguments (`__name:=`, remaps, ...) over this configuration.
    pub fn apply(&mut self, a: &RosArgs) {
        if let Some(n) = &a.name {
            self.name = match self.name.rsplit_once('/') {
                Some((parent, _)) if !parent.is_empty() => format!("{parent}/{n}"),
                Some(_) => format!("/{n}"),
                None => n.clone(),
            };
        }
        if let Some(ns) = &a.namespace {
            self.namespace = ns.clone();
        }
        if let Some(m) = &a.master {
            self.master_uri = m.clone();
        }
        if let Some(h) = &a.host {
            self.advertise_host = h.clone();
        }
        self.remaps.extend(a.remaps.iter().cloned());
        self.private_params.extend(a.params.iter().cloned());
    }

    /// [`NodeConfig::from_env`] without the command line's ROS arguments.
    pub fn from_env_only(name: &str) -> Self {
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
            namespace: std::env::var("ROS_NAMESPACE").unwrap_or_default(),
            remaps: Vec::new(),
            private_params: Vec::new(),
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
    /// messages a subscription of this node dropped unhandled: the oldest of those that
    /// arrived together beyond its `queue_size` ([`Node::subscribe_queued`])
    pub dropped_in: AtomicU64,
    /// times the heap was handed back to the system after queued frames drained
    /// (glibc's `malloc_trim`, once at least [`TRIM_AFTER`] bytes had drained)
    pub trims: AtomicU64,
    /// times this node registered everything again with a restarted master
    pub reregistrations: AtomicU64,
}

/// What [`Node::on_shutdown`] calls.
pub type ShutdownCallback = Box<dyn FnOnce(String) + Send>;

/// The slave API's `shutdown` and who waits for it: the callback, or (when the request
/// came first) who asked and why, for the callback registered later.
#[derive(Default)]
struct ShutdownHook {
    callback: Option<ShutdownCallback>,
    why: Option<String>,
}

/// A handler for received message bodies: (bytes, publisher's caller id).
pub type Handler = Arc<dyn Fn(&[u8], &str) -> Result<(), String> + Send + Sync>;

struct Inner {
    name: String,
    names: Names,
    master_uri: String,
    host: String,
    xmlrpc_uri: String,
    xmlrpc_addr: SocketAddr,
    tcpros_addr: SocketAddr,
    tcpros_port: u16,
    queue_size: usize,
    pubs: Mutex<HashMap<String, Arc<PubTopic>>>,
    subs: Mutex<HashMap<String, Arc<SubTopic>>>,
    services: Mutex<HashMap<String, Arc<service::SrvEntry>>>,
    stop: AtomicBool,
    shutdown_requested: AtomicBool,
    /// called once when the slave API's `shutdown` comes (`rosnode kill`, a node that
    /// took this name)
    on_shutdown: Mutex<ShutdownHook>,
    next_conn: AtomicU64,
    /// bytes of queued frames written or dropped since the heap was last trimmed
    drained: AtomicUsize,
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

/// Check a resolved graph resource name: global and clean (`/a/b`: letters, digits, `_`
/// and `/`, see [`super::names::is_resolved`]).
pub fn check_name(name: &str) -> Result<(), RosError> {
    if super::names::is_resolved(name) && name != "/" {
        Ok(())
    } else {
        Err(RosError::BadName(format!(
            "`{name}` is not a ROS name (expected a global name such as /a/b: letters, digits, _ and /)"
        )))
    }
}

impl Node {
    /// Start a node: open its XML-RPC and TCPROS servers and check that the master answers.
    pub fn new(config: NodeConfig) -> Result<Self, RosError> {
        if let Some(e) = super::names::process_args_error() {
            return Err(RosError::BadName(e.to_string()));
        }
        let names = Names::new(&config.name, &config.namespace, &config.remaps)
            .map_err(|e| RosError::BadName(e.to_string()))?;
        check_name(names.node())?;
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
            name: names.node().to_string(),
            names,
            master_uri: config.master_uri.clone(),
            host: config.advertise_host.clone(),
            xmlrpc_uri: format!("http://{}:{}/", config.advertise_host, xmlrpc_addr.port()),
            xmlrpc_addr,
            tcpros_addr,
            tcpros_port: tcpros_addr.port(),
            queue_size: config.queue_size.max(1),
            pubs: Mutex::new(HashMap::new()),
            subs: Mutex::new(HashMap::new()),
            services: Mutex::new(HashMap::new()),
            stop: AtomicBool::new(false),
            shutdown_requested: AtomicBool::new(false),
            on_shutdown: Mutex::new(ShutdownHook::default()),
            next_conn: AtomicU64::new(1),
            drained: AtomicUsize::new(0),
            stats: NodeStats::default(),
            threads: Mutex::new(Vec::new()),
        });
        // the master must answer before anything else
        inner.master("getUri", vec![])?;
        for (k, v) in &config.private_params {
            let key = inner
                .names
                .resolve(&format!("~{k}"))
                .map_err(|e| RosError::BadName(e.to_string()))?;
            inner.master("setParam", vec![key.into(), v.clone().into()])?;
        }
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
        let i4 = inner.clone();
        let t3 = std::thread::Builder::new()
            .name("ros1-master-watch".into())
            .spawn(move || watch::watch_master(i4))
            .map_err(|e| RosError::Listen("thread".into(), e))?;
        lock(&inner.threads).extend([t1, t2, t3]);
        Ok(Node {
            _guard: Arc::new(ShutdownGuard(inner.clone())),
            inner,
        })
    }

    /// The node name.
    pub fn name(&self) -> &str {
        &self.inner.name
    }
    /// Resolve a graph name (global, `~private` or relative to the node's namespace) and
    /// apply the remappings.
    pub fn resolve(&self, name: &str) -> Result<String, RosError> {
        self.inner
            .names
            .resolve(name)
            .map_err(|e| RosError::BadName(e.to_string()))
    }
    /// How the node resolves names (its node handles' too).
    pub fn names(&self) -> &Names {
        &self.inner.names
    }

    /// The node's namespace.
    pub fn namespace(&self) -> &str {
        self.inner.names.namespace()
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
    /// Call `f` (once, on a thread of its own, with who asked and why) when the slave
    /// API's `shutdown` comes: `rosnode kill`, or the master when another node registers
    /// this node's name. rospy and roscpp end the process then; the owner of the node
    /// decides how (the node itself keeps serving until [`Node::shutdown`]). If the
    /// request already came, `f` runs at once.
    pub fn on_shutdown(&self, f: impl FnOnce(String) + Send + 'static) {
        let mut g = lock(&self.inner.on_shutdown);
        if self.shutdown_requested() {
            let why = g.why.clone();
            drop(g);
            f(why.unwrap_or_else(|| format!("node {} was asked to shut down", self.inner.name)));
        } else {
            g.callback = Some(Box::new(f));
        }
    }

    /// Advertise a topic (its name resolved: relative to the namespace, remapped) and
    /// register it with the master. Advertising a topic this node already publishes
    /// (with the same type) shares that publication: each handle publishes to every
    /// subscriber, and the topic is unadvertised with the last one. Each subscriber's
    /// queue holds the node's [`NodeConfig::queue_size`] messages.
    pub fn advertise(
        &self,
        topic: &str,
        ty: &str,
        md5: &str,
        definition: &str,
        latched: bool,
    ) -> Result<Publisher, RosError> {
        let q = self.inner.queue_size;
        self.advertise_queued(topic, ty, md5, definition, latched, q)
    }

    /// [`Node::advertise`] with the publisher's `queue_size` (rospy's and roscpp's
    /// argument): at most that many messages wait for each subscriber (at least 1; a
    /// shared publication keeps the largest asked for); more are dropped and counted.
    pub fn advertise_queued(
        &self,
        topic: &str,
        ty: &str,
        md5: &str,
        definition: &str,
        latched: bool,
        queue_size: usize,
    ) -> Result<Publisher, RosError> {
        let queue_size = queue_size.max(1);
        let topic = self.resolve(topic)?;
        let topic = topic.as_str();
        check_name(topic)?;
        {
            let pubs = lock(&self.inner.pubs);
            if let Some(t) = pubs.get(topic) {
                if t.md5 != md5 {
                    return Err(RosError::BadName(format!(
                        "{topic} is already published by this node as {}, not {ty}",
                        t.ty
                    )));
                }
                t.users.fetch_add(1, Ordering::SeqCst);
                t.queue_size.fetch_max(queue_size, Ordering::SeqCst);
                return Ok(Publisher {
                    node: self.clone(),
                    topic: t.clone(),
                });
            }
        }
        let t = Arc::new(PubTopic {
            topic: topic.to_string(),
            ty: ty.to_string(),
            md5: md5.to_string(),
            definition: definition.to_string(),
            latched,
            last: Mutex::new(None),
            spare: Mutex::new(None),
            conns: Mutex::new(Vec::new()),
            users: AtomicUsize::new(1),
            queue_size: AtomicUsize::new(queue_size),
        });
        lock(&self.inner.pubs).insert(topic.to_string(), t.clone());
        let publisher = Publisher {
            node: self.clone(),
            topic: t,
        };
        self.inner.master(
            "registerPublisher",
            vec![
                topic.into(),
                ty.into(),
                self.inner.xmlrpc_uri.clone().into(),
            ],
        )?;
        Ok(publisher)
    }

    /// Subscribe to a topic (its name resolved: relative to the namespace, remapped):
    /// `handler` gets each message body and its publisher's caller id. Subscribing again
    /// to a topic this node subscribes to (with the same type) adds a handler to that
    /// subscription; it is unsubscribed with the last handle.
    pub fn subscribe(
        &self,
        topic: &str,
        ty: &str,
        md5: &str,
        definition: &str,
        handler: Handler,
    ) -> Result<Subscriber, RosError> {
        self.subscribe_queued(topic, ty, md5, definition, handler, None)
    }

    /// [`Node::subscribe`] with the subscriber's `queue_size` (rospy's argument; `None`:
    /// unbounded): of the messages that arrived together (in one read of the
    /// connection), only the newest `queue_size` are handled, the older ones are dropped
    /// and counted (`NodeStats::dropped_in`). A shared subscription keeps the largest.
    pub fn subscribe_queued(
        &self,
        topic: &str,
        ty: &str,
        md5: &str,
        definition: &str,
        handler: Handler,
        queue_size: Option<usize>,
    ) -> Result<Subscriber, RosError> {
        let queue = queue_size.map_or(usize::MAX, |q| q.max(1));
        let topic = self.resolve(topic)?;
        let topic = topic.as_str();
        check_name(topic)?;
        let id = self.inner.next_conn.fetch_add(1, Ordering::Relaxed);
        {
            let subs = lock(&self.inner.subs);
            if let Some(t) = subs.get(topic) {
                if t.md5 != md5 {
                    return Err(RosError::BadName(format!(
                        "{topic} is already subscribed to by this node as {}, not {ty}",
                        t.ty
                    )));
                }
                t.add_handler(id, handler);
                t.queue_size.fetch_max(queue, Ordering::SeqCst);
                return Ok(Subscriber {
                    node: self.clone(),
                    topic: t.clone(),
                    id,
                });
            }
        }
        let t = Arc::new(SubTopic {
            topic: topic.to_string(),
            ty: ty.to_string(),
            md5: md5.to_string(),
            definition: definition.to_string(),
            handlers: RwLock::new(Arc::from(vec![(id, handler)])),
            conns: Mutex::new(HashMap::new()),
            queue_size: AtomicUsize::new(queue),
        });
        lock(&self.inner.subs).insert(topic.to_string(), t.clone());
        let sub = Subscriber {
            node: self.clone(),
            topic: t.clone(),
            id,
        };
        let v = self.inner.master(
            "registerSubscriber",
            vec![
                topic.into(),
                ty.into(),
                self.inner.xmlrpc_uri.clone().into(),
            ],
        )?;
        add_publishers(&self.inner, &t, &uri_list(&v));
        Ok(sub)
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

    /// Set a parameter on the parameter server.
    pub fn set_param(&self, key: &str, value: Value) -> Result<(), RosError> {
        self.inner
            .master("setParam", vec![key.into(), value])
            .map(|_| ())
    }

    /// Whether the parameter server has `key`.
    pub fn has_param(&self, key: &str) -> bool {
        self.inner
            .master("hasParam", vec![key.into()])
            .is_ok_and(|v| v == Value::Bool(true))
    }

    /// Delete a parameter; whether the parameter server had it.
    pub fn delete_param(&self, key: &str) -> bool {
        self.inner.master("deleteParam", vec![key.into()]).is_ok()
    }

    /// Call the master's API: `method(caller_id, params...)`; the reply's value.
    pub fn call_master(&self, method: &str, params: Vec<Value>) -> Result<Value, RosError> {
        self.inner.master(method, params)
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
        let v =
            xmlrpc::call(&self.master_uri, method, &params, RPC_TIMEOUT).map_err(|e| match e {
                xmlrpc::XmlRpcError::Connect { why, .. } => RosError::NoMaster {
                    uri: self.master_uri.clone(),
                    why,
                },
                e => err(format!("{method}: {e}")),
            })?;
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
        let services: Vec<_> = lock(&self.services).drain().map(|x| x.0).collect();
        for name in services {
            self.unregister_service(&name);
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
}
