//! A controller's drive commands as the velocity a remote robot is sent (forward speed,
//! turn rate): velocities as they are; wheel speeds and throttles through the track
//! width; a heading or a relative move held by a simple controller on the robot's
//! odometry, until it is reached. A channel a command leaves out keeps its last command,
//! as on a P2OS robot; stop and estop zero both.

use crate::actuation::{Drive, MotionLimits, Rotation, Translation};
use crate::geometry::{wrap_rad, Pose2};

/// How a remote robot turns drive commands into velocities.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DriveParams {
    /// distance between the wheels (m), for wheel speeds and throttles
    pub track: f64,
    /// the speed of a full throttle and the top speed of a move (m/s)
    pub max_speed: f64,
    /// the fastest turn toward a heading (rad/s)
    pub max_turn_rate: f64,
}

impl Default for DriveParams {
    fn default() -> Self {
        Self {
            track: 0.3,
            max_speed: 0.5,
            max_turn_rate: 1.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Trans {
    Velocity(f64),
    /// move this far along `heading` from (`x`, `y`)
    Move {
        x: f64,
        y: f64,
        heading: f64,
        distance: f64,
    },
    /// a move not started yet (no pose when it came)
    MovePending(f64),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Rot {
    Velocity(f64),
    Heading(f64),
    DeltaPending(f64),
}

/// The latched drive command of one robot.
#[derive(Debug, Clone)]
pub struct DriveState {
    params: DriveParams,
    trans: Trans,
    rot: Rot,
    limits: (Option<f64>, Option<f64>),
}

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

impl DriveState {
    /// Standing still.
    pub fn new(params: DriveParams) -> Self {
        Self {
            params,
            trans: Trans::Velocity(0.0),
            rot: Rot::Velocity(0.0),
            limits: (None, None),
        }
    }

    /// Forget every command: stand still.
    pub fn halt(&mut self) {
        self.trans = Trans::Velocity(0.0);
        self.rot = Rot::Velocity(0.0);
    }

    /// Take this cycle's limits (top speed and turn rate; others have no meaning here).
    pub fn limit(&mut self, l: &MotionLimits) {
        let positive = |v: Option<f64>| v.filter(|v| v.is_finite() && *v > 0.0);
        if let Some(v) = positive(l.max_velocity) {
            self.limits.0 = Some(v);
        }
        if let Some(w) = positive(l.max_rot_velocity) {
            self.limits.1 = Some(w);
        }
    }

    /// Take a drive command.
    pub fn command(&mut self, d: &Drive) {
        let p = self.params;
        let wheels = |l: f64, r: f64| {
            let (l, r) = (finite(l), finite(r));
            (
                Trans::Velocity((l + r) / 2.0),
                Rot::Velocity((r - l) / p.track.max(1e-3)),
            )
        };
        match *d {
            Drive::Stop | Drive::Estop => self.halt(),
            Drive::Wheels { left, right } => (self.trans, self.rot) = wheels(left, right),
            Drive::Motor { left, right } => {
                let throttle = |t: f64| finite(t).clamp(-1.0, 1.0) * p.max_speed;
                (self.trans, self.rot) = wheels(throttle(left), throttle(right));
            }
            Drive::Channels {
                translation,
                rotation,
            } => {
                match translation {
                    Some(Translation::Velocity(v)) => self.trans = Trans::Velocity(finite(v)),
                    Some(Translation::Move(d)) => self.trans = Trans::MovePending(finite(d)),
                    None => {}
                }
                match rotation {
                    Some(Rotation::Velocity(w)) => self.rot = Rot::Velocity(finite(w)),
                    Some(Rotation::Heading(h)) if h.is_finite() => self.rot = Rot::Heading(h),
                    Some(Rotation::DeltaHeading(dh)) if dh.is_finite() => {
                        self.rot = Rot::DeltaPending(dh)
                    }
                    _ => {}
                }
            }
        }
    }

    /// The velocity to send now (forward m/s, turn rad/s), given where the robot is (its
    /// odometry, if known: a heading or a move needs it).
    pub fn velocity(&mut self, pose: Option<Pose2>) -> (f64, f64) {
        if let (Some(p), Trans::MovePending(d)) = (pose, self.trans) {
            self.trans = Trans::Move {
                x: p.x,
                y: p.y,
                heading: p.yaw,
                distance: d,
            };
        }
        if let (Some(p), Rot::DeltaPending(dh)) = (pose, self.rot) {
            self.rot = Rot::Heading(wrap_rad(p.yaw + dh));
        }
        let (top, turn) = (
            self.limits.0.unwrap_or(self.params.max_speed),
            self.limits.1.unwrap_or(self.params.max_turn_rate),
        );
        let v = match (self.trans, pose) {
            (Trans::Velocity(v), _) => v,
            (
                Trans::Move {
                    x,
                    y,
                    heading,
                    distance,
                },
                Some(p),
            ) => {
                let done = (p.x - x) * heading.cos() + (p.y - y) * heading.sin();
                let left = distance - done;
                if left.abs() < 0.01 {
                    self.trans = Trans::Velocity(0.0);
                    0.0
                } else {
                    (1.5 * left).clamp(-top, top)
                }
            }
            _ => 0.0,
        };
        let w = match (self.rot, pose) {
            (Rot::Velocity(w), _) => w,
            (Rot::Heading(h), Some(p)) => {
                let err = wrap_rad(h - p.yaw);
                if err.abs() < 0.01 {
                    0.0
                } else {
                    (2.0 * err).clamp(-turn, turn)
                }
            }
            _ => 0.0,
        };
        match self.limits {
            (None, None) => (v, w),
            _ => (v.clamp(-top, top), w.clamp(-turn, turn)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f64, yaw: f64) -> Option<Pose2> {
        Some(Pose2 { x, y: 0.0, yaw })
    }

    #[test]
    fn velocities_latch_per_channel_and_stop_zeroes_both() {
        let mut d = DriveState::new(DriveParams::default());
        assert_eq!(d.velocity(None), (0.0, 0.0));
        d.command(&Drive::velocity(0.4, 0.2));
        assert_eq!(d.velocity(None), (0.4, 0.2));
        d.command(&Drive::Channels {
            translation: None,
            rotation: Some(Rotation::Velocity(-0.1)),
        });
        assert_eq!(d.velocity(None), (0.4, -0.1));
        d.command(&Drive::velocity(f64::NAN, f64::INFINITY));
        assert_eq!(d.velocity(None), (0.0, 0.0));
        d.command(&Drive::velocity(0.3, 0.0));
        d.command(&Drive::Estop);
        assert_eq!(d.velocity(None), (0.0, 0.0));
    }

    #[test]
    fn wheels_and_throttles_go_through_the_track() {
        let mut d = DriveState::new(DriveParams {
            track: 0.5,
            max_speed: 0.4,
            max_turn_rate: 1.0,
        });
        d.command(&Drive::Wheels {
            left: 0.1,
            right: 0.3,
        });
        let (v, w) = d.velocity(None);
        assert!((v - 0.2).abs() < 1e-12 && (w - 0.4).abs() < 1e-12);
        d.command(&Drive::Motor {
            left: 1.0,
            right: 2.0,
        });
        assert_eq!(d.velocity(None), (0.4, 0.0));
    }

    #[test]
    fn a_heading_and_a_move_are_held_until_reached() {
        let mut d = DriveState::new(DriveParams::default());
        d.command(&Drive::heading(1.0, 0.0));
        let (_, w) = d.velocity(pose(0.0, 0.0));
        assert!(w > 0.0 && w <= 1.0);
        assert_eq!(d.velocity(pose(0.0, 1.0)).1, 0.0);
        d.command(&Drive::Channels {
            translation: Some(Translation::Move(1.0)),
            rotation: Some(Rotation::DeltaHeading(-0.5)),
        });
        let (v, w) = d.velocity(pose(0.0, 1.0));
        assert!(v > 0.0 && w < 0.0);
        // reached: 1 m along the heading it started on
        let there = Some(Pose2 {
            x: 1.0f64.cos(),
            y: 1.0f64.sin(),
            yaw: 0.5,
        });
        assert_eq!(d.velocity(there), (0.0, 0.0));
        assert_eq!(d.velocity(pose(5.0, 0.5)), (0.0, 0.0));
    }

    #[test]
    fn limits_clamp_what_is_sent() {
        let mut d = DriveState::new(DriveParams::default());
        d.limit(&MotionLimits {
            max_velocity: Some(0.2),
            max_rot_velocity: Some(f64::NAN),
            ..MotionLimits::default()
        });
        d.command(&Drive::velocity(1.0, -3.0));
        assert_eq!(d.velocity(None), (0.2, -1.0));
    }
}
