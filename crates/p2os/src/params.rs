//! Robot parameters ARIA scales SIP fields with, per robot subtype.
//!
//! Built-in values as ARIA's `ArRobotTypes.cpp` and `params/<subtype>.p` give them. The
//! `-sh` subtypes (ARCOS "SH" controllers) report plain millimetres; their sonar count
//! and velocity maxima are those of the robot without `-sh`. An unknown subtype gets
//! the generic parameters (every factor 1), which is what ARIA uses too — but ARIA
//! refuses to connect to an unknown subtype unless told otherwise, so a server must
//! claim a subtype listed here.

use std::f64::consts::PI;

/// Radians per heading unit (4096 per turn) for every robot.
pub const ANGLE_CONV: f64 = 2.0 * PI / 4096.0;

/// Scaling and limits of one robot subtype.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RobotParams {
    /// Subtype name, lower case (`p3dx-sh`).
    pub subtype: &'static str,
    /// mm per position unit (XPOS, YPOS).
    pub dist_conv: f64,
    /// mm/s per velocity unit (wheel velocities).
    pub vel_conv: f64,
    /// mm per sonar range unit.
    pub range_conv: f64,
    /// Rotational velocity from wheel speeds: rad/s per (mm/s of right minus left, halved).
    pub diff_conv: f64,
    /// mm/s per VEL2 unit.
    pub vel2_divisor: f64,
    /// Number of sonars.
    pub sonars: u8,
    /// Absolute maximum translational velocity, mm/s.
    pub abs_max_vel: f64,
    /// Absolute maximum rotational velocity, deg/s.
    pub abs_max_rot_vel: f64,
}

#[allow(clippy::too_many_arguments)] // one row of the table
const fn p(
    subtype: &'static str,
    dist_conv: f64,
    vel_conv: f64,
    range_conv: f64,
    diff_conv: f64,
    sonars: u8,
    abs_max_vel: f64,
    abs_max_rot_vel: f64,
) -> RobotParams {
    RobotParams {
        subtype,
        dist_conv,
        vel_conv,
        range_conv,
        diff_conv,
        vel2_divisor: 20.0,
        sonars,
        abs_max_vel,
        abs_max_rot_vel,
    }
}

/// Generic parameters (unknown subtype).
pub const GENERIC: RobotParams = p("generic", 1.0, 1.0, 1.0, 0.0056, 0, 0.0, 0.0);

/// The subtypes we know.
pub const SUBTYPES: &[RobotParams] = &[
    p("p2dx", 0.84, 1.0, 0.268, 0.0056, 16, 2200.0, 500.0),
    p("p2de", 0.969, 1.0, 0.268, 0.0056, 16, 2200.0, 500.0),
    p("p3dx", 0.485, 1.0, 1.0, 0.0056, 16, 2200.0, 500.0),
    p("p3at", 0.465, 1.0, 1.0, 0.0034, 16, 1200.0, 300.0),
    p("amigo", 0.5083, 0.6154, 1.0, 0.011, 8, 1000.0, 300.0),
    p("p3dx-sh", 1.0, 1.0, 1.0, 0.0056, 16, 2200.0, 500.0),
    p("p3at-sh", 1.0, 1.0, 1.0, 0.0034, 16, 1200.0, 300.0),
    p("amigo-sh", 1.0, 1.0, 1.0, 0.011, 8, 1000.0, 300.0),
];

impl RobotParams {
    /// The parameters of a subtype (case-insensitive), if we know it.
    pub fn for_subtype(subtype: &str) -> Option<&'static RobotParams> {
        SUBTYPES
            .iter()
            .find(|p| p.subtype.eq_ignore_ascii_case(subtype))
    }

    /// The parameters of a subtype, or the generic ones.
    pub fn for_subtype_or_generic(subtype: &str) -> &'static RobotParams {
        Self::for_subtype(subtype).unwrap_or(&GENERIC)
    }

    /// A change of XPOS/YPOS (15-bit, wrapping) in mm: `new - old` taken the short way round.
    pub fn position_delta_mm(&self, old: u16, new: u16) -> f64 {
        let mut d = i32::from(new.wrapping_sub(old) & 0x7FFF);
        if d >= 0x4000 {
            d -= 0x8000;
        }
        f64::from(d) * self.dist_conv
    }

    /// A position in mm as XPOS/YPOS (15 bits, wrapping).
    pub fn position_units(&self, mm: f64) -> u16 {
        let u = finite(mm / self.dist_conv).round() as i64;
        (u.rem_euclid(0x8000)) as u16
    }

    /// THPOS in radians, in (-pi, pi].
    pub fn heading_rad(th: i16) -> f64 {
        skipper_core::geometry::wrap_rad(f64::from(th) * ANGLE_CONV)
    }

    /// A heading in radians as THPOS (0..4095).
    pub fn heading_units(rad: f64) -> i16 {
        let u = finite(rad / ANGLE_CONV).round() as i64;
        u.rem_euclid(4096) as i16
    }

    /// A wheel velocity in mm/s.
    pub fn velocity_mm_s(&self, raw: i16) -> f64 {
        f64::from(raw) * self.vel_conv
    }

    /// A wheel velocity (mm/s) in SIP units.
    pub fn velocity_units(&self, mm_s: f64) -> i16 {
        saturate_i16(mm_s / self.vel_conv)
    }

    /// A sonar range in mm.
    pub fn range_mm(&self, raw: u16) -> f64 {
        f64::from(raw) * self.range_conv
    }

    /// A sonar range (mm) in SIP units.
    pub fn range_units(&self, mm: f64) -> u16 {
        finite(mm / self.range_conv).round().clamp(0.0, 65535.0) as u16
    }

    /// Rotational velocity (rad/s) from the wheel velocities (mm/s), as ARIA derives it
    /// when a SIP has no ROTVEL field.
    pub fn rot_vel_from_wheels(&self, left_mm_s: f64, right_mm_s: f64) -> f64 {
        (right_mm_s - left_mm_s) / 2.0 * self.diff_conv
    }
}

fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Round and clamp to an i16.
pub fn saturate_i16(x: f64) -> i16 {
    finite(x).round().clamp(-32768.0, 32767.0) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtypes_scale_as_aria_does() {
        let p2de = RobotParams::for_subtype("P2DE").unwrap();
        assert_eq!(p2de.position_units(969.0), 1000);
        assert_eq!(p2de.range_units(268.0), 1000);
        let sh = RobotParams::for_subtype("p3dx-sh").unwrap();
        assert_eq!(sh.position_units(1234.0), 1234);
        assert_eq!(
            RobotParams::for_subtype_or_generic("rustsim").subtype,
            "generic"
        );
        let amigo = RobotParams::for_subtype("amigo").unwrap();
        assert!((amigo.velocity_mm_s(100) - 61.54).abs() < 1e-9);
    }

    #[test]
    fn positions_wrap_at_15_bits() {
        let p = RobotParams::for_subtype("p3dx-sh").unwrap();
        assert_eq!(p.position_units(-1.0), 0x7FFF);
        assert_eq!(p.position_delta_mm(0x7FFE, 0x0002), 4.0);
        assert_eq!(p.position_delta_mm(0x0002, 0x7FFE), -4.0);
        assert_eq!(p.position_delta_mm(100, 300), 200.0);
    }

    #[test]
    fn headings_use_4096_units_per_turn() {
        assert_eq!(RobotParams::heading_units(PI / 2.0), 1024);
        assert_eq!(RobotParams::heading_units(-PI / 2.0), 3072);
        assert!((RobotParams::heading_rad(3072) + PI / 2.0).abs() < 1e-12);
    }
}
