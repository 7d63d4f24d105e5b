//! One remote robot's link: its readings ([`Feed`]), the velocity commands going out
//! ([`CommandOut`]), and the safety bounds that stop it: odometry older than
//! [`Bounds::stale_after`] stops the robot (a zero velocity is sent and the controller's
//! commands are held back until fresh odometry arrives), none for
//! [`Bounds::give_up_after`] ends the run, and a controller that stops acting for
//! [`Bounds::controller_timeout`] gets the robot stopped by the watchdog thread.

use super::clock::RobotClock;
use super::feed::Feed;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Where velocity commands go: the transport's `cmd_vel` publisher.
pub trait CommandOut: Send {
    /// Send a velocity: forward (m/s) and turn rate (rad/s, counter-clockwise).
    fn send(&mut self, forward: f64, turn: f64);
    /// Wait, at most `within`, until what was sent has reached the robot, where the
    /// transport can tell (a reliable writer's acknowledgements).
    fn flush(&mut self, _within: Duration) {}
}

/// The safety bounds of a remote robot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// odometry older than this stops the robot
    pub stale_after: Duration,
    /// no odometry for this long ends the run (the link is lost)
    pub give_up_after: Duration,
    /// a controller that has not acted for this long gets its robot stopped
    pub controller_timeout: Duration,
    /// how long to wait for the robot's first messages
    pub appear_within: Duration,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            stale_after: Duration::from_millis(500),
            give_up_after: Duration::from_secs(5),
            controller_timeout: Duration::from_secs(1),
            appear_within: Duration::from_secs(10),
        }
    }
}

/// The velocity going out, and who asked last.
struct Outbox {
    out: Box<dyn CommandOut>,
    last: (f64, f64),
    last_act: Option<Instant>,
}

impl Outbox {
    fn send(&mut self, v: f64, w: f64) {
        self.out.send(v, w);
        self.last = (v, w);
    }
}

/// One robot's link, shared by the transport's threads (which feed it), the vehicle (which
/// senses and acts through it) and the watchdog.
pub struct Link {
    ns: String,
    bounds: Bounds,
    clock: Arc<RobotClock>,
    feed: Mutex<Feed>,
    out: Mutex<Outbox>,
    notes: Mutex<Vec<String>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Link {
    /// The link of the robot in namespace `ns`, its commands going to `out`.
    pub fn new(
        ns: &str,
        bounds: Bounds,
        clock: Arc<RobotClock>,
        out: Box<dyn CommandOut>,
    ) -> Arc<Self> {
        Arc::new(Self {
            ns: ns.to_string(),
            bounds,
            clock,
            feed: Mutex::new(Feed::new(ns)),
            out: Mutex::new(Outbox {
                out,
                last: (0.0, 0.0),
                last_act: None,
            }),
            notes: Mutex::new(Vec::new()),
        })
    }

    /// The robot's namespace (`/bot`).
    pub fn namespace(&self) -> &str {
        &self.ns
    }

    /// The bounds.
    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// The robot's clock.
    pub fn clock(&self) -> &Arc<RobotClock> {
        &self.clock
    }

    /// The readings, to add a message to (from the transport's threads) or to read.
    pub fn feed(&self) -> MutexGuard<'_, Feed> {
        lock(&self.feed)
    }

    /// How old the latest odometry is: in the robot's time when it runs on `/clock`
    /// (a paused simulator is not a silent robot) and stamps it, else since it arrived.
    /// `None` before the first.
    pub fn odometry_age(&self, feed: &Feed, now: Instant) -> Option<Duration> {
        let o = feed.latest_odometry()?;
        let since_arrival = now.saturating_duration_since(o.arrived);
        // a robot that does not stamp its odometry (stamp 0) is timed by arrival
        if self.clock.is_simulated() && o.reading.stamp > 0.0 {
            if let Some(t) = self.clock.now() {
                let age = (t - o.reading.stamp).max(0.0);
                return Some(Duration::try_from_secs_f64(age).unwrap_or(Duration::MAX));
            }
        }
        Some(since_arrival)
    }

    /// Is the odometry older than the bound now?
    pub fn stale(&self, now: Instant) -> bool {
        let feed = self.feed();
        self.odometry_age(&feed, now)
            .is_none_or(|a| a > self.bounds.stale_after)
    }

    /// How long no odometry has arrived, on this machine's clock (`None` before the first).
    pub fn silent_for(&self, now: Instant) -> Option<Duration> {
        self.feed()
            .latest_odometry()
            .map(|o| now.saturating_duration_since(o.arrived))
    }

    /// The controller's command for this cycle: sent, unless the robot is held (stale
    /// odometry), when a zero velocity goes instead.
    pub fn command(&self, v: f64, w: f64, held: bool) {
        let mut o = lock(&self.out);
        o.last_act = Some(Instant::now());
        if held {
            o.send(0.0, 0.0);
        } else {
            o.send(v, w);
        }
    }

    /// Stop the robot now: a zero velocity.
    pub fn halt(&self) {
        lock(&self.out).send(0.0, 0.0);
    }

    /// Stop the robot and wait, at most `within`, until the transport has delivered it.
    pub fn halt_and_flush(&self, within: Duration) {
        let mut o = lock(&self.out);
        o.send(0.0, 0.0);
        o.out.flush(within);
    }

    /// What the watchdog did since the last call, for the run log.
    pub fn take_notes(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.notes))
    }

    /// The watchdog's look (every few tens of milliseconds, on its own thread): a robot
    /// still moving whose controller stopped acting, or whose odometry went stale between
    /// cycles, is sent a zero velocity. Returns why (also kept as a note), when it
    /// stopped the robot.
    pub fn watch(&self, now: Instant) -> Option<String> {
        let stale = self.stale(now);
        let mut o = lock(&self.out);
        if o.last == (0.0, 0.0) {
            return None;
        }
        let silent = o
            .last_act
            .is_some_and(|t| now.saturating_duration_since(t) > self.bounds.controller_timeout);
        let why = if silent {
            format!(
                "{}: the controller has not acted for {:.1} s: the robot is stopped",
                self.ns,
                self.bounds.controller_timeout.as_secs_f64()
            )
        } else if stale {
            format!(
                "{}: odometry older than {:.2} s: the robot is stopped",
                self.ns,
                self.bounds.stale_after.as_secs_f64()
            )
        } else {
            return None;
        };
        o.send(0.0, 0.0);
        drop(o);
        let mut notes = lock(&self.notes);
        if notes.len() < 64 {
            notes.push(why.clone());
        }
        Some(why)
    }
}

#[cfg(test)]
mod tests {
    use super::super::feed::OdometryReading;
    use super::*;

    #[derive(Clone, Default)]
    struct Sent(Arc<Mutex<Vec<(f64, f64)>>>);
    impl CommandOut for Sent {
        fn send(&mut self, v: f64, w: f64) {
            self.0.lock().unwrap().push((v, w));
        }
    }

    fn link(sent: &Sent) -> Arc<Link> {
        Link::new(
            "/bot",
            Bounds::default(),
            Arc::new(RobotClock::new(false)),
            Box::new(sent.clone()),
        )
    }

    fn odom(l: &Link) {
        let r = OdometryReading {
            stamp: 1.0,
            x: 0.0,
            y: 0.0,
            yaw: 0.0,
            linear: 0.0,
            angular: 0.0,
        };
        l.feed().odometry(r, "base_link");
    }

    #[test]
    fn held_commands_go_out_as_zero() {
        let sent = Sent::default();
        let l = link(&sent);
        assert!(l.stale(Instant::now()), "no odometry yet is stale");
        odom(&l);
        assert!(!l.stale(Instant::now()));
        l.command(0.3, 0.1, false);
        l.command(0.3, 0.1, true);
        l.halt();
        assert_eq!(
            *sent.0.lock().unwrap(),
            [(0.3, 0.1), (0.0, 0.0), (0.0, 0.0)]
        );
        let later = Instant::now() + Duration::from_secs(2);
        assert!(l.stale(later));
        assert!(l.silent_for(later).unwrap() >= Duration::from_secs(2));
    }

    #[test]
    fn the_watchdog_stops_a_moving_robot_whose_controller_or_odometry_went_quiet() {
        let sent = Sent::default();
        let l = link(&sent);
        odom(&l);
        l.command(0.3, 0.0, false);
        assert_eq!(l.watch(Instant::now()), None);
        let why = l
            .watch(Instant::now() + Duration::from_millis(700))
            .unwrap();
        assert!(why.contains("odometry older than 0.50 s"), "{why}");
        // stopped already: nothing more to send
        assert_eq!(l.watch(Instant::now() + Duration::from_secs(3)), None);
        odom(&l);
        l.command(0.2, 0.0, false);
        let why = l
            .watch(Instant::now() + Duration::from_millis(1500))
            .unwrap();
        assert!(why.contains("controller has not acted"), "{why}");
        assert_eq!(sent.0.lock().unwrap().last(), Some(&(0.0, 0.0)));
    }

    #[test]
    fn on_a_simulated_clock_odometry_ages_in_the_robots_time() {
        let sent = Sent::default();
        let clock = Arc::new(RobotClock::new(true));
        let l = Link::new("/bot", Bounds::default(), clock.clone(), Box::new(sent));
        odom(&l); // stamped 1.0 s
        clock.tick(1.2);
        // long after it arrived, but 0.2 s old in the robot's time: a paused simulator
        assert!(!l.stale(Instant::now() + Duration::from_secs(10)));
        clock.tick(2.0);
        assert!(l.stale(Instant::now()));
    }
}
