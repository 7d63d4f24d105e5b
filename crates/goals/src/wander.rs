//! The built-in demo controller (`skipper run` with no controller): wander and avoid
//! obstacles, with the sonar ring.
//!
//! Cruise ahead; slow down and steer away from obstacles ahead or beside; turn in place
//! toward the more open side when something is close ahead; back off and turn after a
//! bump or stall. It needs the front sonars (`sonar.0` .. `sonar.7`), so it drives the
//! simulated Pioneer and any real robot with a sonar ring alike.

use skipper_core::vocabulary::ground;
use skipper_core::{
    Controller, ControllerError, Cycle, Drive, SignalId, Signals, Status, VehicleInfo,
};

/// Cruise speed (m/s).
const CRUISE: f64 = 0.45;
/// Below this range ahead, turn in place (m).
const STOP_RANGE: f64 = 0.5;
/// Turn in place until this much is free ahead (m).
const CLEAR_RANGE: f64 = 0.9;
/// Below this range ahead, slow down and steer (m).
const SLOW_RANGE: f64 = 1.2;
/// Keep this far from things beside (m).
const SIDE_RANGE: f64 = 0.45;
/// Turning rate in place (rad/s).
const TURN_RATE: f64 = 0.8;

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
enum Mode {
    Cruise,
    Turn { left: bool },
    Back { until_s: f64, left: bool },
}

/// Wander and avoid obstacles.
#[derive(Debug)]
pub struct Wander {
    sonar: [Option<SignalId>; 8],
    bumper: Option<SignalId>,
    stall: Option<SignalId>,
    mode: Mode,
}

impl Default for Wander {
    fn default() -> Self {
        Self::new()
    }
}

impl Wander {
    /// A wanderer, cruising.
    pub fn new() -> Self {
        Self {
            sonar: [None; 8],
            bumper: None,
            stall: None,
            mode: Mode::Cruise,
        }
    }

    fn range(&self, s: &Signals, k: usize) -> f64 {
        self.sonar[k]
            .and_then(|id| s.f64(id))
            .unwrap_or(f64::INFINITY)
    }
}

impl Controller for Wander {
    fn name(&self) -> &str {
        "wander"
    }

    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        for (k, slot) in self.sonar.iter_mut().enumerate() {
            *slot = ground::SONAR.id(s, k);
        }
        if self.sonar.iter().any(Option::is_none) {
            return Err(ControllerError::vehicle(format!(
                "the wander demo needs the front sonars sonar.0 .. sonar.7, and {} has none",
                vehicle.name
            )));
        }
        self.bumper = ground::BUMPER_FRONT.id(s);
        self.stall = ground::STALL_LEFT.id(s);
        Ok(())
    }

    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let s = c.signals;
        let now = c.now.as_secs_f64();
        let front = (2..=5)
            .map(|k| self.range(s, k))
            .fold(f64::INFINITY, f64::min);
        let left = (0..=1)
            .map(|k| self.range(s, k))
            .fold(f64::INFINITY, f64::min);
        let right = (6..=7)
            .map(|k| self.range(s, k))
            .fold(f64::INFINITY, f64::min);
        let open_left = self.range(s, 1) + self.range(s, 2) >= self.range(s, 5) + self.range(s, 6);
        let bumped = self
            .bumper
            .and_then(|id| s.get(id).as_i64())
            .is_some_and(|b| b != 0)
            || self
                .stall
                .and_then(|id| s.get(id).as_bool())
                .unwrap_or(false);

        if bumped && !matches!(self.mode, Mode::Back { .. }) {
            self.mode = Mode::Back {
                until_s: now + 1.0,
                left: open_left,
            };
        }
        self.mode = match self.mode {
            Mode::Back { until_s, left } if now >= until_s => Mode::Turn { left },
            Mode::Turn { .. } if front > CLEAR_RANGE => Mode::Cruise,
            Mode::Cruise if front < STOP_RANGE => Mode::Turn { left: open_left },
            m => m,
        };
        let (v, w) = match self.mode {
            Mode::Back { .. } => (-0.2, 0.0),
            Mode::Turn { left } => (0.0, if left { TURN_RATE } else { -TURN_RATE }),
            Mode::Cruise => {
                let mut w = 0.0;
                if left < SIDE_RANGE {
                    w -= 0.4;
                }
                if right < SIDE_RANGE {
                    w += 0.4;
                }
                if front < SLOW_RANGE {
                    let k = ((front - STOP_RANGE) / (SLOW_RANGE - STOP_RANGE)).clamp(0.0, 1.0);
                    (
                        0.1 + (CRUISE - 0.1) * k,
                        w + if open_left { 0.6 } else { -0.6 },
                    )
                } else {
                    (CRUISE, w)
                }
            }
        };
        c.actuation.drive = Some(Drive::velocity(v, w));
        Ok(Status::Running)
    }

    fn state(&self) -> Option<serde_json::Value> {
        serde_json::to_value(self.mode).ok()
    }
}
