//! Universal URIs: the vehicle quantities a mission names (`UniversalURI.DEPTH`), each with
//! its unit. A URI is read from the vehicle signal of the same name; the signal's own unit is
//! converted to the URI's dimension when read, and its time of last *new datum* is what
//! `ELAPSED` asks.

use skipper_core::units::{self, Dimension, Unit};

/// The index of a URI in [`CATALOG`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UriId(pub u16);

/// One URI: its name, unit and meaning.
#[derive(Debug)]
pub struct UriInfo {
    /// The name after `UniversalURI.` (also the vehicle signal's name).
    pub name: &'static str,
    /// Unit of its values.
    pub unit: &'static Unit,
    /// One line for docs.
    pub doc: &'static str,
}

impl UriInfo {
    /// The dimension of its values.
    pub fn dimension(&self) -> Dimension {
        self.unit.dimension
    }
}

macro_rules! uris {
    ($($name:ident : $unit:ident, $doc:literal;)*) => {
        /// Every URI Skipper knows.
        pub static CATALOG: &[UriInfo] = &[$(UriInfo { name: stringify!($name), unit: &units::$unit, doc: $doc }),*];
    };
}

uris! {
    DEPTH: METER, "depth below the surface, positive down";
    PLATFORM_PITCH_ANGLE: RADIAN, "pitch, positive nose up";
    PLATFORM_ROLL_ANGLE: RADIAN, "roll, positive starboard down";
    PLATFORM_YAW_ANGLE: RADIAN, "heading, clockwise from north";
    PLATFORM_SPEED_WRT_SEA_WATER: METER_PER_SECOND, "speed through the water";
    LATITUDE: DEGREE, "latitude (dead reckoning between fixes)";
    LONGITUDE: DEGREE, "longitude (dead reckoning between fixes)";
    HEIGHT_ABOVE_SEA_FLOOR: METER, "altitude above the sea floor; invalid beyond the sensor's range";
    SEA_FLOOR_DEPTH: METER, "depth of the sea floor below the surface (valid with altitude)";
    DISTANCE_OFFSHORE: METER, "distance from the coastline";
    DIRECTION_OFFSHORE: RADIAN, "heading (clockwise from north) that leads away from the coast";
    SEA_WATER_TEMPERATURE: CELSIUS, "sea water temperature (sampled on request)";
    SEA_WATER_SALINITY: PSU, "sea water salinity (sampled on request)";
    PLATFORM_LOCATION_FIX: LATITUDE_LONGITUDE, "a GPS fix (only at the surface; a new datum per fix)";
    PLATFORM_COMMUNICATIONS: BOOL, "a satellite communications session (only at the surface; a new datum per session)";
    PLATFORM_BUOYANCY_POSITION: NONE, "buoyancy engine, -1 (sink) .. 1 (float)";
    PLATFORM_PROPELLER_SPEED: METER_PER_SECOND, "commanded propeller speed";
    PLATFORM_AT_SURFACE: BOOL, "at the surface (depth at most 0.5 m)";
    TIME: SECOND, "mission time";
}

/// Find a URI by name (exact, as written after `UniversalURI.`).
pub fn by_name(name: &str) -> Option<UriId> {
    CATALOG
        .iter()
        .position(|u| u.name == name)
        .map(|i| UriId(i as u16))
}

/// A URI's description.
pub fn info(id: UriId) -> &'static UriInfo {
    CATALOG.get(id.0 as usize).unwrap_or(&CATALOG[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_uris_exist_with_their_dimensions() {
        for (n, d) in [
            ("DEPTH", Dimension::Length),
            ("PLATFORM_PITCH_ANGLE", Dimension::Angle),
            ("PLATFORM_LOCATION_FIX", Dimension::Position),
            ("PLATFORM_COMMUNICATIONS", Dimension::Bool),
            ("SEA_WATER_SALINITY", Dimension::Salinity),
            ("SEA_WATER_TEMPERATURE", Dimension::Temperature),
        ] {
            assert_eq!(info(by_name(n).unwrap()).dimension(), d, "{n}");
        }
        assert!(by_name("DEPTHS").is_none());
    }
}
