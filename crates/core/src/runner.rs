//! The cycle runner: senses, steps the controllers, acts, advances, logs, at a fixed rate.
//!
//! One cycle: (1) every vehicle senses into its signals; (2) every controller steps,
//! writing actuation; (3) every vehicle acts; (4) the world advances by one period;
//! (5) observers (the run log, the dashboard, progress) see the cycle; (6) the clock
//! advances: simulated time jumps, wall-clock time sleeps until the next tick.
//!
//! The run ends on a time limit, when every controller has finished, when one aborts or
//! fails, or when [`RunControl::request_stop`] is called (Ctrl-C); whatever ends it, every
//! vehicle is left stopped. An estop requested through [`RunControl`] takes effect in
//! the next cycle's actuation and holds until released.

use crate::actuation::{Actuation, Drive};
use crate::controller::{Controller, Cycle, Status};
use crate::error::{ErrorKind, RunFailure};
use crate::event::{Event, Events};
use crate::signals::Signals;
use crate::time::{Clock, SimClock, WallClock};
use crate::vehicle::World;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    /// Cycle period (100 ms = 10 Hz for ground robots, 200 ms for the AUV).
    pub period: Duration,
    /// Stop at this run time.
    pub until: Option<Duration>,
    /// Pace cycles by the wall clock (real robots, watching a simulation live).
    pub realtime: bool,
    /// With `realtime`, run this many times faster than real time.
    pub speed: f64,
}

impl Default for RunConfig {
    fn default() -> Self {
        Self {
            period: Duration::from_millis(100),
            until: None,
            realtime: false,
            speed: 1.0,
        }
    }
}

/// Controls a running run from another thread (Ctrl-C handler, dashboard).
#[derive(Debug)]
pub struct RunControl {
    stop: AtomicBool,
    paused: AtomicBool,
    steps: AtomicU64,
    estop: AtomicBool,
    /// vehicle i's own estop is bit i (vehicles 0..63)
    estop_robots: AtomicU64,
    speed_bits: AtomicU64,
    speed_changed: AtomicBool,
}

impl Default for RunControl {
    fn default() -> Self {
        Self {
            stop: AtomicBool::new(false),
            paused: AtomicBool::new(false),
            steps: AtomicU64::new(0),
            estop: AtomicBool::new(false),
            estop_robots: AtomicU64::new(0),
            speed_bits: AtomicU64::new(1.0f64.to_bits()),
            speed_changed: AtomicBool::new(false),
        }
    }
}

impl RunControl {
    /// A fresh control block, shared with [`Arc`].
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }
    /// Ask the run to end after the current cycle.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    /// Has a stop been requested?
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
    /// Pause or resume.
    pub fn set_paused(&self, paused: bool) {
        self.paused.store(paused, Ordering::SeqCst);
    }
    /// Is the run paused?
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::SeqCst)
    }
    /// While paused, run one more cycle.
    pub fn step_once(&self) {
        self.steps.fetch_add(1, Ordering::SeqCst);
    }
    /// Engage (true) or release (false) the estop of every vehicle.
    pub fn set_estop(&self, on: bool) {
        self.estop.store(on, Ordering::SeqCst);
    }
    /// Is the estop engaged?
    pub fn estop(&self) -> bool {
        self.estop.load(Ordering::SeqCst)
    }
    /// Engage (true) or release (false) the estop of vehicle `i` alone (vehicles 0 to
    /// 63 have one; false for others). The estop of every vehicle ([`Self::set_estop`])
    /// holds whatever this says.
    pub fn set_estop_for(&self, i: usize, on: bool) -> bool {
        let Some(bit) = 1u64.checked_shl(i as u32).filter(|_| i < 64) else {
            return false;
        };
        if on {
            self.estop_robots.fetch_or(bit, Ordering::SeqCst);
        } else {
            self.estop_robots.fetch_and(!bit, Ordering::SeqCst);
        }
        true
    }
    /// Is vehicle `i` stopped by an estop (its own or every vehicle's)?
    pub fn estop_for(&self, i: usize) -> bool {
        self.estop() || (i < 64 && self.estop_robots.load(Ordering::SeqCst) >> i & 1 == 1)
    }
    /// Set the speed factor of a paced run.
    pub fn set_speed(&self, factor: f64) {
        self.speed_bits.store(factor.to_bits(), Ordering::SeqCst);
        self.speed_changed.store(true, Ordering::SeqCst);
    }
    /// The speed factor.
    pub fn speed(&self) -> f64 {
        f64::from_bits(self.speed_bits.load(Ordering::SeqCst))
    }
    fn take_step(&self) -> bool {
        self.steps
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum RunOutcome {
    /// Every controller finished.
    Finished,
    /// The time limit was reached.
    TimeLimit,
    /// A controller gave up; the text says why.
    Aborted(String),
    /// A controller or vehicle failed; what kind of failure, and what it said.
    Failed(RunFailure),
    /// Stopped from outside (Ctrl-C).
    Interrupted,
    /// A controller stopped at its own time limit before it finished (a mission's
    /// default mission timeout); the text says which limit.
    TimedOut(String),
}

impl RunOutcome {
    /// The word used in summaries: `finished`, `time_limit`, `aborted`, `failed`,
    /// `interrupted`, `timeout`.
    pub fn as_str(&self) -> &'static str {
        match self {
            RunOutcome::Finished => "finished",
            RunOutcome::TimeLimit => "time_limit",
            RunOutcome::Aborted(_) => "aborted",
            RunOutcome::Failed(_) => "failed",
            RunOutcome::Interrupted => "interrupted",
            RunOutcome::TimedOut(_) => "timeout",
        }
    }
    /// The reason, for aborted, failed and timed-out runs.
    pub fn reason(&self) -> Option<&str> {
        match self {
            RunOutcome::Aborted(r) | RunOutcome::TimedOut(r) => Some(r),
            RunOutcome::Failed(f) => Some(&f.text),
            _ => None,
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// How it ended.
    pub outcome: RunOutcome,
    /// Cycles run.
    pub cycles: u64,
    /// Run time at the end.
    pub sim_time: Duration,
    /// Wall-clock time the run took.
    pub wall_time: Duration,
    /// Distance travelled by all vehicles (m).
    pub distance_m: f64,
    /// Collisions of all vehicles.
    pub collisions: u64,
    /// The summary keys vehicles, world and controllers added.
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl RunReport {
    /// The summary object of the `--summary-json` contract (without `wall_time_s` when
    /// `with_wall_time` is false, so that logs stay byte-identical between runs).
    pub fn summary_json(&self, with_wall_time: bool) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        m.insert("outcome".into(), self.outcome.as_str().into());
        if let Some(r) = self.outcome.reason() {
            m.insert("reason".into(), r.into());
        }
        m.insert("sim_time_s".into(), self.sim_time.as_secs_f64().into());
        if with_wall_time {
            m.insert("wall_time_s".into(), self.wall_time.as_secs_f64().into());
        }
        m.insert("cycles".into(), self.cycles.into());
        m.insert("distance_m".into(), self.distance_m.into());
        m.insert("collisions".into(), self.collisions.into());
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        serde_json::Value::Object(m)
    }
}

/// One cycle as observers see it.
pub struct CycleView<'a> {
    /// Run time at the start of the cycle.
    pub now: Duration,
    /// The period.
    pub dt: Duration,
    /// Cycle number, from 1.
    pub cycle: u64,
    /// The world after it advanced.
    pub world: &'a dyn World,
    /// Every vehicle's signals as sensed this cycle.
    pub signals: &'a [Signals],
    /// Every vehicle's actuation this cycle.
    pub actuation: &'a [Actuation],
    /// The events of this cycle.
    pub events: &'a [Event],
    /// Every vehicle's controller (if it has one).
    pub controllers: &'a [Option<Box<dyn Controller>>],
}

/// Something that watches the run: the run log, the dashboard, a progress bar.
pub trait Observer {
    /// Before the first cycle (vehicles have sensed once).
    fn on_start(&mut self, _world: &dyn World, _config: &RunConfig) {}
    /// After every cycle.
    fn on_cycle(&mut self, view: &CycleView<'_>);
    /// After the run, once vehicles are stopped.
    fn on_end(&mut self, _world: &dyn World, _report: &RunReport) {}
}

/// Runs a world with its controllers.
pub struct Runner {
    world: Box<dyn World>,
    controllers: Vec<Option<Box<dyn Controller>>>,
    finished: Vec<bool>,
    observers: Vec<Box<dyn Observer>>,
    signals: Vec<Signals>,
    actuation: Vec<Actuation>,
    events: Events,
    config: RunConfig,
    control: Arc<RunControl>,
}

impl Runner {
    /// A runner for `world`; vehicles have no controller until one is set.
    pub fn new(world: Box<dyn World>, config: RunConfig) -> Self {
        let n = world.len();
        let mut controllers = Vec::with_capacity(n);
        controllers.resize_with(n, || None);
        let control = RunControl::new();
        control.set_speed(config.speed);
        control.speed_changed.store(false, Ordering::SeqCst);
        Self {
            world,
            controllers,
            finished: vec![false; n],
            observers: Vec::new(),
            signals: vec![Signals::new(); n],
            actuation: vec![Actuation::default(); n],
            events: Events::new(),
            config,
            control,
        }
    }

    /// Give vehicle `i` a controller.
    pub fn set_controller(&mut self, i: usize, c: Box<dyn Controller>) {
        if let Some(slot) = self.controllers.get_mut(i) {
            *slot = Some(c);
        }
    }

    /// Add an observer.
    pub fn add_observer(&mut self, o: Box<dyn Observer>) {
        self.observers.push(o);
    }

    /// The run's configuration (period, limit, pacing).
    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// The control block, to share with a Ctrl-C handler or a dashboard.
    pub fn control(&self) -> Arc<RunControl> {
        self.control.clone()
    }

    /// The world.
    pub fn world(&self) -> &dyn World {
        &*self.world
    }

    /// Vehicle `i`'s signals.
    pub fn signals(&self, i: usize) -> Option<&Signals> {
        self.signals.get(i)
    }

    /// Run until the run ends; returns what happened.
    pub fn run(&mut self) -> RunReport {
        let mut run = RunState::new(&self.config);
        self.sense_first(&run);
        self.start_controllers(&mut run);
        for o in &mut self.observers {
            o.on_start(&*self.world, &self.config);
        }
        while run.outcome.is_none() {
            if let Some(end) = self.should_end(&run) {
                run.outcome = Some(end);
                break;
            }
            if self.control.is_paused() && !self.control.take_step() {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            self.begin_cycle(&mut run);
            self.sense(&mut run); // 1
            let all_finished = self.step_controllers(&mut run); // 2
            self.apply_estop(&mut run);
            self.act(&run); // 3
            self.world.advance(run.now, run.period, &mut self.events); // 4
            self.observe(&run); // 5
            run.now += run.period; // 6
            run.clock.wait_until(run.now);
            if run.outcome.is_none() && all_finished {
                run.outcome = Some(RunOutcome::Finished);
            }
        }
        self.end(run)
    }

    /// The first sensing (it belongs to cycle 1, so that cycle reports every signal as
    /// new).
    fn sense_first(&mut self, run: &RunState) {
        for i in 0..self.world.len() {
            self.signals[i].begin_cycle();
            self.events.set_robot(i);
            if let Some(v) = self.world.vehicle_mut(i) {
                v.sense(run.now, &mut self.signals[i], &mut self.events);
            }
        }
    }

    /// Start every controller on what its vehicle first sensed.
    fn start_controllers(&mut self, run: &mut RunState) {
        for i in 0..self.world.len() {
            let (Some(c), Some(v)) = (self.controllers[i].as_mut(), self.world.vehicle(i)) else {
                continue;
            };
            if let Err(e) = c.start(v.info(), &self.signals[i]) {
                run.outcome = Some(RunOutcome::Failed(RunFailure {
                    kind: e.kind(),
                    text: format!("{} ({}): {e}", c.name(), v.info().name),
                }));
            }
        }
    }

    /// A stop asked for, or the time limit reached.
    fn should_end(&self, run: &RunState) -> Option<RunOutcome> {
        if self.control.stop_requested() {
            return Some(RunOutcome::Interrupted);
        }
        match self.config.until {
            Some(until) if run.now >= until => Some(RunOutcome::TimeLimit),
            _ => None,
        }
    }

    fn begin_cycle(&mut self, run: &mut RunState) {
        if self.control.speed_changed.swap(false, Ordering::SeqCst) {
            run.clock.set_speed(self.control.speed());
        }
        run.cycle += 1;
        self.events.clear();
    }

    /// Step 1: every vehicle senses; a vehicle that can no longer be driven fails the run.
    fn sense(&mut self, run: &mut RunState) {
        for i in 0..self.world.len() {
            if run.cycle > 1 {
                self.signals[i].begin_cycle();
            }
            self.events.set_robot(i);
            if let Some(v) = self.world.vehicle_mut(i) {
                v.sense(run.now, &mut self.signals[i], &mut self.events);
                if let Err(e) = v.health() {
                    run.outcome = Some(RunOutcome::Failed(RunFailure {
                        kind: ErrorKind::Vehicle,
                        text: e.to_string(),
                    }));
                }
            }
        }
    }

    /// Step 2: every controller that has not finished steps; `true` when every one has
    /// (and there is one).
    fn step_controllers(&mut self, run: &mut RunState) -> bool {
        let mut all_finished = true;
        let mut any_controller = false;
        for i in 0..self.world.len() {
            self.actuation[i].clear();
            if self.controllers[i].is_none() {
                continue;
            }
            any_controller = true;
            if !self.finished[i] && !self.step_one(i, run) {
                all_finished = false;
            }
        }
        any_controller && all_finished
    }

    /// Step controller `i`; `true` when it is done (finished, or it ended the run).
    fn step_one(&mut self, i: usize, run: &mut RunState) -> bool {
        let (Some(c), Some(v)) = (self.controllers[i].as_mut(), self.world.vehicle(i)) else {
            return true;
        };
        self.events.set_robot(i);
        let mut cyc = Cycle {
            now: run.now,
            dt: run.period,
            cycle: run.cycle,
            robot: i,
            vehicle: v.info(),
            signals: &self.signals[i],
            actuation: &mut self.actuation[i],
            events: &mut self.events,
        };
        let st = c.step(&mut cyc);
        let who =
            |what: &dyn std::fmt::Display| format!("{} ({}): {what}", c.name(), v.info().name);
        let event = |status: &str, reason: Option<&str>| {
            let mut e = serde_json::json!({"controller": c.name(), "status": status});
            if let Some(r) = reason {
                e["reason"] = r.into();
            }
            e
        };
        let now = run.now;
        match st {
            Ok(Status::Running) => return false,
            Ok(Status::Finished) => {
                self.finished[i] = true;
                self.events.push(now, "controller", event("finished", None));
            }
            Ok(Status::Aborted(why)) => {
                self.events
                    .push(now, "controller", event("aborted", Some(&why)));
                run.outcome = Some(RunOutcome::Aborted(who(&why)));
            }
            Ok(Status::TimedOut(why)) => {
                self.events
                    .push(now, "controller", event("timeout", Some(&why)));
                run.outcome = Some(RunOutcome::TimedOut(who(&why)));
            }
            Err(e) => {
                self.events
                    .push(now, "controller", event("failed", Some(e.message())));
                run.outcome = Some(RunOutcome::Failed(RunFailure {
                    kind: e.kind(),
                    text: who(&e),
                }));
            }
        }
        true
    }

    /// An estop (every vehicle's or one's own) overrides the controller, within this
    /// cycle.
    fn apply_estop(&mut self, run: &mut RunState) {
        run.estop_was.resize(self.actuation.len(), false);
        for (i, a) in self.actuation.iter_mut().enumerate() {
            let estop = self.control.estop_for(i);
            if estop != run.estop_was[i] {
                self.events
                    .push_for(i, run.now, "estop", serde_json::json!({"engaged": estop}));
                run.estop_was[i] = estop;
            }
            if estop {
                a.drive = Some(Drive::Estop);
            }
        }
    }

    /// Step 3: every vehicle acts.
    fn act(&mut self, run: &RunState) {
        for i in 0..self.world.len() {
            self.events.set_robot(i);
            if let Some(v) = self.world.vehicle_mut(i) {
                v.act(run.now, &self.actuation[i], &mut self.events);
            }
        }
    }

    /// Step 5: the observers see the cycle.
    fn observe(&mut self, run: &RunState) {
        let view = CycleView {
            now: run.now,
            dt: run.period,
            cycle: run.cycle,
            world: &*self.world,
            signals: &self.signals,
            actuation: &self.actuation,
            events: self.events.as_slice(),
            controllers: &self.controllers,
        };
        for o in &mut self.observers {
            o.on_cycle(&view);
        }
    }

    /// Leave every vehicle stopped, finish the controllers, and report.
    fn end(&mut self, run: RunState) -> RunReport {
        self.events.clear();
        for i in 0..self.world.len() {
            self.events.set_robot(i);
            if let Some(v) = self.world.vehicle_mut(i) {
                v.stop(run.now, &mut self.events);
            }
        }
        for c in self.controllers.iter_mut().flatten() {
            c.finish();
        }
        let mut report = RunReport {
            outcome: run.outcome.unwrap_or(RunOutcome::Interrupted),
            cycles: run.cycle,
            sim_time: run.now,
            wall_time: run.wall_start.elapsed(),
            distance_m: 0.0,
            collisions: 0,
            extra: serde_json::Map::new(),
        };
        for i in 0..self.world.len() {
            if let Some(v) = self.world.vehicle(i) {
                report.distance_m += v.odometer();
                report.collisions += v.collisions();
                v.summary(&mut report.extra);
            }
        }
        self.world.summary(&mut report.extra);
        for c in self.controllers.iter().flatten() {
            c.summary(&mut report.extra);
        }
        for o in &mut self.observers {
            o.on_end(&*self.world, &report);
        }
        report
    }
}

/// Where a run is: its clock and time, the cycle, and how it ends once it does.
struct RunState {
    clock: Box<dyn Clock>,
    now: Duration,
    period: Duration,
    cycle: u64,
    /// per vehicle
    estop_was: Vec<bool>,
    outcome: Option<RunOutcome>,
    wall_start: Instant,
}

impl RunState {
    fn new(config: &RunConfig) -> Self {
        let clock: Box<dyn Clock> = if config.realtime {
            Box::new(WallClock::with_speed(config.speed))
        } else {
            Box::new(SimClock::new())
        };
        Self {
            clock,
            now: Duration::ZERO,
            period: config.period.max(Duration::from_micros(1)),
            cycle: 0,
            estop_was: Vec::new(),
            outcome: None,
            wall_start: Instant::now(),
        }
    }
}
