//! The P2OS-style motion controller of the simulated Pioneer.
//!
//! Like the robot's firmware, it keeps a translational channel (velocity or a relative
//! move) and a rotational channel (velocity, absolute heading or a heading change), or
//! both wheel velocities, or open-loop throttles; it brings the actual velocities to the
//! set-points under the acceleration and deceleration limits, and stops at once on estop
//! or when the motors are disabled.

use super::models::{self, MotionModel};
use super::params;
use skipper_core::geometry::wrap_rad;
use skipper_core::{Drive, MotionLimits, Rotation, Translation};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    Channels { trans: Trans, rot: Rot },
    Wheels { left: f64, right: f64 },
    Motor { left: f64, right: f64 },
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Trans {
    Velocity(f64),
    Move { remaining: f64 },
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Rot {
    Velocity(f64),
    Heading(f64),
}

/// The motion controller's state.
#[derive(Debug, Clone)]
pub struct Motion {
    mode: Mode,
    /// actual forward velocity (m/s)
    pub v: f64,
    /// actual angular velocity (rad/s)
    pub w: f64,
    /// motors enabled
    pub enabled: bool,
    /// estop latched until the next drive command
    pub estopped: bool,
    /// current limits
    pub max_velocity: f64,
    /// rad/s
    pub max_rot_velocity: f64,
    /// m/s²
    pub accel: f64,
    /// m/s²
    pub decel: f64,
    /// rad/s²
    pub rot_accel: f64,
    /// rad/s²
    pub rot_decel: f64,
    /// the model's limits (the absolute maxima cap what a client sets)
    model: MotionModel,
}

impl Default for Motion {
    fn default() -> Self {
        Self::for_model(models::P3DX)
    }
}

impl Motion {
    /// A motion controller at rest with a model's limits.
    pub fn for_model(model: MotionModel) -> Self {
        Self {
            mode: Mode::Channels {
                trans: Trans::Velocity(0.0),
                rot: Rot::Velocity(0.0),
            },
            v: 0.0,
            w: 0.0,
            enabled: true,
            estopped: false,
            max_velocity: model.max_velocity,
            max_rot_velocity: model.max_rot_velocity,
            accel: model.accel,
            decel: model.accel,
            rot_accel: model.rot_accel,
            rot_decel: model.rot_accel,
            model,
        }
    }
}

fn approach(cur: f64, target: f64, accel: f64, decel: f64, dt: f64) -> f64 {
    // speeding up (same sign, larger magnitude) uses accel; anything else decel
    let speeding_up = target * cur >= 0.0 && target.abs() > cur.abs();
    let rate = if speeding_up { accel } else { decel };
    let step = rate * dt;
    if (target - cur).abs() <= step {
        target
    } else {
        cur + step * (target - cur).signum()
    }
}

/// Brake a velocity `vel` (and the step's mean `mean`) so that a remaining distance `rem`
/// is covered without overshoot: no faster than decelerating at `decel` allows, and
/// landing exactly when the rest fits in this step.
fn land(vel: &mut f64, mean: &mut f64, rem: f64, decel: f64, dt: f64) {
    let dir = rem.signum();
    let cap = (2.0 * decel * rem.abs()).sqrt();
    if *vel * dir > cap {
        *vel = cap * dir;
        *mean = (*mean * dir).min(cap) * dir;
    }
    if *mean * dir * dt >= rem.abs() {
        *mean = rem / dt;
        *vel = 0.0;
    }
}

fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

impl Motion {
    /// Take a drive command; `heading` is the current odometry heading (rad).
    pub fn command(&mut self, d: &Drive, heading: f64) {
        match *d {
            Drive::Estop => {
                self.estopped = true;
                self.v = 0.0;
                self.w = 0.0;
                self.mode = Mode::Channels {
                    trans: Trans::Velocity(0.0),
                    rot: Rot::Velocity(0.0),
                };
                return;
            }
            Drive::Stop => {
                self.mode = Mode::Channels {
                    trans: Trans::Velocity(0.0),
                    rot: Rot::Velocity(0.0),
                };
            }
            Drive::Wheels { left, right } => {
                self.mode = Mode::Wheels {
                    left: finite_or_zero(left),
                    right: finite_or_zero(right),
                }
            }
            Drive::Motor { left, right } => {
                self.mode = Mode::Motor {
                    left: finite_or_zero(left).clamp(-1.0, 1.0),
                    right: finite_or_zero(right).clamp(-1.0, 1.0),
                }
            }
            Drive::Channels {
                translation,
                rotation,
            } => {
                let (mut trans, mut rot) = match self.mode {
                    Mode::Channels { trans, rot } => (trans, rot),
                    _ => (Trans::Velocity(self.v), Rot::Velocity(self.w)),
                };
                match translation {
                    Some(Translation::Velocity(v)) => trans = Trans::Velocity(finite_or_zero(v)),
                    Some(Translation::Move(d)) => {
                        trans = Trans::Move {
                            remaining: finite_or_zero(d),
                        }
                    }
                    None => {}
                }
                match rotation {
                    Some(Rotation::Velocity(w)) => rot = Rot::Velocity(finite_or_zero(w)),
                    Some(Rotation::Heading(h)) => rot = Rot::Heading(wrap_rad(finite_or_zero(h))),
                    Some(Rotation::DeltaHeading(dh)) => {
                        rot = Rot::Heading(wrap_rad(heading + finite_or_zero(dh)))
                    }
                    None => {}
                }
                self.mode = Mode::Channels { trans, rot };
            }
        }
        self.estopped = false;
    }

    /// Apply limits (P2OS SETV, SETRV, SETA, SETRA), capped at the firmware maxima.
    pub fn set_limits(&mut self, l: &MotionLimits) {
        let pos = |x: Option<f64>| x.filter(|v| v.is_finite() && *v > 0.0);
        if let Some(v) = pos(l.max_velocity) {
            self.max_velocity = v.min(self.model.abs_max_velocity);
        }
        if let Some(v) = pos(l.max_rot_velocity) {
            self.max_rot_velocity = v.min(self.model.abs_max_rot_velocity);
        }
        if let Some(v) = pos(l.accel) {
            self.accel = v;
        }
        if let Some(v) = pos(l.decel) {
            self.decel = v;
        }
        if let Some(v) = pos(l.rot_accel) {
            self.rot_accel = v;
        }
        if let Some(v) = pos(l.rot_decel) {
            self.rot_decel = v;
        }
    }

    /// Bring the actual velocities toward the set-points over `dt` seconds; `heading` is
    /// the odometry heading (rad). Returns the mean (v, w) over the step, to move by.
    pub fn update(&mut self, heading: f64, dt: f64) -> (f64, f64) {
        if !self.enabled || self.estopped {
            self.v = 0.0;
            self.w = 0.0;
            return (0.0, 0.0);
        }
        let (vt, wt) = match self.mode {
            Mode::Channels { trans, rot } => {
                let vt = match trans {
                    Trans::Velocity(v) => v.clamp(-self.max_velocity, self.max_velocity),
                    Trans::Move { remaining } => {
                        if remaining.abs() < 0.0005 {
                            0.0
                        } else {
                            remaining.signum()
                                * self
                                    .max_velocity
                                    .min((2.0 * self.decel * remaining.abs()).sqrt())
                        }
                    }
                };
                let wt = match rot {
                    Rot::Velocity(w) => w.clamp(-self.max_rot_velocity, self.max_rot_velocity),
                    Rot::Heading(h) => {
                        let err = wrap_rad(h - heading);
                        if err.abs() < 0.1f64.to_radians() {
                            0.0
                        } else {
                            err.signum()
                                * self
                                    .max_rot_velocity
                                    .min((2.0 * self.rot_decel * err.abs()).sqrt())
                        }
                    }
                };
                (vt, wt)
            }
            Mode::Wheels { left, right } => ((left + right) / 2.0, (right - left) / params::TRACK),
            Mode::Motor { left, right } => {
                let (l, r) = (left * self.max_velocity, right * self.max_velocity);
                ((l + r) / 2.0, (r - l) / params::TRACK)
            }
        };
        let (v0, w0) = (self.v, self.w);
        self.v = approach(self.v, vt, self.accel, self.decel, dt);
        self.w = approach(self.w, wt, self.rot_accel, self.rot_decel, dt);
        // the mean velocity over the step (exact under constant acceleration) ...
        let mut mean = ((v0 + self.v) / 2.0, (w0 + self.w) / 2.0);
        // ... but a relative move or a heading brakes as hard as it must to stop on the spot
        if let Mode::Channels { trans, rot } = self.mode {
            if let Trans::Move { remaining } = trans {
                land(&mut self.v, &mut mean.0, remaining, self.decel, dt);
            }
            if let Rot::Heading(h) = rot {
                land(
                    &mut self.w,
                    &mut mean.1,
                    wrap_rad(h - heading),
                    self.rot_decel,
                    dt,
                );
            }
        }
        mean
    }

    /// Account for distance actually travelled (a relative move counts down).
    pub fn travelled(&mut self, ds: f64) {
        if let Mode::Channels {
            trans: Trans::Move { remaining },
            ..
        } = &mut self.mode
        {
            let r = *remaining - ds;
            *remaining = if r * *remaining <= 0.0 { 0.0 } else { r };
        }
    }

    /// Motion was blocked: the wheels stall, actual velocities drop to zero.
    pub fn blocked(&mut self) {
        self.v = 0.0;
        self.w = 0.0;
    }

    /// Stop everything now and stay stopped.
    pub fn halt(&mut self) {
        self.command(&Drive::Estop, 0.0);
    }

    /// `true` while a set-point asks for motion.
    pub fn commanded_motion(&self) -> bool {
        match self.mode {
            Mode::Channels { trans, rot } => {
                !matches!(trans, Trans::Velocity(v) if v == 0.0)
                    || !matches!(rot, Rot::Velocity(w) if w == 0.0)
            }
            Mode::Wheels { left, right } | Mode::Motor { left, right } => {
                left != 0.0 || right != 0.0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accelerates_under_the_limit_then_holds() {
        let mut m = Motion::default();
        m.command(&Drive::velocity(0.5, 0.0), 0.0);
        let (mean, _) = m.update(0.0, 0.1);
        assert!((m.v - 0.03).abs() < 1e-12);
        assert!((mean - 0.015).abs() < 1e-12);
        for _ in 0..100 {
            m.update(0.0, 0.1);
        }
        assert_eq!(m.v, 0.5);
    }

    #[test]
    fn clamps_to_the_velocity_limit() {
        let mut m = Motion::default();
        m.command(&Drive::velocity(5.0, 10.0), 0.0);
        for _ in 0..200 {
            m.update(0.0, 0.1);
        }
        assert_eq!(m.v, params::MAX_VELOCITY);
        assert!((m.w - params::MAX_ROT_VELOCITY_DEG.to_radians()).abs() < 1e-12);
    }

    #[test]
    fn estop_is_immediate() {
        let mut m = Motion::default();
        m.command(&Drive::velocity(0.5, 0.0), 0.0);
        for _ in 0..50 {
            m.update(0.0, 0.1);
        }
        m.command(&Drive::Estop, 0.0);
        assert_eq!(m.update(0.0, 0.1), (0.0, 0.0));
    }

    #[test]
    fn heading_mode_turns_toward_the_target() {
        let mut m = Motion::default();
        m.command(&Drive::heading(1.0, 0.0), 0.0);
        let (_, w) = m.update(0.0, 0.1);
        assert!(w > 0.0);
        m.command(&Drive::heading(-1.0, 0.0), 0.0);
        let mut w = 0.0;
        for _ in 0..5 {
            w = m.update(0.0, 0.1).1;
        }
        assert!(w < 0.0);
    }

    #[test]
    fn heading_mode_settles_without_oscillating_across_180() {
        let mut m = Motion::default();
        let mut yaw = 0.0f64;
        m.command(&Drive::heading(std::f64::consts::PI, 0.0), yaw);
        for _ in 0..60 {
            let (_, w) = m.update(yaw, 0.1);
            yaw = wrap_rad(yaw + w * 0.1);
        }
        assert!(
            wrap_rad(yaw - std::f64::consts::PI).abs() < 1e-9,
            "{}",
            yaw.to_degrees()
        );
        assert_eq!(m.w, 0.0);
    }
}
