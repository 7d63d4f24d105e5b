//! Universal URIs: the vehicle quantities a mission names (`UniversalURI.DEPTH`), each with
//! its unit: the AUV's declared vocabulary (`skipper_core::vocabulary::auv`). A URI is read from the vehicle signal of the same name; the signal's own unit is
//! converted to the URI's dimension when read, and its time of last *new datum* is what
//! `ELAPSED` asks.

#[cfg(test)]
use skipper_core::units::Dimension;
use skipper_core::vocabulary::{auv, SignalSpec};

/// The index of a URI in [`CATALOG`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UriId(pub u16);

/// One URI: its name (also the vehicle signal's), unit and meaning: the AUV's declared
/// signal.
pub type UriInfo = SignalSpec;

/// Every URI Skipper knows: the AUV's vocabulary.
pub static CATALOG: &[&SignalSpec] = auv::SIGNALS;

/// The URI of a signal of the AUV's vocabulary.
pub fn of(spec: &SignalSpec) -> UriId {
    by_name(spec.name).unwrap_or(UriId(0))
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
    CATALOG.get(id.0 as usize).copied().unwrap_or(&auv::DEPTH)
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
