//! The ground robot's pilot: `pose.*` (odometry) for where it is, velocity drive, the
//! front sonars for what is ahead.

use super::{Fix, Pilot};
use skipper_core::geometry::wrap_rad;
use skipper_core::vocabulary::ground::{self, PoseReader};
use skipper_core::{Actuation, ControllerError, Cycle, Drive, SignalId, Signals, VehicleInfo};

/// Default distance at which a ground robot's goal counts as reached (m).
pub const GROUND_TOLERANCE: f64 = 0.15;

/// A ground robot.
#[derive(Debug, Default)]
pub struct GroundPilot {
    pose: Option<PoseReader>,
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
        self.pose = Some(PoseReader::bind(s).ok_or_else(|| {
            ControllerError::vehicle(format!(
                "goals need the signals {}, {} and {}, and {} lacks some",
                ground::POSE_X.name,
                ground::POSE_Y.name,
                ground::POSE_YAW.name,
                vehicle.name
            ))
        })?);
        for (k, slot) in self.sonar.iter_mut().enumerate() {
            *slot = ground::SONAR.id(s, k);
        }
        Ok(())
    }

    fn default_tolerance(&self) -> f64 {
        GROUND_TOLERANCE
    }

    fn fix(&self, s: &Signals) -> Option<Fix> {
        let p = self.pose?.pose(s)?;
        Some(Fix {
            x: p.x,
            y: p.y,
            yaw: p.yaw,
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
