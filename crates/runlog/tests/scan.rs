//! `/scan` carries the pose its ranges were cast from: a robot spinning fast in a small
//! room draws every beam's end on a wall, never beyond it.

use skipper_core::{Controller, ControllerError, Cycle, Drive, RunConfig, Runner, Status};
use skipper_runlog::Recording;
use skipper_runlog::RunLog;
use skipper_sim::world_file::parse_world;
use skipper_sim::GroundWorld;
use std::time::Duration;

/// Drives forward slowly while turning at 90 degrees a second.
struct Spin;

impl Controller for Spin {
    fn name(&self) -> &str {
        "spin"
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        c.actuation.drive = Some(Drive::velocity(0.1, 90f64.to_radians()));
        Ok(Status::Running)
    }
}

#[test]
fn scans_drawn_with_their_pose_end_on_the_walls_while_the_robot_turns() {
    let mut spec = parse_world(
        "world box\nset laser_range 8\nbox 0 0 4 4\nrobot r1 0.3 -0.4 0 laser=yes\n",
        "box.world",
        None,
    )
    .unwrap();
    // exact (`--exact`): the beam ends are checked against the walls to the mm
    spec.settings.exact();
    let world = GroundWorld::new(&spec, 0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.mcap");
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            until: Some(Duration::from_secs(20)),
            ..RunConfig::default()
        },
    );
    r.set_controller(0, Box::new(Spin));
    let (log, _) = RunLog::create(&path).unwrap();
    r.add_observer(Box::new(log));
    r.run();
    let rec = Recording::open(&path, &|_| false).unwrap();
    let scans = &rec.robots[0].scans;
    assert!(scans.len() >= 190, "{}", scans.len());
    let mut worst = 0f64;
    for s in scans {
        let n = s.ranges.len();
        for (k, r) in s.ranges.iter().enumerate() {
            let a =
                s.yaw + s.start_angle + (s.end_angle - s.start_angle) * k as f64 / (n - 1) as f64;
            let (x, y) = (s.x + r * a.cos(), s.y + r * a.sin());
            // the walls are the lines |x| = 2 and |y| = 2: each end lies on one
            let off = (x.abs() - 2.0).abs().min((y.abs() - 2.0).abs());
            worst = worst.max(off);
        }
    }
    // ranges are logged to the mm
    assert!(worst < 0.002, "a beam ends {worst} m off the walls");
    // and the time of a scan is the time its ranges were cast: the /pose of that time
    let p = rec.robots[0].pose_at(scans[10].t).unwrap();
    assert!((p.t - scans[10].t).abs() < 1e-9);
    assert!((p.x - scans[10].x).abs() < 0.02 && (p.yaw - scans[10].yaw).abs() < 1e-9);
}
