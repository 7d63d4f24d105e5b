//! Actions on a ROS 1 node: an ActionServer's `<ns>/goal` and `<ns>/cancel`
//! subscriptions, its latched `<ns>/status` (republished at the configured rate),
//! `<ns>/result` and `<ns>/feedback` (rule A-1); and the mirror image for a client.

use crate::client::action_client::ActionClient;
use crate::server::action_server::{ActionServer, ServerConfig};
use crate::transport::{ClientSink, ServerSink};
use skipper_ros1_wire::msg::actionlib_msgs::{
    Action, ActionFeedback, ActionGoal, ActionResult, GoalId, GoalStatus, GoalStatusArray,
    StatusList, Wire, WireType,
};
use skipper_ros1_wire::msg::common::Header;
use skipper_ros1_wire::msg::{Field, Message};
use skipper_ros1_wire::node::{Node, Publisher, RosError, Subscriber};
use skipper_ros1_wire::time::{peer_secs, MAX_PEER_SECS};
use skipper_ros1_wire::topics::{advertise_queued_as, subscribe_queued_as, TypedPublisher};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The queue sizes of an action's publishers and subscribers, read from the parameter
/// server as ros/actionlib reads them (relative names, so in the node's namespace):
/// `actionlib_{server,client}_pub_queue_size` (defaults 50 and 10, as rospy's),
/// `actionlib_{server,client}_sub_queue_size` (default -1: unbounded); a negative value
/// is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionQueues {
    /// messages waiting for each subscriber of the side's topics
    pub publish: usize,
    /// of the messages read together, how many are handled (`None`: all)
    pub subscribe: Option<usize>,
}

impl ActionQueues {
    /// A server's queue sizes.
    pub fn server(node: &Node) -> Self {
        Self::read(node, "server", 50)
    }
    /// A client's queue sizes.
    pub fn client(node: &Node) -> Self {
        Self::read(node, "client", 10)
    }
    fn read(node: &Node, side: &str, publish: usize) -> Self {
        let int = |what: &str| {
            let key = format!("actionlib_{side}_{what}_queue_size");
            let key = node.resolve(&key).unwrap_or(key);
            node.get_param(&key)
                .and_then(|v| v.as_int())
                .and_then(|v| usize::try_from(v).ok())
        };
        Self {
            publish: int("pub").unwrap_or(publish).max(1),
            subscribe: int("sub").map(|q| q.max(1)),
        }
    }
}

/// How a server's ROS 1 binding paces its replies, as rospy's server's timing has them
/// (docs/actionlib.md, "Timing on the wire"): the Python SimpleActionClient stores a
/// goal's handle only after publishing it, and reads feedback and results on threads of
/// their own, so a reply that comes too soon is dropped by it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplyPacing {
    /// from a goal's arrival to the first message sent after it (private parameter
    /// `<ns>/goal_reply_delay`, s; default 200 µs)
    pub goal_reply_delay: Duration,
    /// from a feedback to a result sent right after it (`<ns>/feedback_result_gap`, s;
    /// default 100 µs)
    pub feedback_result_gap: Duration,
}

impl Default for ReplyPacing {
    fn default() -> Self {
        Self {
            goal_reply_delay: Duration::from_micros(200),
            feedback_result_gap: Duration::from_micros(100),
        }
    }
}

impl ReplyPacing {
    /// The most either may be (a parameter above it is clamped, with a warning).
    pub const MAX: Duration = Duration::from_millis(100);

    /// Read `<ns>/goal_reply_delay` and `<ns>/feedback_result_gap` (defaults otherwise).
    pub fn from_params(node: &Node, ns: &str) -> Self {
        let resolved = node.resolve(ns).unwrap_or_else(|_| ns.to_string());
        let d = Self::default();
        let get = |key: &str, default: Duration| {
            let what = format!("{resolved}/{key}");
            node.get_param(&what)
                .and_then(|v| v.as_f64())
                .map_or(default, |v| peer_secs(&what, v, Duration::ZERO, Self::MAX))
        };
        Self {
            goal_reply_delay: get("goal_reply_delay", d.goal_reply_delay),
            feedback_result_gap: get("feedback_result_gap", d.feedback_result_gap),
        }
    }
}

/// Sleep until `t` (at once if it has passed).
fn sleep_until(t: Instant) {
    let now = Instant::now();
    if t > now {
        std::thread::sleep(t - now);
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Where a binding hands what arrives for its server or client (a goal, a cancel, a
/// status list, a result, a feedback): `None` handles it at once on the connection's
/// reader thread; a dispatch queues it for a thread of the application's (a callback
/// queue, as roscpp's spinners run), so the state machine changes and its callbacks run
/// there, in the order the messages came.
pub type Dispatch = Option<Arc<dyn Fn(Box<dyn FnOnce() + Send>) + Send + Sync>>;

fn dispatch(d: &Dispatch, f: impl FnOnce() + Send + 'static) {
    match d {
        None => f(),
        Some(d) => d(Box::new(f)),
    }
}

struct ServerPubs<A: Action> {
    action: A,
    status: TypedPublisher<GoalStatusArray>,
    result: Publisher,
    feedback: Publisher,
    pacing: ReplyPacing,
    /// when the latest goal arrived, until the first message after it is sent
    goal_in: Mutex<Option<Instant>>,
    /// when the latest feedback was sent, until a result is
    feedback_out: Mutex<Option<Instant>>,
}

impl<A: Action> ServerPubs<A> {
    /// Wait out the goal reply delay if this is the first message since a goal came.
    fn pace_reply(&self) {
        let arrived = lock(&self.goal_in).take();
        if let Some(t) = arrived {
            sleep_until(t + self.pacing.goal_reply_delay);
        }
    }
}

impl<A: Action> ServerSink<A> for ServerPubs<A> {
    fn publish_status(&self, list: &StatusList<'_>) {
        self.pace_reply();
        self.status.raw().publish_with(|w| list.encode(w));
    }
    fn publish_result(&self, msg: ActionResult<A::Result>) {
        self.pace_reply();
        let fed = lock(&self.feedback_out).take();
        if let Some(t) = fed {
            sleep_until(t + self.pacing.feedback_result_gap);
        }
        self.result.publish_with(|w| {
            msg.header.put(w);
            msg.status.put(w);
            self.action.result_type().encode(&msg.result, w);
        });
    }
    fn publish_feedback(&self, msg: ActionFeedback<A::Feedback>) {
        self.pace_reply();
        self.feedback.publish_with(|w| {
            msg.header.put(w);
            msg.status.put(w);
            self.action.feedback_type().encode(&msg.feedback, w);
        });
        *lock(&self.feedback_out) = Some(Instant::now());
    }
}

/// Read the server settings from the parameter server: `actionlib_status_frequency`
/// searched upward from the node's namespace (else the deprecated private
/// `<ns>/status_frequency`), and `<ns>/status_list_timeout`; defaults otherwise.
pub fn server_config_from_params(node: &Node, ns: &str) -> ServerConfig {
    let resolved = node.resolve(ns).unwrap_or_else(|_| ns.to_string());
    let ns = resolved.as_str();
    let mut c = ServerConfig {
        node_name: node.name().to_string(),
        ..Default::default()
    };
    let freq = node
        .search_param("actionlib_status_frequency")
        .and_then(|k| node.get_param(&k))
        .and_then(|v| v.as_f64())
        .or_else(|| {
            let v = node
                .get_param(&format!("{ns}/status_frequency"))
                .and_then(|v| v.as_f64());
            if v.is_some() {
                tracing::warn!(
                    "{ns}/status_frequency is deprecated; use actionlib_status_frequency"
                );
            }
            v
        });
    if let Some(f) = freq {
        c.status_frequency = f;
    }
    if let Some(t) = node
        .get_param(&format!("{ns}/status_list_timeout"))
        .and_then(|v| v.as_f64())
    {
        let what = format!("{ns}/status_list_timeout");
        c.status_list_timeout = peer_secs(&what, t, Duration::ZERO, MAX_PEER_SECS);
    }
    c
}

/// An ActionServer on a node: while it lives, the server's topics are up and its status
/// is republished at `status_frequency`.
pub struct ActionServerBinding {
    _goal: Subscriber,
    _cancel: Subscriber,
    /// set (and notified) when the binding is dropped: the status timer ends
    stop: Arc<(Mutex<bool>, Condvar)>,
    timer: Option<JoinHandle<()>>,
}

impl ActionServerBinding {
    /// Put `server` on `node` under namespace `ns`. Call `server.start()` (or the
    /// SimpleActionServer's) afterwards.
    pub fn new<A: Action>(
        node: &Node,
        ns: &str,
        server: &ActionServer<A>,
    ) -> Result<Self, RosError> {
        Self::with_dispatch(node, ns, server, None)
    }

    /// [`ActionServerBinding::new`] with incoming goals and cancels handed to `d`.
    pub fn with_dispatch<A: Action>(
        node: &Node,
        ns: &str,
        server: &ActionServer<A>,
        d: Dispatch,
    ) -> Result<Self, RosError> {
        // a remap of the action's name moves its five topics
        let pacing = ReplyPacing::from_params(node, ns);
        let ns = &node.resolve(ns)?;
        let action = server.action().clone();
        let q = ActionQueues::server(node);
        let pubs = Arc::new(ServerPubs::<A> {
            status: TypedPublisher::advertise_queued(
                node,
                &format!("{ns}/status"),
                true,
                q.publish,
            )?,
            result: advertise_queued_as(
                node,
                &format!("{ns}/result"),
                action.wire_type(Wire::Result),
                false,
                q.publish,
            )?,
            feedback: advertise_queued_as(
                node,
                &format!("{ns}/feedback"),
                action.wire_type(Wire::Feedback),
                false,
                q.publish,
            )?,
            action: action.clone(),
            pacing,
            goal_in: Mutex::new(None),
            feedback_out: Mutex::new(None),
        });
        server.connect(pubs.clone());
        let s = server.clone();
        let a = action.clone();
        let goal = subscribe_queued_as(
            node,
            &format!("{ns}/goal"),
            action.wire_type(Wire::Goal),
            q.subscribe,
            move |r| {
                Ok(ActionGoal {
                    header: Header::get(r)?,
                    goal_id: GoalId::get(r)?,
                    goal: a.goal_type().decode_fields(r)?,
                })
            },
            {
                let d = d.clone();
                move |m, _| {
                    *lock(&pubs.goal_in) = Some(Instant::now());
                    let s = s.clone();
                    dispatch(&d, move || s.handle_goal(m))
                }
            },
        )?;
        let s = server.clone();
        let cancel = subscribe_queued_as(
            node,
            &format!("{ns}/cancel"),
            WireType::of::<GoalId>(),
            q.subscribe,
            GoalId::decode_fields,
            move |m, _| {
                let s = s.clone();
                dispatch(&d, move || s.handle_cancel(m))
            },
        )?;
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let freq = server.config().status_frequency;
        let timer = if freq.is_finite() && freq > 0.0 {
            // at most 1000 publications a second, at least one in MAX_PEER_SECS
            let (fastest, slowest) = (Duration::from_millis(1), MAX_PEER_SECS);
            let period = peer_secs(
                "the status period (1/status_frequency)",
                1.0 / freq,
                fastest,
                slowest,
            );
            let (s, stop2) = (server.clone(), stop.clone());
            std::thread::Builder::new()
                .name("actionlib-status".into())
                .spawn(move || {
                    // asleep until the next publication or until the binding is dropped
                    let (flag, wake) = &*stop2;
                    let mut next = std::time::Instant::now() + period;
                    let mut stopped = lock(flag);
                    while !*stopped {
                        let now = std::time::Instant::now();
                        if now >= next {
                            drop(stopped);
                            s.publish_status();
                            next += period;
                            if next < now {
                                next = now + period;
                            }
                            stopped = lock(flag);
                            continue;
                        }
                        stopped = match wake.wait_timeout(stopped, next - now) {
                            Ok((g, _)) => g,
                            Err(p) => p.into_inner().0,
                        };
                    }
                })
                .ok()
        } else {
            None
        };
        Ok(Self {
            _goal: goal,
            _cancel: cancel,
            stop,
            timer,
        })
    }
}

impl Drop for ActionServerBinding {
    fn drop(&mut self) {
        *lock(&self.stop.0) = true;
        self.stop.1.notify_all();
        if let Some(t) = self.timer.take() {
            let _ = t.join();
        }
    }
}

struct ClientPubs<A: Action> {
    action: A,
    goal: Publisher,
    cancel: TypedPublisher<GoalId>,
    subs: Mutex<Option<(Arc<Subscriber>, Arc<Subscriber>)>>,
}

impl<A: Action> ClientSink<A> for ClientPubs<A> {
    fn publish_goal(&self, msg: ActionGoal<A::Goal>) {
        self.goal.publish_with(|w| {
            msg.header.put(w);
            msg.goal_id.put(w);
            self.action.goal_type().encode(&msg.goal, w);
        });
    }
    fn publish_cancel(&self, msg: GoalId) {
        self.cancel.publish(&msg);
    }
    fn server_connected(&self, server: &str) -> bool {
        let has = |v: Vec<String>| v.iter().any(|s| s == server);
        let subs = match self.subs.lock() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        };
        let Some((result, feedback)) = subs else {
            return false;
        };
        has(self.goal.subscribers())
            && has(self.cancel.raw().subscribers())
            && has(result.publishers())
            && has(feedback.publishers())
    }
}

/// An ActionClient on a node, under namespace `ns`.
pub struct ActionClientBinding {
    _status: Subscriber,
    _result: Arc<Subscriber>,
    _feedback: Arc<Subscriber>,
}

impl ActionClientBinding {
    /// Put `client` on `node` under `ns`.
    pub fn new<A: Action>(
        node: &Node,
        ns: &str,
        client: &ActionClient<A>,
    ) -> Result<Self, RosError> {
        Self::with_dispatch(node, ns, client, None)
    }

    /// [`ActionClientBinding::new`] with incoming status lists, results and feedback
    /// handed to `d`.
    pub fn with_dispatch<A: Action>(
        node: &Node,
        ns: &str,
        client: &ActionClient<A>,
        d: Dispatch,
    ) -> Result<Self, RosError> {
        let ns = &node.resolve(ns)?;
        let action = client.action().clone();
        let q = ActionQueues::client(node);
        let pubs = Arc::new(ClientPubs::<A> {
            goal: advertise_queued_as(
                node,
                &format!("{ns}/goal"),
                action.wire_type(Wire::Goal),
                false,
                q.publish,
            )?,
            action: action.clone(),
            cancel: TypedPublisher::advertise_queued(
                node,
                &format!("{ns}/cancel"),
                false,
                q.publish,
            )?,
            subs: Mutex::new(None),
        });
        client.connect(pubs.clone());
        let (c, a) = (client.clone(), action.clone());
        let result = Arc::new(subscribe_queued_as(
            node,
            &format!("{ns}/result"),
            action.wire_type(Wire::Result),
            q.subscribe,
            move |r| {
                Ok(ActionResult {
                    header: Header::get(r)?,
                    status: GoalStatus::get(r)?,
                    result: a.result_type().decode_fields(r)?,
                })
            },
            {
                let d = d.clone();
                move |m, _| {
                    let c = c.clone();
                    dispatch(&d, move || c.handle_result(&m))
                }
            },
        )?);
        let (c, a) = (client.clone(), action.clone());
        let feedback = Arc::new(subscribe_queued_as(
            node,
            &format!("{ns}/feedback"),
            action.wire_type(Wire::Feedback),
            q.subscribe,
            move |r| {
                Ok(ActionFeedback {
                    header: Header::get(r)?,
                    status: GoalStatus::get(r)?,
                    feedback: a.feedback_type().decode_fields(r)?,
                })
            },
            {
                let d = d.clone();
                move |m, _| {
                    let c = c.clone();
                    dispatch(&d, move || c.handle_feedback(&m))
                }
            },
        )?);
        if let Ok(mut g) = pubs.subs.lock() {
            *g = Some((result.clone(), feedback.clone()));
        }
        let c = client.clone();
        let status = subscribe_queued_as(
            node,
            &format!("{ns}/status"),
            WireType::of::<GoalStatusArray>(),
            q.subscribe,
            GoalStatusArray::decode_fields,
            move |m, from| {
                if d.is_none() {
                    return c.handle_status(from, &m);
                }
                let (c, from) = (c.clone(), from.to_string());
                dispatch(&d, move || c.handle_status(&from, &m))
            },
        )?;
        Ok(Self {
            _status: status,
            _result: result,
            _feedback: feedback,
        })
    }
}
