//! A robot's sensor topics under its namespace, from the signals its vehicle kind
//! declares: a ground robot's `scan` (`sensor_msgs/LaserScan`, frame `robot1/laser`),
//! `sonar` (one `sensor_msgs/Range` per transducer, frame `robot1/sonar_<k>`: a Range
//! keeps each cone's opening and limits, which ROS's range sensor layers read and a point
//! cloud would lose; this is also what Skipper's ROS 2 node does), `battery`
//! (`sensor_msgs/BatteryState`), `bumpers` (`skipper_msgs/BumperState`: ROS has no
//! standard bumper message; these are the fields of RosAria's, the ROS driver of
//! ARIA's Pioneers) and `gripper` (`skipper_msgs/GripperState`: no standard message
//! either, and a P2OS gripper's state byte, paddles, lift and grip fit no sensor_msgs
//! type); an AUV's `depth` and `altitude` (`std_msgs/Float64`, m), `gps/fix`
//! (`sensor_msgs/NavSatFix`, once per fix, which only comes at the surface) and `water`
//! (`skipper_msgs/WaterProperties`, temperature and salinity in the cycle either is
//! sampled: sensor_msgs/Temperature would split them in two topics and has nothing for
//! salinity; Skipper's ROS 2 node has the same message). Messages are kept and refilled
//! every cycle.

use crate::frames::{header, transform, Frames};
use skipper_actionlib::Time;
use skipper_core::vocabulary::{auv, ground, SignalFamily};
use skipper_core::{SignalId, Signals, Value};
use skipper_ros1_wire::msg::common::Quaternion;
use skipper_ros1_wire::msg::sensor::{
    BatteryState, Float64, LaserScan, NavSatFix, NavSatStatus, Range, TransformStamped,
};
use skipper_ros1_wire::msg::skipper_msgs::{BumperState, GripperState, WaterProperties};
use skipper_ros1_wire::{Node, RosError, TypedPublisher};
use std::time::Duration;

pub use skipper_core::sensors::{LaserGeometry, SensorGeometry, SonarGeometry};

fn family(s: &Signals, f: &SignalFamily) -> Vec<SignalId> {
    (0..).map_while(|k| f.id(s, k)).collect()
}

fn range_of(s: &Signals, id: SignalId) -> f32 {
    s.f64(id).map_or(f32::INFINITY, |r| r as f32)
}

/// A ground robot's scan, sonar and battery.
pub struct GroundSensors {
    frames: Frames,
    geometry: SensorGeometry,
    scan: TypedPublisher<LaserScan>,
    sonar: TypedPublisher<Range>,
    battery: TypedPublisher<BatteryState>,
    bumpers: TypedPublisher<BumperState>,
    gripper: TypedPublisher<GripperState>,
    scan_msg: LaserScan,
    sonar_msg: Range,
    battery_msg: BatteryState,
    bumpers_msg: BumperState,
    gripper_msg: GripperState,
    ids: Option<GroundIds>,
}

struct GroundIds {
    laser: Vec<SignalId>,
    sonar: Vec<SignalId>,
    volts: Option<SignalId>,
    charge: Option<SignalId>,
    bumpers: [Option<SignalId>; 2],
    /// state byte, paddles, lift, holding
    gripper: [Option<SignalId>; 4],
}

impl GroundSensors {
    /// Advertise `NS/scan`, `NS/sonar`, `NS/battery`, `NS/bumpers` and `NS/gripper`.
    pub fn advertise(
        node: &Node,
        ns: &str,
        frames: Frames,
        geometry: SensorGeometry,
    ) -> Result<Self, RosError> {
        let mut scan_msg = LaserScan::default();
        if let Some(l) = geometry.laser {
            scan_msg.angle_min = l.angle_min as f32;
            scan_msg.angle_increment = l.angle_increment as f32;
            scan_msg.range_min = l.range_min as f32;
            scan_msg.range_max = l.range_max as f32;
        }
        let battery_msg = BatteryState {
            temperature: f32::NAN,
            current: f32::NAN,
            charge: f32::NAN,
            capacity: f32::NAN,
            design_capacity: f32::NAN,
            power_supply_status: BatteryState::STATUS_DISCHARGING,
            power_supply_health: BatteryState::HEALTH_GOOD,
            present: true,
            ..BatteryState::default()
        };
        Ok(Self {
            scan: TypedPublisher::advertise(node, &format!("{ns}/scan"), false)?,
            sonar: TypedPublisher::advertise(node, &format!("{ns}/sonar"), false)?,
            battery: TypedPublisher::advertise(node, &format!("{ns}/battery"), false)?,
            bumpers: TypedPublisher::advertise(node, &format!("{ns}/bumpers"), false)?,
            gripper: TypedPublisher::advertise(node, &format!("{ns}/gripper"), false)?,
            bumpers_msg: BumperState::default(),
            gripper_msg: GripperState::default(),
            scan_msg,
            sonar_msg: Range {
                radiation_type: Range::ULTRASOUND,
                ..Range::default()
            },
            battery_msg,
            frames,
            geometry,
            ids: None,
        })
    }

    /// The fixed transforms of the laser and the sonar transducers (`/tf_static`).
    pub fn static_transforms(&self) -> Vec<TransformStamped> {
        let f = &self.frames;
        let mut out: Vec<_> = self
            .geometry
            .laser
            .iter()
            .map(|l| {
                transform(
                    Time::default(),
                    &f.base,
                    &f.laser,
                    (l.x, 0.0, 0.0),
                    Quaternion::from_yaw(0.0),
                )
            })
            .collect();
        for (k, s) in self.geometry.sonar.iter().enumerate() {
            let child = format!("{}{k}", f.sonar);
            out.push(transform(
                Time::default(),
                &f.base,
                &child,
                (s.x, s.y, 0.0),
                Quaternion::from_yaw(s.yaw),
            ));
        }
        out
    }

    /// Publish this cycle's readings, stamped `stamp`.
    pub fn publish(&mut self, s: &Signals, stamp: Time) {
        let ids = self.ids.get_or_insert_with(|| GroundIds {
            laser: family(s, &ground::LASER),
            sonar: family(s, &ground::SONAR),
            volts: ground::BATTERY_VOLTAGE.id(s),
            charge: ground::BATTERY_CHARGE.id(s),
            bumpers: [&ground::BUMPER_FRONT, &ground::BUMPER_REAR].map(|spec| spec.id(s)),
            gripper: [
                &ground::GRIPPER_STATE,
                &ground::GRIPPER_PADDLES,
                &ground::GRIPPER_LIFT,
                &ground::GRIPPER_HOLDING,
            ]
            .map(|spec| spec.id(s)),
        });
        if self.geometry.laser.is_some() && !ids.laser.is_empty() {
            let m = &mut self.scan_msg;
            m.header = header(stamp, &self.frames.laser);
            m.ranges.clear();
            m.ranges.extend(ids.laser.iter().map(|&id| range_of(s, id)));
            m.angle_max = m.angle_min + m.angle_increment * (m.ranges.len() as f32 - 1.0);
            self.scan.publish(m);
        }
        for (k, (g, &id)) in self.geometry.sonar.iter().zip(&ids.sonar).enumerate() {
            let m = &mut self.sonar_msg;
            m.header = header(stamp, &format!("{}{k}", self.frames.sonar));
            m.field_of_view = g.field_of_view as f32;
            m.min_range = g.min_range as f32;
            m.max_range = g.max_range as f32;
            m.range = range_of(s, id);
            self.sonar.publish(m);
        }
        if let Some(v) = ids.volts.and_then(|id| s.f64(id)) {
            let m = &mut self.battery_msg;
            m.header = header(stamp, &self.frames.base);
            m.voltage = v as f32;
            m.percentage = ids
                .charge
                .and_then(|id| s.f64(id))
                .map_or(f32::NAN, |c| (c / 100.0) as f32);
            self.battery.publish(m);
        }
        self.publish_bumpers_and_gripper(s, stamp);
    }

    fn publish_bumpers_and_gripper(&mut self, s: &Signals, stamp: Time) {
        let Some(ids) = &self.ids else { return };
        let n = self.geometry.bumper_segments;
        if let ([Some(front), Some(rear)], true) = (ids.bumpers, n > 0) {
            let bits = |id| s.get(id).as_i64().unwrap_or(0);
            let (f, r) = (bits(front), bits(rear));
            let m = &mut self.bumpers_msg;
            m.header = header(stamp, &self.frames.base);
            m.front_bumpers.clear();
            m.front_bumpers.extend((0..n).map(|k| f >> k & 1 == 1));
            m.rear_bumpers.clear();
            m.rear_bumpers.extend((0..n).map(|k| r >> k & 1 == 1));
            self.bumpers.publish(m);
        }
        let [Some(state), paddles, lift, holding] = ids.gripper else {
            return;
        };
        let float =
            |id: Option<SignalId>| id.and_then(|id| s.f64(id)).map_or(f32::NAN, |v| v as f32);
        let m = &mut self.gripper_msg;
        m.header = header(stamp, &self.frames.base);
        m.state = s.get(state).as_i64().unwrap_or(0) as u8;
        m.paddles = float(paddles);
        m.lift = float(lift);
        m.holding = holding.and_then(|id| s.get(id).as_bool()).unwrap_or(false);
        self.gripper.publish(m);
    }
}

/// An AUV's depth, altitude and GPS fixes.
pub struct AuvSensors {
    frames: Frames,
    depth: TypedPublisher<Float64>,
    altitude: TypedPublisher<Float64>,
    fix: TypedPublisher<NavSatFix>,
    water: TypedPublisher<WaterProperties>,
    water_msg: WaterProperties,
    ids: Option<[Option<SignalId>; 5]>,
}

impl AuvSensors {
    /// Advertise `NS/depth`, `NS/altitude`, `NS/gps/fix` and `NS/water`.
    pub fn advertise(node: &Node, ns: &str, frames: Frames) -> Result<Self, RosError> {
        Ok(Self {
            frames,
            depth: TypedPublisher::advertise(node, &format!("{ns}/depth"), false)?,
            altitude: TypedPublisher::advertise(node, &format!("{ns}/altitude"), false)?,
            fix: TypedPublisher::advertise(node, &format!("{ns}/gps/fix"), false)?,
            water: TypedPublisher::advertise(node, &format!("{ns}/water"), false)?,
            water_msg: WaterProperties {
                temperature: f64::NAN,
                salinity: f64::NAN,
                ..WaterProperties::default()
            },
            ids: None,
        })
    }

    /// Publish this cycle's readings at run time `now`, stamped `stamp`.
    pub fn publish(&mut self, s: &Signals, now: Duration, stamp: Time) {
        let [depth, altitude, fix, temperature, salinity] = *self.ids.get_or_insert_with(|| {
            [
                &auv::DEPTH,
                &auv::HEIGHT_ABOVE_SEA_FLOOR,
                &auv::PLATFORM_LOCATION_FIX,
                &auv::SEA_WATER_TEMPERATURE,
                &auv::SEA_WATER_SALINITY,
            ]
            .map(|spec| spec.id(s))
        });
        self.publish_water(s, now, stamp, [temperature, salinity]);
        if let Some(d) = depth.and_then(|id| s.f64(id)) {
            self.depth.publish(&Float64 { data: d });
        }
        if let Some(a) = altitude.and_then(|id| s.f64(id)) {
            self.altitude.publish(&Float64 { data: a });
        }
        // a fix is published in the cycle it arrives
        let Some(id) = fix.filter(|&id| s.updated_at(id) == Some(now)) else {
            return;
        };
        if let Value::Position { lat, lon } = s.get(id) {
            self.fix.publish(&NavSatFix {
                header: header(stamp, &self.frames.base),
                status: NavSatStatus {
                    status: NavSatStatus::STATUS_FIX,
                    service: NavSatStatus::SERVICE_GPS,
                },
                latitude: *lat,
                longitude: *lon,
                altitude: 0.0,
                position_covariance: [0.0; 9],
                position_covariance_type: 0,
            });
        }
    }

    /// `water` in a cycle where the temperature or the salinity was sampled; the other
    /// keeps its last value (NaN until first sampled).
    fn publish_water(
        &mut self,
        s: &Signals,
        now: Duration,
        stamp: Time,
        ids: [Option<SignalId>; 2],
    ) {
        let fresh = |id: Option<SignalId>| {
            id.filter(|&id| s.updated_at(id) == Some(now))
                .and_then(|id| s.f64(id))
        };
        let (t, sal) = (fresh(ids[0]), fresh(ids[1]));
        if t.is_none() && sal.is_none() {
            return;
        }
        let m = &mut self.water_msg;
        m.header = header(stamp, &self.frames.base);
        m.temperature = t.unwrap_or(m.temperature);
        m.salinity = sal.unwrap_or(m.salinity);
        self.water.publish(m);
    }
}
