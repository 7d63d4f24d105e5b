//! `sensor_msgs`: LaserScan, Range (sonar), BatteryState, NavSatFix (GPS).

use super::std::Header;
use super::Shared;
use serde::{Deserialize, Serialize};

/// `sensor_msgs/msg/LaserScan`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LaserScan {
    /// stamp and the laser's frame
    pub header: Header,
    /// angle of the first range (rad)
    pub angle_min: f32,
    /// angle of the last range (rad)
    pub angle_max: f32,
    /// angle between ranges (rad)
    pub angle_increment: f32,
    /// time between ranges (s)
    pub time_increment: f32,
    /// time between scans (s)
    pub scan_time: f32,
    /// shortest valid range (m)
    pub range_min: f32,
    /// longest valid range (m)
    pub range_max: f32,
    /// ranges (m); outside [range_min, range_max]: no return
    pub ranges: Shared<Vec<f32>>,
    /// intensities (none)
    pub intensities: Vec<f32>,
}

/// `sensor_msgs/msg/Range`: one sonar's reading.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Range {
    /// stamp and the sonar's frame
    pub header: Header,
    /// [`Range::ULTRASOUND`] or infrared (1)
    pub radiation_type: u8,
    /// the cone's opening angle (rad)
    pub field_of_view: f32,
    /// shortest range (m)
    pub min_range: f32,
    /// longest range (m)
    pub max_range: f32,
    /// the range (m)
    pub range: f32,
    /// the range's variance (m^2; 0: unknown)
    pub variance: f32,
}

impl Range {
    /// `radiation_type` of a sonar.
    pub const ULTRASOUND: u8 = 0;
}

/// `sensor_msgs/msg/BatteryState`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BatteryState {
    /// stamp
    pub header: Header,
    /// V
    pub voltage: f32,
    /// degC (NaN: unknown)
    pub temperature: f32,
    /// A (NaN: unknown)
    pub current: f32,
    /// Ah (NaN: unknown)
    pub charge: f32,
    /// Ah (NaN: unknown)
    pub capacity: f32,
    /// Ah (NaN: unknown)
    pub design_capacity: f32,
    /// 0..1 (NaN: unknown)
    pub percentage: f32,
    /// POWER_SUPPLY_STATUS_*
    pub power_supply_status: u8,
    /// POWER_SUPPLY_HEALTH_*
    pub power_supply_health: u8,
    /// POWER_SUPPLY_TECHNOLOGY_*
    pub power_supply_technology: u8,
    /// a battery is there
    pub present: bool,
    /// per cell (V)
    pub cell_voltage: Vec<f32>,
    /// per cell (degC)
    pub cell_temperature: Vec<f32>,
    /// where it is
    pub location: String,
    /// its serial number
    pub serial_number: String,
}

impl BatteryState {
    /// `power_supply_status`: discharging.
    pub const STATUS_DISCHARGING: u8 = 2;
    /// `power_supply_health`: good.
    pub const HEALTH_GOOD: u8 = 1;
    /// `power_supply_technology`: unknown.
    pub const TECHNOLOGY_UNKNOWN: u8 = 0;
}

/// `sensor_msgs/msg/NavSatStatus`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct NavSatStatus {
    /// -1 no fix, 0 fix
    pub status: i8,
    /// 1 GPS
    pub service: u16,
}

/// `sensor_msgs/msg/NavSatFix`: a GPS fix.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NavSatFix {
    /// stamp and the antenna's frame
    pub header: Header,
    /// fix or not
    pub status: NavSatStatus,
    /// deg
    pub latitude: f64,
    /// deg
    pub longitude: f64,
    /// m above the WGS 84 ellipsoid
    pub altitude: f64,
    /// m^2, row major (east, north, up)
    pub position_covariance: [f64; 9],
    /// 0 unknown
    pub position_covariance_type: u8,
}

super::ros_type! {
    LaserScan => "sensor_msgs" / "LaserScan",
    Range => "sensor_msgs" / "Range",
    BatteryState => "sensor_msgs" / "BatteryState",
    NavSatFix => "sensor_msgs" / "NavSatFix",
}
