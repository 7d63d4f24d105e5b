//! A robot's topics under its namespace: `odom` (nav_msgs/Odometry), `pose`
//! (geometry_msgs/PoseStamped), `scan` (sensor_msgs/LaserScan), `sonar`
//! (sensor_msgs/Range, one message per transducer, frame `<robot>/sonar_<k>`), `battery`
//! (sensor_msgs/BatteryState); the AUV's `depth` (skipper_msgs/Depth), `gps/fix`
//! (sensor_msgs/NavSatFix, when a fix arrives at the surface) and `water`
//! (skipper_msgs/WaterProperties); and the robots' transforms on `/tf`
//! (`<robot>/odom` -> `<robot>/base_link`, the AUV's `world` -> `<auv>/base_link`) and
//! `/tf_static` (`<robot>/base_link` -> `<robot>/laser`, `<robot>/sonar_<k>`).
//!
//! Frames carry the robot's name so that several robots share `/tf`. Stamps are the
//! run's simulated time, the time `/clock` publishes. The binding reads a sample per
//! cycle from the vehicle's signals ([`crate::sample`]); messages and frame names are
//! kept and refilled, not rebuilt, so a cycle's publishing allocates nothing of its own
//! (`tests/publish_alloc.rs`).

use crate::error::Ros2Error;
use crate::msg::geometry::*;
use crate::msg::sensor::*;
use crate::msg::skipper::{Depth, WaterProperties};
use crate::msg::std::{Clock, Header, Time};
use crate::msg::Shared;
use crate::outlet::{Advertise, Outlet};
use crate::qos;
use crate::sample::{AuvSample, GroundSample};
use ros2_client::qos::{History, QosProfile};
use std::time::Duration;

/// A ground robot's sensors, as the binding describes them.
pub use skipper_core::sensors::SensorGeometry as GroundGeometry;
pub use skipper_core::sensors::{LaserGeometry, SonarGeometry};

/// The frame names of a robot (`robot1/odom`, ...), made once.
#[derive(Debug, Clone)]
pub struct Frames {
    /// the odometry frame (`world` for an AUV)
    pub odom: Shared<String>,
    /// the robot's body
    pub base: Shared<String>,
    /// the laser
    pub laser: Shared<String>,
    /// the sonar transducers' (`robot1/sonar_0`, ...)
    pub sonar: Vec<Shared<String>>,
}

impl Frames {
    /// The frames of robot `name` (a ROS name) with `sonars` transducers, odometry in
    /// `<name>/odom`.
    pub fn ground(name: &str, sonars: usize) -> Self {
        Self {
            odom: format!("{name}/odom").into(),
            base: format!("{name}/base_link").into(),
            laser: format!("{name}/laser").into(),
            sonar: (0..sonars)
                .map(|k| format!("{name}/sonar_{k}").into())
                .collect(),
        }
    }
    /// The frames of AUV `name`: poses in the worksite's `world`.
    pub fn auv(name: &str) -> Self {
        Self {
            odom: "world".into(),
            ..Self::ground(name, 0)
        }
    }
}

/// Stamp `h` with `stamp` in `frame` (the frame's text is shared, not copied).
fn stamp(h: &mut Header, stamp: Duration, frame: &Shared<String>) {
    h.stamp = Time::from_duration(stamp);
    h.frame_id.clone_from(frame);
}

/// A kept message and the outlet it goes to.
struct Topic<M> {
    out: Box<dyn Outlet<M>>,
    msg: M,
}

impl<M: ros2_client::Message + crate::msg::RosType + Clone + 'static> Topic<M> {
    fn advertise(node: &mut impl Advertise, topic: &str, msg: M) -> Result<Self, Ros2Error> {
        Self::advertise_with(node, topic, msg, qos::default())
    }
    fn advertise_with(
        node: &mut impl Advertise,
        topic: &str,
        msg: M,
        qos: QosProfile,
    ) -> Result<Self, Ros2Error> {
        Ok(Self {
            out: node.advertise(topic, qos)?,
            msg,
        })
    }
    fn send(&self) {
        self.out.send(&self.msg);
    }
}

/// The topics every vehicle has: `odom`, `pose`, and its transform for `/tf`.
struct PoseTopics {
    frames: Frames,
    odom: Topic<Odometry>,
    pose: Topic<PoseStamped>,
}

impl PoseTopics {
    fn advertise(node: &mut impl Advertise, ns: &str, frames: Frames) -> Result<Self, Ros2Error> {
        let odom = Odometry {
            child_frame_id: frames.base.clone(),
            ..Odometry::default()
        };
        Ok(Self {
            odom: Topic::advertise(node, &format!("{ns}/odom"), odom)?,
            pose: Topic::advertise(node, &format!("{ns}/pose"), PoseStamped::default())?,
            frames,
        })
    }

    fn publish(&mut self, at: Duration, pose: Pose, linear: f64, angular: f64) -> TransformStamped {
        let o = &mut self.odom.msg;
        stamp(&mut o.header, at, &self.frames.odom);
        o.pose.pose = pose;
        o.twist.twist.linear.x = linear;
        o.twist.twist.angular.z = angular;
        self.odom.send();
        let p = &mut self.pose.msg;
        stamp(&mut p.header, at, &self.frames.odom);
        p.pose = pose;
        self.pose.send();
        TransformStamped {
            header: self.odom.msg.header.clone(),
            child_frame_id: self.frames.base.clone(),
            transform: Transform {
                translation: Vector3 {
                    x: pose.position.x,
                    y: pose.position.y,
                    z: pose.position.z,
                },
                rotation: pose.orientation,
            },
        }
    }
}

/// A ground robot's topics.
pub struct GroundTopics {
    pose: PoseTopics,
    geometry: GroundGeometry,
    scan: Option<Topic<LaserScan>>,
    sonar: Option<Topic<Range>>,
    battery: Topic<BatteryState>,
}

impl GroundTopics {
    /// Advertise robot `name`'s topics under namespace `ns` (`robot1`, relative to the
    /// node's namespace).
    pub fn advertise(
        node: &mut impl Advertise,
        ns: &str,
        name: &str,
        geometry: GroundGeometry,
    ) -> Result<Self, Ros2Error> {
        let frames = Frames::ground(name, geometry.sonar.len());
        let scan = match geometry.laser {
            Some(l) => {
                let mut m = LaserScan {
                    angle_min: l.angle_min as f32,
                    angle_increment: l.angle_increment as f32,
                    range_min: l.range_min as f32,
                    range_max: l.range_max as f32,
                    ..LaserScan::default()
                };
                m.header.frame_id = frames.laser.clone();
                Some(Topic::advertise(node, &format!("{ns}/scan"), m)?)
            }
            None => None,
        };
        let sonar = if geometry.sonar.is_empty() {
            None
        } else {
            let m = Range {
                radiation_type: Range::ULTRASOUND,
                ..Range::default()
            };
            // the whole ring goes out at once: a history as deep as the ring keeps every
            // transducer's message until it is sent
            let qos = qos::default().history(History::KeepLast {
                depth: geometry.sonar.len().max(10),
            });
            Some(Topic::advertise_with(node, &format!("{ns}/sonar"), m, qos)?)
        };
        let battery = BatteryState {
            temperature: f32::NAN,
            current: f32::NAN,
            charge: f32::NAN,
            capacity: f32::NAN,
            design_capacity: f32::NAN,
            power_supply_status: BatteryState::STATUS_DISCHARGING,
            power_supply_health: BatteryState::HEALTH_GOOD,
            power_supply_technology: BatteryState::TECHNOLOGY_UNKNOWN,
            present: true,
            ..BatteryState::default()
        };
        Ok(Self {
            pose: PoseTopics::advertise(node, ns, frames)?,
            battery: Topic::advertise(node, &format!("{ns}/battery"), battery)?,
            geometry,
            scan,
            sonar,
        })
    }

    /// The robot's fixed transforms (base_link to its laser and sonars), for
    /// `/tf_static`.
    pub fn static_transforms(&self) -> Vec<TransformStamped> {
        let f = &self.pose.frames;
        let at = |child: &Shared<String>, x: f64, y: f64, yaw: f64| TransformStamped {
            header: Header {
                stamp: Time::default(),
                frame_id: f.base.clone(),
            },
            child_frame_id: child.clone(),
            transform: Transform {
                translation: Vector3 { x, y, z: 0.0 },
                rotation: Quaternion::from_yaw(yaw),
            },
        };
        let laser = self
            .geometry
            .laser
            .iter()
            .map(|l| at(&f.laser, l.x, 0.0, 0.0));
        let sonar =
            (self.geometry.sonar.iter().zip(&f.sonar)).map(|(s, fr)| at(fr, s.x, s.y, s.yaw));
        laser.chain(sonar).collect()
    }

    /// Publish one cycle; returns the odom -> base_link transform for `/tf`.
    pub fn publish(&mut self, s: &GroundSample<'_>) -> TransformStamped {
        let pose = Pose {
            position: Point {
                x: s.x,
                y: s.y,
                z: 0.0,
            },
            orientation: Quaternion::from_yaw(s.yaw),
        };
        let tf = self.pose.publish(s.stamp, pose, s.linear, s.angular);
        let frames = &self.pose.frames;
        if let (Some(t), false) = (&mut self.scan, s.laser.is_empty()) {
            let m = &mut t.msg;
            stamp(&mut m.header, s.stamp, &frames.laser);
            let ranges = m.ranges.make_mut();
            ranges.clear();
            ranges.extend(s.laser.iter().map(|&r| r as f32));
            let n = ranges.len().max(1) as f32;
            m.angle_max = m.angle_min + m.angle_increment * (n - 1.0);
            t.send();
        }
        if let Some(t) = &mut self.sonar {
            let rings = self.geometry.sonar.iter().zip(&frames.sonar);
            for ((g, frame), &r) in rings.zip(s.sonar) {
                let m = &mut t.msg;
                stamp(&mut m.header, s.stamp, frame);
                m.field_of_view = g.field_of_view as f32;
                m.min_range = g.min_range as f32;
                m.max_range = g.max_range as f32;
                m.range = r as f32;
                t.send();
            }
        }
        if let Some(v) = s.battery_voltage {
            let m = &mut self.battery.msg;
            stamp(&mut m.header, s.stamp, &frames.base);
            m.voltage = v as f32;
            m.percentage = s
                .battery_charge
                .map(|c| (c / 100.0) as f32)
                .unwrap_or(f32::NAN);
            self.battery.send();
        }
        tf
    }
}

/// An AUV's topics.
pub struct AuvTopics {
    pose: PoseTopics,
    depth: Topic<Depth>,
    fix: Topic<NavSatFix>,
    water: Topic<WaterProperties>,
}

impl AuvTopics {
    /// Advertise AUV `name`'s topics under namespace `ns`.
    pub fn advertise(node: &mut impl Advertise, ns: &str, name: &str) -> Result<Self, Ros2Error> {
        let fix = NavSatFix {
            status: NavSatStatus {
                status: 0,
                service: 1,
            },
            ..NavSatFix::default()
        };
        Ok(Self {
            pose: PoseTopics::advertise(node, ns, Frames::auv(name))?,
            depth: Topic::advertise(node, &format!("{ns}/depth"), Depth::default())?,
            fix: Topic::advertise(node, &format!("{ns}/gps/fix"), fix)?,
            water: Topic::advertise(node, &format!("{ns}/water"), WaterProperties::default())?,
        })
    }

    /// Publish one cycle; returns the world -> base_link transform for `/tf`.
    pub fn publish(&mut self, s: &AuvSample) -> TransformStamped {
        let q = skipper_core::Pose3 {
            x: s.x,
            y: s.y,
            z: -s.depth,
            roll: s.roll,
            pitch: s.pitch,
            yaw: s.yaw,
        }
        .quaternion();
        let pose = Pose {
            position: Point {
                x: s.x,
                y: s.y,
                z: -s.depth,
            },
            orientation: Quaternion::from_xyzw(q),
        };
        let tf = self.pose.publish(s.stamp, pose, s.speed, 0.0);
        let base = &self.pose.frames.base;
        let d = &mut self.depth.msg;
        stamp(&mut d.header, s.stamp, base);
        d.depth = s.depth;
        d.altitude = s.altitude.unwrap_or(f64::NAN);
        self.depth.send();
        if let (Some(t), Some(sal)) = (s.temperature, s.salinity) {
            let w = &mut self.water.msg;
            stamp(&mut w.header, s.stamp, base);
            w.temperature = t;
            w.salinity = sal;
            self.water.send();
        }
        if let Some((lat, lon)) = s.fix {
            let f = &mut self.fix.msg;
            stamp(&mut f.header, s.stamp, base);
            f.latitude = lat;
            f.longitude = lon;
            self.fix.send();
        }
        tf
    }
}

/// `/tf` (every robot's moving transform, one message per cycle) and `/tf_static`
/// (their fixed transforms, latched), and `/clock`.
pub struct SharedTopics {
    tf: Box<dyn Outlet<TfMessage>>,
    tf_static: Box<dyn Outlet<TfMessage>>,
    clock: Box<dyn Outlet<Clock>>,
    tf_msg: TfMessage,
    statics: TfMessage,
}

impl SharedTopics {
    /// Advertise `/tf`, `/tf_static` and `/clock`.
    pub fn advertise(node: &mut impl Advertise) -> Result<Self, Ros2Error> {
        Ok(Self {
            tf: node.advertise("/tf", qos::tf())?,
            tf_static: node.advertise("/tf_static", qos::latched())?,
            clock: node.advertise("/clock", qos::default())?,
            tf_msg: TfMessage::default(),
            statics: TfMessage::default(),
        })
    }
    /// Add fixed transforms; `/tf_static` is published again with all of them (latched:
    /// late joiners get the last message).
    pub fn add_static(&mut self, t: Vec<TransformStamped>) {
        self.statics.transforms.make_mut().extend(t);
        self.tf_static.send(&self.statics);
    }
    /// Queue one robot's transform for this cycle's `/tf`.
    pub fn push_tf(&mut self, t: TransformStamped) {
        self.tf_msg.transforms.make_mut().push(t);
    }
    /// End of a cycle at run time `now`: `/clock`, then `/tf` with the queued transforms.
    pub fn end_cycle(&mut self, now: Duration) {
        self.clock.send(&Clock {
            clock: Time::from_duration(now),
        });
        if !self.tf_msg.transforms.is_empty() {
            self.tf.send(&self.tf_msg);
            self.tf_msg.transforms.make_mut().clear();
        }
    }
}
