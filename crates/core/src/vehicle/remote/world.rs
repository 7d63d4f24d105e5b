//! Remote robots as a [`World`]: time passes by itself (the robots move in the real
//! world or in their own simulator; with `use_sim_time` a cycle ends only when the
//! robot's `/clock` has reached it), a watchdog thread stops any robot whose controller
//! stops acting or whose odometry goes stale between cycles, and when the world goes
//! away every robot is sent a zero velocity, delivered before the transport closes.
//!
//! [`await_robots`] waits for robots to appear and finds what they have.

use super::clock::RobotClock;
use super::feed::Equipment;
use super::link::Link;
use super::robot::{RemoteConfig, RemoteRobot};
use crate::event::Events;
use crate::vehicle::{Vehicle, World};
use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the watchdog looks.
const WATCH_EVERY: Duration = Duration::from_millis(20);
/// How long the last zero velocity may take to be delivered when the world goes away.
const FLUSH_WITHIN: Duration = Duration::from_secs(1);
/// The longest a cycle waits for a simulated robot's `/clock`.
const CLOCK_WAIT: Duration = Duration::from_secs(1);
/// After the first odometry, how long other sensors' first messages are waited for.
const SETTLE: Duration = Duration::from_millis(500);
/// How long no new range sensor must have been heard of before the set is fixed: one
/// topic may carry a whole sonar ring, one transducer at a time (a Pioneer fires its
/// sixteen in turn, a ring in about 0.6 s).
pub const RANGES_QUIET: Duration = Duration::from_millis(1000);

/// The watchdog thread.
struct Watchdog {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    fn start(links: Vec<Arc<Link>>) -> Option<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let s2 = stop.clone();
        let thread = std::thread::Builder::new()
            .name("remote-watchdog".into())
            .spawn(move || {
                while !s2.load(Ordering::SeqCst) {
                    let now = Instant::now();
                    for l in &links {
                        l.watch(now);
                    }
                    std::thread::sleep(WATCH_EVERY);
                }
            })
            .ok()?;
        Some(Self {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Remote robots sharing a transport and a clock.
pub struct RemoteWorld {
    robots: Vec<RemoteRobot>,
    clock: Arc<RobotClock>,
    start: Option<f64>,
    kind: String,
    watchdog: Option<Watchdog>,
    /// what the transport keeps alive (its node, its reading thread), dropped last
    transport: Option<Box<dyn Any + Send>>,
}

impl RemoteWorld {
    /// A world of `robots` on `clock`, described as `kind` (`ros2`, `ros1`); `transport`
    /// is kept alive as long as the world and dropped after the last zero velocity.
    pub fn new(
        robots: Vec<RemoteRobot>,
        clock: Arc<RobotClock>,
        kind: &str,
        transport: Box<dyn Any + Send>,
    ) -> Self {
        let links = robots.iter().map(|r| r.link().clone()).collect();
        Self {
            robots,
            clock,
            start: None,
            kind: kind.to_string(),
            watchdog: Watchdog::start(links),
            transport: Some(transport),
        }
    }

    /// The robots.
    pub fn robots(&self) -> &[RemoteRobot] {
        &self.robots
    }
}

impl Drop for RemoteWorld {
    fn drop(&mut self) {
        self.watchdog = None;
        for r in &self.robots {
            r.link().halt_and_flush(FLUSH_WITHIN);
        }
        self.robots.clear();
        self.transport = None;
    }
}

impl World for RemoteWorld {
    fn len(&self) -> usize {
        self.robots.len()
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        self.robots.get(i).map(|r| r as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        self.robots.get_mut(i).map(|r| r as &mut dyn Vehicle)
    }
    fn advance(&mut self, now: Duration, dt: Duration, _events: &mut Events) {
        if !self.clock.is_simulated() {
            return;
        }
        let Some(start) = self.start.or_else(|| self.clock.now()) else {
            return;
        };
        self.start = Some(start);
        self.clock
            .wait_for(start + (now + dt).as_secs_f64(), CLOCK_WAIT);
    }
    fn describe(&self) -> serde_json::Value {
        serde_json::json!({
            "kind": self.kind,
            "robots": self.robots.iter().map(|r| serde_json::json!({
                "name": r.info().name,
                "namespace": r.link().namespace(),
            })).collect::<Vec<_>>(),
            "bounds": [-10.0, -10.0, 10.0, 10.0],
            "walls": [],
            "robot_radius": 0.2,
        })
    }
}

/// What the transport knows of a robot's topics while it is awaited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expected {
    /// its scan topic has a publisher
    pub scan: bool,
    /// its battery topic has a publisher
    pub battery: bool,
    /// this many range topics have a publisher
    pub range_topics: usize,
}

/// Wait for the robots on `links` to appear: each one's odometry, then (for a short
/// settling time and within the same bound) the first messages of every sensor topic
/// that has a publisher and the transforms that place them, and until no new range
/// sensor has been heard of for [`RANGES_QUIET`]. `pump` delivers what arrived
/// (for transports whose reading thread is not running yet) and says what each robot's
/// topics have. Then each robot's equipment is fixed; a robot that did not appear, or a
/// sensor that cannot be placed, is an error with a sentence.
pub fn await_robots(
    links: &[Arc<Link>],
    mut pump: impl FnMut() -> Vec<Expected>,
) -> Result<Vec<Equipment>, String> {
    let started = Instant::now();
    let within = links
        .iter()
        .map(|l| l.bounds().appear_within)
        .max()
        .unwrap_or_default();
    let mut first_odometry: Vec<Option<Instant>> = vec![None; links.len()];
    // each robot's count of range sensors heard of, and since when
    let mut ranges_since: Vec<(usize, Instant)> = vec![(0, started); links.len()];
    loop {
        let expected = pump();
        let now = Instant::now();
        let mut all_ready = true;
        for (i, l) in links.iter().enumerate() {
            let feed = l.feed();
            if feed.latest_odometry().is_none() {
                all_ready = false;
                continue;
            }
            let first = *first_odometry[i].get_or_insert(now);
            let e = expected.get(i).copied().unwrap_or_default();
            let (ranges, placed) = feed.ranges_seen();
            if ranges != ranges_since[i].0 {
                ranges_since[i] = (ranges, now);
            }
            let ranges_quiet = ranges == 0 || now.duration_since(ranges_since[i].1) >= RANGES_QUIET;
            let ready = now.duration_since(first) >= SETTLE
                && ranges_quiet
                && (!e.scan || feed.scan_mounted())
                && (!feed.scan_seen() || feed.scan_mounted())
                && (ranges >= e.range_topics && placed)
                && (!e.battery || feed.battery_seen());
            all_ready &= ready;
        }
        if all_ready {
            break;
        }
        if now.duration_since(started) > within {
            for (i, l) in links.iter().enumerate() {
                if first_odometry[i].is_none() {
                    return Err(format!(
                        "no odometry on {}/odom within {:.0} s: is the robot running, and seen from here?",
                        l.namespace(),
                        within.as_secs_f64()
                    ));
                }
                let e = expected.get(i).copied().unwrap_or_default();
                let feed = l.feed();
                if e.scan && !feed.scan_seen() {
                    return Err(format!(
                        "{}/scan has a publisher but no scan came within {:.0} s",
                        l.namespace(),
                        within.as_secs_f64()
                    ));
                }
            }
            break;
        }
        std::thread::sleep(WATCH_EVERY);
    }
    links.iter().map(|l| l.feed().freeze()).collect()
}

/// The robots on `links`, with the equipment [`await_robots`] found, as vehicles.
pub fn robots(
    links: Vec<Arc<Link>>,
    configs: Vec<RemoteConfig>,
    equipment: Vec<Equipment>,
) -> Vec<RemoteRobot> {
    links
        .into_iter()
        .zip(configs)
        .zip(equipment)
        .map(|((l, c), e)| RemoteRobot::new(c, l, e))
        .collect()
}
