//! Steering the AUV from outside its mission: to a point (a `goto` goal: [`AuvPilot`])
//! and by velocity (ROS `cmd_vel`: [`crate::velocity::AuvVelocity`]).
//!
//! Frame: the worksite's, as the AUV's published pose has it ([`NavReader`]): x east and
//! y north of the worksite's origin (m, from `LATITUDE`/`LONGITUDE`), yaw
//! counter-clockwise from east (from the compass heading `PLATFORM_YAW_ANGLE`).
//!
//! The AUV steers by setpoints, not velocities: a heading, a speed through the water
//! (0 turns the propeller off; it cannot go backwards) and a depth or depth rate, which
//! it reaches by pitching, so only while it moves. It turns at a limited rate (6°/s on
//! the LRAUV, less below its rudder's authority speed), so it cannot turn on the spot and
//! has a turning circle (about 9.5 m radius at 1 m/s).
//!
//! - goto: head for the point at cruise speed, holding the depth the vehicle was at when
//!   the goal was taken up. A point inside the turning circle on the side it would turn
//!   to cannot be reached by turning now: the vehicle holds its heading until the point
//!   is outside that circle, then turns. A goal without a tolerance counts as reached
//!   within [`AUV_TOLERANCE`]. A stop turns the propeller off (speed 0) and leaves the
//!   other channels as they were, so the vehicle coasts to a halt at its depth.
//! - velocity: speed clamped to [0, top speed]; a yaw rate (clamped to the turn rate)
//!   becomes a heading setpoint one cycle's turn ahead of the current heading, which the
//!   vehicle reaches within the cycle; a climb rate (up positive) becomes a depth rate,
//!   and no climb holds the depth the vehicle is at.

use super::{Fix, Pilot};
use skipper_core::geometry::wrap_rad;
use skipper_core::vocabulary::auv::{NavReader, NAV_SIGNALS};
use skipper_core::{
    Actuation, AuvSetpoints, ControllerError, Cycle, Handling, Signals, VehicleInfo,
};
use std::f64::consts::FRAC_PI_2;

/// Default distance at which an AUV's goal counts as reached (m): the default capture
/// radius of a mission's `Waypoint` (10 m), so a goto and a mission count "there" alike, and
/// more than the LRAUV's turning radius at 1 m/s (about 9.5 m), inside which it could
/// otherwise circle a point it keeps overshooting.
pub const AUV_TOLERANCE: f64 = 10.0;

/// The pilot holds course while the point is closer than this many turning radii to the
/// centre of the turn toward it, and until it is farther than [`CLEAR_LEAVE`] radii.
const CLEAR_ENTER: f64 = 1.1;
/// See [`CLEAR_ENTER`].
const CLEAR_LEAVE: f64 = 1.5;

/// What the pilot needs to know of the AUV.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AuvLimits {
    /// top speed through the water (m/s)
    pub max_speed: f64,
    /// the speed a goto flies at (m/s)
    pub cruise: f64,
    /// turn rate at speed (rad/s)
    pub turn_rate: f64,
    /// speed from which the rudder has full authority (m/s); slower, it turns slower
    pub authority_speed: f64,
}

impl Default for AuvLimits {
    /// The simulated LRAUV's.
    fn default() -> Self {
        Self {
            max_speed: 1.0,
            cruise: 1.0,
            turn_rate: 6f64.to_radians(),
            authority_speed: 0.5,
        }
    }
}

impl From<Handling> for AuvLimits {
    fn from(h: Handling) -> Self {
        Self {
            max_speed: h.max_speed,
            cruise: h.cruise_speed,
            turn_rate: h.turn_rate,
            authority_speed: h.authority_speed,
        }
    }
}

impl AuvLimits {
    /// The goto speed: the cruise speed, at most the top speed.
    pub fn goto_speed(&self) -> f64 {
        self.cruise.clamp(0.0, self.max_speed)
    }
    /// The radius of the tightest turn at the goto speed (m).
    pub fn turn_radius(&self) -> f64 {
        self.goto_speed().max(self.authority_speed) / self.turn_rate.max(1e-6)
    }
}

/// Propeller off; every other channel as it was.
pub(crate) fn propeller_off(a: &mut Actuation) {
    a.auv = Some(AuvSetpoints {
        speed: Some(0.0),
        ..AuvSetpoints::default()
    });
}

/// The goal runner's pilot for the AUV.
#[derive(Debug, Clone)]
pub struct AuvPilot {
    nav: NavReader,
    limits: AuvLimits,
    hold_depth: f64,
    /// holding course until the point is clear of the turning circle
    clearing: bool,
}

impl AuvPilot {
    /// A pilot in the frame whose origin is at (latitude, longitude) in degrees.
    pub fn new(origin: (f64, f64), limits: AuvLimits) -> Self {
        Self {
            nav: NavReader::new(origin),
            limits,
            hold_depth: 0.0,
            clearing: false,
        }
    }
}

impl Pilot for AuvPilot {
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.nav.bind(s);
        if !self.nav.is_bound() {
            return Err(ControllerError::vehicle(format!(
                "goals need the signals {}, and {} lacks some",
                NAV_SIGNALS[..4]
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", "),
                vehicle.name
            )));
        }
        Ok(())
    }

    fn default_tolerance(&self) -> f64 {
        AUV_TOLERANCE
    }

    fn fix(&self, s: &Signals) -> Option<Fix> {
        self.nav.read(s).map(|n| Fix {
            x: n.x,
            y: n.y,
            yaw: n.yaw,
        })
    }

    fn begin(&mut self, s: &Signals) {
        if let Some(n) = self.nav.read(s) {
            self.hold_depth = n.depth;
        }
        self.clearing = false;
    }

    fn steer(&mut self, c: &mut Cycle<'_>, fix: Fix, x: f64, y: f64, _distance: f64) {
        let bearing = (y - fix.y).atan2(x - fix.x);
        let err = wrap_rad(bearing - fix.yaw);
        // the centre of the tightest turn toward the point
        let r = self.limits.turn_radius();
        let side = fix.yaw + FRAC_PI_2.copysign(err);
        let (cx, cy) = (fix.x + r * side.cos(), fix.y + r * side.sin());
        // turning now would circle the point: go on straight until it is well clear
        // (the margins keep the vehicle from dithering on the circle's edge)
        let off = (x - cx).hypot(y - cy);
        if off < CLEAR_ENTER * r {
            self.clearing = true;
        } else if off > CLEAR_LEAVE * r {
            self.clearing = false;
        }
        let heading = if self.clearing { fix.yaw } else { bearing };
        c.actuation.auv = Some(AuvSetpoints {
            heading: Some(heading),
            speed: Some(self.limits.goto_speed()),
            depth: Some(self.hold_depth),
            ..AuvSetpoints::default()
        });
    }

    fn stop(&self, a: &mut Actuation) {
        propeller_off(a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::Events;
    use std::time::Duration;

    #[test]
    fn the_steering_holds_course_while_the_point_is_inside_the_turn() {
        let mut p = AuvPilot::new((0.0, 0.0), AuvLimits::default());
        p.hold_depth = 12.0;
        let info = VehicleInfo {
            name: "a".into(),
            kind: skipper_core::VehicleKind::Auv,
            model: "m".into(),
        };
        let s = Signals::new();
        let mut a = Actuation::default();
        let mut ev = Events::new();
        let mut c = Cycle {
            now: Duration::ZERO,
            dt: Duration::from_millis(200),
            cycle: 1,
            robot: 0,
            vehicle: &info,
            signals: &s,
            actuation: &mut a,
            events: &mut ev,
        };
        let fix = Fix {
            x: 0.0,
            y: 0.0,
            yaw: 0.0,
        };
        // abeam at 3 m: inside the ~9.5 m circle, hold yaw 0
        p.steer(&mut c, fix, 0.0, 3.0, 3.0);
        let sp = c.actuation.auv.unwrap();
        assert_eq!(sp.heading, Some(0.0));
        assert_eq!(sp.depth, Some(12.0));
        assert_eq!(sp.speed, Some(1.0));
        // behind, far: turn for it
        p.steer(&mut c, fix, -100.0, 1.0, 100.0);
        let h = c.actuation.auv.unwrap().heading.unwrap();
        assert!(h.abs() > 3.0, "{h}");
    }
}
