//! The Pioneer 3-DX's numbers: body, motion limits, laser, gripper (its sonar ring is
//! [`skipper_core::sensors::pioneer`]'s).
//!
//! From ARIA's parameter file for the P3-DX (`p3dx.p`) and the P2OS firmware defaults.

/// Radius used for collision checks (m).
pub const RADIUS: f64 = skipper_core::sensors::pioneer::BODY_RADIUS;
/// From the centre of rotation to the front (m).
pub const LENGTH_FRONT: f64 = 0.210;
/// From the centre of rotation to the rear (m).
pub const LENGTH_REAR: f64 = 0.301;
/// Width (m).
pub const WIDTH: f64 = 0.425;
/// Distance between the wheels (m).
pub const TRACK: f64 = 0.330;
/// Absolute maximum translational velocity, firmware (m/s).
pub const ABS_MAX_VELOCITY: f64 = 2.2;
/// Absolute maximum rotational velocity, firmware (deg/s).
pub const ABS_MAX_ROT_VELOCITY_DEG: f64 = 500.0;
/// Usual operating translational velocity limit (m/s).
pub const MAX_VELOCITY: f64 = 1.2;
/// Usual operating rotational velocity limit (deg/s).
pub const MAX_ROT_VELOCITY_DEG: f64 = 300.0;
/// Translational acceleration and deceleration, firmware default (m/s²).
pub const TRANS_ACCEL: f64 = 0.3;
/// Rotational acceleration and deceleration, firmware default (deg/s²).
pub const ROT_ACCEL_DEG: f64 = 100.0;
/// Encoder ticks per millimetre of wheel travel.
pub const TICKS_PER_MM: f64 = 128.0;
/// Number of sonars.
pub const SONARS: usize = skipper_core::sensors::pioneer::P3DX_SONARS.len();
/// The Pioneer 3-AT's laser sits this far ahead of the centre (m; `params/p3at.p`).
pub const P3AT_LASER_X: f64 = 0.160;
/// Laser beams: from -90° at 1° per beam.
pub const LASER_BEAMS: usize = 180;
/// Angle of the first laser beam (deg).
pub const LASER_FIRST_DEG: f64 = -90.0;
/// Between laser beams (deg).
pub const LASER_STEP_DEG: f64 = 1.0;
/// The laser sits this far ahead of the centre (m).
pub const LASER_X: f64 = 0.018;
/// Bumper segments per bumper ring.
pub const BUMPER_SEGMENTS: usize = 5;
