//! `skipper run --ros` puts its robots' frames, time and sensors on ROS 1 (fake master,
//! no ROS installation needed): `/clock` advances by the cycle period in simulated time,
//! `/tf` carries `robot1/odom` -> `robot1/base_link` equal to `/robot1/pose` at the same
//! stamp, `/tf_static` the laser and the 16 sonar frames, and `scan`, `sonar`, `battery`
//! are published in those frames, as are `bumpers` and `gripper`; an AUV publishes
//! `depth`, `altitude` and (when its mission samples) `water`, and an AUV-only run's
//! `/tf_static` has its (empty) latched message.

use skipper_actionlib::Message;
use skipper_ros1_wire::msg::common::PoseStamped;
use skipper_ros1_wire::msg::sensor::{BatteryState, Clock, Float64, LaserScan, Range, TfMessage};
use skipper_ros1_wire::msg::skipper_msgs::{BumperState, GripperState, WaterProperties};
use skipper_ros1_wire::node::Subscriber;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::topics::subscribe;
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[allow(dead_code)] // the shared helpers this file does not use
mod ros_cli;
use ros_cli::Run;

/// Every message of one topic, as it arrives.
struct Heard<M>(Arc<Mutex<Vec<M>>>, #[allow(dead_code)] Subscriber);

impl<M: Message> Heard<M> {
    fn on(node: &Node, topic: &str) -> Self {
        let got: Arc<Mutex<Vec<M>>> = Arc::default();
        let g = got.clone();
        let sub = subscribe::<M>(node, topic, move |m, _| g.lock().unwrap().push(m)).unwrap();
        Heard(got, sub)
    }

    /// Wait (up to 30 s) until the messages heard satisfy `done`; return them.
    fn until(&self, what: &str, done: impl Fn(&[M]) -> bool) -> Vec<M> {
        let start = Instant::now();
        loop {
            let got = self.0.lock().unwrap().clone();
            if done(&got) {
                return got;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no {what}: {} heard",
                got.len()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn watcher(master: &str, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = master.to_string();
    Node::new(c).unwrap()
}

#[cfg(unix)]
#[test]
fn a_ground_robot_publishes_clock_tf_and_sensors() {
    let m = FakeMaster::start().unwrap();
    let _run = Run::start(&["run", "--ros", &m.uri, "--no-log", "--until", "120"]);
    let node = watcher(&m.uri, "/frames_watcher");
    let clock = Heard::<Clock>::on(&node, "/clock");
    let tf = Heard::<TfMessage>::on(&node, "/tf");
    let tf_static = Heard::<TfMessage>::on(&node, "/tf_static");
    let pose = Heard::<PoseStamped>::on(&node, "/robot1/pose");
    let scan = Heard::<LaserScan>::on(&node, "/robot1/scan");
    let sonar = Heard::<Range>::on(&node, "/robot1/sonar");
    let battery = Heard::<BatteryState>::on(&node, "/robot1/battery");
    let bumpers = Heard::<BumperState>::on(&node, "/robot1/bumpers");
    let gripper = Heard::<GripperState>::on(&node, "/robot1/gripper");

    // /clock: the run's time, one cycle (100 ms) further each message
    let ticks = clock.until("three /clock ticks", |c| c.len() >= 3);
    for w in ticks.windows(2) {
        let step = w[1].clock.as_nanos() as i64 - w[0].clock.as_nanos() as i64;
        assert_eq!(step, 100_000_000, "{:?} then {:?}", w[0].clock, w[1].clock);
    }

    // /tf: odom -> base_link, and it is where /robot1/pose says at the same stamp
    let poses = pose.until("poses", |p| p.len() >= 3);
    let tfs = tf.until("a /tf matching a pose", |t| {
        t.iter().any(|m| {
            m.transforms
                .iter()
                .any(|x| poses.iter().any(|p| p.header.stamp == x.header.stamp))
        })
    });
    let (t, p) = tfs
        .iter()
        .flat_map(|m| &m.transforms)
        .find_map(|x| {
            poses
                .iter()
                .find(|p| p.header.stamp == x.header.stamp)
                .map(|p| (x, p))
        })
        .unwrap();
    assert_eq!(t.header.frame_id, "robot1/odom");
    assert_eq!(t.child_frame_id, "robot1/base_link");
    assert_eq!(p.header.frame_id, "robot1/odom");
    assert_eq!(t.transform.translation.x, p.pose.position.x);
    assert_eq!(t.transform.translation.y, p.pose.position.y);
    assert_eq!(t.transform.rotation, p.pose.orientation);
    // stamps are simulated time: the pose's stamp is a time /clock announced
    let stamp = p.header.stamp;
    clock.until("the pose's stamp on /clock", |c| {
        c.iter().any(|c| c.clock == stamp)
    });

    // /tf_static (latched): base_link -> laser and the 16 sonars
    let statics = tf_static.until("/tf_static", |t| !t.is_empty());
    let children: Vec<&str> = statics[0]
        .transforms
        .iter()
        .map(|t| t.child_frame_id.as_str())
        .collect();
    assert!(children.contains(&"robot1/laser"), "{children:?}");
    for k in 0..16 {
        assert!(
            children.contains(&format!("robot1/sonar_{k}").as_str()),
            "{children:?}"
        );
    }
    assert!(statics[0]
        .transforms
        .iter()
        .all(|t| t.header.frame_id == "robot1/base_link"));

    // the sensors, in those frames
    let scans = scan.until("a scan", |s| !s.is_empty());
    let s = &scans[0];
    assert_eq!(s.header.frame_id, "robot1/laser");
    assert!(s.ranges.len() > 1, "{} beams", s.ranges.len());
    let span = s.angle_max - s.angle_min;
    assert!((span - s.angle_increment * (s.ranges.len() as f32 - 1.0)).abs() < 1e-4);
    // in the middle of an empty 25 m room every beam ends on a wall within range
    assert!(
        s.ranges.iter().all(|&r| r > 1.0 && r <= s.range_max),
        "{:?}",
        s.ranges
    );
    let sonars = sonar.until("16 sonar frames", |r| r.len() >= 16);
    let frames: Vec<&str> = sonars[..16]
        .iter()
        .map(|r| r.header.frame_id.as_str())
        .collect();
    for k in 0..16 {
        assert!(
            frames.contains(&format!("robot1/sonar_{k}").as_str()),
            "{frames:?}"
        );
    }
    assert!(sonars
        .iter()
        .all(|r| r.radiation_type == Range::ULTRASOUND && r.max_range > r.min_range));
    let b = &battery.until("a battery state", |b| !b.is_empty())[0];
    assert_eq!(b.header.frame_id, "robot1/base_link");
    assert!(b.voltage > 10.0 && b.present, "{b:?}");
    // the Pioneer's five segments per bumper ring, none pressed at the start
    let b = &bumpers.until("a bumper state", |b| !b.is_empty())[0];
    assert_eq!(b.header.frame_id, "robot1/base_link");
    assert_eq!(
        (b.front_bumpers.len(), b.rear_bumpers.len()),
        (5, 5),
        "{b:?}"
    );
    let g = &gripper.until("a gripper state", |g| !g.is_empty())[0];
    assert_eq!(g.header.frame_id, "robot1/base_link");
    assert!(
        (0.0..=1.0).contains(&g.paddles) && (0.0..=1.0).contains(&g.lift),
        "{g:?}"
    );
}

#[cfg(unix)]
#[test]
fn an_auv_publishes_depth_and_altitude() {
    let m = FakeMaster::start().unwrap();
    let mission = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/missions/test_mission.lua");
    let _run = Run::start(&[
        "run",
        mission.to_str().unwrap(),
        "--ros",
        &m.uri,
        "--no-log",
        "--until",
        "1h",
        "--speed",
        "50",
    ]);
    let node = watcher(&m.uri, "/auv_sensor_watcher");
    let depth = Heard::<Float64>::on(&node, "/tethys/depth");
    let altitude = Heard::<Float64>::on(&node, "/tethys/altitude");
    let tf = Heard::<TfMessage>::on(&node, "/tf");
    let water = Heard::<WaterProperties>::on(&node, "/tethys/water");
    let tf_static = Heard::<TfMessage>::on(&node, "/tf_static");
    // the mission samples the temperature (ReadSensor): a plausible sea temperature
    water.until("a sampled temperature", |w| {
        w.iter().any(|w| (-2.0..40.0).contains(&w.temperature))
    });
    // the mission dives: a depth below 1 m is heard
    depth.until("a depth below 1 m", |d| d.iter().any(|d| d.data > 1.0));
    altitude.until("an altitude", |a| a.iter().any(|a| a.data > 0.0));
    let t = tf.until("/tf", |t| !t.is_empty());
    let x = &t[0].transforms[0];
    assert_eq!(
        (x.header.frame_id.as_str(), x.child_frame_id.as_str()),
        ("world", "tethys/base_link")
    );
    // /tf_static carries its latched message on an AUV-only run too: none of the AUV's
    // sensors has a frame of its own, so it holds no transform
    let statics = tf_static.until("/tf_static", |t| !t.is_empty());
    assert!(statics[0].transforms.is_empty(), "{:?}", statics[0]);
}
