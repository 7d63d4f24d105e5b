//! The messages of a robot's place in the ROS graph beyond its pose: transforms
//! (`geometry_msgs/Transform[Stamped]`, `tf2_msgs/TFMessage`), time and log lines
//! (`rosgraph_msgs/Clock`, `rosgraph_msgs/Log`), sensors (`sensor_msgs/LaserScan`,
//! `Range`, `BatteryState`, `NavSatFix`) and plain values (`std_msgs/Float64`, `Bool`).
//! Their definitions are compiled in (`defs/msgs.txt`), so their md5sums are ROS's.

use super::common::{Header, Quaternion, Vector3};
use crate::ros_message;
use crate::time::Time;

ros_message! {
    /// `std_msgs/Float64`.
    pub struct Float64 = "std_msgs/Float64" { pub data: f64 }
}
ros_message! {
    /// `std_msgs/Bool`.
    pub struct Bool = "std_msgs/Bool" { pub data: bool }
}
ros_message! {
    /// `geometry_msgs/Transform`.
    pub struct Transform = "geometry_msgs/Transform" { pub translation: Vector3, pub rotation: Quaternion }
}
ros_message! {
    /// `geometry_msgs/TransformStamped`: `child_frame_id` in `header.frame_id`.
    pub struct TransformStamped = "geometry_msgs/TransformStamped" {
        pub header: Header,
        pub child_frame_id: String,
        pub transform: Transform,
    }
}
ros_message! {
    /// `tf2_msgs/TFMessage`, what `/tf` and `/tf_static` carry.
    pub struct TfMessage = "tf2_msgs/TFMessage" { pub transforms: Vec<TransformStamped> }
}
ros_message! {
    /// `rosgraph_msgs/Clock`, what `/clock` carries.
    pub struct Clock = "rosgraph_msgs/Clock" { pub clock: Time }
}
ros_message! {
    /// `rosgraph_msgs/Log`, what `/rosout` carries.
    pub struct Log = "rosgraph_msgs/Log" {
        pub header: Header,
        pub level: i8,
        pub name: String,
        pub msg: String,
        pub file: String,
        pub function: String,
        pub line: u32,
        pub topics: Vec<String>,
    }
}
ros_message! {
    /// `sensor_msgs/LaserScan`.
    pub struct LaserScan = "sensor_msgs/LaserScan" {
        pub header: Header,
        pub angle_min: f32,
        pub angle_max: f32,
        pub angle_increment: f32,
        pub time_increment: f32,
        pub scan_time: f32,
        pub range_min: f32,
        pub range_max: f32,
        pub ranges: Vec<f32>,
        pub intensities: Vec<f32>,
    }
}
ros_message! {
    /// `sensor_msgs/Range`: one transducer's reading.
    pub struct Range = "sensor_msgs/Range" {
        pub header: Header,
        pub radiation_type: u8,
        pub field_of_view: f32,
        pub min_range: f32,
        pub max_range: f32,
        pub range: f32,
    }
}
ros_message! {
    /// `sensor_msgs/BatteryState`.
    pub struct BatteryState = "sensor_msgs/BatteryState" {
        pub header: Header,
        pub voltage: f32,
        pub temperature: f32,
        pub current: f32,
        pub charge: f32,
        pub capacity: f32,
        pub design_capacity: f32,
        pub percentage: f32,
        pub power_supply_status: u8,
        pub power_supply_health: u8,
        pub power_supply_technology: u8,
        pub present: bool,
        pub cell_voltage: Vec<f32>,
        pub cell_temperature: Vec<f32>,
        pub location: String,
        pub serial_number: String,
    }
}
ros_message! {
    /// `sensor_msgs/NavSatStatus`.
    pub struct NavSatStatus = "sensor_msgs/NavSatStatus" { pub status: i8, pub service: u16 }
}
ros_message! {
    /// `sensor_msgs/NavSatFix`.
    pub struct NavSatFix = "sensor_msgs/NavSatFix" {
        pub header: Header,
        pub status: NavSatStatus,
        pub latitude: f64,
        pub longitude: f64,
        pub altitude: f64,
        pub position_covariance: [f64; 9],
        pub position_covariance_type: u8,
    }
}

impl Range {
    /// `radiation_type` of a sonar.
    pub const ULTRASOUND: u8 = 0;
}

impl BatteryState {
    /// `power_supply_status`: discharging.
    pub const STATUS_DISCHARGING: u8 = 2;
    /// `power_supply_health`: good.
    pub const HEALTH_GOOD: u8 = 1;
}

impl NavSatStatus {
    /// `status`: an unaugmented fix.
    pub const STATUS_FIX: i8 = 0;
    /// `service`: GPS.
    pub const SERVICE_GPS: u16 = 1;
}

impl Log {
    /// `level` of a debug line.
    pub const DEBUG: i8 = 1;
    /// `level` of an info line.
    pub const INFO: i8 = 2;
    /// `level` of a warning.
    pub const WARN: i8 = 4;
    /// `level` of an error.
    pub const ERROR: i8 = 8;
    /// `level` of a fatal error.
    pub const FATAL: i8 = 16;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::Message;

    /// The md5sums of Debian's generated Python classes (python3-sensor-msgs and friends,
    /// printed by `_md5sum` here), and of the compiled-in `move_base_msgs/MoveBase`.
    #[test]
    fn md5sums_are_those_of_debians_classes() {
        let want = [
            (LaserScan::type_name(), "90c7ef2dc6895d81024acba2ac42f369"),
            (Range::type_name(), "c005c34273dc426c67a020a87bc24148"),
            (
                BatteryState::type_name(),
                "4ddae7f048e32fda22cac764685e3974",
            ),
            (NavSatFix::type_name(), "2d3a8cd499b9b4a0249fb98fd05cfa48"),
            (
                NavSatStatus::type_name(),
                "331cdbddfa4bc96ffc3b9ad98900a54c",
            ),
            (TfMessage::type_name(), "94810edda583a504dfda3829e70d7eec"),
            (
                TransformStamped::type_name(),
                "b5764a33bfeb3588febc2682852579b0",
            ),
            (Transform::type_name(), "ac9eff44abf714214112b05d54a3cf9b"),
            (Clock::type_name(), "a9c97c1d230cfc112e270351a944ee47"),
            (Log::type_name(), "acffd30cd6b6de30f120938c17c593fb"),
            (Float64::type_name(), "fdb28210bfa9d7c91146260178d9a584"),
            (Bool::type_name(), "8b94c1b53db61fb6aed406028ad6332a"),
            (
                "move_base_msgs/MoveBaseAction",
                "70b6aca7c7f7746d8d1609ad94c80bb8",
            ),
            (
                "move_base_msgs/MoveBaseActionGoal",
                "660d6895a1b9a16dce51fbdd9a64a56b",
            ),
            (
                "move_base_msgs/MoveBaseActionFeedback",
                "7d1870ff6e0decea702b943b5af0b42e",
            ),
            (
                "move_base_msgs/MoveBaseActionResult",
                "1eb06eeff08fa7ea874431638cb52332",
            ),
        ];
        for (ty, md5) in want {
            assert_eq!(
                crate::msg::defs::try_md5sum(ty).map_err(|e| e.to_string()),
                Ok(md5),
                "{ty}"
            );
        }
    }

    #[test]
    fn a_scan_decodes_to_what_was_encoded() {
        let m = LaserScan {
            angle_min: -1.5,
            ranges: vec![1.0, 2.5, f32::INFINITY],
            ..LaserScan::default()
        };
        let mut w = Vec::new();
        m.encode(&mut w);
        assert_eq!(LaserScan::decode(&w).ok(), Some(m));
    }
}
