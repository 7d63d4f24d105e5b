//! The ground robot's pilot: `pose.*` (odometry) for where it is, velocity drive, and
//! the ranges ahead for what is in the way, read where the vehicle says its sensors are
//! (its sonars by their headings, else its laser's beams by their angles). A robot with
//! no reading that looks ahead drives to its goals without avoiding anything.

use super::{Fix, Pilot};
use skipper_core::geometry::wrap_rad;
use skipper_core::sensors::{pioneer, SensorGeometry};
use skipper_core::vocabulary::ground::{self, PoseReader};
use skipper_core::{Actuation, ControllerError, Cycle, Drive, SignalId, Signals, VehicleInfo};

/// Default distance at which a ground robot's goal counts as reached (m).
pub const GROUND_TOLERANCE: f64 = 0.15;

/// Readings whose direction is within this of straight ahead watch the way (deg).
const FRONT_DEG: f64 = 35.0;
/// Readings between these directions either side weigh which side is more open (deg).
const SIDE_DEG: (f64, f64) = (25.0, 65.0);

/// A ground robot.
#[derive(Debug)]
pub struct GroundPilot {
    pose: Option<PoseReader>,
    /// where its ranges come from, as the vehicle describes them
    rig: SensorGeometry,
    sectors: Sectors,
}

/// The range signals ahead of the robot and to either side of the way: its sonars by
/// their headings when it has them, else its laser's beams by their angles.
#[derive(Debug, Default)]
struct Sectors {
    front: Vec<SignalId>,
    left: Vec<SignalId>,
    right: Vec<SignalId>,
}

impl Sectors {
    /// Sort the readings, each a signal and its direction (rad, 0 ahead, left
    /// positive), into the sectors.
    fn sort(readings: impl Iterator<Item = (SignalId, f64)>) -> Self {
        let mut s = Self::default();
        for (id, bearing) in readings {
            let deg = wrap_rad(bearing).to_degrees();
            if deg.abs() <= FRONT_DEG {
                s.front.push(id);
            }
            if (SIDE_DEG.0..=SIDE_DEG.1).contains(&deg) {
                s.left.push(id);
            }
            if (-SIDE_DEG.1..=-SIDE_DEG.0).contains(&deg) {
                s.right.push(id);
            }
        }
        s
    }
}

impl Default for GroundPilot {
    /// A pilot for a Pioneer 3-DX (or a robot that does not say where its sensors are):
    /// its front sonars.
    fn default() -> Self {
        Self::for_sensors(&SensorGeometry::default())
    }
}

impl GroundPilot {
    /// A pilot reading the ranges where `sensors` (the vehicle's own description,
    /// [`skipper_core::Vehicle::sensors`]) says they are; a description with neither a
    /// laser nor sonars is taken for a Pioneer 3-DX's front sonars.
    pub fn for_sensors(sensors: &SensorGeometry) -> Self {
        let mut rig = sensors.clone();
        if rig.laser.is_none() && rig.sonar.is_empty() {
            rig.sonar =
                pioneer::sonar_geometry(&pioneer::P3DX_SONARS[..8], 30.0, 0.0, f64::INFINITY);
        }
        Self {
            pose: None,
            rig,
            sectors: Sectors::default(),
        }
    }

    /// The sectors of the signals `s` has: the sonars', else the laser's.
    fn sectors(&self, s: &Signals) -> Sectors {
        let sonars: Vec<(SignalId, f64)> = (self.rig.sonar.iter().enumerate())
            .filter_map(|(k, g)| Some((ground::SONAR.id(s, k)?, g.yaw)))
            .collect();
        if !sonars.is_empty() {
            return Sectors::sort(sonars.into_iter());
        }
        let Some(g) = self.rig.laser else {
            return Sectors::default();
        };
        let beams = (0..ground::MAX_LASER_BEAMS)
            .map_while(|k| ground::LASER.id(s, k))
            .enumerate()
            .map(|(k, id)| (id, g.angle_min + k as f64 * g.angle_increment));
        Sectors::sort(beams)
    }

    /// One reading: its range, or infinity when it has none.
    fn range(s: &Signals, id: SignalId) -> f64 {
        s.f64(id).filter(|r| !r.is_nan()).unwrap_or(f64::INFINITY)
    }

    /// The nearest range among `ids`.
    fn nearest(s: &Signals, ids: &[SignalId]) -> f64 {
        ids.iter()
            .map(|&id| Self::range(s, id))
            .fold(f64::INFINITY, f64::min)
    }

    /// The mean range among `ids` (infinity when it has none).
    fn mean(s: &Signals, ids: &[SignalId]) -> f64 {
        if ids.is_empty() {
            return f64::INFINITY;
        }
        ids.iter().map(|&id| Self::range(s, id)).sum::<f64>() / ids.len() as f64
    }
}

impl Pilot for GroundPilot {
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.pose = Some(PoseReader::bind(s).ok_or_else(|| {
            ControllerError::vehicle(format!(
                "goals need the signals {}, {} and {}, and {} lacks some",
                ground::POSE_X.name,
                ground::POSE_Y.name,
                ground::POSE_YAW.name,
                vehicle.name
            ))
        })?);
        self.sectors = self.sectors(s);
        Ok(())
    }

    fn default_tolerance(&self) -> f64 {
        GROUND_TOLERANCE
    }

    fn fix(&self, s: &Signals) -> Option<Fix> {
        let p = self.pose?.pose(s)?;
        Some(Fix {
            x: p.x,
            y: p.y,
            yaw: p.yaw,
        })
    }

    /// Turn toward the goal, drive when roughly facing it, slow near it; with something
    /// close ahead, turn on the spot toward the more open side.
    fn steer(&mut self, c: &mut Cycle<'_>, fix: Fix, x: f64, y: f64, distance: f64) {
        let err = wrap_rad((y - fix.y).atan2(x - fix.x) - fix.yaw);
        let front = Self::nearest(c.signals, &self.sectors.front);
        let mut w = (1.5 * err).clamp(-1.0, 1.0);
        let mut v = if err.abs() < 1.0 {
            0.5 * err.cos()
        } else {
            0.0
        };
        v = v.min(0.8 * distance).max(0.0);
        if front < 0.5 && front < distance {
            let open_left = Self::mean(c.signals, &self.sectors.left)
                >= Self::mean(c.signals, &self.sectors.right);
            v = 0.0;
            w = if open_left { 0.8 } else { -0.8 };
        }
        c.actuation.drive = Some(Drive::velocity(v, w));
    }

    fn stop(&self, a: &mut Actuation) {
        a.drive = Some(Drive::Stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::sensors::{LaserGeometry, SonarGeometry};
    use skipper_core::{Events, Rotation, Translation, VehicleKind};
    use std::f64::consts::PI;
    use std::time::Duration;

    /// How `pilot` steers toward a goal 5 m straight ahead, on a robot at the origin
    /// facing +x whose readings are `readings` (signal name, range).
    fn steer(mut pilot: GroundPilot, readings: &[(String, f64)]) -> Drive {
        let info = VehicleInfo {
            name: "r".into(),
            kind: VehicleKind::Ground,
            model: "test".into(),
        };
        let mut s = Signals::new();
        let pose = [
            ground::POSE_X.name,
            ground::POSE_Y.name,
            ground::POSE_YAW.name,
        ];
        for name in pose {
            let id = s.declare(name, None);
            s.set_f64(id, 0.0, Duration::ZERO);
        }
        for (name, r) in readings {
            let id = s.declare(name, None);
            s.set_f64(id, *r, Duration::ZERO);
        }
        pilot.start(&info, &s).expect("the pilot starts");
        let fix = pilot.fix(&s).expect("a fix");
        let mut a = Actuation::default();
        let mut events = Events::new();
        let mut c = Cycle {
            now: Duration::ZERO,
            dt: Duration::from_millis(100),
            cycle: 1,
            robot: 0,
            vehicle: &info,
            signals: &s,
            actuation: &mut a,
            events: &mut events,
        };
        pilot.steer(&mut c, fix, 5.0, 0.0, 5.0);
        a.drive.expect("it drives")
    }

    /// The drive's (linear, angular) velocity.
    fn velocity(d: Drive) -> (f64, f64) {
        match d {
            Drive::Channels {
                translation: Some(Translation::Velocity(v)),
                rotation: Some(Rotation::Velocity(w)),
            } => (v, w),
            d => panic!("not a velocity: {d:?}"),
        }
    }

    fn sonar(yaw_deg: f64) -> SonarGeometry {
        SonarGeometry {
            x: 0.1,
            y: 0.0,
            yaw: yaw_deg.to_radians(),
            field_of_view: 0.4,
            min_range: 0.02,
            max_range: 4.0,
        }
    }

    #[test]
    fn a_clear_way_is_driven() {
        let readings: Vec<_> = (0..8).map(|k| (format!("sonar.{k}"), 3.0)).collect();
        let (v, w) = velocity(steer(GroundPilot::default(), &readings));
        assert!(v > 0.4 && w == 0.0, "({v}, {w})");
    }

    #[test]
    fn a_pioneer_turns_from_what_its_front_sonars_see_toward_the_open_side() {
        let mut readings: Vec<_> = (0..8).map(|k| (format!("sonar.{k}"), 3.0)).collect();
        readings[3].1 = 0.3; // 10° left
        readings[1].1 = 0.4; // 50° left
        let (v, w) = velocity(steer(GroundPilot::default(), &readings));
        assert_eq!((v, w), (0.0, -0.8));
    }

    #[test]
    fn a_laser_robot_turns_from_what_its_laser_sees_ahead() {
        // a full-circle scan from straight ahead, counter-clockwise, as a TurtleBot's
        let rig = SensorGeometry {
            laser: Some(LaserGeometry {
                x: -0.05,
                angle_min: 0.0,
                angle_increment: PI / 180.0,
                range_min: 0.12,
                range_max: 3.5,
            }),
            ..SensorGeometry::default()
        };
        let mut readings: Vec<_> = (0..360).map(|k| (format!("laser.{k}"), 3.0)).collect();
        readings[2].1 = 0.3; // 2° left
        for r in &mut readings[300..335] {
            r.1 = 0.6; // 25° to 60° right
        }
        let (v, w) = velocity(steer(GroundPilot::for_sensors(&rig), &readings));
        assert_eq!((v, w), (0.0, 0.8));
    }

    #[test]
    fn sonars_are_read_by_the_headings_the_vehicle_declares() {
        // sonar.0 looks ahead, sonar.1 45° left, sonar.2 45° right
        let rig = SensorGeometry {
            sonar: vec![sonar(0.0), sonar(45.0), sonar(-45.0)],
            ..SensorGeometry::default()
        };
        let readings = [
            ("sonar.0".to_string(), 0.3),
            ("sonar.1".to_string(), 0.5),
            ("sonar.2".to_string(), 2.0),
        ];
        let (v, w) = velocity(steer(GroundPilot::for_sensors(&rig), &readings));
        assert_eq!((v, w), (0.0, -0.8));
    }

    #[test]
    fn what_lies_behind_does_not_stop_the_robot() {
        let rig = SensorGeometry {
            sonar: vec![sonar(180.0), sonar(150.0), sonar(-150.0)],
            ..SensorGeometry::default()
        };
        let readings: Vec<_> = (0..3).map(|k| (format!("sonar.{k}"), 0.2)).collect();
        let (v, _) = velocity(steer(GroundPilot::for_sensors(&rig), &readings));
        assert!(v > 0.4, "{v}");
    }
}
