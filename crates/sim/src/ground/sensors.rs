//! What a simulated ground robot carries, described as `skipper_core::sensors` says
//! (for transports that publish its readings with frames, the run log and the views):
//! the sonar ring of its model (positions and headings from ARIA's parameter files: the
//! P3-DX's, or the P3-AT's for `p3at` and `p3at-sh`), its laser when the robot has one,
//! and its bumper segments. Ranges are the world's.

use super::params;
use crate::spec::Settings;
use skipper_core::sensors::{pioneer, LaserGeometry, SensorGeometry, SonarGeometry};

/// The opening of a Pioneer sonar's cone (deg).
const SONAR_CONE_DEG: f64 = 30.0;
/// The shortest range a Pioneer sonar reads (m).
const SONAR_MIN_RANGE: f64 = 0.1;
/// The shortest range the laser reads (m).
const LASER_MIN_RANGE: f64 = 0.02;

/// The sensors of a simulated Pioneer-bodied robot in a world with `settings`; the laser
/// only if it has one.
pub fn pioneer(has_laser: bool, settings: &Settings) -> SensorGeometry {
    of_model("p3dx", has_laser, settings)
}

/// The sensors of a simulated robot of `model` (a name [`super::models::NAMES`] lists):
/// the P3-AT's sonar ring and laser place for `p3at` and `p3at-sh`, the P3-DX's for the
/// others.
pub fn of_model(model: &str, has_laser: bool, settings: &Settings) -> SensorGeometry {
    let (ring, laser_x) = match model {
        "p3at" | "p3at-sh" => (&pioneer::P3AT_SONARS, params::P3AT_LASER_X),
        _ => (&pioneer::P3DX_SONARS, params::LASER_X),
    };
    SensorGeometry {
        laser: has_laser.then(|| LaserGeometry {
            x: laser_x,
            angle_min: params::LASER_FIRST_DEG.to_radians(),
            // beam k at -90 + k degrees, as the world casts them: the last at +89°
            angle_increment: params::LASER_STEP_DEG.to_radians(),
            range_min: LASER_MIN_RANGE,
            range_max: settings.laser_range,
        }),
        sonar: ring
            .iter()
            .map(|&(x_mm, y_mm, deg)| SonarGeometry {
                x: x_mm / 1000.0,
                y: y_mm / 1000.0,
                yaw: deg.to_radians(),
                field_of_view: SONAR_CONE_DEG.to_radians(),
                min_range: SONAR_MIN_RANGE,
                max_range: settings.sonar_range,
            })
            .collect(),
        bumper_segments: params::BUMPER_SEGMENTS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pioneer_without_a_laser_declares_none() {
        let s = Settings::default();
        let with = pioneer(true, &s);
        assert_eq!(with.sonar.len(), params::SONARS);
        assert_eq!(with.laser.map(|l| l.range_max), Some(s.laser_range));
        assert!(pioneer(false, &s).laser.is_none());
        // the first transducer looks left of ahead, the ring is symmetric
        assert!(with.sonar[0].yaw > 0.0 && with.sonar[7].yaw < 0.0);
    }

    #[test]
    fn a_p3at_carries_its_own_sonar_ring_and_laser_place() {
        let s = Settings::default();
        let at = of_model("p3at", true, &s);
        let dx = of_model("p3dx", true, &s);
        assert_eq!(at.sonar.len(), 16);
        assert!((at.sonar[0].x - 0.147).abs() < 1e-9 && (at.sonar[0].y - 0.136).abs() < 1e-9);
        assert!((at.sonar[9].yaw - (-130f64).to_radians()).abs() < 1e-9);
        assert!((dx.sonar[0].x - 0.069).abs() < 1e-9);
        assert_eq!(at.laser.map(|l| l.x), Some(0.16));
        assert_eq!(of_model("p3at-sh", true, &s), at);
        assert_eq!(of_model("splinter", true, &s), dx);
    }
}
