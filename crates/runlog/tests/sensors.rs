//! The run log's world description carries each robot's sensors as its vehicle describes
//! them (`Vehicle::sensors`), and the reader gives them back: a simulated Pioneer's sonar
//! ring, and a robot of another kind with its own two sonars.

use skipper_core::sensors::{SensorGeometry, SonarGeometry};
use skipper_core::{
    Actuation, Events, Pose3, RunConfig, Runner, Signals, Vehicle, VehicleInfo, VehicleKind, World,
};
use skipper_runlog::{Recording, RunLog};
use skipper_sim::world_file::parse_world;
use skipper_sim::GroundWorld;
use std::path::Path;
use std::time::Duration;

/// A robot with two sonars on its sides and nothing else.
struct TwoSonars(VehicleInfo);

const SIDE: SonarGeometry = SonarGeometry {
    x: 0.1,
    y: 0.2,
    yaw: 1.5,
    field_of_view: 0.3,
    min_range: 0.05,
    max_range: 4.0,
};

impl Vehicle for TwoSonars {
    fn info(&self) -> &VehicleInfo {
        &self.0
    }
    fn sense(&mut self, _now: Duration, _s: &mut Signals, _e: &mut Events) {}
    fn act(&mut self, _now: Duration, _a: &Actuation, _e: &mut Events) {}
    fn stop(&mut self, _now: Duration, _e: &mut Events) {}
    fn pose(&self) -> Pose3 {
        Pose3::default()
    }
    fn sensors(&self) -> SensorGeometry {
        let mirrored = SonarGeometry {
            y: -SIDE.y,
            yaw: -SIDE.yaw,
            ..SIDE
        };
        SensorGeometry {
            sonar: vec![SIDE, mirrored],
            ..SensorGeometry::default()
        }
    }
}

struct Alone(TwoSonars);

impl World for Alone {
    fn len(&self) -> usize {
        1
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        (i == 0).then_some(&self.0 as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        (i == 0).then_some(&mut self.0 as &mut dyn Vehicle)
    }
    fn advance(&mut self, _now: Duration, _dt: Duration, _e: &mut Events) {}
}

/// Run `world` for a second with the log at `path`; the log read back.
fn logged(world: Box<dyn World>, path: &Path) -> Recording {
    let mut r = Runner::new(
        world,
        RunConfig {
            until: Some(Duration::from_secs(1)),
            ..RunConfig::default()
        },
    );
    let (log, _status) = RunLog::create(path).unwrap();
    r.add_observer(Box::new(log));
    r.run();
    Recording::open(path, &|_| false).unwrap()
}

#[test]
fn a_robot_of_another_kind_is_logged_with_its_own_sonars() {
    let dir = tempfile::tempdir().unwrap();
    let info = VehicleInfo {
        name: "bot".into(),
        kind: VehicleKind::Ground,
        model: "ros2".into(),
    };
    let rec = logged(
        Box::new(Alone(TwoSonars(info))),
        &dir.path().join("two.mcap"),
    );
    let sensors = rec.robots[0]
        .info
        .sensors
        .clone()
        .expect("sensors in /world");
    assert_eq!(sensors.sonar, vec![[0.1, 0.2, 1.5], [0.1, -0.2, -1.5]]);
}

#[test]
fn the_simulated_pioneer_is_logged_with_its_sonar_ring() {
    let dir = tempfile::tempdir().unwrap();
    let spec = parse_world(
        "world box\nbox 0 0 10 10\nrobot r1 0 0 0\n",
        "box.world",
        None,
    )
    .unwrap();
    let world = GroundWorld::new(&spec, 0).unwrap();
    let own = world.vehicle(0).unwrap().sensors();
    let rec = logged(Box::new(world), &dir.path().join("sim.mcap"));
    let sensors = rec.robots[0]
        .info
        .sensors
        .clone()
        .expect("sensors in /world");
    let expected: Vec<[f64; 3]> = own.sonar.iter().map(|s| [s.x, s.y, s.yaw]).collect();
    assert_eq!(expected.len(), 16);
    assert_eq!(sensors.sonar, expected);
}
