//! A remote robot as a [`Vehicle`]: it senses what its link's feed says (odometry into
//! `pose.*` and `velocity.*`, the scan into `laser.N`, range sensors into `sonar.N`, the
//! battery into `battery.*`: only what the robot has, which is also its vocabulary), and
//! acts by sending the velocity its controller's drive command makes. Stale odometry holds
//! it (a zero velocity goes out, a `link` event says why, another when it is back); no
//! odometry for the give-up bound fails the run.

use super::drive::{DriveParams, DriveState};
use super::feed::Equipment;
use super::link::Link;
use crate::actuation::Actuation;
use crate::event::Events;
use crate::geometry::{Pose2, Pose3};
use crate::sensors::SensorGeometry;
use crate::signals::{SignalId, Signals};
use crate::vehicle::{Vehicle, VehicleError, VehicleFault, VehicleInfo, VehicleKind};
use crate::vocabulary::{ground, OwnFamily, SignalSpec, Vocabulary};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a remote robot is called and how it drives.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteConfig {
    /// its name in the run (unique)
    pub name: String,
    /// its model, for the run log (`ros2`, `ros1`)
    pub model: String,
    /// how drive commands become velocities
    pub drive: DriveParams,
}

struct Ids {
    pose: [SignalId; 3],
    velocity: [SignalId; 2],
    laser: Vec<SignalId>,
    sonar: Vec<SignalId>,
    battery: Option<[SignalId; 2]>,
}

/// One remote ground robot.
pub struct RemoteRobot {
    info: VehicleInfo,
    link: Arc<Link>,
    equipment: Equipment,
    ids: Option<Ids>,
    drive: DriveState,
    pose: Option<Pose2>,
    odometer: f64,
    held: bool,
}

/// The signals a robot with `e` declares.
fn own_signals(e: &Equipment) -> Vec<&'static SignalSpec> {
    let mut v = vec![
        &ground::POSE_X,
        &ground::POSE_Y,
        &ground::POSE_YAW,
        &ground::VELOCITY_LINEAR,
        &ground::VELOCITY_ANGULAR,
    ];
    if e.battery {
        v.extend([&ground::BATTERY_VOLTAGE, &ground::BATTERY_CHARGE]);
    }
    v
}

impl RemoteRobot {
    /// The robot on `link`, which was found to have `equipment`.
    pub fn new(config: RemoteConfig, link: Arc<Link>, equipment: Equipment) -> Self {
        Self {
            info: VehicleInfo {
                name: config.name,
                kind: VehicleKind::Ground,
                model: config.model,
            },
            link,
            equipment,
            ids: None,
            drive: DriveState::new(config.drive),
            pose: None,
            odometer: 0.0,
            held: false,
        }
    }

    /// Its link.
    pub fn link(&self) -> &Arc<Link> {
        &self.link
    }

    /// What it was found to have.
    pub fn equipment(&self) -> &Equipment {
        &self.equipment
    }

    fn declare(&self, s: &mut Signals) -> Ids {
        let e = &self.equipment;
        let all = |s: &mut Signals, specs: &[&SignalSpec]| -> Vec<SignalId> {
            specs.iter().map(|spec| spec.declare(s)).collect()
        };
        let p = all(s, &[&ground::POSE_X, &ground::POSE_Y, &ground::POSE_YAW]);
        let v = all(s, &[&ground::VELOCITY_LINEAR, &ground::VELOCITY_ANGULAR]);
        let beams = e.laser.map_or(0, |(n, _)| n);
        Ids {
            pose: [p[0], p[1], p[2]],
            velocity: [v[0], v[1]],
            laser: (0..beams).map(|k| ground::LASER.declare(s, k)).collect(),
            sonar: (0..e.sonars.len())
                .map(|k| ground::SONAR.declare(s, k))
                .collect(),
            battery: e.battery.then(|| {
                [
                    ground::BATTERY_VOLTAGE.declare(s),
                    ground::BATTERY_CHARGE.declare(s),
                ]
            }),
        }
    }
}

impl Vehicle for RemoteRobot {
    fn info(&self) -> &VehicleInfo {
        &self.info
    }

    fn sense(&mut self, now: Duration, s: &mut Signals, events: &mut Events) {
        if self.ids.is_none() {
            self.ids = Some(self.declare(s));
            events.push(
                now,
                "link",
                serde_json::json!({"up": true, "what": format!("driving the robot at {}", self.link.namespace())}),
            );
        }
        let Some(ids) = &self.ids else { return };
        let stale = self.link.stale(Instant::now());
        let mut feed = self.link.feed();
        if let Some(o) = feed.take_odometry() {
            for (id, v) in ids.pose.iter().zip([o.x, o.y, o.yaw]) {
                s.set_f64(*id, v, now);
            }
            s.set_f64(ids.velocity[0], o.linear, now);
            s.set_f64(ids.velocity[1], o.angular, now);
            let p = Pose2 {
                x: o.x,
                y: o.y,
                yaw: o.yaw,
            };
            if let Some(last) = self.pose {
                self.odometer += (p.x - last.x).hypot(p.y - last.y);
            }
            self.pose = Some(p);
        }
        feed.take_beams(|k, r| {
            if let Some(id) = ids.laser.get(k) {
                s.set_f64(*id, r, now);
            }
        });
        feed.take_sonars(|k, r| {
            if let Some(id) = ids.sonar.get(k) {
                s.set_f64(*id, r, now);
            }
        });
        if let (Some(b), Some([v, c])) = (feed.take_battery(), ids.battery) {
            s.set_f64(v, b.voltage, now);
            if b.percentage.is_finite() {
                s.set_f64(c, b.percentage * 100.0, now);
            }
        }
        let notes = feed.skips().take_notes();
        drop(feed);
        for n in notes {
            events.push(now, "input", serde_json::json!({"skipped": n}));
        }
        if stale != self.held {
            self.held = stale;
            let what = if stale {
                self.link.halt();
                format!(
                    "no odometry on {}/odom for {:.2} s: the robot is stopped until it is back",
                    self.link.namespace(),
                    self.link.bounds().stale_after.as_secs_f64()
                )
            } else {
                format!("odometry on {}/odom is back", self.link.namespace())
            };
            events.push(now, "link", serde_json::json!({"up": !stale, "what": what}));
        }
        for what in self.link.take_notes() {
            events.push(now, "link", serde_json::json!({"up": false, "what": what}));
        }
    }

    fn act(&mut self, now: Duration, a: &Actuation, events: &mut Events) {
        if let Some(l) = &a.limits {
            self.drive.limit(l);
        }
        if let Some(d) = &a.drive {
            self.drive.command(d);
        }
        let (v, w) = self.drive.velocity(self.pose);
        self.link.command(v, w, self.held);
        for text in &a.say {
            events.push(now, "speech", serde_json::json!({ "text": &**text }));
        }
    }

    fn stop(&mut self, _now: Duration, _events: &mut Events) {
        self.drive.halt();
        self.link.halt();
    }

    fn pose(&self) -> Pose3 {
        self.pose.unwrap_or_default().to_3d()
    }

    fn odometer(&self) -> f64 {
        self.odometer
    }

    fn health(&self) -> Result<(), VehicleError> {
        let limit = self.link.bounds().give_up_after;
        match self.link.silent_for(Instant::now()) {
            Some(d) if d > limit => Err(VehicleError::new(
                self.info.name.clone(),
                VehicleFault::LinkLost,
                format!(
                    "no odometry from the robot on {}/odom for {:.1} s (the bound is {:.1} s): the robot was stopped",
                    self.link.namespace(),
                    d.as_secs_f64(),
                    limit.as_secs_f64()
                ),
            )),
            _ => Ok(()),
        }
    }

    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        let mut feed = self.link.feed();
        let skipped: serde_json::Map<String, serde_json::Value> = feed
            .skips()
            .counts()
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).into()))
            .collect();
        let entry = out
            .entry("skipped_messages")
            .or_insert_with(|| serde_json::json!({}));
        if let Some(m) = entry.as_object_mut() {
            for (k, v) in skipped {
                let sum = m.get(&k).and_then(|x| x.as_u64()).unwrap_or(0) + v.as_u64().unwrap_or(0);
                m.insert(k, sum.into());
            }
        }
    }

    fn view(&self) -> serde_json::Value {
        let p = self.pose.unwrap_or_default();
        let feed = self.link.feed();
        let laser = match self.equipment.laser {
            Some((_, g)) => serde_json::json!({
                "x": g.x, "first": g.angle_min, "step": g.angle_increment,
                "ranges": feed.laser_ranges(),
            }),
            None => serde_json::Value::Null,
        };
        let sonar: Vec<[f64; 4]> = self
            .equipment
            .sonars
            .iter()
            .zip(feed.sonar_ranges())
            .map(|(g, r)| [g.x, g.y, g.yaw, r])
            .collect();
        serde_json::json!({
            "pose": {"x": p.x, "y": p.y, "yaw": p.yaw},
            "radius": 0.2,
            "sonar": sonar,
            "laser": laser,
        })
    }

    fn sensors(&self) -> SensorGeometry {
        SensorGeometry {
            laser: self.equipment.laser.map(|(_, g)| g),
            sonar: self.equipment.sonars.clone(),
            bumper_segments: 0,
        }
    }

    fn vocabulary(&self) -> Vocabulary {
        let mut families = Vec::new();
        if let Some((n, _)) = self.equipment.laser {
            families.push(OwnFamily {
                family: &ground::LASER,
                members: Some(n),
            });
        }
        if !self.equipment.sonars.is_empty() {
            families.push(OwnFamily {
                family: &ground::SONAR,
                members: Some(self.equipment.sonars.len()),
            });
        }
        Vocabulary::of_own(
            VehicleKind::Ground,
            &own_signals(&self.equipment),
            &families,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::clock::RobotClock;
    use super::super::feed::{OdometryReading, ScanReading};
    use super::super::frames::Transform;
    use super::super::link::{Bounds, CommandOut};
    use super::*;
    use crate::actuation::Drive;
    use std::sync::Mutex;

    #[derive(Clone, Default)]
    struct Sent(Arc<Mutex<Vec<(f64, f64)>>>);
    impl CommandOut for Sent {
        fn send(&mut self, v: f64, w: f64) {
            self.0.lock().unwrap().push((v, w));
        }
    }

    fn robot(bounds: Bounds) -> (RemoteRobot, Sent) {
        let sent = Sent::default();
        let clock = Arc::new(RobotClock::new(false));
        let link = Link::new("/bot", bounds, clock, Box::new(sent.clone()));
        {
            let mut f = link.feed();
            f.odometry(
                OdometryReading {
                    stamp: 1.0,
                    x: 0.5,
                    y: 0.0,
                    yaw: 0.1,
                    linear: 0.2,
                    angular: 0.0,
                },
                "base_link",
            );
            f.transform("base_link", "laser", Transform::IDENTITY);
            f.scan(&ScanReading {
                stamp: 1.0,
                frame: "laser",
                angle_min: -1.0,
                angle_max: 1.0,
                angle_increment: 1.0,
                range_min: 0.1,
                range_max: 4.0,
                ranges: &[1.0, 2.0, 3.0],
            });
        }
        let e = link.feed().freeze().unwrap();
        let config = RemoteConfig {
            name: "bot_skipper".into(),
            model: "test".into(),
            drive: DriveParams::default(),
        };
        (RemoteRobot::new(config, link, e), sent)
    }

    #[test]
    fn it_senses_only_what_the_robot_has_and_drives_by_velocity() {
        let (mut r, sent) = robot(Bounds::default());
        let (mut s, mut ev) = (Signals::new(), Events::new());
        r.sense(Duration::ZERO, &mut s, &mut ev);
        let names: Vec<String> = s.iter().map(|(_, n, _)| n.to_string()).collect();
        assert_eq!(
            names,
            [
                "pose.x",
                "pose.y",
                "pose.yaw",
                "velocity.linear",
                "velocity.angular",
                "laser.0",
                "laser.1",
                "laser.2"
            ]
        );
        assert_eq!(s.get_named("pose.x").and_then(|v| v.as_f64()), Some(0.5));
        assert_eq!(s.get_named("laser.2").and_then(|v| v.as_f64()), Some(3.0));
        let v = r.vocabulary();
        assert!(v.resolve("laser.2").is_some() && v.resolve("laser.3").is_none());
        assert!(v.resolve("sonar.0").is_none() && v.resolve("battery.voltage").is_none());
        assert_eq!(r.sensors().laser.map(|l| l.angle_min), Some(-1.0));
        let a = Actuation {
            drive: Some(Drive::velocity(0.3, -0.2)),
            ..Actuation::default()
        };
        r.act(Duration::ZERO, &a, &mut ev);
        r.stop(Duration::ZERO, &mut ev);
        assert_eq!(*sent.0.lock().unwrap(), [(0.3, -0.2), (0.0, 0.0)]);
        assert!(r.health().is_ok());
    }

    #[test]
    fn stale_odometry_holds_the_robot_and_a_lost_one_fails_the_run() {
        let bounds = Bounds {
            stale_after: Duration::from_millis(1),
            give_up_after: Duration::from_millis(2),
            ..Bounds::default()
        };
        let (mut r, sent) = robot(bounds);
        std::thread::sleep(Duration::from_millis(10));
        let (mut s, mut ev) = (Signals::new(), Events::new());
        r.sense(Duration::ZERO, &mut s, &mut ev);
        let link_events: Vec<_> = ev.as_slice().iter().filter(|e| e.kind == "link").collect();
        assert_eq!(link_events.len(), 2, "{:?}", ev.as_slice());
        let a = Actuation {
            drive: Some(Drive::velocity(0.3, 0.0)),
            ..Actuation::default()
        };
        r.act(Duration::ZERO, &a, &mut ev);
        assert_eq!(sent.0.lock().unwrap().last(), Some(&(0.0, 0.0)));
        let e = r.health().unwrap_err();
        assert!(
            e.to_string()
                .contains("no odometry from the robot on /bot/odom"),
            "{e}"
        );
    }
}
