//! ROS time stamps and the injected clock.
//!
//! Every state machine in this crate reads "now" from a [`Clock`] it is given, so tests
//! drive time by hand with a [`ManualClock`] and nothing depends on the wall clock except
//! [`SystemClock`], which the transports use by default.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A ROS `time`: seconds and nanoseconds since the Unix epoch. Zero means "not set".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    /// seconds
    pub secs: u32,
    /// nanoseconds (0..1e9)
    pub nsecs: u32,
}

impl Time {
    /// The zero time ("not set").
    pub const ZERO: Time = Time { secs: 0, nsecs: 0 };

    /// A time from seconds and nanoseconds (nanoseconds above 1e9 carry into seconds).
    pub fn new(secs: u32, nsecs: u32) -> Self {
        Self::from_nanos(u64::from(secs) * 1_000_000_000 + u64::from(nsecs))
    }
    /// A time from nanoseconds since the epoch (saturating).
    pub fn from_nanos(n: u64) -> Self {
        let secs = (n / 1_000_000_000).min(u64::from(u32::MAX)) as u32;
        Time {
            secs,
            nsecs: (n % 1_000_000_000) as u32,
        }
    }
    /// A time from (non-negative) seconds.
    pub fn from_secs_f64(s: f64) -> Self {
        if s.is_finite() && s > 0.0 {
            Self::from_nanos((s * 1e9) as u64)
        } else {
            Self::ZERO
        }
    }
    /// Nanoseconds since the epoch.
    pub fn as_nanos(self) -> u64 {
        u64::from(self.secs) * 1_000_000_000 + u64::from(self.nsecs)
    }
    /// Seconds since the epoch.
    pub fn as_secs_f64(self) -> f64 {
        f64::from(self.secs) + f64::from(self.nsecs) * 1e-9
    }
    /// `true` for the zero time.
    pub fn is_zero(self) -> bool {
        self == Self::ZERO
    }
    /// This time plus `d`.
    pub fn plus(self, d: Duration) -> Self {
        Self::from_nanos(self.as_nanos().saturating_add(d.as_nanos() as u64))
    }
    /// How long after `earlier` this is (zero if it is not after).
    pub fn since(self, earlier: Time) -> Duration {
        Duration::from_nanos(self.as_nanos().saturating_sub(earlier.as_nanos()))
    }
}

/// The longest duration a peer's number of seconds is taken as (about 116 days): far
/// past any status period or list timeout, and far below where adding it to an instant
/// could overflow.
pub const MAX_PEER_SECS: Duration = Duration::from_secs(10_000_000);

/// Seconds from a peer (a parameter on the master, a field of a message) as a duration
/// clamped into `[min, max]`, never a panic: a value that had to be changed (NaN,
/// infinite, negative, too large) is logged as a warning that names `what`. The only
/// place where this crate turns a peer's floating-point seconds into a `Duration`.
pub fn peer_secs(what: &str, s: f64, min: Duration, max: Duration) -> Duration {
    let clamped = if s.is_nan() {
        min
    } else {
        // from here on `s` is a number, and the bounds keep it finite
        match Duration::try_from_secs_f64(s.clamp(min.as_secs_f64(), max.as_secs_f64())) {
            Ok(d) => d.clamp(min, max),
            Err(_) => min,
        }
    };
    if s.is_nan() || s < min.as_secs_f64() || s > max.as_secs_f64() {
        tracing::warn!(
            "{what} = {s:?} s is out of range; using {:?} s",
            clamped.as_secs_f64()
        );
    }
    clamped
}

/// A ROS `duration`: signed seconds and nanoseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RosDuration {
    /// seconds
    pub secs: i32,
    /// nanoseconds
    pub nsecs: i32,
}

/// Where "now" comes from.
pub trait Clock: Send + Sync {
    /// The current time.
    fn now(&self) -> Time;
}

/// The system's wall clock (ROS time without simulation).
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Time {
        let d = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        Time::from_nanos(d.as_nanos() as u64)
    }
}

/// A clock that only moves when told to (tests, simulated time).
#[derive(Debug, Default)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    /// A clock at `t`.
    pub fn at(t: Time) -> Self {
        Self(AtomicU64::new(t.as_nanos()))
    }
    /// A clock at `secs` seconds.
    pub fn at_secs(secs: f64) -> Self {
        Self::at(Time::from_secs_f64(secs))
    }
    /// Set the time.
    pub fn set(&self, t: Time) {
        self.0.store(t.as_nanos(), Ordering::SeqCst);
    }
    /// Move the time forward.
    pub fn advance(&self, d: Duration) {
        self.0.fetch_add(d.as_nanos() as u64, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Time {
        Time::from_nanos(self.0.load(Ordering::SeqCst))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nanos_carry_and_order() {
        let t = Time::new(1, 1_500_000_000);
        assert_eq!(
            t,
            Time {
                secs: 2,
                nsecs: 500_000_000
            }
        );
        assert!(Time::new(1, 0) < Time::new(1, 1));
        assert_eq!(t.since(Time::new(2, 0)), Duration::from_millis(500));
        assert_eq!(Time::new(1, 0).since(t), Duration::ZERO);
        assert_eq!(Time::from_secs_f64(-3.0), Time::ZERO);
        assert_eq!(Time::from_secs_f64(1e300).secs, u32::MAX);
    }

    #[test]
    fn peer_seconds_are_clamped_never_a_panic() {
        let (lo, hi) = (Duration::from_millis(1), Duration::from_secs(60));
        assert_eq!(peer_secs("x", 2.5, lo, hi), Duration::from_millis(2500));
        assert_eq!(peer_secs("x", 1e300, lo, hi), hi);
        assert_eq!(peer_secs("x", f64::INFINITY, lo, hi), hi);
        assert_eq!(peer_secs("x", -1.0, lo, hi), lo);
        assert_eq!(peer_secs("x", f64::NAN, lo, hi), lo);
        assert_eq!(peer_secs("x", 1e-300, lo, hi), lo);
    }

    #[test]
    fn manual_clock_moves_only_when_told() {
        let c = ManualClock::at_secs(10.0);
        assert_eq!(c.now(), Time::new(10, 0));
        c.advance(Duration::from_millis(250));
        assert_eq!(c.now(), Time::new(10, 250_000_000));
    }
}
