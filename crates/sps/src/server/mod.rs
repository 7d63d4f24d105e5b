//! The SPS link served over TCP (`skipper link serve`): external agents connect, each
//! takes a robot of the world, and drives it through a [`crate::LinkController`]
//! whose [`Port`] is a [`ServerPort`].
//!
//! - [`Hub`]: what the connections and the run share: which agent holds which robot,
//!   the steps waiting for each robot's controller, and where its `input` lines go;
//! - [`ServerPort`]: one robot's end, read by its controller once per cycle;
//! - [`Gate`]: in lock-step mode, holds the simulated clock while no agent is there;
//! - `conn`: the listener and one reader and one writer thread per connection.
//!
//! Lock-step (simulated time, the default): each cycle a robot's controller waits for its
//! agent's next step (as the bridge sends one per decision cycle and waits for the
//! reply), up to the silence timeout; then the robot is e-stopped and the agent is not
//! waited for again until it sends something. Real time (`--realtime`): each cycle takes
//! what has arrived; no step for the silence timeout stops the robot. Either way an
//! agent that disconnects, halts or sends garbage leaves its robot e-stopped, and the
//! other agents and the run go on.

pub mod conn;

use crate::{LinkError, Port, PostOffice, Received, Step};
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunControl};
use std::collections::VecDeque;
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Steps an agent may have waiting before it is refused for flooding.
pub const MAX_QUEUED_STEPS: usize = 64;

/// How the hub runs.
#[derive(Debug, Clone)]
pub struct HubConfig {
    /// wait for each agent's step every cycle (simulated time)
    pub lockstep: bool,
    /// an agent silent this long has its robot stopped
    pub silence: Duration,
    /// agents that must have connected before the run may finish
    pub agents: usize,
    /// the cycle period (told to agents in `welcome`)
    pub period: Duration,
}

/// What a reader thread hands to a robot's controller.
#[derive(Debug)]
enum Incoming {
    Connected,
    Step(Box<Step>),
    Halted,
    /// the agent's connection ended, and why
    Gone(String),
}

/// How a robot's last agent ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    Halted,
    Gone,
}

/// Where a connection's lines go: its writer thread, with buffers handed back for reuse.
pub(crate) struct Outbox {
    pub(crate) lines: SyncSender<Vec<u8>>,
    pub(crate) spare: Receiver<Vec<u8>>,
    pub(crate) stream: TcpStream,
}

impl Outbox {
    /// Queue one line (a newline is added); `false` if the connection cannot take it
    /// (closed, or so far behind that its queue is full).
    pub(crate) fn send(&self, line: &[u8]) -> bool {
        let mut buf = self.spare.try_recv().unwrap_or_default();
        buf.clear();
        buf.extend_from_slice(line);
        buf.push(b'\n');
        match self.lines.try_send(buf) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => false,
        }
    }

    /// Close the connection (its reader sees the end and reports the agent gone).
    pub(crate) fn kick(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

struct Robot {
    name: String,
    /// which agent it is on (one more for each that takes it)
    generation: u64,
    /// the connection holding it
    holder: Option<u64>,
    /// its agent halted (it still holds the robot until it disconnects)
    halted: bool,
    queue: VecDeque<Incoming>,
    out: Option<Outbox>,
    last_heard: Instant,
    silent: bool,
    ending: Option<Ending>,
    /// why the last agent's connection ended, once the controller heard of it
    last_cause: Option<String>,
}

#[derive(Default)]
struct State {
    robots: Vec<Robot>,
    connected: usize,
    done: bool,
    closing: bool,
}

impl State {
    fn live(&self) -> usize {
        self.robots
            .iter()
            .filter(|r| r.holder.is_some() && !r.halted)
            .count()
    }

    /// Agents that are there, not halted and not silent: the ones the clock runs for.
    fn active(&self) -> usize {
        self.robots
            .iter()
            .filter(|r| r.holder.is_some() && !r.halted && !r.silent)
            .count()
    }

    /// Every agent that came has halted, and enough came: the run is over (latched; no
    /// new agent is taken after that).
    fn update_done(&mut self, wanted: usize) {
        if !self.done
            && self.connected >= wanted.max(1)
            && self.live() == 0
            && self
                .robots
                .iter()
                .all(|r| r.ending != Some(Ending::Gone) || r.holder.is_some())
        {
            self.done = true;
        }
    }
}

/// What the connections and the run share.
pub struct Hub {
    state: Mutex<State>,
    changed: Condvar,
    config: HubConfig,
    post: PostOffice,
}

/// Why a hello was refused.
pub(crate) type Refusal = String;

/// How long a hello waits for a held robot to be let go (its agent's connection ending).
const RECLAIM_GRACE: Duration = Duration::from_secs(1);

/// Why no robot could be given.
enum Taken {
    /// the robot (or every robot) has an agent
    Held(Refusal),
    /// there is no robot of that name
    NoSuch(Refusal),
}

/// The robot a hello gets: `wanted` by name, or the first free one.
fn free_robot(robots: &[Robot], wanted: Option<&str>) -> Result<usize, Taken> {
    let names = || {
        robots
            .iter()
            .map(|r| r.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match wanted {
        Some(name) => {
            let Some(i) = robots.iter().position(|r| r.name == name) else {
                return Err(Taken::NoSuch(format!(
                    "no robot named `{name}` in this world (robots: {})",
                    names()
                )));
            };
            if robots[i].holder.is_some() {
                return Err(Taken::Held(format!("robot `{name}` already has an agent")));
            }
            Ok(i)
        }
        None => robots
            .iter()
            .position(|r| r.holder.is_none())
            .ok_or_else(|| {
                Taken::Held(format!(
                    "every robot of this world already has an agent (robots: {})",
                    names()
                ))
            }),
    }
}

impl Hub {
    /// A hub for robots `names` (in world order), sharing `post` with their links.
    pub fn new(names: &[String], post: PostOffice, config: HubConfig) -> Arc<Self> {
        let now = Instant::now();
        let robots = names
            .iter()
            .map(|n| Robot {
                name: n.clone(),
                generation: 0,
                holder: None,
                halted: false,
                queue: VecDeque::new(),
                out: None,
                last_heard: now,
                silent: false,
                ending: None,
                last_cause: None,
            })
            .collect();
        Arc::new(Self {
            state: Mutex::new(State {
                robots,
                ..State::default()
            }),
            changed: Condvar::new(),
            config,
            post,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The robots' names.
    pub fn names(&self) -> Vec<String> {
        self.lock().robots.iter().map(|r| r.name.clone()).collect()
    }

    /// The post office (for `tell`).
    pub(crate) fn post(&self) -> &PostOffice {
        &self.post
    }

    /// The hub's settings.
    pub fn config(&self) -> &HubConfig {
        &self.config
    }

    /// Agents connected so far.
    pub fn connected(&self) -> usize {
        self.lock().connected
    }

    /// Wait until `n` agents have connected or `stop` says so; `false` if stopped.
    pub fn wait_for_agents(&self, n: usize, control: &RunControl) -> bool {
        let mut st = self.lock();
        while st.connected < n {
            if control.stop_requested() {
                return false;
            }
            st = self
                .changed
                .wait_timeout(st, Duration::from_millis(50))
                .map(|(g, _)| g)
                .unwrap_or_else(|p| p.into_inner().0);
        }
        true
    }

    /// Give connection `conn` a robot (`wanted` by name, or the first free one); its
    /// lines go to `out`. Returns the robot's index and name.
    pub(crate) fn take_robot(
        &self,
        conn: u64,
        wanted: Option<&str>,
        out: Outbox,
        welcome: impl FnOnce(&str, &[String]) -> Vec<u8>,
    ) -> Result<(usize, String), Refusal> {
        let mut st = self.lock();
        // a robot still held may be on its way out (an agent that closed and reconnects
        // at once, before its reader saw the end): wait for that a moment, not longer
        let deadline = Instant::now() + RECLAIM_GRACE;
        let i = loop {
            if st.done || st.closing {
                return Err("the run is ending; no new agents are taken".into());
            }
            let held = match free_robot(&st.robots, wanted) {
                Ok(i) => break i,
                Err(Taken::Held(why)) => why,
                Err(Taken::NoSuch(why)) => return Err(why),
            };
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(held);
            }
            st = self
                .changed
                .wait_timeout(st, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        };
        let names: Vec<String> = st.robots.iter().map(|r| r.name.clone()).collect();
        let Some(r) = st.robots.get_mut(i) else {
            return Err("no such robot".into());
        };
        // the welcome goes out before anything the controller sends
        if !out.send(&welcome(&r.name, &names)) {
            return Err("the connection closed".into());
        }
        // what the last agent left queued is not for this one, except the news that it
        // left (a quick reconnect must not lose the `disconnected`)
        let gone = r.queue.drain(..).rfind(|x| matches!(x, Incoming::Gone(_)));
        r.queue.extend(gone);
        r.generation += 1;
        r.holder = Some(conn);
        r.halted = false;
        r.silent = false;
        r.last_heard = Instant::now();
        r.queue.push_back(Incoming::Connected);
        r.out = Some(out);
        let name = r.name.clone();
        st.connected += 1;
        drop(st);
        self.changed.notify_all();
        Ok((i, name))
    }

    /// A step from the agent holding robot `i` (`Err` if it floods).
    pub(crate) fn step(&self, i: usize, step: Step) -> Result<(), Refusal> {
        let mut st = self.lock();
        let Some(r) = st.robots.get_mut(i) else {
            return Ok(());
        };
        if r.halted {
            return Err("the agent halted; no more steps are taken".into());
        }
        if r.queue.len() >= MAX_QUEUED_STEPS {
            return Err(format!(
                "{MAX_QUEUED_STEPS} steps are waiting: send a step, then wait for its input"
            ));
        }
        let halted = step.halted;
        r.queue.push_back(Incoming::Step(Box::new(step)));
        r.last_heard = Instant::now();
        if halted {
            r.halted = true;
            r.ending = Some(Ending::Halted);
            st.update_done(self.config.agents);
        }
        drop(st);
        self.changed.notify_all();
        Ok(())
    }

    /// The agent holding robot `i` halted.
    pub(crate) fn halted(&self, i: usize) {
        let mut st = self.lock();
        if let Some(r) = st.robots.get_mut(i) {
            if !r.halted {
                r.halted = true;
                r.ending = Some(Ending::Halted);
                r.queue.push_back(Incoming::Halted);
            }
        }
        st.update_done(self.config.agents);
        drop(st);
        self.changed.notify_all();
    }

    /// Connection `conn`, holding robot `i`, ended (`cause` says why).
    pub(crate) fn left(&self, conn: u64, i: usize, cause: String) {
        let mut st = self.lock();
        if let Some(r) = st.robots.get_mut(i) {
            if r.holder == Some(conn) {
                r.holder = None;
                r.out = None;
                if !r.halted {
                    r.ending = Some(Ending::Gone);
                    r.queue.push_back(Incoming::Gone(cause));
                }
                r.halted = false;
            }
        }
        st.update_done(self.config.agents);
        drop(st);
        self.changed.notify_all();
    }

    /// The run ended: refuse new agents and close every connection.
    pub fn close(&self) {
        let mut st = self.lock();
        st.closing = true;
        for r in st.robots.iter_mut() {
            if let Some(o) = r.out.take() {
                o.kick();
            }
        }
        drop(st);
        self.changed.notify_all();
    }

    /// Is the run over (every agent that came halted)?
    pub fn done(&self) -> bool {
        self.lock().done
    }

    /// The next thing for robot `i`'s controller, and the generation of the agent it is
    /// from.
    fn receive(&self, i: usize, step: &mut Step) -> (Received, u64) {
        let mut st = self.lock();
        let mut waited_since: Option<Instant> = None;
        loop {
            let done = st.done;
            let Some(r) = st.robots.get_mut(i) else {
                return (Received::Closed, 0);
            };
            let generation = r.generation;
            let got = |x| (x, generation);
            if let Some(inc) = r.queue.pop_front() {
                return got(match inc {
                    Incoming::Connected => {
                        r.silent = false;
                        Received::Connected
                    }
                    Incoming::Step(s) => {
                        r.silent = false;
                        *step = *s;
                        Received::Step
                    }
                    Incoming::Halted => Received::Halted,
                    Incoming::Gone(cause) => {
                        r.last_cause = Some(cause);
                        Received::Disconnected
                    }
                });
            }
            if done {
                return got(Received::Closed);
            }
            if r.holder.is_none() || r.halted {
                return got(Received::Nothing);
            }
            if r.silent {
                return got(Received::Silent);
            }
            if !self.config.lockstep {
                if r.last_heard.elapsed() >= self.config.silence {
                    r.silent = true;
                    return got(Received::Silent);
                }
                return got(Received::Nothing);
            }
            // lock-step: wait for this agent's step
            let since = *waited_since.get_or_insert_with(Instant::now);
            let left = self.config.silence.saturating_sub(since.elapsed());
            if left.is_zero() {
                r.silent = true;
                return got(Received::Silent);
            }
            st = self
                .changed
                .wait_timeout(st, left)
                .map(|(g, _)| g)
                .unwrap_or_else(|p| p.into_inner().0);
        }
    }

    /// Send a line to the agent of generation `generation` on robot `i`, if it is still
    /// the one there.
    fn send(&self, i: usize, generation: u64, line: &[u8]) {
        let st = self.lock();
        let Some(r) = st.robots.get(i).filter(|r| r.generation == generation) else {
            return;
        };
        if let Some(o) = r.out.as_ref() {
            if !o.send(line) {
                tracing::warn!(
                    robot = i,
                    "the agent does not read its input: closing its connection"
                );
                o.kick();
            }
        }
    }
}

/// Robot `i`'s end of the hub.
pub struct ServerPort {
    hub: Arc<Hub>,
    robot: usize,
    generation: u64,
}

impl ServerPort {
    /// The port of robot `robot`.
    pub fn new(hub: Arc<Hub>, robot: usize) -> Self {
        Self {
            hub,
            robot,
            generation: 0,
        }
    }
}

impl Port for ServerPort {
    fn receive(&mut self, step: &mut Step) -> Result<Received, LinkError> {
        let (got, generation) = self.hub.receive(self.robot, step);
        self.generation = generation;
        Ok(got)
    }

    fn send(&mut self, line: &[u8]) -> Result<(), LinkError> {
        // no agent: nothing to send to; a connection that cannot take it is closed
        self.hub.send(self.robot, self.generation, line);
        Ok(())
    }

    fn disconnect_cause(&self) -> Option<String> {
        self.hub.lock().robots.get(self.robot)?.last_cause.clone()
    }
}

/// In lock-step mode, holds the simulated clock while no agent drives (none connected,
/// or all silent), so that time does not race ahead with nobody there; it lets go when
/// an agent connects or sends something, the run is over, or it is stopped.
pub struct Gate {
    hub: Arc<Hub>,
    control: Arc<RunControl>,
}

impl Gate {
    /// A gate on `hub`, released by a stop request on `control`.
    pub fn new(hub: Arc<Hub>, control: Arc<RunControl>) -> Self {
        Self { hub, control }
    }
}

impl Observer for Gate {
    fn on_cycle(&mut self, _view: &CycleView<'_>) {
        let mut st = self.hub.lock();
        while st.active() == 0
            && !st.done
            && !st.robots.iter().any(|r| !r.queue.is_empty())
            && !self.control.stop_requested()
        {
            st = self
                .hub
                .changed
                .wait_timeout(st, Duration::from_millis(50))
                .map(|(g, _)| g)
                .unwrap_or_else(|p| p.into_inner().0);
        }
    }
}
