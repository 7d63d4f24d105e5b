//! A point of the map as latitude, longitude and altitude, the way ARIA converts map
//! coordinates (`ArMapGPSCoords::convertMap2LLACoords`) and AMRISim fills SIMSTAT's
//! simulated GPS: the map's x axis points east and its y axis north, the map lies in the
//! plane through its origin, and the point goes through Earth-centred, Earth-fixed
//! coordinates on the WGS84 ellipsoid and back.
//!
//! Like ARIA, the east-north-up frame is turned by the origin's *geocentric* latitude
//! (the angle of its Earth-centred position), not its geodetic one; ARIA's inverse
//! (`convertLLA2MapCoords`) does the same, so it maps these fixes back onto the map. The
//! difference shows only in the altitude, which grows by the sine of the angle between
//! the two latitudes for every metre north (about 3.3 m per km at 42°).

use skipper_sim::spec::GeoOrigin;

/// WGS84 semi-major axis (m).
const A: f64 = 6_378_137.0;
/// WGS84 flattening.
const F: f64 = 1.0 / 298.257_223_563;
/// WGS84 semi-minor axis (m).
const B: f64 = A * (1.0 - F);
/// First eccentricity squared.
const E2: f64 = F * (2.0 - F);
/// Second eccentricity squared.
const EP2: f64 = E2 / (1.0 - E2);

/// A place on the globe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lla {
    /// Latitude (deg, north positive).
    pub latitude: f64,
    /// Longitude (deg, east positive).
    pub longitude: f64,
    /// Altitude (m above the ellipsoid).
    pub altitude: f64,
}

/// Earth-centred, Earth-fixed coordinates (m) of a geodetic latitude and longitude
/// (deg) and an altitude (m).
fn to_ecef(lat_deg: f64, lon_deg: f64, alt: f64) -> [f64; 3] {
    let (lat, lon) = (lat_deg.to_radians(), lon_deg.to_radians());
    let n = A / (1.0 - E2 * lat.sin().powi(2)).sqrt();
    [
        (n + alt) * lat.cos() * lon.cos(),
        (n + alt) * lat.cos() * lon.sin(),
        ((1.0 - E2) * n + alt) * lat.sin(),
    ]
}

/// Geodetic latitude, longitude (deg) and altitude (m) of Earth-centred, Earth-fixed
/// coordinates (Bowring's closed form, sub-millimetre near the ground).
fn from_ecef([x, y, z]: [f64; 3]) -> Lla {
    let p = x.hypot(y);
    let theta = (A * z).atan2(B * p);
    let lon = y.atan2(x);
    let lat = (z + EP2 * B * theta.sin().powi(3)).atan2(p - E2 * A * theta.cos().powi(3));
    let n = A / (1.0 - E2 * lat.sin().powi(2)).sqrt();
    let altitude = if lat.cos().abs() > 1e-9 {
        p / lat.cos() - n
    } else {
        // at a pole: the distance from the centre along the axis
        z.abs() - n * (1.0 - E2)
    };
    Lla {
        latitude: lat.to_degrees(),
        longitude: lon.to_degrees(),
        altitude,
    }
}

/// The place of map point (`east`, `north`) (m from the origin), `up` metres above the
/// map's plane.
pub fn map_to_lla(origin: &GeoOrigin, east: f64, north: f64, up: f64) -> Lla {
    let [xr, yr, zr] = to_ecef(origin.latitude, origin.longitude, origin.altitude);
    let phi = zr.atan2(xr.hypot(yr)); // geocentric latitude, as ARIA turns the frame
    let lambda = origin.longitude.to_radians();
    let (sp, cp, sl, cl) = (phi.sin(), phi.cos(), lambda.sin(), lambda.cos());
    from_ecef([
        xr - sl * east - cl * sp * north + cl * cp * up,
        yr + cl * east - sl * sp * north + sl * cp * up,
        zr + cp * north + sp * up,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(lat: f64, lon: f64, alt: f64) -> GeoOrigin {
        GeoOrigin::new(lat, lon, alt).unwrap()
    }

    #[test]
    fn the_origin_is_itself_and_ecef_round_trips() {
        for (lat, lon, alt) in [(42.0, -71.0, 60.0), (-33.9, 151.2, 0.0), (0.0, 0.0, -10.0)] {
            let p = map_to_lla(&origin(lat, lon, alt), 0.0, 0.0, 0.0);
            assert!((p.latitude - lat).abs() < 1e-9, "{p:?}");
            assert!((p.longitude - lon).abs() < 1e-9, "{p:?}");
            assert!((p.altitude - alt).abs() < 1e-3, "{p:?}");
        }
        let pole = from_ecef(to_ecef(90.0, 0.0, 5.0));
        assert!((pole.latitude - 90.0).abs() < 1e-9 && (pole.altitude - 5.0).abs() < 1e-3);
    }

    #[test]
    fn east_and_north_move_along_the_radii_of_curvature() {
        // metres per degree: north along the meridian radius M, east along N cos(lat)
        // (to within 5e-8°, 5 mm: the plane's tilt and the origin's altitude)
        let lat0: f64 = 42.0;
        let s2 = lat0.to_radians().sin().powi(2);
        let m = A * (1.0 - E2) / (1.0 - E2 * s2).powf(1.5);
        let n = A / (1.0 - E2 * s2).sqrt();
        let o = origin(lat0, -71.0, 60.0);
        let p = map_to_lla(&o, 0.0, 100.0, 0.0);
        assert!(
            (p.latitude - (lat0 + (100.0 / m).to_degrees())).abs() < 5e-8,
            "{p:?}"
        );
        assert!((p.longitude + 71.0).abs() < 1e-12, "{p:?}");
        let q = map_to_lla(&o, 100.0, 0.0, 0.0);
        let dlon = (100.0 / (n * lat0.to_radians().cos())).to_degrees();
        assert!((q.longitude - (-71.0 + dlon)).abs() < 5e-8, "{q:?}");
        assert!((q.latitude - lat0).abs() < 1e-8, "{q:?}");
        // east stays level (up to the Earth's curvature, under a millimetre at 100 m)
        assert!((q.altitude - 60.0).abs() < 1e-3, "{q:?}");
        // north climbs by the angle between geocentric and geodetic latitude (0.19° here)
        let geocentric = ((1.0 - E2) * lat0.to_radians().tan()).atan();
        let tilt = (lat0.to_radians() - geocentric).sin() * 100.0;
        assert!((p.altitude - 60.0 - tilt).abs() < 2e-3, "{p:?} vs {tilt}");
    }
}
