//! The worksite: where the AUV is, the sea floor, the coast and the water.
//!
//! The coast is a straight line `coastDistance` from the origin in the direction
//! `coastBearing`; the sea floor deepens linearly offshore (`shelfDepth` at the coast,
//! `shelfSlope` metres per metre, at most `maxFloorDepth`); temperature and salinity follow
//! a thermocline profile with depth and a weak gradient offshore.

use serde::Serialize;
use skipper_core::units::{self, Unit};
use std::f64::consts::PI;

/// Mean Earth radius (m) for the local tangent plane.
pub const EARTH_RADIUS: f64 = 6_371_000.0;

/// A worksite.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuvSite {
    /// name
    pub name: String,
    /// origin latitude (deg); the vehicle starts here
    pub latitude: f64,
    /// origin longitude (deg)
    pub longitude: f64,
    /// distance from the origin to the coast (m)
    pub coast_distance: f64,
    /// direction from the origin to the coast (rad, clockwise from north)
    pub coast_bearing: f64,
    /// sea floor depth at the coast (m)
    pub shelf_depth: f64,
    /// depth gained per metre offshore
    pub shelf_slope: f64,
    /// deepest sea floor (m)
    pub max_floor_depth: f64,
    /// temperature at the surface (°C)
    pub surface_temperature: f64,
    /// temperature at depth (°C)
    pub deep_temperature: f64,
    /// thermocline depth (m)
    pub thermocline_depth: f64,
    /// salinity at the surface (PSU)
    pub surface_salinity: f64,
    /// salinity at depth (PSU)
    pub deep_salinity: f64,
    /// a GPS fix takes this long at the surface (s)
    pub gps_fix_time: f64,
    /// a satellite session takes this long at the surface (s)
    pub comms_time: f64,
    /// probability that a session gets through
    pub comms_success: f64,
    /// the altimeter (DVL) sees the bottom up to this altitude (m)
    pub altimeter_range: f64,
    /// the vehicle starts at this depth (m)
    pub start_depth: f64,
    /// and this heading (rad, clockwise from north)
    pub start_heading: f64,
    /// record a GPS fix and a comms session at the start if at the surface (reference rule 31)
    pub initial_fix: bool,
}

impl Default for AuvSite {
    /// Off Monterey Bay: the coast 6 km east, the sea floor ~260 m deep at the origin.
    fn default() -> Self {
        Self {
            name: "Monterey Bay".into(),
            latitude: 36.80,
            longitude: -121.90,
            coast_distance: 6000.0,
            coast_bearing: PI / 2.0,
            shelf_depth: 20.0,
            shelf_slope: 0.04,
            max_floor_depth: 1000.0,
            surface_temperature: 14.5,
            deep_temperature: 8.0,
            thermocline_depth: 40.0,
            surface_salinity: 33.4,
            deep_salinity: 34.2,
            gps_fix_time: 60.0,
            comms_time: 180.0,
            comms_success: 0.9,
            altimeter_range: 100.0,
            start_depth: 0.0,
            start_heading: 0.0,
            initial_fix: true,
        }
    }
}

/// The settings a worksite file may give, with the unit the site keeps them in.
pub const KEYS: &[(&str, &Unit)] = &[
    ("latitude", &units::DEGREE),
    ("longitude", &units::DEGREE),
    ("coastDistance", &units::METER),
    ("coastBearing", &units::DEGREE),
    ("shelfDepth", &units::METER),
    ("shelfSlope", &units::NONE),
    ("maxFloorDepth", &units::METER),
    ("surfaceTemperature", &units::CELSIUS),
    ("deepTemperature", &units::CELSIUS),
    ("thermoclineDepth", &units::METER),
    ("surfaceSalinity", &units::PSU),
    ("deepSalinity", &units::PSU),
    ("gpsFixTime", &units::SECOND),
    ("commsTime", &units::SECOND),
    ("commsSuccess", &units::NONE),
    ("altimeterRange", &units::METER),
    ("startDepth", &units::METER),
    ("startHeading", &units::DEGREE),
    ("initialFix", &units::BOOL),
];

/// A worksite value that does not make sense.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("worksite setting {key} = {value}: {reason}")]
pub struct SiteError {
    /// the key
    pub key: String,
    /// the value
    pub value: f64,
    /// why not
    pub reason: &'static str,
}

impl AuvSite {
    /// Set a value given in the unit [`KEYS`] lists for it; `Ok(false)` for an unknown key.
    pub fn set(&mut self, key: &str, v: f64) -> Result<bool, SiteError> {
        let bad = |reason| SiteError {
            key: key.to_string(),
            value: v,
            reason,
        };
        if !v.is_finite() {
            return Err(bad("not a finite number"));
        }
        let positive = |x: f64| {
            if x > 0.0 {
                Ok(x)
            } else {
                Err(bad("must be positive"))
            }
        };
        match key {
            "latitude" if v.abs() <= 85.0 => self.latitude = v,
            "latitude" => return Err(bad("latitude must be within ±85 degrees")),
            "longitude" if v.abs() <= 360.0 => self.longitude = v,
            "longitude" => return Err(bad("longitude must be within ±360 degrees")),
            "coastDistance" => self.coast_distance = v,
            "coastBearing" => self.coast_bearing = v.to_radians(),
            "shelfDepth" => self.shelf_depth = v.max(0.0),
            "shelfSlope" => self.shelf_slope = v.max(0.0),
            "maxFloorDepth" => self.max_floor_depth = positive(v)?,
            "surfaceTemperature" => self.surface_temperature = v,
            "deepTemperature" => self.deep_temperature = v,
            "thermoclineDepth" => self.thermocline_depth = v.max(0.0),
            "surfaceSalinity" => self.surface_salinity = v,
            "deepSalinity" => self.deep_salinity = v,
            "gpsFixTime" => self.gps_fix_time = positive(v)?,
            "commsTime" => self.comms_time = positive(v)?,
            "commsSuccess" if (0.0..=1.0).contains(&v) => self.comms_success = v,
            "commsSuccess" => return Err(bad("a probability is between 0 and 1")),
            "altimeterRange" => self.altimeter_range = positive(v)?,
            "startDepth" => self.start_depth = v.max(0.0),
            "startHeading" => self.start_heading = v.to_radians(),
            "initialFix" => self.initial_fix = v != 0.0,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Unit vector (east, north) from the origin toward the coast.
    fn to_coast(&self) -> (f64, f64) {
        (self.coast_bearing.sin(), self.coast_bearing.cos())
    }

    /// Distance from the coast (m) at a local point; negative on land.
    pub fn offshore(&self, x: f64, y: f64) -> f64 {
        let (ux, uy) = self.to_coast();
        self.coast_distance - (x * ux + y * uy)
    }

    /// The heading that leads away from the coast (rad, clockwise from north).
    pub fn offshore_direction(&self) -> f64 {
        skipper_core::geometry::wrap_rad(self.coast_bearing + PI)
    }

    /// Sea floor depth (m) at a local point (0 on land).
    pub fn floor_depth(&self, x: f64, y: f64) -> f64 {
        let d = self.offshore(x, y);
        if d <= 0.0 {
            0.0
        } else {
            (self.shelf_depth + self.shelf_slope * d).min(self.max_floor_depth)
        }
    }

    fn profile(&self, depth: f64, top: f64, deep: f64) -> f64 {
        deep + (top - deep) * 0.5 * (1.0 - ((depth - self.thermocline_depth) / 10.0).tanh())
    }

    /// Water temperature (°C).
    pub fn temperature(&self, x: f64, y: f64, depth: f64) -> f64 {
        self.profile(depth, self.surface_temperature, self.deep_temperature)
            - 1e-4 * self.offshore(x, y)
    }

    /// Salinity (PSU).
    pub fn salinity(&self, x: f64, y: f64, depth: f64) -> f64 {
        self.profile(depth, self.surface_salinity, self.deep_salinity) + 2e-5 * self.offshore(x, y)
    }

    /// Latitude and longitude (deg) of a local point.
    pub fn lat_lon(&self, x: f64, y: f64) -> (f64, f64) {
        let lat = self.latitude + (y / EARTH_RADIUS).to_degrees();
        let lon =
            self.longitude + (x / (EARTH_RADIUS * self.latitude.to_radians().cos())).to_degrees();
        (lat, lon)
    }

    /// The local point of a latitude and longitude (deg).
    pub fn local(&self, lat: f64, lon: f64) -> (f64, f64) {
        let y = (lat - self.latitude).to_radians() * EARTH_RADIUS;
        let x =
            (lon - self.longitude).to_radians() * EARTH_RADIUS * self.latitude.to_radians().cos();
        (x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_site_is_off_a_coast_with_a_sloping_floor() {
        let s = AuvSite::default();
        assert!((s.offshore(0.0, 0.0) - 6000.0).abs() < 1e-9);
        assert!((s.floor_depth(0.0, 0.0) - 260.0).abs() < 1e-9);
        assert!(s.floor_depth(-1000.0, 0.0) > s.floor_depth(0.0, 0.0));
        assert_eq!(s.floor_depth(7000.0, 0.0), 0.0);
        assert!(s.temperature(0.0, 0.0, 0.0) > s.temperature(0.0, 0.0, 200.0) + 5.0);
        let (lat, lon) = s.lat_lon(1000.0, -500.0);
        let (x, y) = s.local(lat, lon);
        assert!((x - 1000.0).abs() < 1e-6 && (y + 500.0).abs() < 1e-6);
        assert!((s.offshore_direction() + PI / 2.0).abs() < 1e-12);
    }

    #[test]
    fn settings_are_checked() {
        let mut s = AuvSite::default();
        assert_eq!(s.set("shelfDepth", 30.0), Ok(true));
        assert_eq!(s.set("colour", 1.0), Ok(false));
        assert!(s.set("commsSuccess", 2.0).is_err());
        assert!(s.set("gpsFixTime", 0.0).is_err());
        assert!(s.set("latitude", f64::NAN).is_err());
    }
}
