//! Places on the globe seen from a local frame: a worksite's origin (latitude, longitude)
//! and metres east and north of it (an equirectangular approximation, good to well
//! under a metre across a worksite of tens of kilometres), and compass headings.

/// The mean Earth radius (m).
pub const EARTH_RADIUS: f64 = 6_371_000.0;

/// Metres (east, north) of (`lat`, `lon`) from (`lat0`, `lon0`), all in degrees.
pub fn local_offset(lat0: f64, lon0: f64, lat: f64, lon: f64) -> (f64, f64) {
    let north = (lat - lat0).to_radians() * EARTH_RADIUS;
    let east = (lon - lon0).to_radians() * EARTH_RADIUS * lat0.to_radians().cos();
    (east, north)
}

/// A compass heading (rad, clockwise from north) as a yaw (rad, counter-clockwise from
/// east), in [-π, π).
pub fn compass_to_math(h: f64) -> f64 {
    crate::geometry::wrap_rad(std::f64::consts::FRAC_PI_2 - h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_headings() {
        let (e, n) = local_offset(36.8, -121.9, 36.8 + 0.001, -121.9);
        assert!(e.abs() < 1e-9 && (n - 111.19).abs() < 0.01, "({e}, {n})");
        assert!((compass_to_math(0.0) - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!(compass_to_math(std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    }
}
