//! Checked conversions from floating-point seconds, rates and speed factors to
//! [`Duration`]s.
//!
//! `Duration::from_secs_f64`, `mul_f64` and `div_f64` panic on a negative, infinite, NaN
//! or too large value. Every number that reaches a duration from a user (a command-line
//! flag, a file) goes through [`duration_from_secs`], [`period_of_rate`] or
//! [`speed_factor`], which say what is wrong; values from a peer are clamped with
//! [`clamp_secs`] (the caller warns); [`scale`] multiplies a duration by a factor and
//! saturates instead of panicking.

use std::time::Duration;

/// The largest speed factor of a paced run (the dashboard's bound too).
pub const MAX_SPEED: f64 = 1000.0;
/// The smallest speed factor of a paced run.
pub const MIN_SPEED: f64 = 1e-3;
/// The largest cycle rate (Hz).
pub const MAX_RATE: f64 = 1000.0;
/// The longest duration a number of seconds may name: about 31 700 years, far past any
/// run and far below the point where adding it to an `Instant` could overflow.
pub const MAX_SECS: f64 = 1e12;

/// Why a number is not a duration, a rate or a speed factor.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum SecondsError {
    /// NaN or infinite.
    #[error("{0} is not a finite number")]
    NotFinite(f64),
    /// Below zero (or not above zero where that is required).
    #[error("{0} is too small: it must be above {1}")]
    TooSmall(f64, f64),
    /// Beyond the largest accepted value.
    #[error("{0} is too large: it must be at most {1}")]
    TooLarge(f64, f64),
}

fn finite(x: f64) -> Result<f64, SecondsError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(SecondsError::NotFinite(x))
    }
}

/// `s` seconds (0 ≤ s ≤ [`MAX_SECS`]).
pub fn duration_from_secs(s: f64) -> Result<Duration, SecondsError> {
    let s = finite(s)?;
    if s < 0.0 {
        return Err(SecondsError::TooSmall(s, 0.0));
    }
    if s > MAX_SECS {
        return Err(SecondsError::TooLarge(s, MAX_SECS));
    }
    Ok(Duration::from_secs_f64(s))
}

/// The period of a rate in Hz (0 < hz ≤ [`MAX_RATE`], and the period at most
/// [`MAX_SECS`]).
pub fn period_of_rate(hz: f64) -> Result<Duration, SecondsError> {
    let hz = finite(hz)?;
    if hz > MAX_RATE {
        return Err(SecondsError::TooLarge(hz, MAX_RATE));
    }
    if hz <= 1.0 / MAX_SECS {
        return Err(SecondsError::TooSmall(hz, 1.0 / MAX_SECS));
    }
    duration_from_secs(1.0 / hz)
}

/// A speed factor of a paced run ([`MIN_SPEED`] ≤ f ≤ [`MAX_SPEED`]).
pub fn speed_factor(f: f64) -> Result<f64, SecondsError> {
    let f = finite(f)?;
    if f < MIN_SPEED {
        return Err(SecondsError::TooSmall(f, MIN_SPEED));
    }
    if f > MAX_SPEED {
        return Err(SecondsError::TooLarge(f, MAX_SPEED));
    }
    Ok(f)
}

/// `s` seconds from a peer, clamped into `[min, max]` (NaN gives `min`); the second
/// value is `true` when the value had to be changed, so the caller can warn.
pub fn clamp_secs(s: f64, min: Duration, max: Duration) -> (Duration, bool) {
    let (lo, hi) = (min.as_secs_f64(), max.as_secs_f64());
    if s.is_nan() {
        return (min, true);
    }
    if s < lo {
        (min, true)
    } else if s > hi {
        (max, true)
    } else {
        (Duration::from_secs_f64(s).clamp(min, max), false)
    }
}

/// `d * factor`, saturating at zero and at [`Duration::MAX`] (a NaN factor gives zero).
pub fn scale(d: Duration, factor: f64) -> Duration {
    let s = d.as_secs_f64() * factor;
    if s.is_nan() || s <= 0.0 {
        Duration::ZERO
    } else {
        Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_in_range_convert_and_the_rest_say_why_not() {
        assert_eq!(duration_from_secs(1.5), Ok(Duration::from_millis(1500)));
        assert_eq!(duration_from_secs(0.0), Ok(Duration::ZERO));
        for bad in [-1.0, f64::NAN, f64::INFINITY, 1e300, f64::MAX] {
            assert!(duration_from_secs(bad).is_err(), "{bad}");
        }
        assert!(duration_from_secs(1e300)
            .unwrap_err()
            .to_string()
            .contains("too large"));
    }

    #[test]
    fn rates_and_speeds_are_bounded() {
        assert_eq!(period_of_rate(10.0), Ok(Duration::from_millis(100)));
        for bad in [0.0, -5.0, 1e-300, 1e300, f64::NAN, 5e3] {
            assert!(period_of_rate(bad).is_err(), "{bad}");
        }
        assert_eq!(speed_factor(50.0), Ok(50.0));
        for bad in [0.0, 1e-300, 1e300, f64::INFINITY, 1001.0] {
            assert!(speed_factor(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn peer_values_are_clamped_and_say_so() {
        let (lo, hi) = (Duration::from_millis(1), Duration::from_secs(3600));
        assert_eq!(clamp_secs(2.0, lo, hi), (Duration::from_secs(2), false));
        assert_eq!(clamp_secs(1e300, lo, hi), (hi, true));
        assert_eq!(clamp_secs(-1.0, lo, hi), (lo, true));
        assert_eq!(clamp_secs(f64::NAN, lo, hi), (lo, true));
        assert_eq!(clamp_secs(f64::INFINITY, lo, hi), (hi, true));
    }

    #[test]
    fn scaling_saturates() {
        let d = Duration::from_secs(10);
        assert_eq!(scale(d, 2.0), Duration::from_secs(20));
        assert_eq!(scale(d, 1e300), Duration::MAX);
        assert_eq!(scale(d, f64::INFINITY), Duration::MAX);
        assert_eq!(scale(d, -1.0), Duration::ZERO);
        assert_eq!(scale(d, f64::NAN), Duration::ZERO);
    }
}
