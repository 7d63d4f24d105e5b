//! The Pioneer family's body radius, and its sonar rings as ARIA's parameter files give them
//! (`SonarUnit <n> <x mm> <y mm> <heading deg>` in `params/<subtype>.p`): the P3-DX's, the
//! P3-AT's and the AmigoBot's (their `-sh` subtypes have the same). The simulator builds
//! its robots' rings from them, a P2OS client describes a real robot by its subtype with
//! them, and the replay draws a log's rings with them when the log does not say.

/// One transducer: x, y (mm, x ahead, y left) and heading (deg).
pub type SonarUnit = (f64, f64, f64);

/// The Pioneer body's radius where it collides (m).
pub const BODY_RADIUS: f64 = 0.250;

/// `params/p3dx.p`.
pub const P3DX_SONARS: [SonarUnit; 16] = [
    (69.0, 136.0, 90.0),
    (114.0, 119.0, 50.0),
    (148.0, 78.0, 30.0),
    (166.0, 27.0, 10.0),
    (166.0, -27.0, -10.0),
    (148.0, -78.0, -30.0),
    (114.0, -119.0, -50.0),
    (69.0, -136.0, -90.0),
    (-157.0, -136.0, -90.0),
    (-203.0, -119.0, -130.0),
    (-237.0, -78.0, -150.0),
    (-255.0, -27.0, -170.0),
    (-255.0, 27.0, 170.0),
    (-237.0, 78.0, 150.0),
    (-203.0, 119.0, 130.0),
    (-157.0, 136.0, 90.0),
];

/// `params/p3at.p`.
pub const P3AT_SONARS: [SonarUnit; 16] = [
    (147.0, 136.0, 90.0),
    (193.0, 119.0, 50.0),
    (227.0, 79.0, 30.0),
    (245.0, 27.0, 10.0),
    (245.0, -27.0, -10.0),
    (227.0, -79.0, -30.0),
    (193.0, -119.0, -50.0),
    (147.0, -136.0, -90.0),
    (-144.0, -136.0, -90.0),
    (-189.0, -119.0, -130.0),
    (-223.0, -79.0, -150.0),
    (-241.0, -27.0, -170.0),
    (-241.0, 27.0, 170.0),
    (-223.0, 79.0, 150.0),
    (-189.0, 119.0, 130.0),
    (-144.0, 136.0, 90.0),
];

/// `params/amigo.p`: six ahead and on the sides, two behind.
pub const AMIGO_SONARS: [SonarUnit; 8] = [
    (76.0, 100.0, 90.0),
    (125.0, 75.0, 41.0),
    (150.0, 30.0, 15.0),
    (150.0, -30.0, -15.0),
    (125.0, -75.0, -41.0),
    (76.0, -100.0, -90.0),
    (-140.0, -58.0, -145.0),
    (-140.0, 58.0, 145.0),
];

/// The sonar ring of robot subtype `subtype` (case-insensitive, with or without `-sh`),
/// if it is one of the three above.
pub fn sonar_ring(subtype: &str) -> Option<&'static [SonarUnit]> {
    let s = subtype.to_ascii_lowercase();
    match s.strip_suffix("-sh").unwrap_or(&s) {
        "p3dx" => Some(&P3DX_SONARS),
        "p3at" => Some(&P3AT_SONARS),
        "amigo" => Some(&AMIGO_SONARS),
        _ => None,
    }
}

/// `units` as the sensor description reads them (metres, radians), each transducer with
/// a cone of `cone_deg` and ranges from `min_range` to `max_range` (m).
pub fn sonar_geometry(
    units: &[SonarUnit],
    cone_deg: f64,
    min_range: f64,
    max_range: f64,
) -> Vec<super::SonarGeometry> {
    units
        .iter()
        .map(|&(x, y, deg)| super::SonarGeometry {
            x: x / 1000.0,
            y: y / 1000.0,
            yaw: deg.to_radians(),
            field_of_view: cone_deg.to_radians(),
            min_range,
            max_range,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_subtype_has_its_own_ring_in_any_case_and_with_sh() {
        assert_eq!(sonar_ring("P3AT-SH"), Some(&P3AT_SONARS[..]));
        assert_eq!(sonar_ring("p3dx"), Some(&P3DX_SONARS[..]));
        assert_eq!(sonar_ring("amigo-sh").map(<[_]>::len), Some(8));
        assert_eq!(sonar_ring("p2de"), None);
    }

    #[test]
    fn every_ring_is_left_right_symmetric() {
        for ring in [&P3DX_SONARS[..], &P3AT_SONARS, &AMIGO_SONARS] {
            for &(x, y, h) in ring {
                assert!(ring.contains(&(x, -y, -h)), "({x}, {y}, {h}) has no mirror");
            }
        }
    }
}
