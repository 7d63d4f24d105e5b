//! `/rosout`: the process's log lines (its `tracing` events) as `rosgraph_msgs/Log`, as
//! rospy and roscpp publish theirs, so `rqt_console`, `rosout.log` and `/rosout_agg` show
//! them.
//!
//! Two halves: [`layer`] is a `tracing_subscriber` layer the program installs once at
//! start, next to its stderr formatter, with its own filter ([`default_filter`]: INFO and
//! up, as rospy sends);
//! [`attach`] advertises `/rosout` on a [`Node`] and makes it the destination until the
//! returned [`RosoutGuard`] is dropped. Until a node is attached events cost one atomic
//! load. A logging thread never publishes: events go through a bounded queue
//! ([`QUEUE`] lines; more are counted in [`dropped`] and lost) to one publishing thread,
//! so a log line inside the transport cannot deadlock or recurse.
//!
//! ```no_run
//! # fn main() -> Result<(), skipper_ros1_wire::RosError> {
//! use skipper_ros1_wire::rosout;
//! use tracing_subscriber::prelude::*;
//! tracing_subscriber::registry()
//!     .with(tracing_subscriber::fmt::layer())
//!     .with(rosout::layer().with_filter(rosout::default_filter()))
//!     .init();
//! let node = skipper_ros1_wire::Node::new(skipper_ros1_wire::NodeConfig::from_env("/me"))?;
//! let _rosout = skipper_ros1_wire::rosout::attach(&node)?;
//! tracing::warn!("on /rosout now");
//! # Ok(()) }
//! ```

use super::{Node, RosError, TypedPublisher};
use crate::msg::common::Header;
use crate::msg::sensor::Log;
use crate::time::{Clock, SystemClock};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer};

/// How many log lines may wait for the publishing thread.
pub const QUEUE: usize = 256;

/// `rosgraph_msgs/Log` levels (the message's own constants).
pub const DEBUG: i8 = Log::DEBUG;
/// `rosgraph_msgs/Log` INFO.
pub const INFO: i8 = Log::INFO;
/// `rosgraph_msgs/Log` WARN.
pub const WARN: i8 = Log::WARN;
/// `rosgraph_msgs/Log` ERROR.
pub const ERROR: i8 = Log::ERROR;

static ATTACHED: AtomicBool = AtomicBool::new(false);
static DROPPED: AtomicU64 = AtomicU64::new(0);
static NEXT_ID: AtomicU64 = AtomicU64::new(0);
/// The attached destination: which [`attach`] made it, and its queue.
static SINK: Mutex<Option<(u64, SyncSender<Log>)>> = Mutex::new(None);

thread_local! {
    /// Set on the publishing thread: what the transport logs while publishing stays off.
    static PUBLISHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn sink() -> MutexGuard<'static, Option<(u64, SyncSender<Log>)>> {
    SINK.lock().unwrap_or_else(|p| p.into_inner())
}

/// The tracing layer that hands events to the attached node's `/rosout`.
#[derive(Debug, Default, Clone, Copy)]
pub struct RosoutLayer;

/// The layer to install at start (see the module's example).
pub fn layer() -> RosoutLayer {
    RosoutLayer
}

/// What `/rosout` takes by default, as rospy's nodes send: INFO and above, nothing of the
/// ROS 2 libraries (their own logs are not the node's). For the layer's
/// `with_filter`, independent of the stderr filter.
pub fn default_filter() -> tracing_subscriber::filter::Targets {
    use tracing_subscriber::filter::LevelFilter;
    tracing_subscriber::filter::Targets::new()
        .with_default(LevelFilter::INFO)
        .with_target("rustdds", LevelFilter::OFF)
        .with_target("ros2_client", LevelFilter::OFF)
}

/// Log lines lost because the queue was full.
pub fn dropped() -> u64 {
    DROPPED.load(Ordering::Relaxed)
}

/// `/rosout`'s level for a tracing level (TRACE goes out as DEBUG).
pub fn level(l: &Level) -> i8 {
    match *l {
        Level::ERROR => ERROR,
        Level::WARN => WARN,
        Level::INFO => INFO,
        _ => DEBUG,
    }
}

/// The message text: the `message` field, then the other fields as `name=value`.
#[derive(Default)]
struct Text {
    message: String,
    fields: String,
}

impl Visit for Text {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message.push_str(value);
        } else {
            let _ = write!(self.fields, " {}={value}", field.name());
        }
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            let _ = write!(self.fields, " {}={value:?}", field.name());
        }
    }
}

impl<S: Subscriber> Layer<S> for RosoutLayer {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        if !ATTACHED.load(Ordering::Relaxed) || PUBLISHING.with(|p| p.get()) {
            return;
        }
        let meta = event.metadata();
        let mut text = Text::default();
        event.record(&mut text);
        text.message.push_str(&text.fields);
        let log = Log {
            level: level(meta.level()),
            msg: text.message,
            file: meta.file().unwrap_or_default().to_string(),
            function: meta.module_path().unwrap_or(meta.target()).to_string(),
            line: meta.line().unwrap_or(0),
            ..Log::default()
        };
        if let Some((_, tx)) = sink().as_ref() {
            if let Err(TrySendError::Full(_)) = tx.try_send(log) {
                DROPPED.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// While alive, `/rosout` of its node carries the process's log lines.
pub struct RosoutGuard {
    id: u64,
    publisher: Arc<TypedPublisher<Log>>,
    thread: Option<JoinHandle<()>>,
}

impl RosoutGuard {
    /// The nodes connected to `/rosout` (roscore's `rosout` node, rqt_console, ...).
    pub fn subscribers(&self) -> Vec<String> {
        self.publisher.raw().subscribers()
    }
}

impl Drop for RosoutGuard {
    fn drop(&mut self) {
        {
            let mut sink = sink();
            if sink.as_ref().is_some_and(|(id, _)| *id == self.id) {
                ATTACHED.store(false, Ordering::SeqCst);
                sink.take();
            }
        }
        // the thread ends when its queue's sender is gone (here, or replaced by a later
        // attach) and what was queued is published
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Advertise `/rosout` (`rosgraph_msgs/Log`) on `node` and send the log lines there, named
/// by the node's name and stamped with the wall clock. A later `attach` replaces an
/// earlier one's destination.
pub fn attach(node: &Node) -> Result<RosoutGuard, RosError> {
    let publisher = Arc::new(TypedPublisher::<Log>::advertise(node, "/rosout", false)?);
    let p = publisher.clone();
    let name = node.name().to_string();
    let (tx, rx) = sync_channel(QUEUE);
    let thread = std::thread::Builder::new()
        .name("rosout".into())
        .spawn(move || publish_all(rx, &p, name))
        .map_err(|e| RosError::Listen("the /rosout thread".into(), e))?;
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    *sink() = Some((id, tx));
    ATTACHED.store(true, Ordering::SeqCst);
    Ok(RosoutGuard {
        id,
        publisher,
        thread: Some(thread),
    })
}

fn publish_all(rx: Receiver<Log>, publisher: &TypedPublisher<Log>, name: String) {
    PUBLISHING.with(|p| p.set(true));
    let clock = SystemClock;
    let mut seq = 0u32;
    while let Ok(mut log) = rx.recv() {
        seq = seq.wrapping_add(1);
        log.header = Header {
            seq,
            stamp: clock.now(),
            frame_id: String::new(),
        };
        log.name.clone_from(&name);
        publisher.publish(&log);
    }
}
