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
//! run's simulated time, the time `/clock` publishes. The binding fills a sample per
//! cycle from the vehicle's signals; messages are kept and refilled, not rebuilt.

use crate::error::Ros2Error;
use crate::msg::geometry::*;
use crate::msg::sensor::*;
use crate::msg::skipper::{Depth, WaterProperties};
use crate::msg::std::{Header, Time};
use crate::node::Ros2Node;
use crate::qos;
use ros2_client::Publisher;
use std::time::Duration;

/// Where a laser sits and what it sees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaserGeometry {
    /// its position ahead of the robot's centre (m)
    pub x: f64,
    /// the first beam's angle (rad, 0 ahead, counter-clockwise)
    pub angle_min: f64,
    /// between beams (rad)
    pub angle_increment: f64,
    /// shortest range (m)
    pub range_min: f64,
    /// longest range (m)
    pub range_max: f64,
}

/// Where a sonar transducer sits and what it sees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SonarGeometry {
    /// position (m) in the robot's frame
    pub x: f64,
    /// position (m)
    pub y: f64,
    /// direction (rad)
    pub yaw: f64,
    /// cone (rad)
    pub field_of_view: f64,
    /// shortest range (m)
    pub min_range: f64,
    /// longest range (m)
    pub max_range: f64,
}

/// A ground robot's sensors, as the binding describes them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroundGeometry {
    /// the laser, if it has one
    pub laser: Option<LaserGeometry>,
    /// the sonar ring, in signal order
    pub sonar: Vec<SonarGeometry>,
}

/// One cycle of a ground robot.
#[derive(Debug, Clone, Copy, Default)]
pub struct GroundSample<'a> {
    /// run time
    pub stamp: Duration,
    /// odometry pose (m, m, rad)
    pub x: f64,
    /// m
    pub y: f64,
    /// rad
    pub yaw: f64,
    /// forward speed (m/s)
    pub linear: f64,
    /// turn rate (rad/s)
    pub angular: f64,
    /// laser ranges (m), in beam order
    pub laser: &'a [f64],
    /// sonar ranges (m), in transducer order
    pub sonar: &'a [f64],
    /// battery voltage (V)
    pub battery_voltage: Option<f64>,
    /// battery charge (percent)
    pub battery_charge: Option<f64>,
}

/// One cycle of an AUV, in the worksite's frame (x east, y north, z up).
#[derive(Debug, Clone, Copy, Default)]
pub struct AuvSample {
    /// run time
    pub stamp: Duration,
    /// m east
    pub x: f64,
    /// m north
    pub y: f64,
    /// m below the surface
    pub depth: f64,
    /// rad
    pub roll: f64,
    /// rad
    pub pitch: f64,
    /// rad, counter-clockwise from east
    pub yaw: f64,
    /// through the water (m/s)
    pub speed: f64,
    /// above the sea floor (m)
    pub altitude: Option<f64>,
    /// a GPS fix that arrived this cycle (latitude, longitude in degrees)
    pub fix: Option<(f64, f64)>,
    /// degC
    pub temperature: Option<f64>,
    /// PSU
    pub salinity: Option<f64>,
}

/// The frame names of a robot (`robot1/odom`, ...).
#[derive(Debug, Clone)]
pub struct Frames {
    /// the odometry frame (`world` for an AUV)
    pub odom: String,
    /// the robot's body
    pub base: String,
    /// the laser
    pub laser: String,
    /// prefix of the sonar frames (`robot1/sonar_`)
    pub sonar: String,
}

impl Frames {
    /// The frames of robot `name` (a ROS name), odometry in `<name>/odom`.
    pub fn ground(name: &str) -> Self {
        Self {
            odom: format!("{name}/odom"),
            base: format!("{name}/base_link"),
            laser: format!("{name}/laser"),
            sonar: format!("{name}/sonar_"),
        }
    }
    /// The frames of AUV `name`: poses in the worksite's `world`.
    pub fn auv(name: &str) -> Self {
        Self {
            odom: "world".into(),
            ..Self::ground(name)
        }
    }
}

fn header(h: &mut Header, stamp: Duration, frame: &str) {
    h.stamp = Time::from_duration(stamp);
    if h.frame_id != frame {
        h.frame_id = frame.to_string();
    }
}

/// The topics every vehicle has: `odom`, `pose`, and its transform for `/tf`.
struct PoseTopics {
    frames: Frames,
    odom: Publisher<Odometry>,
    pose: Publisher<PoseStamped>,
    odom_msg: Odometry,
    pose_msg: PoseStamped,
}

impl PoseTopics {
    fn advertise(node: &mut Ros2Node, ns: &str, frames: Frames) -> Result<Self, Ros2Error> {
        let odom_msg = Odometry {
            child_frame_id: frames.base.clone(),
            ..Odometry::default()
        };
        Ok(Self {
            odom: node.publisher(&format!("{ns}/odom"), qos::default())?,
            pose: node.publisher(&format!("{ns}/pose"), qos::default())?,
            frames,
            odom_msg,
            pose_msg: PoseStamped::default(),
        })
    }

    fn publish(
        &mut self,
        stamp: Duration,
        pose: Pose,
        linear: f64,
        angular: f64,
    ) -> TransformStamped {
        header(&mut self.odom_msg.header, stamp, &self.frames.odom);
        self.odom_msg.pose.pose = pose;
        self.odom_msg.twist.twist.linear.x = linear;
        self.odom_msg.twist.twist.angular.z = angular;
        let _ = self.odom.publish(self.odom_msg.clone());
        header(&mut self.pose_msg.header, stamp, &self.frames.odom);
        self.pose_msg.pose = pose;
        let _ = self.pose.publish(self.pose_msg.clone());
        TransformStamped {
            header: self.odom_msg.header.clone(),
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
    scan: Option<(Publisher<LaserScan>, LaserScan)>,
    sonar: Option<(Publisher<Range>, Range)>,
    battery: Publisher<BatteryState>,
    battery_msg: BatteryState,
}

impl GroundTopics {
    /// Advertise robot `name`'s topics under namespace `ns` (`robot1`, relative to the
    /// node's namespace).
    pub fn advertise(
        node: &mut Ros2Node,
        ns: &str,
        name: &str,
        geometry: GroundGeometry,
    ) -> Result<Self, Ros2Error> {
        let frames = Frames::ground(name);
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
                Some((node.publisher(&format!("{ns}/scan"), qos::default())?, m))
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
            Some((node.publisher(&format!("{ns}/sonar"), qos::default())?, m))
        };
        let battery_msg = BatteryState {
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
            battery: node.publisher(&format!("{ns}/battery"), qos::default())?,
            battery_msg,
            geometry,
            scan,
            sonar,
        })
    }

    /// The robot's fixed transforms (base_link to its laser and sonars), for
    /// `/tf_static`.
    pub fn static_transforms(&self) -> Vec<TransformStamped> {
        let f = &self.pose.frames;
        let at = |child: String, x: f64, y: f64, yaw: f64| TransformStamped {
            header: Header {
                stamp: Time::default(),
                frame_id: f.base.clone(),
            },
            child_frame_id: child,
            transform: Transform {
                translation: Vector3 { x, y, z: 0.0 },
                rotation: Quaternion::from_yaw(yaw),
            },
        };
        let mut out: Vec<_> = self
            .geometry
            .laser
            .iter()
            .map(|l| at(f.laser.clone(), l.x, 0.0, 0.0))
            .collect();
        for (k, s) in self.geometry.sonar.iter().enumerate() {
            out.push(at(format!("{}{k}", f.sonar), s.x, s.y, s.yaw));
        }
        out
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
        if let (Some((p, m)), false) = (&mut self.scan, s.laser.is_empty()) {
            header(&mut m.header, s.stamp, &self.pose.frames.laser);
            m.ranges.clear();
            m.ranges.extend(s.laser.iter().map(|&r| r as f32));
            let n = m.ranges.len().max(1) as f32;
            m.angle_max = m.angle_min + m.angle_increment * (n - 1.0);
            let _ = p.publish(m.clone());
        }
        if let Some((p, m)) = &mut self.sonar {
            for (k, (g, &r)) in self.geometry.sonar.iter().zip(s.sonar).enumerate() {
                header(
                    &mut m.header,
                    s.stamp,
                    &format!("{}{k}", self.pose.frames.sonar),
                );
                m.field_of_view = g.field_of_view as f32;
                m.min_range = g.min_range as f32;
                m.max_range = g.max_range as f32;
                m.range = r as f32;
                let _ = p.publish(m.clone());
            }
        }
        if let Some(v) = s.battery_voltage {
            header(
                &mut self.battery_msg.header,
                s.stamp,
                &self.pose.frames.base,
            );
            self.battery_msg.voltage = v as f32;
            self.battery_msg.percentage = s
                .battery_charge
                .map(|c| (c / 100.0) as f32)
                .unwrap_or(f32::NAN);
            let _ = self.battery.publish(self.battery_msg.clone());
        }
        tf
    }
}

/// An AUV's topics.
pub struct AuvTopics {
    pose: PoseTopics,
    depth: Publisher<Depth>,
    fix: Publisher<NavSatFix>,
    water: Publisher<WaterProperties>,
}

impl AuvTopics {
    /// Advertise AUV `name`'s topics under namespace `ns`.
    pub fn advertise(node: &mut Ros2Node, ns: &str, name: &str) -> Result<Self, Ros2Error> {
        Ok(Self {
            pose: PoseTopics::advertise(node, ns, Frames::auv(name))?,
            depth: node.publisher(&format!("{ns}/depth"), qos::default())?,
            fix: node.publisher(&format!("{ns}/gps/fix"), qos::default())?,
            water: node.publisher(&format!("{ns}/water"), qos::default())?,
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
        let mut h = Header::default();
        header(&mut h, s.stamp, &self.pose.frames.base);
        let _ = self.depth.publish(Depth {
            header: h.clone(),
            depth: s.depth,
            altitude: s.altitude.unwrap_or(f64::NAN),
        });
        if let (Some(t), Some(sal)) = (s.temperature, s.salinity) {
            let _ = self.water.publish(WaterProperties {
                header: h.clone(),
                temperature: t,
                salinity: sal,
            });
        }
        if let Some((lat, lon)) = s.fix {
            let _ = self.fix.publish(NavSatFix {
                header: h,
                status: NavSatStatus {
                    status: 0,
                    service: 1,
                },
                latitude: lat,
                longitude: lon,
                altitude: 0.0,
                position_covariance: [0.0; 9],
                position_covariance_type: 0,
            });
        }
        tf
    }
}

/// `/tf` (every robot's moving transform, one message per cycle) and `/tf_static`
/// (their fixed transforms, latched), and `/clock`.
pub struct SharedTopics {
    tf: Publisher<TfMessage>,
    tf_static: Publisher<TfMessage>,
    clock: Publisher<crate::msg::std::Clock>,
    tf_msg: TfMessage,
    statics: TfMessage,
}

impl SharedTopics {
    /// Advertise `/tf`, `/tf_static` and `/clock`.
    pub fn advertise(node: &mut Ros2Node) -> Result<Self, Ros2Error> {
        Ok(Self {
            tf: node.publisher("/tf", qos::tf())?,
            tf_static: node.publisher("/tf_static", qos::latched())?,
            clock: node.publisher("/clock", qos::default())?,
            tf_msg: TfMessage::default(),
            statics: TfMessage::default(),
        })
    }
    /// Add fixed transforms; `/tf_static` is published again with all of them (latched:
    /// late joiners get the last message).
    pub fn add_static(&mut self, t: Vec<TransformStamped>) {
        self.statics.transforms.extend(t);
        let _ = self.tf_static.publish(self.statics.clone());
    }
    /// Queue one robot's transform for this cycle's `/tf`.
    pub fn push_tf(&mut self, t: TransformStamped) {
        self.tf_msg.transforms.push(t);
    }
    /// End of a cycle at run time `now`: `/clock`, then `/tf` with the queued transforms.
    pub fn end_cycle(&mut self, now: Duration) {
        let _ = self.clock.publish(crate::msg::std::Clock {
            clock: Time::from_duration(now),
        });
        if !self.tf_msg.transforms.is_empty() {
            let _ = self.tf.publish(self.tf_msg.clone());
            self.tf_msg.transforms.clear();
        }
    }
}
