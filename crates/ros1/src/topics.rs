//! A robot's `NS/pose` (`geometry_msgs/PoseStamped`) and `NS/odom` (`nav_msgs/Odometry`,
//! child frame `NS/base_link`), published every cycle from the signals its vehicle kind
//! declares: a ground robot's odometry pose (`pose.*`, frame `NS/odom`) and speeds
//! (`velocity.*`); the AUV's navigation (latitude, longitude, depth, attitude) in the
//! worksite's frame (`world`: x east, y north, z up, so z is minus the depth). The same
//! pose is the robot's transform on `/tf` ([`crate::frames`]), and the latest one is kept
//! for `move_base`'s feedback ([`LatestPose`]).

use crate::frames::{header, transform, Frames};
use skipper_actionlib::Time;
use skipper_core::vocabulary::auv::NavReader;
use skipper_core::vocabulary::ground::PoseReader;
use skipper_core::{Pose3, Signals, VehicleKind};
use skipper_ros1_wire::msg::common::{Odometry, Point, Pose, PoseStamped, Quaternion};
use skipper_ros1_wire::msg::sensor::TransformStamped;
use skipper_ros1_wire::{Node, RosError, TypedPublisher};
use std::sync::{Arc, Mutex};

/// The pose a robot's `NS/pose` published last (its stamp and where the robot was), in
/// the robot's odometry frame: `move_base`'s feedback (`base_position`) reports it.
#[derive(Debug, Clone)]
pub struct LatestPose {
    /// the frame of the pose (`robot1/odom`)
    pub frame: String,
    cell: Arc<Mutex<Option<(Time, Pose)>>>,
}

impl LatestPose {
    fn new(frame: &str) -> Self {
        Self {
            frame: frame.to_string(),
            cell: Arc::default(),
        }
    }

    /// The latest pose and its stamp; `None` before the first cycle with one.
    pub fn get(&self) -> Option<(Time, Pose)> {
        match self.cell.lock() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    fn set(&self, stamp: Time, pose: &Pose) {
        let mut g = match self.cell.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        *g = Some((stamp, pose.clone()));
    }
}

/// How a robot's pose is read from its signals.
#[derive(Debug, Clone, Copy)]
enum Reader {
    Ground(Option<PoseReader>),
    Auv(NavReader),
}

/// A robot's pose topics, reusing their messages.
pub struct PoseTopics {
    pose: TypedPublisher<PoseStamped>,
    odom: TypedPublisher<Odometry>,
    seq: u32,
    pose_msg: PoseStamped,
    odom_msg: Odometry,
    reader: Reader,
    bound: bool,
    frames: Frames,
    latest: LatestPose,
}

/// Where a pose is, how it is turned, and how fast the robot goes.
struct Reading {
    pose: Pose,
    speed: f64,
    turn_rate: f64,
}

impl PoseTopics {
    /// Advertise `NS/pose` and `NS/odom` for a vehicle of `kind` with `frames` (an AUV's
    /// in the frame whose origin, latitude and longitude in degrees, is `origin`).
    pub fn advertise(
        node: &Node,
        ns: &str,
        kind: VehicleKind,
        frames: Frames,
        origin: (f64, f64),
    ) -> Result<Self, RosError> {
        let reader = match kind {
            VehicleKind::Ground => Reader::Ground(None),
            VehicleKind::Auv => Reader::Auv(NavReader::new(origin)),
        };
        Ok(Self {
            pose: TypedPublisher::advertise(node, &format!("{ns}/pose"), false)?,
            odom: TypedPublisher::advertise(node, &format!("{ns}/odom"), false)?,
            seq: 0,
            pose_msg: PoseStamped::default(),
            odom_msg: Odometry::default(),
            reader,
            bound: false,
            latest: LatestPose::new(&frames.odom),
            frames,
        })
    }

    /// Where the pose this publishes last is kept.
    pub fn latest(&self) -> LatestPose {
        self.latest.clone()
    }

    fn read(&mut self, s: &Signals) -> Option<Reading> {
        if !self.bound {
            match &mut self.reader {
                Reader::Ground(r) => *r = PoseReader::bind(s),
                Reader::Auv(n) => n.bind(s),
            }
            self.bound = true;
        }
        match &self.reader {
            Reader::Ground(r) => {
                let r = r.as_ref()?;
                let p = r.pose(s)?;
                let (speed, turn_rate) = r.velocity(s);
                Some(Reading {
                    pose: Pose {
                        position: Point {
                            x: p.x,
                            y: p.y,
                            z: 0.0,
                        },
                        orientation: Quaternion::from_yaw(p.yaw),
                    },
                    speed,
                    turn_rate,
                })
            }
            Reader::Auv(nav) => {
                let n = nav.read(s)?;
                let p = Pose3 {
                    x: n.x,
                    y: n.y,
                    z: -n.depth,
                    roll: n.roll,
                    pitch: n.pitch,
                    yaw: n.yaw,
                };
                let q = p.quaternion();
                Some(Reading {
                    pose: Pose {
                        position: Point {
                            x: p.x,
                            y: p.y,
                            z: p.z,
                        },
                        orientation: Quaternion {
                            x: q[0],
                            y: q[1],
                            z: q[2],
                            w: q[3],
                        },
                    },
                    speed: n.speed,
                    turn_rate: 0.0,
                })
            }
        }
    }

    /// Publish the pose the signals give, stamped `stamp`, and return it as the robot's
    /// transform for `/tf` (nothing while the robot reports no pose).
    pub fn publish(&mut self, s: &Signals, stamp: Time) -> Option<TransformStamped> {
        let r = self.read(s)?;
        self.seq = self.seq.wrapping_add(1);
        let mut h = header(stamp, &self.frames.odom);
        h.seq = self.seq;
        self.pose_msg.header = h.clone();
        self.pose_msg.pose = r.pose.clone();
        self.pose.publish(&self.pose_msg);
        self.odom_msg.header = h;
        if self.odom_msg.child_frame_id != self.frames.base {
            self.odom_msg.child_frame_id = self.frames.base.clone();
        }
        self.odom_msg.pose.pose = r.pose.clone();
        self.odom_msg.twist.twist.linear.x = r.speed;
        self.odom_msg.twist.twist.angular.z = r.turn_rate;
        self.odom.publish(&self.odom_msg);
        self.latest.set(stamp, &r.pose);
        let p = &r.pose.position;
        Some(transform(
            stamp,
            &self.frames.odom,
            &self.frames.base,
            (p.x, p.y, p.z),
            r.pose.orientation,
        ))
    }
}
