//! Clocks and durations.
//!
//! A run's time is the time since its start. A [`SimClock`] jumps straight to the next
//! tick, so a four-hour mission runs in well under a second; a [`WallClock`] sleeps until
//! the tick is due (optionally faster or slower than real time by a speed factor).
//! [`parse_duration`] reads the durations users type (`600`, `90s`, `10m`, `4h`, `1h30m`).

use std::time::{Duration, Instant};

/// A source of run time that the cycle runner waits on between cycles.
pub trait Clock: Send {
    /// Time since the start of the run.
    fn now(&self) -> Duration;
    /// Block (wall clock) or jump (simulated clock) until `t`; returns at once if `t` is past.
    fn wait_until(&mut self, t: Duration);
    /// `true` for simulated time.
    fn is_simulated(&self) -> bool;
    /// Change the speed factor (wall clocks only; 1.0 is real time).
    fn set_speed(&mut self, _factor: f64) {}
}

/// Simulated time: waiting is instantaneous and deterministic.
#[derive(Debug, Default, Clone)]
pub struct SimClock {
    now: Duration,
}

impl SimClock {
    /// A simulated clock at time zero.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Clock for SimClock {
    fn now(&self) -> Duration {
        self.now
    }
    fn wait_until(&mut self, t: Duration) {
        if t > self.now {
            self.now = t;
        }
    }
    fn is_simulated(&self) -> bool {
        true
    }
}

/// Wall-clock time, scaled by a speed factor (2.0 runs twice as fast as real time).
#[derive(Debug, Clone)]
pub struct WallClock {
    origin: Instant,
    /// Run time at `origin`.
    base: Duration,
    factor: f64,
}

impl WallClock {
    /// A wall clock starting now at run time zero, at real-time speed.
    pub fn new() -> Self {
        Self::with_speed(1.0)
    }
    /// A wall clock running `factor` times faster than real time.
    pub fn with_speed(factor: f64) -> Self {
        Self {
            origin: Instant::now(),
            base: Duration::ZERO,
            factor: sane_factor(factor),
        }
    }
}

impl Default for WallClock {
    fn default() -> Self {
        Self::new()
    }
}

/// A usable speed factor: out of range factors are brought into
/// [`MIN_SPEED`, `MAX_SPEED`](crate::seconds), NaN is real time.
fn sane_factor(f: f64) -> f64 {
    if f.is_nan() {
        1.0
    } else {
        f.clamp(crate::seconds::MIN_SPEED, crate::seconds::MAX_SPEED)
    }
}

impl Clock for WallClock {
    fn now(&self) -> Duration {
        self.base
            .saturating_add(crate::seconds::scale(self.origin.elapsed(), self.factor))
    }
    fn wait_until(&mut self, t: Duration) {
        let now = self.now();
        if t > now {
            std::thread::sleep(crate::seconds::scale(t - now, 1.0 / self.factor));
        }
    }
    fn is_simulated(&self) -> bool {
        false
    }
    fn set_speed(&mut self, factor: f64) {
        let now = self.now();
        self.origin = Instant::now();
        self.base = now;
        self.factor = sane_factor(factor);
    }
}

/// Error for a duration that does not parse.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid duration `{input}`: {reason} (expected e.g. `600`, `90s`, `10m`, `4h`, `1h30m`, `250ms`)")]
pub struct DurationError {
    /// What the user typed.
    pub input: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// Parse a duration: a bare number is seconds; otherwise numbers each followed by a unit
/// (`ms`, `s`, `m`/`min`, `h`, `d`), summed: `90s`, `10m`, `4h`, `1h30m`, `1.5h`.
pub fn parse_duration(input: &str) -> Result<Duration, DurationError> {
    let err = |reason| DurationError {
        input: input.to_string(),
        reason,
    };
    let s = input.trim();
    if s.is_empty() {
        return Err(err("it is empty"));
    }
    if let Ok(secs) = s.parse::<f64>() {
        return seconds(secs).ok_or_else(|| err("it must be a finite, non-negative number"));
    }
    let mut total = 0.0f64;
    let mut rest = s;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_len == 0 {
            return Err(err("a unit must follow a number"));
        }
        let value: f64 = rest[..num_len]
            .parse()
            .map_err(|_| err("a number is malformed"))?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match rest[..unit_len].trim() {
            "ms" => 1e-3,
            "s" | "sec" => 1.0,
            "m" | "min" => 60.0,
            "h" => 3600.0,
            "d" => 86400.0,
            "" => return Err(err("a number needs a unit when several parts are given")),
            _ => return Err(err("unknown unit")),
        };
        rest = &rest[unit_len..];
        total += value * scale;
    }
    seconds(total).ok_or_else(|| err("it is too large"))
}

fn seconds(s: f64) -> Option<Duration> {
    crate::seconds::duration_from_secs(s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_of_the_cli_contract() {
        assert_eq!(parse_duration("600").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("10m").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_duration("4h").unwrap(), Duration::from_secs(14400));
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("1.5h").unwrap(), Duration::from_secs(5400));
    }

    #[test]
    fn rejects_nonsense_with_a_reason() {
        for bad in ["", "abc", "10x", "-5", "1h30", "s", "inf"] {
            let e = parse_duration(bad).unwrap_err();
            assert!(e.to_string().contains("invalid duration"), "{bad}: {e}");
        }
    }

    #[test]
    fn sim_clock_jumps_and_never_goes_back() {
        let mut c = SimClock::new();
        c.wait_until(Duration::from_secs(5));
        assert_eq!(c.now(), Duration::from_secs(5));
        c.wait_until(Duration::from_secs(1));
        assert_eq!(c.now(), Duration::from_secs(5));
        assert!(c.is_simulated());
    }
}
