//! The simulated GPS of a map with a geographic origin (`OriginLatLongAlt`), as ARIA's
//! `ArSimulatedGPS` reads it from SIMSTAT over TCP: latitude and longitude from the
//! robot's true pose (x east, y north of the origin), the altitude, and a fix of DOP 1
//! while the robot is on the map (none off it); a map without an origin sends no GPS.
//!
//! The expected latitude and longitude come from the WGS84 radii of curvature, worked
//! out here and not with the crate's conversion. Every wait has a generous limit.

use skipper_p2os::client::{ClientOptions, Connection, LinkSpec};
use skipper_p2os::packets::simstat::FLAG_GEO;
use skipper_p2os::packets::{ids, SimStat};
use skipper_p2os::{CommandId, CommandPacket};
use skipper_simserve::{start_with_origin, ServeOptions};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// A 100 m × 100 m map whose lower left corner is at 42° N, 71° W, 60 m up; robot 1 at
/// (30 m, 40 m) inside it, robot 2 20 m west of the map.
const MAP: &str = "2D-Map
OriginLatLongAlt: 42.0 -71.0 60.0
Cairn: RobotHome 30000 40000 0 \"\" ICON \"inside\"
Cairn: RobotHome -20000 40000 0 \"\" ICON \"outside\"
LINES
0 0 100000 0
100000 0 100000 100000
100000 100000 0 100000
0 100000 0 0
DATA
";

const LAT0: f64 = 42.0;
const LON0: f64 = -71.0;
const ALT0: f64 = 60.0;

/// WGS84: semi-major axis (m) and first eccentricity squared.
const A: f64 = 6_378_137.0;
const E2: f64 = 0.006_694_379_990_14;

/// Degrees of latitude and of longitude per metre north and east at `LAT0`.
fn degrees_per_metre() -> (f64, f64) {
    let s2 = LAT0.to_radians().sin().powi(2);
    let meridian = A * (1.0 - E2) / (1.0 - E2 * s2).powf(1.5);
    let prime_vertical = A / (1.0 - E2 * s2).sqrt();
    (
        (1.0 / meridian).to_degrees(),
        (1.0 / (prime_vertical * LAT0.to_radians().cos())).to_degrees(),
    )
}

/// The first SIMSTAT robot `k` sends after SIM_STAT 2.
fn simstat(map: &str, k: usize) -> SimStat {
    let spec = skipper_sim::map_file::parse_map(map, "gps.map").expect("the map parses");
    let world = skipper_sim::GroundWorld::new(&spec, 0).expect("the world builds");
    let options = ServeOptions::new("127.0.0.1:0".parse().unwrap());
    let server = start_with_origin(world, spec.origin, &options).expect("the server starts");
    let addr: SocketAddr = server.addrs()[k];
    let mut c = Connection::open(&LinkSpec::Tcp(addr.to_string()), &ClientOptions::default())
        .expect("connects");
    c.send(&CommandPacket::int(CommandId::SimStat, 2)).unwrap();
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no SIMSTAT after SIM_STAT 2"
        );
        let mut got = None;
        c.poll(Duration::from_millis(50), |f| {
            if f.id == ids::SIMSTAT && got.is_none() {
                got = Some(SimStat::decode(f).expect("SIMSTAT decodes"));
            }
        })
        .unwrap();
        if let Some(st) = got {
            c.close();
            return st;
        }
    }
}

#[test]
fn simstat_carries_latitude_longitude_altitude_and_dop_from_the_true_pose() {
    let (dlat, dlon) = degrees_per_metre();
    let st = simstat(MAP, 0);
    assert_eq!((st.x, st.y), (30_000, 40_000), "the true pose");
    assert_eq!(
        st.flags & FLAG_GEO,
        FLAG_GEO,
        "flag bit 1: the map has an origin"
    );
    let g = st.geo.expect("the GPS fields");
    let lat = f64::from(g.latitude) / 1e7;
    let lon = f64::from(g.longitude) / 1e7;
    // 1e-7 degrees is 1.1 cm: the wire's resolution, rounded
    assert!(
        (lat - (LAT0 + 40.0 * dlat)).abs() < 1.5e-7,
        "latitude {lat}"
    );
    assert!(
        (lon - (LON0 + 30.0 * dlon)).abs() < 1.5e-7,
        "longitude {lon}"
    );
    // ARIA's map plane is turned by the origin's geocentric latitude: going north climbs
    // by the sine of its difference from the geodetic one (0.19° at 42°: 13 cm at 40 m)
    let geocentric = ((1.0 - E2) * LAT0.to_radians().tan()).atan();
    let climb = 40.0 * (LAT0.to_radians() - geocentric).sin();
    let alt = f64::from(g.altitude) / 100.0;
    assert!((alt - (ALT0 + climb)).abs() <= 0.011, "altitude {alt} m");
    assert_eq!(g.quality, 100, "a fix of DOP 1.0 (× 100) on the map");
}

#[test]
fn off_the_map_there_is_no_fix_and_without_an_origin_no_gps() {
    let (dlat, dlon) = degrees_per_metre();
    let st = simstat(MAP, 1);
    let g = st.geo.expect("the GPS fields");
    assert!((f64::from(g.latitude) / 1e7 - (LAT0 + 40.0 * dlat)).abs() < 1.5e-7);
    assert!((f64::from(g.longitude) / 1e7 - (LON0 - 20.0 * dlon)).abs() < 1.5e-7);
    assert_eq!(g.quality, -1, "no fix off the map");
    let plain = MAP.replace("OriginLatLongAlt: 42.0 -71.0 60.0\n", "");
    let st = simstat(&plain, 0);
    assert_eq!(st.flags & FLAG_GEO, 0);
    assert_eq!(st.geo, None);
    assert_eq!((st.x, st.y), (30_000, 40_000));
}
