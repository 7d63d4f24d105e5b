//! A fleet's run log made without a simulator: robots that drive circles of their own and
//! report their speed, a sonar range and a depth, logged by the run log's writer.

use skipper_core::vocabulary::ground::VELOCITY_LINEAR;
use skipper_core::{
    Actuation, Controller, ControllerError, Cycle, Events, Pose3, RunConfig, Runner, Signals,
    Status, Vehicle, VehicleInfo, VehicleKind, World,
};
use skipper_runlog::RunLog;
use std::time::Duration;

/// A robot that drives a circle of its own, and reports its speed and depth.
struct Circling {
    info: VehicleInfo,
    k: f64,
    pose: Pose3,
}

impl Vehicle for Circling {
    fn info(&self) -> &VehicleInfo {
        &self.info
    }
    fn sense(&mut self, now: Duration, s: &mut Signals, _: &mut Events) {
        let t = now.as_secs_f64();
        s.set_named(
            VELOCITY_LINEAR.name,
            None,
            (0.3 + 0.1 * (t * self.k).sin()).into(),
            now,
        );
        s.set_named("sonar.0", None, (2.0 + (t + self.k).cos()).into(), now);
        s.set_named("auv.depth", None, (5.0 + (t * 0.1).sin()).into(), now);
    }
    fn act(&mut self, _: Duration, _: &Actuation, _: &mut Events) {}
    fn stop(&mut self, _: Duration, _: &mut Events) {}
    fn pose(&self) -> Pose3 {
        self.pose
    }
}

/// The robots, moved along their circles as time passes.
struct Fleet(Vec<Circling>);

impl World for Fleet {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        self.0.get(i).map(|v| v as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        self.0.get_mut(i).map(|v| v as &mut dyn Vehicle)
    }
    fn advance(&mut self, now: Duration, dt: Duration, _: &mut Events) {
        let t = (now + dt).as_secs_f64();
        for v in &mut self.0 {
            let a = t * 0.05 * v.k;
            v.pose.x = 10.0 * v.k + 5.0 * a.cos();
            v.pose.y = 5.0 * a.sin();
            v.pose.yaw = a + std::f64::consts::FRAC_PI_2;
        }
    }
}

struct Idle;

impl Controller for Idle {
    fn name(&self) -> &str {
        "idle"
    }
    fn step(&mut self, _: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        Ok(Status::Running)
    }
}

/// A run log at `path` of `robots` robots driving circles for `seconds` of simulated
/// time at 10 Hz, written by the run log's writer.
pub fn fleet_log(path: &std::path::Path, robots: usize, seconds: u64) {
    let fleet = (0..robots)
        .map(|i| Circling {
            info: VehicleInfo {
                name: format!("robot{i}"),
                kind: VehicleKind::Ground,
                model: "p3dx".into(),
            },
            k: 1.0 + i as f64 * 0.1,
            pose: Pose3::default(),
        })
        .collect();
    let config = RunConfig {
        until: Some(Duration::from_secs(seconds)),
        ..RunConfig::default()
    };
    let mut r = Runner::new(Box::new(Fleet(fleet)), config);
    for i in 0..robots {
        r.set_controller(i, Box::new(Idle));
    }
    let (log, _) = RunLog::create(path).expect("the log is made");
    r.add_observer(Box::new(log));
    r.run();
}
