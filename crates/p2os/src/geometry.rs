//! Where a P2OS robot's sonars are, per robot subtype, as ARIA's `params/<subtype>.p`
//! give them ([`skipper_core::sensors::pioneer`]: the P3-DX's, the P3-AT's and the
//! AmigoBot's rings; their `-sh` subtypes have the same). A client learns the
//! subtype from the robot's SYNC2 reply and describes the robot's sensors with it
//! ([`sensors`]); a subtype without a ring there has no sonar places to give.
//!
//! ARIA's files do not give a transducer's cone or its shortest range: those are the
//! simulator's (30°, 0.1 m); the longest range is the sonar board's default maximum in
//! the same files (`SonarMaxRange 4335`, mm). A P2OS client reads no laser, so none is
//! described.

use skipper_core::sensors::pioneer::{sonar_geometry, sonar_ring};
use skipper_core::sensors::SensorGeometry;

/// A transducer's cone (deg) and shortest range (m): the simulator's.
const CONE_DEG: f64 = 30.0;
const MIN_RANGE: f64 = 0.1;
/// The sonar board's default maximum range (m): `SonarMaxRange 4335` in the files.
const MAX_RANGE: f64 = 4.335;

/// What a robot of `subtype` carries: its sonar ring in signal order (`sonar.0`, ...),
/// in metres and radians; nothing for a subtype without a known ring.
pub fn sensors(subtype: &str) -> SensorGeometry {
    let ring = sonar_ring(subtype).unwrap_or_default();
    let sonar = sonar_geometry(ring, CONE_DEG, MIN_RANGE, MAX_RANGE);
    SensorGeometry {
        sonar,
        ..SensorGeometry::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::RobotParams;

    fn places(subtype: &str) -> Vec<(f64, f64, f64)> {
        let s = sensors(subtype);
        s.sonar
            .iter()
            .map(|g| {
                let mm = |v: f64| (v * 1000.0).round();
                (mm(g.x), mm(g.y), g.yaw.to_degrees().round())
            })
            .collect()
    }

    #[test]
    fn each_subtype_has_its_own_ring_as_its_parameter_file_gives_it() {
        let at = places("p3at");
        assert_eq!(at.len(), 16);
        assert_eq!(at[0], (147.0, 136.0, 90.0));
        assert_eq!(at[11], (-241.0, -27.0, -170.0));
        let dx = places("p3dx");
        assert_eq!(dx[0], (69.0, 136.0, 90.0));
        assert_ne!(at, dx);
        let amigo = places("amigo");
        assert_eq!(amigo.len(), 8);
        assert_eq!(amigo[6], (-140.0, -58.0, -145.0));
    }

    #[test]
    fn sh_subtypes_and_any_case_have_the_same_ring_and_unknown_ones_none() {
        assert_eq!(sensors("P3AT-SH"), sensors("p3at"));
        assert_eq!(sensors("AMIGO"), sensors("amigo-sh"));
        assert!(sensors("p2de").sonar.is_empty());
        assert!(sensors("no-such-robot").sonar.is_empty());
        assert!(sensors("p3at").laser.is_none());
    }

    #[test]
    fn the_ring_has_as_many_transducers_as_the_subtype_reports() {
        for sub in ["p3dx", "p3at", "amigo", "p3dx-sh", "p3at-sh", "amigo-sh"] {
            let p = RobotParams::for_subtype(sub).expect(sub);
            assert_eq!(sensors(sub).sonar.len(), usize::from(p.sonars), "{sub}");
        }
    }
}
