//! The AUV's vocabulary: the Tethys Universal URIs an LRAUV-like vehicle senses
//! (`UniversalURI.DEPTH` reads the signal `DEPTH`), each with its unit.
//!
//! Conventions are the LRAUV's: depth positive down, heading (`PLATFORM_YAW_ANGLE`)
//! clockwise from north, latitude and longitude in degrees.

use super::{SignalSpec, Vocabulary};
use crate::geo::{compass_to_math, local_offset};
use crate::signals::{SignalId, Signals};

specs! {
    "Every AUV signal, in the order of the mission language's URI catalogue.";
    DEPTH = "DEPTH", Float, METER, "depth below the surface, positive down";
    PLATFORM_PITCH_ANGLE = "PLATFORM_PITCH_ANGLE", Float, RADIAN, "pitch, positive nose up";
    PLATFORM_ROLL_ANGLE = "PLATFORM_ROLL_ANGLE", Float, RADIAN, "roll, positive starboard down";
    PLATFORM_YAW_ANGLE = "PLATFORM_YAW_ANGLE", Float, RADIAN, "heading, clockwise from north";
    PLATFORM_SPEED_WRT_SEA_WATER = "PLATFORM_SPEED_WRT_SEA_WATER", Float, METER_PER_SECOND, "speed through the water";
    LATITUDE = "LATITUDE", Float, DEGREE, "latitude (dead reckoning between fixes)";
    LONGITUDE = "LONGITUDE", Float, DEGREE, "longitude (dead reckoning between fixes)";
    HEIGHT_ABOVE_SEA_FLOOR = "HEIGHT_ABOVE_SEA_FLOOR", Float, METER, "altitude above the sea floor; invalid beyond the sensor's range";
    SEA_FLOOR_DEPTH = "SEA_FLOOR_DEPTH", Float, METER, "depth of the sea floor below the surface (valid with altitude)";
    DISTANCE_OFFSHORE = "DISTANCE_OFFSHORE", Float, METER, "distance from the coastline";
    DIRECTION_OFFSHORE = "DIRECTION_OFFSHORE", Float, RADIAN, "heading (clockwise from north) that leads away from the coast";
    SEA_WATER_TEMPERATURE = "SEA_WATER_TEMPERATURE", Float, CELSIUS, "sea water temperature (sampled on request)";
    SEA_WATER_SALINITY = "SEA_WATER_SALINITY", Float, PSU, "sea water salinity (sampled on request)";
    PLATFORM_LOCATION_FIX = "PLATFORM_LOCATION_FIX", Position, LATITUDE_LONGITUDE, "a GPS fix (only at the surface; a new datum per fix)";
    PLATFORM_COMMUNICATIONS = "PLATFORM_COMMUNICATIONS", Bool, BOOL, "a satellite communications session (only at the surface; a new datum per session)";
    PLATFORM_BUOYANCY_POSITION = "PLATFORM_BUOYANCY_POSITION", Float, NONE, "buoyancy engine, -1 (sink) .. 1 (float)";
    PLATFORM_PROPELLER_SPEED = "PLATFORM_PROPELLER_SPEED", Float, METER_PER_SECOND, "commanded propeller speed";
    PLATFORM_AT_SURFACE = "PLATFORM_AT_SURFACE", Bool, BOOL, "at the surface (depth at most 0.5 m)";
    TIME = "TIME", Float, SECOND, "mission time";
}

/// The AUV's vocabulary.
pub fn vocabulary() -> Vocabulary {
    Vocabulary {
        kind: crate::vehicle::VehicleKind::Auv,
        signals: SIGNALS,
        families: &[],
    }
}

/// The ids of an AUV's signals.
#[derive(Debug, Clone)]
pub struct Ids {
    /// `DEPTH`
    pub depth: SignalId,
    /// `HEIGHT_ABOVE_SEA_FLOOR`
    pub altitude: SignalId,
    /// `SEA_FLOOR_DEPTH`
    pub floor: SignalId,
    /// `PLATFORM_PITCH_ANGLE`
    pub pitch: SignalId,
    /// `PLATFORM_ROLL_ANGLE`
    pub roll: SignalId,
    /// `PLATFORM_YAW_ANGLE`
    pub yaw: SignalId,
    /// `PLATFORM_SPEED_WRT_SEA_WATER`
    pub speed: SignalId,
    /// `LATITUDE`
    pub lat: SignalId,
    /// `LONGITUDE`
    pub lon: SignalId,
    /// `DISTANCE_OFFSHORE`
    pub offshore: SignalId,
    /// `DIRECTION_OFFSHORE`
    pub offshore_dir: SignalId,
    /// `SEA_WATER_TEMPERATURE`
    pub temperature: SignalId,
    /// `SEA_WATER_SALINITY`
    pub salinity: SignalId,
    /// `PLATFORM_LOCATION_FIX`
    pub fix: SignalId,
    /// `PLATFORM_COMMUNICATIONS`
    pub comms: SignalId,
    /// `PLATFORM_BUOYANCY_POSITION`
    pub buoyancy: SignalId,
    /// `PLATFORM_PROPELLER_SPEED`
    pub propeller: SignalId,
    /// `PLATFORM_AT_SURFACE`
    pub surface: SignalId,
    /// `TIME`
    pub time: SignalId,
}

impl Ids {
    /// Declare every AUV signal, in the order the simulated AUV reports them (navigation
    /// first, then the water, then the platform), which the run log keeps.
    pub fn declare(s: &mut Signals) -> Self {
        Ids {
            depth: DEPTH.declare(s),
            altitude: HEIGHT_ABOVE_SEA_FLOOR.declare(s),
            floor: SEA_FLOOR_DEPTH.declare(s),
            pitch: PLATFORM_PITCH_ANGLE.declare(s),
            roll: PLATFORM_ROLL_ANGLE.declare(s),
            yaw: PLATFORM_YAW_ANGLE.declare(s),
            speed: PLATFORM_SPEED_WRT_SEA_WATER.declare(s),
            lat: LATITUDE.declare(s),
            lon: LONGITUDE.declare(s),
            offshore: DISTANCE_OFFSHORE.declare(s),
            offshore_dir: DIRECTION_OFFSHORE.declare(s),
            temperature: SEA_WATER_TEMPERATURE.declare(s),
            salinity: SEA_WATER_SALINITY.declare(s),
            fix: PLATFORM_LOCATION_FIX.declare(s),
            comms: PLATFORM_COMMUNICATIONS.declare(s),
            buoyancy: PLATFORM_BUOYANCY_POSITION.declare(s),
            propeller: PLATFORM_PROPELLER_SPEED.declare(s),
            surface: PLATFORM_AT_SURFACE.declare(s),
            time: TIME.declare(s),
        }
    }
}

/// Where the AUV is and how it moves, from its navigation signals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavFix {
    /// east of the origin (m)
    pub x: f64,
    /// north of the origin (m)
    pub y: f64,
    /// depth (m, positive down)
    pub depth: f64,
    /// yaw (rad, counter-clockwise from east)
    pub yaw: f64,
    /// pitch (rad, nose up)
    pub pitch: f64,
    /// roll (rad)
    pub roll: f64,
    /// speed through the water (m/s)
    pub speed: f64,
}

/// The AUV's navigation signals, read in the worksite's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavReader {
    /// the worksite's origin (latitude, longitude in degrees)
    origin: (f64, f64),
    ids: [Option<SignalId>; 7],
}

/// The signals a [`NavReader`] reads (the first four it needs).
pub const NAV_SIGNALS: [&SignalSpec; 7] = [
    &LATITUDE,
    &LONGITUDE,
    &DEPTH,
    &PLATFORM_YAW_ANGLE,
    &PLATFORM_PITCH_ANGLE,
    &PLATFORM_ROLL_ANGLE,
    &PLATFORM_SPEED_WRT_SEA_WATER,
];

impl NavReader {
    /// Navigation in the frame whose origin is at (latitude, longitude) in degrees.
    pub fn new(origin: (f64, f64)) -> Self {
        Self {
            origin,
            ids: [None; 7],
        }
    }

    /// Find the signals (once the vehicle has declared them).
    pub fn bind(&mut self, s: &Signals) {
        self.ids = NAV_SIGNALS.map(|spec| spec.id(s));
    }

    /// Whether position, depth and heading are there to read.
    pub fn is_bound(&self) -> bool {
        self.ids[..4].iter().all(Option::is_some)
    }

    /// The fix, if the vehicle reports position, depth and heading.
    pub fn read(&self, s: &Signals) -> Option<NavFix> {
        let get = |i: usize| self.ids[i].and_then(|id| s.f64(id));
        let (lat, lon, depth, heading) = (get(0)?, get(1)?, get(2)?, get(3)?);
        let (x, y) = local_offset(self.origin.0, self.origin.1, lat, lon);
        Some(NavFix {
            x,
            y,
            depth,
            yaw: compass_to_math(heading),
            pitch: get(4).unwrap_or(0.0),
            roll: get(5).unwrap_or(0.0),
            speed: get(6).unwrap_or(0.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_signal_is_declared_once() {
        let mut s = Signals::new();
        Ids::declare(&mut s);
        assert_eq!(s.len(), SIGNALS.len());
        for spec in SIGNALS {
            assert!(spec.id(&s).is_some(), "{}", spec.name);
        }
    }
}
