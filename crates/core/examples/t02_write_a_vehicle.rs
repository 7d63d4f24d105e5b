//! Tutorial 2: write a vehicle, and run a controller on it with Skipper's cycle runner.
//!
//! A vehicle writes what it senses into signals and takes actuation; a world holds
//! vehicles and lets time pass. Here a point robot on a floor with no walls: it declares
//! the ground robot's pose and speed signals from the vocabulary (so every controller
//! written for ground robots finds them), integrates the velocity it is driven at, and
//! stops when told. A small controller drives it in a circle for a simulated minute.
//!
//! Run it: `cargo run -p skipper-core --example t02_write_a_vehicle`

use skipper_core::vocabulary::ground::{
    PoseReader, POSE_X, POSE_Y, POSE_YAW, VELOCITY_ANGULAR, VELOCITY_LINEAR,
};
use skipper_core::{
    Actuation, Controller, ControllerError, Cycle, Drive, Events, Pose3, Rotation, RunConfig,
    RunOutcome, Runner, SignalId, Signals, Status, Translation, Vehicle, VehicleInfo, VehicleKind,
    World,
};
use std::time::Duration;

/// A robot that goes where its velocity takes it.
struct PointRobot {
    info: VehicleInfo,
    x: f64,
    y: f64,
    yaw: f64,
    v: f64,
    w: f64,
    ids: Option<[SignalId; 5]>,
}

impl Vehicle for PointRobot {
    fn info(&self) -> &VehicleInfo {
        &self.info
    }
    fn sense(&mut self, now: Duration, s: &mut Signals, _: &mut Events) {
        let ids = *self.ids.get_or_insert_with(|| {
            [
                &POSE_X,
                &POSE_Y,
                &POSE_YAW,
                &VELOCITY_LINEAR,
                &VELOCITY_ANGULAR,
            ]
            .map(|spec| spec.declare(s))
        });
        for (id, v) in ids.iter().zip([self.x, self.y, self.yaw, self.v, self.w]) {
            s.set_f64(*id, v, now);
        }
    }
    fn act(&mut self, _: Duration, a: &Actuation, _: &mut Events) {
        match a.drive {
            Some(Drive::Channels {
                translation,
                rotation,
            }) => {
                if let Some(Translation::Velocity(v)) = translation {
                    self.v = v;
                }
                if let Some(Rotation::Velocity(w)) = rotation {
                    self.w = w;
                }
            }
            Some(Drive::Stop | Drive::Estop) => (self.v, self.w) = (0.0, 0.0),
            _ => {}
        }
    }
    fn stop(&mut self, _: Duration, _: &mut Events) {
        (self.v, self.w) = (0.0, 0.0);
    }
    fn pose(&self) -> Pose3 {
        Pose3 {
            x: self.x,
            y: self.y,
            yaw: self.yaw,
            ..Default::default()
        }
    }
}

/// A floor with one point robot.
struct Floor(PointRobot);

impl World for Floor {
    fn len(&self) -> usize {
        1
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        (i == 0).then_some(&self.0 as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        (i == 0).then_some(&mut self.0 as &mut dyn Vehicle)
    }
    fn advance(&mut self, _: Duration, dt: Duration, _: &mut Events) {
        let r = &mut self.0;
        let dt = dt.as_secs_f64();
        r.x += r.v * r.yaw.cos() * dt;
        r.y += r.v * r.yaw.sin() * dt;
        r.yaw += r.w * dt;
    }
}

/// Drives in a circle, and says where the robot is.
struct Circler {
    pose: Option<PoseReader>,
    farthest: f64,
}

impl Controller for Circler {
    fn name(&self) -> &str {
        "circler"
    }
    fn start(&mut self, _: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.pose = Some(PoseReader::bind(s).ok_or_else(|| ControllerError::vehicle("no pose"))?);
        Ok(())
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        if let Some(p) = self.pose.and_then(|r| r.pose(c.signals)) {
            self.farthest = self.farthest.max(p.x.hypot(p.y));
        }
        c.actuation.drive = Some(Drive::velocity(0.5, 0.5));
        Ok(Status::Running)
    }
    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        out.insert("farthest_m".into(), self.farthest.into());
    }
}

/// The run's summary.
pub fn run() -> serde_json::Value {
    let robot = PointRobot {
        info: VehicleInfo {
            name: "dot".into(),
            kind: VehicleKind::Ground,
            model: "point".into(),
        },
        x: 0.0,
        y: 0.0,
        yaw: 0.0,
        v: 0.0,
        w: 0.0,
        ids: None,
    };
    let config = RunConfig {
        until: Some(Duration::from_secs(60)),
        ..Default::default()
    };
    let mut runner = Runner::new(Box::new(Floor(robot)), config);
    runner.set_controller(
        0,
        Box::new(Circler {
            pose: None,
            farthest: 0.0,
        }),
    );
    let report = runner.run();
    assert_eq!(report.outcome, RunOutcome::TimeLimit);
    let s = report.summary_json(false);
    println!("{}", serde_json::to_string_pretty(&s).unwrap_or_default());
    s
}

fn main() {
    run();
}

#[test]
fn the_robot_drives_a_circle_of_one_metre_radius() {
    let s = run();
    // 0.5 m/s at 0.5 rad/s: a circle of radius 1 m (whose far side is 2 m away; Euler steps
    // of 0.1 s overshoot it by a fraction of a millimetre)
    let far = s["farthest_m"].as_f64().unwrap();
    assert!((far - 2.0).abs() < 0.01, "{far}");
    assert_eq!(s["cycles"], 600);
}
