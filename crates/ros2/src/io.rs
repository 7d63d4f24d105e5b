//! The node's reading thread: one mio poll over every subscription and action service
//! the node reads, so requests are answered as they arrive (no polling interval), and a
//! waker the cycle pokes after each cycle so the action servers follow their goals
//! (feedback, results) at the cycle's rate.

use crate::action::{ActionType, GoalServer, ServerEvent};
use crate::cdr::{Bounded, Dropped};
use crate::error::Ros2Error;
use crate::node::Logger;
use ros2_client::dds::rustdds::mio1::{Events, Interest, Poll, Registry, Token, Waker};
use ros2_client::{Message, ReadError, Subscription};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// At most this many samples are taken from one reader per wake-up, so a flood on one
/// topic cannot starve the others.
const MAX_PER_WAKE: usize = 256;

/// Something the reading thread serves.
pub trait Handler: Send {
    /// How many poll tokens it needs.
    fn tokens(&self) -> usize;
    /// Register its sources under `tokens` (as many as [`Handler::tokens`]).
    fn register(&mut self, registry: &Registry, tokens: &[Token]) -> std::io::Result<()>;
    /// One of its sources is readable.
    fn ready(&mut self);
    /// After a cycle.
    fn tick(&mut self) {}
    /// The run ends.
    fn shutdown(&mut self) {}
}

/// A subscription whose messages go to a callback, bad ones counted and dropped.
pub struct Inbox<T: Message + Bounded + 'static> {
    sub: Subscription<T>,
    on_message: Box<dyn FnMut(T) + Send>,
    dropped: Arc<Dropped>,
    log: Option<Logger>,
    topic: String,
}

impl<T: Message + Bounded + 'static> Inbox<T> {
    /// Deliver `sub`'s messages on `topic` to `on_message`.
    pub fn new(
        topic: &str,
        sub: Subscription<T>,
        dropped: Arc<Dropped>,
        log: Option<Logger>,
        on_message: impl FnMut(T) + Send + 'static,
    ) -> Self {
        Self {
            sub,
            on_message: Box::new(on_message),
            dropped,
            log,
            topic: topic.to_string(),
        }
    }

    fn warn(&self, msg: String) {
        tracing::warn!("{msg}");
        if let Some(l) = &self.log {
            l.warn(&msg);
        }
    }
}

impl<T: Message + Bounded + Send + 'static> Handler for Inbox<T> {
    fn tokens(&self) -> usize {
        1
    }
    fn register(&mut self, registry: &Registry, tokens: &[Token]) -> std::io::Result<()> {
        registry.register(&mut self.sub, tokens[0], Interest::READABLE)
    }
    fn ready(&mut self) {
        for _ in 0..MAX_PER_WAKE {
            match self.sub.take() {
                Ok(Some((m, _))) => match m.check() {
                    Ok(()) => (self.on_message)(m),
                    Err(why) => {
                        self.dropped.out_of_bounds();
                        self.warn(format!("{}: message dropped: {why}", self.topic));
                    }
                },
                Ok(None) => break,
                Err(ReadError::Deserialization { reason }) => {
                    self.dropped.malformed();
                    self.warn(format!(
                        "{}: malformed message dropped: {reason}",
                        self.topic
                    ));
                }
                Err(e) => {
                    self.warn(format!("{}: {e}", self.topic));
                    break;
                }
            }
        }
    }
}

/// A [`GoalServer`] as a handler: its events go to `/rosout`, its bad requests are
/// counted.
pub struct ServerHandler<A: ActionType> {
    server: GoalServer<A>,
    dropped: Arc<Dropped>,
    log: Option<Logger>,
}

impl<A: ActionType> ServerHandler<A> {
    /// Serve `server`.
    pub fn new(server: GoalServer<A>, dropped: Arc<Dropped>, log: Option<Logger>) -> Self {
        Self {
            server,
            dropped,
            log,
        }
    }
    fn report(&mut self) {
        for e in self.server.take_events() {
            let msg = match e {
                ServerEvent::Malformed(m) => {
                    self.dropped.malformed();
                    format!("malformed request dropped: {m}")
                }
                ServerEvent::Rejected(m) => {
                    self.dropped.out_of_bounds();
                    m
                }
                ServerEvent::Aborted(m) | ServerEvent::Unanswered(m) => m,
            };
            if let Some(l) = &self.log {
                l.warn(&msg);
            }
        }
    }
}

impl<A: ActionType> Handler for ServerHandler<A> {
    fn tokens(&self) -> usize {
        3
    }
    fn register(&mut self, registry: &Registry, tokens: &[Token]) -> std::io::Result<()> {
        self.server
            .register(registry, [tokens[0], tokens[1], tokens[2]])
    }
    fn ready(&mut self) {
        self.server.serve();
        self.report();
    }
    fn tick(&mut self) {
        if self.server.is_busy() {
            self.server.tick();
            self.report();
        }
    }
    fn shutdown(&mut self) {
        self.server.shutdown();
        self.report();
    }
}

const WAKE: Token = Token(0);

/// The reading thread.
pub struct IoLoop {
    waker: Arc<Waker>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl IoLoop {
    /// Start serving `handlers` on a thread of their own.
    pub fn start(mut handlers: Vec<Box<dyn Handler>>) -> Result<Self, Ros2Error> {
        let mut poll = Poll::new()?;
        let waker = Arc::new(Waker::new(poll.registry(), WAKE)?);
        let mut owner = Vec::new();
        for (i, h) in handlers.iter_mut().enumerate() {
            let first = owner.len() + 1;
            let tokens: Vec<Token> = (first..first + h.tokens()).map(Token).collect();
            h.register(poll.registry(), &tokens)?;
            owner.extend(std::iter::repeat_n(i, tokens.len()));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = stop.clone();
        let thread = std::thread::Builder::new()
            .name("ros2-io".into())
            .spawn(move || run(&mut poll, &mut handlers, &owner, &stop2))?;
        Ok(Self {
            waker,
            stop,
            thread: Some(thread),
        })
    }

    /// A cycle ended: let the action servers follow their goals.
    pub fn notify(&self) {
        let _ = self.waker.wake();
    }

    /// A handle to [`IoLoop::notify`] from elsewhere.
    pub fn notifier(&self) -> Notifier {
        Notifier(self.waker.clone())
    }

    /// End the thread: active goals are aborted.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.waker.wake();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for IoLoop {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Pokes the reading thread after a cycle.
#[derive(Clone)]
pub struct Notifier(Arc<Waker>);

impl Notifier {
    /// A cycle ended.
    pub fn notify(&self) {
        let _ = self.0.wake();
    }
}

fn run(poll: &mut Poll, handlers: &mut [Box<dyn Handler>], owner: &[usize], stop: &AtomicBool) {
    let mut events = Events::with_capacity(256);
    let mut ready = vec![false; handlers.len()];
    // a slow safety net: readers are edge-triggered, so every handler is also served
    // now and then in case an edge was missed
    let sweep = Duration::from_millis(500);
    loop {
        let timed_out = match poll.poll(&mut events, Some(sweep)) {
            Ok(()) => events.is_empty(),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let mut woken = timed_out;
        for ev in events.iter() {
            match ev.token() {
                WAKE => woken = true,
                Token(t) => {
                    if let Some(&h) = owner.get(t.wrapping_sub(1)) {
                        ready[h] = true;
                    }
                }
            }
        }
        for (i, h) in handlers.iter_mut().enumerate() {
            if std::mem::take(&mut ready[i]) || timed_out {
                h.ready();
            }
            if woken {
                h.tick();
            }
        }
    }
    for h in handlers.iter_mut() {
        h.shutdown();
    }
}
