//! Geometry: vectors, 2-D and 3-D poses, angle wrapping.
//!
//! Frames follow the robot convention used throughout Skipper (and by SPS and ARIA):
//! x forward, y left, z up, yaw counter-clockwise positive. Angles are radians unless a
//! function's name says degrees.

use serde::{Deserialize, Serialize};
use std::f64::consts::PI;
use std::ops::{Add, Mul, Sub};

/// Wrap an angle in radians to [-π, π).
pub fn wrap_rad(a: f64) -> f64 {
    if (-PI..PI).contains(&a) {
        return a;
    }
    let w = (a + PI).rem_euclid(2.0 * PI) - PI;
    if w.is_finite() {
        w
    } else {
        a
    }
}

/// Wrap an angle in degrees to [-180, 180).
pub fn wrap_deg(a: f64) -> f64 {
    if (-180.0..180.0).contains(&a) {
        return a;
    }
    let w = (a + 180.0).rem_euclid(360.0) - 180.0;
    if w.is_finite() {
        w
    } else {
        a
    }
}

/// Wrap an angle in degrees to [0, 360).
pub fn wrap_deg_360(a: f64) -> f64 {
    let w = a.rem_euclid(360.0);
    if w >= 360.0 {
        0.0
    } else {
        w
    }
}

/// Degrees to radians.
pub fn deg(a: f64) -> f64 {
    a.to_radians()
}

/// A 2-D vector or point (m).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Vec2 {
    /// x (m)
    pub x: f64,
    /// y (m)
    pub y: f64,
}

impl Vec2 {
    /// A vector from its components.
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }
    /// Unit vector at angle `a` (rad).
    pub fn from_angle(a: f64) -> Self {
        Self::new(a.cos(), a.sin())
    }
    /// Euclidean length.
    #[inline]
    pub fn norm(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    /// Squared length.
    pub fn norm2(self) -> f64 {
        self.x * self.x + self.y * self.y
    }
    /// Dot product.
    pub fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// 2-D cross product (z of the 3-D cross product).
    pub fn cross(self, o: Self) -> f64 {
        self.x * o.y - self.y * o.x
    }
    /// Distance to another point.
    pub fn dist(self, o: Self) -> f64 {
        (self - o).norm()
    }
    /// Angle of the vector (rad, counter-clockwise from +x).
    pub fn angle(self) -> f64 {
        self.y.atan2(self.x)
    }
    /// Rotate counter-clockwise by `a` (rad).
    pub fn rotate(self, a: f64) -> Self {
        let (s, c) = a.sin_cos();
        self.rotate_sc(s, c)
    }
    /// Rotate counter-clockwise by the angle whose sine and cosine are given.
    #[inline]
    pub fn rotate_sc(self, s: f64, c: f64) -> Self {
        Self::new(c * self.x - s * self.y, s * self.x + c * self.y)
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

/// A pose on the plane: position (m) and yaw (rad, counter-clockwise positive).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Pose2 {
    /// x (m)
    pub x: f64,
    /// y (m)
    pub y: f64,
    /// yaw (rad), kept in [-π, π)
    pub yaw: f64,
}

impl Pose2 {
    /// A pose; yaw is wrapped.
    pub fn new(x: f64, y: f64, yaw: f64) -> Self {
        Self {
            x,
            y,
            yaw: wrap_rad(yaw),
        }
    }
    /// The position.
    pub fn position(self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }
    /// A point given in this pose's frame, expressed in the parent frame.
    pub fn transform(self, p: Vec2) -> Vec2 {
        self.position() + p.rotate(self.yaw)
    }
    /// A point given in the parent frame, expressed in this pose's frame.
    pub fn inverse_transform(self, p: Vec2) -> Vec2 {
        (p - self.position()).rotate(-self.yaw)
    }
    /// Compose: `other` given in this pose's frame.
    pub fn compose(self, other: Pose2) -> Pose2 {
        let p = self.transform(other.position());
        Pose2::new(p.x, p.y, self.yaw + other.yaw)
    }
    /// Bearing (rad, wrapped) from this pose's heading to a point: positive = to the left.
    pub fn bearing_to(self, p: Vec2) -> f64 {
        wrap_rad((p - self.position()).angle() - self.yaw)
    }
    /// The pose in three dimensions (z, roll and pitch zero).
    pub fn to_3d(self) -> Pose3 {
        Pose3 {
            x: self.x,
            y: self.y,
            z: 0.0,
            roll: 0.0,
            pitch: 0.0,
            yaw: self.yaw,
        }
    }
}

/// A pose in space: position (m) and roll, pitch, yaw (rad; pitch positive nose up, yaw
/// counter-clockwise positive seen from above).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Pose3 {
    /// x (m)
    pub x: f64,
    /// y (m)
    pub y: f64,
    /// z (m), up positive
    pub z: f64,
    /// roll (rad)
    pub roll: f64,
    /// pitch (rad), nose up positive
    pub pitch: f64,
    /// yaw (rad)
    pub yaw: f64,
}

impl Pose3 {
    /// The pose projected on the plane.
    pub fn to_2d(self) -> Pose2 {
        Pose2::new(self.x, self.y, self.yaw)
    }
    /// Orientation as a unit quaternion `[x, y, z, w]` (yaw-pitch-roll, ZYX order).
    ///
    /// Pitch is stored nose-up positive, which in a z-up, y-left frame is a negative
    /// rotation about y.
    pub fn quaternion(self) -> [f64; 4] {
        let (sr, cr) = (self.roll * 0.5).sin_cos();
        let (sp, cp) = (-self.pitch * 0.5).sin_cos();
        let (sy, cy) = (self.yaw * 0.5).sin_cos();
        [
            sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy,
            cr * cp * cy + sr * sp * sy,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn wraps_to_half_open_ranges() {
        assert_eq!(wrap_deg(180.0), -180.0);
        assert_eq!(wrap_deg(190.0), -170.0);
        assert_eq!(wrap_deg(-190.0), 170.0);
        assert_eq!(wrap_deg(720.0), 0.0);
        assert!((wrap_rad(3.0 * PI) + PI).abs() < 1e-12);
        assert_eq!(wrap_deg_360(-90.0), 270.0);
    }

    #[test]
    fn transforms_are_inverse_and_ccw() {
        let p = Pose2::new(1.0, 2.0, deg(90.0));
        let ahead = p.transform(Vec2::new(1.0, 0.0));
        assert!((ahead.x - 1.0).abs() < 1e-12 && (ahead.y - 3.0).abs() < 1e-12);
        let back = p.inverse_transform(ahead);
        assert!((back.x - 1.0).abs() < 1e-12 && back.y.abs() < 1e-12);
        // a point to the left has positive bearing
        assert!(Pose2::new(0.0, 0.0, 0.0).bearing_to(Vec2::new(1.0, 1.0)) > 0.0);
    }

    #[test]
    fn yaw_quaternion() {
        let q = Pose2::new(0.0, 0.0, deg(90.0)).to_3d().quaternion();
        assert!((q[2] - (0.5f64).sqrt()).abs() < 1e-12 && (q[3] - (0.5f64).sqrt()).abs() < 1e-12);
    }

    proptest! {
        #[test]
        fn wrap_deg_stays_in_range(a in -1e7f64..1e7) {
            let w = wrap_deg(a);
            prop_assert!((-180.0..180.0).contains(&w));
            let k = ((a - w) / 360.0).round();
            prop_assert!((a - w - k * 360.0).abs() < 1e-6);
        }
        #[test]
        fn wrap_rad_stays_in_range(a in -1e6f64..1e6) {
            let w = wrap_rad(a);
            prop_assert!((-PI..PI).contains(&w));
        }
    }
}
