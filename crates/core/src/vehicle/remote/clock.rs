//! The robot's time. A robot on a real clock stamps its messages with the wall clock (the
//! UNIX epoch); a simulated robot (`use_sim_time`) with the time its simulator publishes
//! on `/clock`, which the run then follows: [`RobotClock::wait_for`] lets a cycle end
//! only when the robot's time has reached it.

use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The time the robots of a run keep.
#[derive(Debug)]
pub struct RobotClock {
    simulated: bool,
    latest: Mutex<Option<(f64, Instant)>>,
    changed: Condvar,
}

impl RobotClock {
    /// The wall clock (`simulated` false) or the robot's `/clock` (true).
    pub fn new(simulated: bool) -> Self {
        Self {
            simulated,
            latest: Mutex::new(None),
            changed: Condvar::new(),
        }
    }

    /// Does the robot's time come from `/clock`?
    pub fn is_simulated(&self) -> bool {
        self.simulated
    }

    /// A `/clock` message: the robot's time is now `secs`. Ignored on the wall clock, and
    /// when not finite or negative.
    pub fn tick(&self, secs: f64) {
        if !(self.simulated && secs.is_finite() && secs >= 0.0) {
            return;
        }
        *self.latest.lock().unwrap_or_else(PoisonError::into_inner) = Some((secs, Instant::now()));
        self.changed.notify_all();
    }

    /// The robot's time now (s): the last `/clock` (`None` before the first), or the wall
    /// clock's seconds since the UNIX epoch.
    pub fn now(&self) -> Option<f64> {
        if self.simulated {
            self.latest
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .map(|(t, _)| t)
        } else {
            Some(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0.0, |d| d.as_secs_f64()),
            )
        }
    }

    /// Wait until the robot's time is at least `secs`, at most `within` of wall time;
    /// `true` if it got there. On the wall clock it returns at once (the run's own pacing
    /// waits).
    pub fn wait_for(&self, secs: f64, within: Duration) -> bool {
        if !self.simulated {
            return true;
        }
        let deadline = Instant::now() + within;
        let mut g = self.latest.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if g.is_some_and(|(t, _)| t >= secs) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            g = self
                .changed
                .wait_timeout(g, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn the_wall_clock_is_the_epoch_and_ignores_clock_messages() {
        let c = RobotClock::new(false);
        c.tick(5.0);
        assert!(c.now().unwrap() > 1.0e9);
        assert!(c.wait_for(1.0e12, Duration::ZERO));
    }

    #[test]
    fn a_simulated_clock_follows_clock_messages() {
        let c = Arc::new(RobotClock::new(true));
        assert_eq!(c.now(), None);
        assert!(!c.wait_for(1.0, Duration::ZERO));
        c.tick(f64::NAN);
        c.tick(-1.0);
        assert_eq!(c.now(), None);
        let c2 = c.clone();
        let t = std::thread::spawn(move || c2.wait_for(2.0, Duration::from_secs(60)));
        c.tick(1.0);
        c.tick(2.5);
        assert!(t.join().unwrap());
        assert_eq!(c.now(), Some(2.5));
    }
}
