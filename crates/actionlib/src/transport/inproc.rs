//! The in-process transport: action servers and clients in one process exchange the same
//! messages they would over ROS, through a queue. [`InProcBus::pump`] delivers what is
//! queued on the calling thread (deterministic: tests drive it step by step);
//! [`InProcBus::spawn`] delivers on a thread of its own. The status is latched: a client
//! that attaches late gets the last status list at once.

use crate::client::action_client::ActionClient;
use crate::server::action_server::ActionServer;
use crate::sync::Signal;
use crate::transport::{ClientSink, ServerSink};
use skipper_ros1_wire::msg::actionlib_msgs::{
    Action, ActionFeedback, ActionGoal, ActionResult, GoalId, GoalStatusArray, StatusList,
};
use skipper_ros1_wire::msg::Message;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// How many delivered status lists are kept for reuse.
const MAX_SPARE: usize = 8;

enum Envelope<A: Action> {
    Goal(ActionGoal<A::Goal>),
    Cancel(GoalId),
    Status(Arc<str>, GoalStatusArray),
    Result(ActionResult<A::Result>),
    Feedback(ActionFeedback<A::Feedback>),
}

/// A server and its caller id.
type NamedServer<A> = (Arc<str>, ActionServer<A>);

struct Bus<A: Action> {
    queue: Mutex<VecDeque<Envelope<A>>>,
    ready: Signal,
    /// snapshots, replaced when one attaches (a delivery clones the Arc, not the list)
    servers: Mutex<Arc<Vec<NamedServer<A>>>>,
    clients: Mutex<Arc<Vec<ActionClient<A>>>>,
    /// the last status list, serialised (decoded only for a client that attaches)
    latched: Mutex<Option<(Arc<str>, Vec<u8>)>>,
    /// status lists delivered, kept for the next ones (their buffers are reused)
    spare: Mutex<Vec<GoalStatusArray>>,
    stop: AtomicBool,
}

/// A message bus for one action between servers and clients of this process.
pub struct InProcBus<A: Action> {
    bus: Arc<Bus<A>>,
}

impl<A: Action> Clone for InProcBus<A> {
    fn clone(&self) -> Self {
        Self {
            bus: self.bus.clone(),
        }
    }
}

impl<A: Action> Default for InProcBus<A> {
    fn default() -> Self {
        Self::new()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

struct ServerPort<A: Action> {
    bus: Arc<Bus<A>>,
    name: Arc<str>,
}

impl<A: Action> Bus<A> {
    fn push(&self, e: Envelope<A>) {
        lock(&self.queue).push_back(e);
        self.ready.notify_all();
    }
}

impl<A: Action> ServerSink<A> for ServerPort<A> {
    fn publish_status(&self, list: &StatusList<'_>) {
        let mut copy = lock(&self.bus.spare).pop().unwrap_or_default();
        if let Err(e) = list.decode_into(&mut copy) {
            // the server encoded the list itself; this would be a bug in the encoder
            tracing::error!("{}: status list did not decode: {e}", self.name);
            return;
        }
        {
            let mut l = lock(&self.bus.latched);
            let (name, body) = l.get_or_insert_with(|| (self.name.clone(), Vec::new()));
            if *name != self.name {
                *name = self.name.clone();
            }
            body.clear();
            list.encode(body);
        }
        self.bus.push(Envelope::Status(self.name.clone(), copy));
    }
    fn publish_result(&self, msg: ActionResult<A::Result>) {
        self.bus.push(Envelope::Result(msg));
    }
    fn publish_feedback(&self, msg: ActionFeedback<A::Feedback>) {
        self.bus.push(Envelope::Feedback(msg));
    }
}

struct ClientPort<A: Action> {
    bus: Arc<Bus<A>>,
}

impl<A: Action> ClientSink<A> for ClientPort<A> {
    fn publish_goal(&self, msg: ActionGoal<A::Goal>) {
        self.bus.push(Envelope::Goal(msg));
    }
    fn publish_cancel(&self, msg: GoalId) {
        self.bus.push(Envelope::Cancel(msg));
    }
    fn server_connected(&self, server: &str) -> bool {
        lock(&self.bus.servers).iter().any(|(n, _)| &**n == server)
    }
}

impl<A: Action> InProcBus<A> {
    /// An empty bus.
    pub fn new() -> Self {
        Self {
            bus: Arc::new(Bus {
                queue: Mutex::new(VecDeque::new()),
                ready: Signal::default(),
                servers: Mutex::new(Arc::new(Vec::new())),
                clients: Mutex::new(Arc::new(Vec::new())),
                latched: Mutex::new(None),
                spare: Mutex::new(Vec::new()),
                stop: AtomicBool::new(false),
            }),
        }
    }

    /// Connect a server (its caller id is its node name).
    pub fn attach_server(&self, server: &ActionServer<A>) {
        let name: Arc<str> = server.config().node_name.as_str().into();
        {
            let mut g = lock(&self.bus.servers);
            let mut v = Vec::clone(&g);
            v.push((name.clone(), server.clone()));
            *g = Arc::new(v);
        }
        server.connect(Arc::new(ServerPort {
            bus: self.bus.clone(),
            name,
        }));
    }

    /// Connect a client; it gets the latched status list with the next delivery.
    pub fn attach_client(&self, client: &ActionClient<A>) {
        {
            let mut g = lock(&self.bus.clients);
            let mut v = Vec::clone(&g);
            v.push(client.clone());
            *g = Arc::new(v);
        }
        client.connect(Arc::new(ClientPort {
            bus: self.bus.clone(),
        }));
        let latched = lock(&self.bus.latched).clone();
        if let Some((name, body)) = latched {
            match GoalStatusArray::decode(&body) {
                Ok(msg) => self.bus.push(Envelope::Status(name, msg)),
                Err(e) => tracing::error!("{name}: latched status list did not decode: {e}"),
            }
        }
    }

    /// Deliver everything queued (including what deliveries queue in turn); returns how
    /// many messages were delivered.
    pub fn pump(&self) -> usize {
        let mut n = 0;
        loop {
            let Some(e) = lock(&self.bus.queue).pop_front() else {
                return n;
            };
            self.deliver(e);
            n += 1;
        }
    }

    /// Deliver at most one message; `false` if the queue was empty.
    pub fn pump_one(&self) -> bool {
        match lock(&self.bus.queue).pop_front() {
            Some(e) => {
                self.deliver(e);
                true
            }
            None => false,
        }
    }

    fn deliver(&self, e: Envelope<A>) {
        match e {
            Envelope::Goal(g) => {
                let servers = lock(&self.bus.servers).clone();
                if let Some(((_, last), rest)) = servers.split_last() {
                    for (_, s) in rest {
                        s.handle_goal(g.clone());
                    }
                    last.handle_goal(g);
                }
            }
            Envelope::Cancel(c) => {
                let servers = lock(&self.bus.servers).clone();
                if let Some(((_, last), rest)) = servers.split_last() {
                    for (_, s) in rest {
                        s.handle_cancel(c.clone());
                    }
                    last.handle_cancel(c);
                }
            }
            Envelope::Status(from, msg) => {
                let clients = lock(&self.bus.clients).clone();
                for c in clients.iter() {
                    c.handle_status(&from, &msg);
                }
                let mut spare = lock(&self.bus.spare);
                if spare.len() < MAX_SPARE {
                    spare.push(msg);
                }
            }
            Envelope::Result(r) => {
                let clients = lock(&self.bus.clients).clone();
                for c in clients.iter() {
                    c.handle_result(&r);
                }
            }
            Envelope::Feedback(f) => {
                let clients = lock(&self.bus.clients).clone();
                for c in clients.iter() {
                    c.handle_feedback(&f);
                }
            }
        }
    }

    /// Deliver on a thread of its own until the returned guard is dropped.
    pub fn spawn(&self) -> PumpThread {
        let me = self.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = stop.clone();
        let bus = self.bus.clone();
        let thread = std::thread::Builder::new()
            .name("actionlib-inproc".into())
            .spawn(move || {
                while !stop2.load(Ordering::SeqCst) && !me.bus.stop.load(Ordering::SeqCst) {
                    if me.pump() == 0 {
                        let q = lock(&me.bus.queue);
                        if q.is_empty() {
                            drop(me.bus.ready.wait_timeout(q, Duration::from_millis(50)));
                        }
                    }
                }
            })
            .ok();
        PumpThread {
            stop,
            thread,
            wake: Box::new(move || bus.ready.notify_all()),
        }
    }
}

/// The delivery thread of [`InProcBus::spawn`]; stops when dropped.
pub struct PumpThread {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    wake: Box<dyn Fn() + Send>,
}

impl Drop for PumpThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        (self.wake)();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
