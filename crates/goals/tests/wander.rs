//! The wander demo avoids obstacles: a wall's end its sonars miss (a door jamb), with
//! the laser and with the sonar ring only, and a crowd of robots in the office.

use skipper_core::{Observer, RunConfig, Runner, World};
use skipper_goals::Wander;
use skipper_sim::{GroundWorld, WorldSpec};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Counts collision events.
struct Collisions(Arc<Mutex<u64>>);

impl Observer for Collisions {
    fn on_cycle(&mut self, v: &skipper_core::runner::CycleView<'_>) {
        let n = v.events.iter().filter(|e| e.kind == "collision").count() as u64;
        *self.0.lock().unwrap() += n;
    }
}

/// Every robot of `spec` wanders for `secs`: the collisions and the distance driven.
fn wander(spec: &WorldSpec, secs: u64) -> (u64, f64) {
    let world = GroundWorld::new(spec, 0).unwrap_or_else(|e| panic!("{e}"));
    let n = spec.robots.len();
    // each robot's wander reads its sensors where the robot says they are, as `skipper run`'s
    let rigs: Vec<_> = (0..n)
        .map(|i| world.vehicle(i).expect("the robot").sensors())
        .collect();
    let mut runner = Runner::new(
        Box::new(world),
        RunConfig {
            period: Duration::from_millis(100),
            until: Some(Duration::from_secs(secs)),
            realtime: false,
            speed: 1.0,
        },
    );
    for (i, rig) in rigs.iter().enumerate() {
        runner.set_controller(i, Box::new(Wander::for_sensors(rig)));
    }
    let count = Arc::new(Mutex::new(0));
    runner.add_observer(Box::new(Collisions(count.clone())));
    let report = runner.run();
    let collisions = *count.lock().unwrap();
    assert_eq!(collisions, report.collisions);
    (collisions, report.distance_m)
}

/// A room with a wall whose end points at the robot: the sonars beside the front ones
/// pass either side of it.
fn jamb(laser: bool) -> WorldSpec {
    let mut spec = skipper_sim::parse_world(
        "box 0 0 10 10\nwall 0.1 0 0.1 5\nrobot r 0 -2 90\n",
        "jamb.world",
        None,
    )
    .unwrap();
    spec.robots[0].laser = laser;
    spec
}

#[test]
fn a_wall_end_ahead_is_avoided_with_the_laser() {
    let (collisions, distance) = wander(&jamb(true), 120);
    assert_eq!(collisions, 0);
    assert!(distance > 20.0, "it hardly moved: {distance} m");
}

#[test]
fn a_wall_end_the_sonars_miss_is_hit_once_at_most() {
    let (collisions, distance) = wander(&jamb(false), 120);
    assert!(collisions <= 1, "{collisions} collisions");
    assert!(distance > 20.0, "it hardly moved: {distance} m");
}

#[test]
fn a_crowd_in_the_office_keeps_clear() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let spec = skipper_sim::load_world(&root.join("examples/worlds/office.world")).unwrap();
    let spec = skipper_sim::ground::with_robots(spec, 20).unwrap();
    let (collisions, distance) = wander(&spec, 120);
    assert!(collisions <= 1, "{collisions} collisions");
    // they drive about, not jam: 20 robots at 0.2 m/s on average
    assert!(distance > 20.0 * 0.2 * 120.0, "{distance} m");
}
