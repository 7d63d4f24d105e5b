//! The vehicle-specific half of the goal runner ([`super::goal::GoalRunner`]): where the
//! vehicle is in the goals' frame, how it steers toward a point, and how it stops.
//!
//! The goal runner keeps the goals (preemption, cancel, success within tolerance, the
//! inner controller held meanwhile); a [`Pilot`] knows the vehicle. [`GroundPilot`]
//! drives a differential-drive robot by velocity, turning on the spot and going round
//! what its front sonars see; the AUV's pilot is [`super::auv_pilot::AuvPilot`].

use skipper_core::geometry::wrap_rad;
use skipper_core::{Actuation, ControllerError, Cycle, Drive, SignalId, Signals, VehicleInfo};

/// Default distance at which a ground robot's goal counts as reached (m).
pub const GROUND_TOLERANCE: f64 = 0.15;

/// Where the vehicle is, in the goals' frame: x, y (m), yaw (rad, counter-clockwise
/// from +x).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fix {
    /// x (m)
    pub x: f64,
    /// y (m)
    pub y: f64,
    /// yaw (rad)
    pub yaw: f64,
}

/// How a goal runner steers one kind of vehicle to a point.
pub trait Pilot {
    /// Find the signals it needs (called once, after the vehicle first sensed).
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError>;
    /// The distance at which a goal sent without a tolerance counts as reached (m).
    fn default_tolerance(&self) -> f64;
    /// Where the vehicle is, or `None` if it reports no position.
    fn fix(&self, s: &Signals) -> Option<Fix>;
    /// A goal is taken up (a newer one included): note what it holds meanwhile.
    fn begin(&mut self, _s: &Signals) {}
    /// Steer toward `(x, y)`, `distance` away from `fix`.
    fn steer(&mut self, c: &mut Cycle<'_>, fix: Fix, x: f64, y: f64, distance: f64);
    /// Stop the vehicle (goal reached, cancelled or given up).
    fn stop(&self, a: &mut Actuation);
}

/// A ground robot: `pose.*` signals, velocity drive, front sonars for what is ahead.
#[derive(Debug, Default)]
pub struct GroundPilot {
    ids: Option<[SignalId; 3]>,
    sonar: [Option<SignalId>; 8],
}

impl GroundPilot {
    fn range(&self, s: &Signals, k: usize) -> f64 {
        self.sonar[k]
            .and_then(|id| s.f64(id))
            .unwrap_or(f64::INFINITY)
    }
}

impl Pilot for GroundPilot {
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        let id = |n: &str| {
            s.id(n).ok_or_else(|| {
                ControllerError::new(format!(
                    "goals need the signal {n}, and {} has none",
                    vehicle.name
                ))
            })
        };
        self.ids = Some([id("pose.x")?, id("pose.y")?, id("pose.yaw")?]);
        for (k, slot) in self.sonar.iter_mut().enumerate() {
            *slot = s.id(&format!("sonar.{k}"));
        }
        Ok(())
    }

    fn default_tolerance(&self) -> f64 {
        GROUND_TOLERANCE
    }

    fn fix(&self, s: &Signals) -> Option<Fix> {
        let ids = self.ids?;
        Some(Fix {
            x: s.f64(ids[0])?,
            y: s.f64(ids[1])?,
            yaw: s.f64(ids[2])?,
        })
    }

    /// Turn toward the goal, drive when roughly facing it, slow near it; with something
    /// close ahead, turn on the spot toward the more open side.
    fn steer(&mut self, c: &mut Cycle<'_>, fix: Fix, x: f64, y: f64, distance: f64) {
        let err = wrap_rad((y - fix.y).atan2(x - fix.x) - fix.yaw);
        let front = (2..=5)
            .map(|k| self.range(c.signals, k))
            .fold(f64::INFINITY, f64::min);
        let mut w = (1.5 * err).clamp(-1.0, 1.0);
        let mut v = if err.abs() < 1.0 {
            0.5 * err.cos()
        } else {
            0.0
        };
        v = v.min(0.8 * distance).max(0.0);
        if front < 0.5 && front < distance {
            let open_left = self.range(c.signals, 1) + self.range(c.signals, 2)
                >= self.range(c.signals, 5) + self.range(c.signals, 6);
            v = 0.0;
            w = if open_left { 0.8 } else { -0.8 };
        }
        c.actuation.drive = Some(Drive::velocity(v, w));
    }

    fn stop(&self, a: &mut Actuation) {
        a.drive = Some(Drive::Stop);
    }
}
