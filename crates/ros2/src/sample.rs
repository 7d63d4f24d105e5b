//! A robot's cycle as its topics publish it: [`GroundSample`] and [`AuvSample`], read
//! from the vehicle's signals by the vocabulary's ids ([`GroundReader`], [`AuvReader`]),
//! which are looked up once; reading a cycle allocates nothing.

use skipper_core::vocabulary::{auv, ground};
use skipper_core::{SignalId, Signals, Value};
use std::time::Duration;

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

/// The ground signals read, in [`GroundReader::read`]'s order.
const GROUND: [&skipper_core::vocabulary::SignalSpec; 7] = [
    &ground::POSE_X,
    &ground::POSE_Y,
    &ground::POSE_YAW,
    &ground::VELOCITY_LINEAR,
    &ground::VELOCITY_ANGULAR,
    &ground::BATTERY_VOLTAGE,
    &ground::BATTERY_CHARGE,
];

/// Reads a ground robot's cycle from its signals, by the vocabulary's ids (bound once;
/// the range buffers are kept, so reading allocates nothing).
pub struct GroundReader {
    base: [Option<SignalId>; 7],
    laser: Vec<SignalId>,
    sonar: Vec<SignalId>,
    laser_buf: Vec<f64>,
    sonar_buf: Vec<f64>,
}

fn family(s: &Signals, f: &skipper_core::vocabulary::SignalFamily) -> Vec<SignalId> {
    (0..).map_while(|k| f.id(s, k)).collect()
}

impl GroundReader {
    /// Find the signals `s` has.
    pub fn bind(s: &Signals) -> Self {
        Self {
            base: GROUND.map(|spec| spec.id(s)),
            laser: family(s, &ground::LASER),
            sonar: family(s, &ground::SONAR),
            laser_buf: Vec::new(),
            sonar_buf: Vec::new(),
        }
    }
    /// This cycle's sample (at run time `now`), if the robot reports its pose.
    pub fn read(&mut self, s: &Signals, now: Duration) -> Option<GroundSample<'_>> {
        let get = |i: usize| self.base[i].and_then(|id| s.f64(id));
        let (x, y, yaw) = (get(0)?, get(1)?, get(2)?);
        let (linear, angular) = (get(3).unwrap_or(0.0), get(4).unwrap_or(0.0));
        let (volts, charge) = (get(5), get(6));
        let range = |id: &SignalId| s.f64(*id).unwrap_or(f64::INFINITY);
        self.laser_buf.clear();
        self.laser_buf.extend(self.laser.iter().map(range));
        self.sonar_buf.clear();
        self.sonar_buf.extend(self.sonar.iter().map(range));
        Some(GroundSample {
            stamp: now,
            x,
            y,
            yaw,
            linear,
            angular,
            laser: &self.laser_buf,
            sonar: &self.sonar_buf,
            battery_voltage: volts,
            battery_charge: charge,
        })
    }
}

/// Reads an AUV's cycle from its signals, by the vocabulary's ids.
pub struct AuvReader {
    nav: auv::NavReader,
    extra: [Option<SignalId>; 4],
}

impl AuvReader {
    /// Find the signals `s` has; positions relative to `origin` (latitude, longitude).
    pub fn bind(s: &Signals, origin: (f64, f64)) -> Self {
        let mut nav = auv::NavReader::new(origin);
        nav.bind(s);
        let extra = [
            &auv::HEIGHT_ABOVE_SEA_FLOOR,
            &auv::SEA_WATER_TEMPERATURE,
            &auv::SEA_WATER_SALINITY,
            &auv::PLATFORM_LOCATION_FIX,
        ]
        .map(|spec| spec.id(s));
        Self { nav, extra }
    }
    /// This cycle's sample (at run time `now`), if the AUV reports its navigation.
    pub fn read(&self, s: &Signals, now: Duration) -> Option<AuvSample> {
        let n = self.nav.read(s)?;
        let get = |i: usize| self.extra[i].and_then(|id| s.f64(id));
        let fix = self.extra[3]
            .filter(|&id| s.updated_at(id) == Some(now))
            .and_then(|id| match s.get(id) {
                Value::Position { lat, lon } => Some((*lat, *lon)),
                _ => None,
            });
        Some(AuvSample {
            stamp: now,
            x: n.x,
            y: n.y,
            depth: n.depth,
            roll: n.roll,
            pitch: n.pitch,
            yaw: n.yaw,
            speed: n.speed,
            altitude: get(0),
            fix,
            temperature: get(1),
            salinity: get(2),
        })
    }
}
