//! A robot's steady-state cycle of publishing allocates nothing: reading the ground
//! robot's and the AUV's signals, refilling their kept messages (odom, pose, scan, 16
//! sonar ranges, battery; the AUV's depth, water, fix), handing each to its outlet as a
//! publisher takes it (a copy, dropped once sent), `/tf` and `/clock`. The outlets here
//! are recorders, not DDS publishers: what ros2-client and RustDDS do with a message
//! (serialization, the history cache) is theirs and is not counted here (docs/ros2.md).

use skipper_core::alloc_count::{allocations_in, CountingAllocator};
use skipper_core::vocabulary::{auv, ground};
use skipper_core::{Signals, Value};
use skipper_ros2::error::Ros2Error;
use skipper_ros2::msg::geometry::{Odometry, TfMessage};
use skipper_ros2::msg::sensor::{LaserScan, Range};
use skipper_ros2::msg::RosType;
use skipper_ros2::outlet::{Advertise, Outlet};
use skipper_ros2::robot::{
    AuvTopics, GroundGeometry, GroundTopics, LaserGeometry, SharedTopics, SonarGeometry,
};
use skipper_ros2::sample::{AuvReader, GroundReader};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// One recorded topic: how many messages were sent, and (when keeping) the last one.
struct Log {
    topic: String,
    sent: Cell<usize>,
    last: RefCell<Option<Box<dyn Any>>>,
}

/// Advertises recording outlets. `keep`: each outlet keeps a copy of its last message
/// (so the kept message cannot be refilled in place: only for checking contents).
#[derive(Default)]
struct Recorder {
    keep: bool,
    logs: Vec<Rc<Log>>,
}

struct RecordingOutlet {
    log: Rc<Log>,
    keep: bool,
}

impl<M: Clone + 'static> Outlet<M> for RecordingOutlet {
    fn send(&self, m: &M) {
        // as ros2-client's `publish(m.clone())`: a copy, dropped once it is sent
        let copy = m.clone();
        self.log.sent.set(self.log.sent.get() + 1);
        if self.keep {
            *self.log.last.borrow_mut() = Some(Box::new(copy));
        }
    }
}

impl Advertise for Recorder {
    fn advertise<M: ros2_client::Message + RosType + Clone + 'static>(
        &mut self,
        topic: &str,
        _qos: ros2_client::ros2::QosProfile,
    ) -> Result<Box<dyn Outlet<M>>, Ros2Error> {
        let log = Rc::new(Log {
            topic: topic.to_string(),
            sent: Cell::new(0),
            last: RefCell::new(None),
        });
        self.logs.push(log.clone());
        Ok(Box::new(RecordingOutlet {
            log,
            keep: self.keep,
        }))
    }
}

impl Recorder {
    fn log(&self, topic: &str) -> &Log {
        self.logs.iter().find(|l| l.topic == topic).expect(topic)
    }
    fn sent(&self, topic: &str) -> usize {
        self.log(topic).sent.get()
    }
    fn last<M: Clone + 'static>(&self, topic: &str) -> M {
        let last = self.log(topic).last.borrow();
        let any = last.as_ref().expect("a message was kept");
        any.downcast_ref::<M>().expect("the topic's type").clone()
    }
}

const BEAMS: usize = 181;

fn pioneer() -> GroundGeometry {
    GroundGeometry {
        laser: Some(LaserGeometry {
            x: 0.16,
            angle_min: -std::f64::consts::FRAC_PI_2,
            angle_increment: std::f64::consts::PI / 180.0,
            range_min: 0.02,
            range_max: 8.0,
        }),
        sonar: (0..ground::SONARS)
            .map(|k| SonarGeometry {
                x: 0.1,
                y: 0.0,
                yaw: k as f64 * 0.4,
                field_of_view: 0.26,
                min_range: 0.1,
                max_range: 5.0,
            })
            .collect(),
        ..GroundGeometry::default()
    }
}

/// A ground robot's signals, as a vehicle declares them.
fn ground_signals() -> (Signals, ground::Ids) {
    let mut s = Signals::new();
    let ids = ground::Ids::declare(
        &mut s,
        &ground::Equipment {
            truth: false,
            sonars: ground::SONARS,
            laser_beams: BEAMS,
            gripper_detail: false,
        },
    );
    (s, ids)
}

/// Cycle `k` of a robot driving ahead at 0.3 m/s, at 10 Hz.
fn drive(s: &mut Signals, ids: &ground::Ids, k: u32) -> Duration {
    let now = Duration::from_millis(100) * k;
    s.begin_cycle();
    let x = 0.03 * f64::from(k);
    s.set_f64(ids.pose[0], x, now);
    s.set_f64(ids.pose[1], 1.0, now);
    s.set_f64(ids.pose[2], 0.5, now);
    s.set_f64(ids.velocity[0], 0.3, now);
    s.set_f64(ids.velocity[1], 0.0, now);
    s.set_f64(ids.battery[0], 12.5, now);
    s.set_f64(ids.battery[1], 90.0, now);
    for (b, id) in ids.laser.iter().enumerate() {
        s.set_f64(*id, 1.0 + b as f64 * 0.01 + x, now);
    }
    for (b, id) in ids.sonar.iter().enumerate() {
        s.set_f64(*id, 2.0 + b as f64 * 0.1, now);
    }
    now
}

/// One cycle of the ground robot as `skipper run --ros2` publishes it.
fn ground_cycle(
    s: &Signals,
    now: Duration,
    reader: &mut GroundReader,
    topics: &mut GroundTopics,
    shared: &mut SharedTopics,
) {
    let sample = reader.read(s, now).expect("the pose is set");
    let tf = topics.publish(&sample);
    shared.push_tf(tf);
    shared.end_cycle(now);
}

#[test]
fn a_ground_robots_steady_state_cycle_allocates_nothing() {
    let mut rec = Recorder::default();
    let mut topics = GroundTopics::advertise(&mut rec, "robot1", "robot1", pioneer()).unwrap();
    let mut shared = SharedTopics::advertise(&mut rec).unwrap();
    shared.add_static(topics.static_transforms());
    let (mut s, ids) = ground_signals();
    let mut reader = GroundReader::bind(&s);
    // the first cycles size the kept buffers (ranges, the tf list)
    for k in 0..3 {
        let now = drive(&mut s, &ids, k);
        ground_cycle(&s, now, &mut reader, &mut topics, &mut shared);
    }
    for k in 3..50 {
        let now = drive(&mut s, &ids, k);
        let ((), n) =
            allocations_in(|| ground_cycle(&s, now, &mut reader, &mut topics, &mut shared));
        assert_eq!(n, 0, "cycle {k} allocated {n} times");
    }
    for topic in [
        "robot1/odom",
        "robot1/pose",
        "robot1/scan",
        "robot1/battery",
    ] {
        assert_eq!(rec.sent(topic), 50, "{topic}");
    }
    assert_eq!(rec.sent("robot1/sonar"), 50 * ground::SONARS);
    assert_eq!((rec.sent("/tf"), rec.sent("/clock")), (50, 50));
    assert_eq!(rec.sent("/tf_static"), 1);
}

#[test]
fn the_refilled_messages_carry_this_cycles_values() {
    let mut rec = Recorder {
        keep: true,
        ..Recorder::default()
    };
    let mut topics = GroundTopics::advertise(&mut rec, "robot1", "robot1", pioneer()).unwrap();
    let mut shared = SharedTopics::advertise(&mut rec).unwrap();
    let (mut s, ids) = ground_signals();
    let mut reader = GroundReader::bind(&s);
    for k in 0..5 {
        let now = drive(&mut s, &ids, k);
        ground_cycle(&s, now, &mut reader, &mut topics, &mut shared);
    }
    let odom: Odometry = rec.last("robot1/odom");
    assert_eq!(odom.header.stamp.sec, 0);
    assert_eq!(odom.header.stamp.nanosec, 400_000_000);
    assert_eq!(
        (odom.header.frame_id.as_str(), odom.child_frame_id.as_str()),
        ("robot1/odom", "robot1/base_link")
    );
    assert!((odom.pose.pose.position.x - 0.12).abs() < 1e-12);
    let scan: LaserScan = rec.last("robot1/scan");
    assert_eq!(scan.ranges.len(), BEAMS);
    assert!((f64::from(scan.ranges[10]) - (1.1 + 0.12)).abs() < 1e-6);
    assert_eq!(scan.header.frame_id.as_str(), "robot1/laser");
    let sonar: Range = rec.last("robot1/sonar");
    assert_eq!(sonar.header.frame_id.as_str(), "robot1/sonar_15");
    assert!((f64::from(sonar.range) - 3.5).abs() < 1e-6);
    let tf: TfMessage = rec.last("/tf");
    assert_eq!(tf.transforms.len(), 1, "one robot, one transform per cycle");
    assert_eq!(tf.transforms[0].child_frame_id.as_str(), "robot1/base_link");
}

#[test]
fn an_auvs_steady_state_cycle_allocates_nothing() {
    let mut rec = Recorder::default();
    let mut topics = AuvTopics::advertise(&mut rec, "auv1", "auv1").unwrap();
    let mut shared = SharedTopics::advertise(&mut rec).unwrap();
    let mut s = Signals::new();
    let ids = auv::Ids::declare(&mut s);
    let origin = (36.8, -121.9);
    let reader = AuvReader::bind(&s, origin);
    let mut cycle = |s: &mut Signals, k: u32, measure: bool| {
        let now = Duration::from_millis(100) * k;
        s.begin_cycle();
        let lat = origin.0 + 1e-6 * f64::from(k);
        for (id, v) in [
            (ids.lat, lat),
            (ids.lon, origin.1),
            (ids.depth, 0.2),
            (ids.yaw, 0.0),
            (ids.pitch, 0.0),
            (ids.roll, 0.0),
            (ids.speed, 1.0),
            (ids.altitude, 30.0),
            (ids.temperature, 12.0),
            (ids.salinity, 33.5),
        ] {
            s.set_f64(id, v, now);
        }
        // at the surface: a GPS fix every cycle
        let fix = Value::Position { lat, lon: origin.1 };
        s.set(ids.fix, fix, now);
        let mut step = || {
            let sample = reader.read(s, now).expect("the navigation is set");
            let tf = topics.publish(&sample);
            shared.push_tf(tf);
            shared.end_cycle(now);
        };
        if measure {
            allocations_in(step).1
        } else {
            step();
            0
        }
    };
    for k in 0..3 {
        cycle(&mut s, k, false);
    }
    for k in 3..30 {
        let n = cycle(&mut s, k, true);
        assert_eq!(n, 0, "cycle {k} allocated {n} times");
    }
    for topic in ["auv1/odom", "auv1/depth", "auv1/water", "auv1/gps/fix"] {
        assert_eq!(rec.sent(topic), 30, "{topic}");
    }
}
