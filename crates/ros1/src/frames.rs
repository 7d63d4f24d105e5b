//! Frames and time of the run's robots on ROS 1: each robot's frames carry its name
//! (`robot1/odom`, `robot1/base_link`, `robot1/laser`, `robot1/sonar_3`) so several robots
//! share `/tf`; the AUV's pose is in the worksite's `world`. [`Shared`] publishes
//! `/clock` (`rosgraph_msgs/Clock`, when the run keeps simulated time), `/tf` (every
//! robot's moving transform, one message per cycle) and `/tf_static` (the sensors' fixed
//! transforms, latched). Stamps are the run's time when it is simulated (what `/clock`
//! says, so nodes with `use_sim_time` agree), the wall clock for a real robot.

use skipper_actionlib::{Clock, SystemClock, Time};
use skipper_ros1_wire::msg::common::{Header, Quaternion, Vector3};
use skipper_ros1_wire::msg::sensor::{Clock as ClockMsg, TfMessage, Transform, TransformStamped};
use skipper_ros1_wire::{Node, RosError, TypedPublisher};
use std::time::Duration;

/// Which time the robots' topics are stamped with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeSource {
    /// The run's simulated time, published on `/clock`.
    Simulated,
    /// The wall clock (a real robot); no `/clock`.
    Wall,
}

impl TimeSource {
    /// The stamp of a cycle at run time `now`.
    pub fn stamp(self, now: Duration) -> Time {
        match self {
            TimeSource::Simulated => Time::from_nanos(now.as_nanos().min(u64::MAX as u128) as u64),
            TimeSource::Wall => SystemClock.now(),
        }
    }
}

/// The frame names of a robot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frames {
    /// its odometry frame (`robot1/odom`; the AUV's is `world`)
    pub odom: String,
    /// its body (`robot1/base_link`)
    pub base: String,
    /// its laser (`robot1/laser`)
    pub laser: String,
    /// the prefix of its sonar transducers' frames (`robot1/sonar_`)
    pub sonar: String,
}

impl Frames {
    /// The frames of ground robot `name` (a ROS name).
    pub fn ground(name: &str) -> Self {
        Self {
            odom: format!("{name}/odom"),
            base: format!("{name}/base_link"),
            laser: format!("{name}/laser"),
            sonar: format!("{name}/sonar_"),
        }
    }

    /// The frames of AUV `name`: its pose is in the worksite's `world`.
    pub fn auv(name: &str) -> Self {
        Self {
            odom: "world".into(),
            ..Self::ground(name)
        }
    }
}

/// A header at `stamp` in `frame` (sequence numbers are left to the publisher).
pub fn header(stamp: Time, frame: &str) -> Header {
    Header {
        seq: 0,
        stamp,
        frame_id: frame.to_string(),
    }
}

/// The transform that puts `child` at (x, y, z) turned by `rotation` in `parent`.
pub fn transform(
    stamp: Time,
    parent: &str,
    child: &str,
    (x, y, z): (f64, f64, f64),
    rotation: Quaternion,
) -> TransformStamped {
    TransformStamped {
        header: header(stamp, parent),
        child_frame_id: child.to_string(),
        transform: Transform {
            translation: Vector3 { x, y, z },
            rotation,
        },
    }
}

/// `/tf`, `/tf_static` and `/clock`.
pub struct Shared {
    time: TimeSource,
    clock: Option<TypedPublisher<ClockMsg>>,
    tf: TypedPublisher<TfMessage>,
    tf_static: TypedPublisher<TfMessage>,
    tf_msg: TfMessage,
    statics: TfMessage,
}

impl Shared {
    /// Advertise `/tf`, `/tf_static` (latched) and, in simulated time, `/clock`.
    pub fn advertise(node: &Node, time: TimeSource) -> Result<Self, RosError> {
        let clock = match time {
            TimeSource::Simulated => Some(TypedPublisher::advertise(node, "/clock", false)?),
            TimeSource::Wall => None,
        };
        Ok(Self {
            time,
            clock,
            tf: TypedPublisher::advertise(node, "/tf", false)?,
            tf_static: TypedPublisher::advertise(node, "/tf_static", true)?,
            tf_msg: TfMessage::default(),
            statics: TfMessage::default(),
        })
    }

    /// The time the robots' topics are stamped with.
    pub fn time(&self) -> TimeSource {
        self.time
    }

    /// Add fixed transforms, published by [`Shared::publish_static`].
    pub fn add_static(&mut self, t: Vec<TransformStamped>) {
        self.statics.transforms.extend(t);
    }

    /// Publish `/tf_static` with every fixed transform added so far (latched, so a
    /// listener that joins later gets them all). Published even with none (a run of AUVs
    /// only, whose sensors are in `base_link`): a latched topic that never carries a
    /// message leaves its listeners (`rostopic echo`, tf2's static buffer) waiting.
    pub fn publish_static(&self) {
        self.tf_static.publish(&self.statics);
    }

    /// Queue a robot's transform for this cycle's `/tf`.
    pub fn push_tf(&mut self, t: TransformStamped) {
        self.tf_msg.transforms.push(t);
    }

    /// The end of a cycle at run time `now`: `/clock` first (a listener in simulated
    /// time then knows the stamps that follow), then `/tf`.
    pub fn end_cycle(&mut self, now: Duration) {
        if let Some(c) = &self.clock {
            c.publish(&ClockMsg {
                clock: self.time.stamp(now),
            });
        }
        if !self.tf_msg.transforms.is_empty() {
            self.tf.publish(&self.tf_msg);
            self.tf_msg.transforms.clear();
        }
    }
}
