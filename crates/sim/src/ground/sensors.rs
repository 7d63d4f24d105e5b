//! What a simulated ground robot carries, described as `skipper_core::sensors` says
//! (for transports that publish its readings with frames, the run log and the views):
//! the Pioneer's sonar ring (positions and headings from ARIA's parameter files), its
//! laser when the robot has one, and its bumper segments. Ranges are the world's.

use super::params;
use crate::spec::Settings;
use skipper_core::sensors::{LaserGeometry, SensorGeometry, SonarGeometry};

/// The opening of a Pioneer sonar's cone (deg).
const SONAR_CONE_DEG: f64 = 30.0;
/// The shortest range a Pioneer sonar reads (m).
const SONAR_MIN_RANGE: f64 = 0.1;
/// The shortest range the laser reads (m).
const LASER_MIN_RANGE: f64 = 0.02;

/// The sensors of a simulated Pioneer-bodied robot in a world with `settings`; the laser
/// only if it has one.
pub fn pioneer(has_laser: bool, settings: &Settings) -> SensorGeometry {
    SensorGeometry {
        laser: has_laser.then(|| LaserGeometry {
            x: params::LASER_X,
            angle_min: params::LASER_FIRST_DEG.to_radians(),
            angle_increment: std::f64::consts::PI / (params::LASER_BEAMS as f64 - 1.0),
            range_min: LASER_MIN_RANGE,
            range_max: settings.laser_range,
        }),
        sonar: params::SONAR_RING
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
}
