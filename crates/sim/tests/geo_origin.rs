//! A world's origin on the globe: a `.map` file's `OriginLatLongAlt:` header line and a
//! world file's `origin` line, how a world file takes a map's origin, and the errors of
//! each, pointing at the value that is wrong.

use skipper_sim::map_file::parse_map;
use skipper_sim::parse_world;
use skipper_sim::spec::GeoOrigin;

fn origin(lat: f64, lon: f64, alt: f64) -> Option<GeoOrigin> {
    Some(GeoOrigin::new(lat, lon, alt).unwrap())
}

const MAP_HEAD: &str = "2D-Map\nMinPos: 0 0\n";
const MAP_TAIL: &str =
    "Cairn: RobotHome 1000 0 0 \"\" ICON \"home\"\nLINES\n-5000 -5000 5000 -5000\nDATA\n";

fn map(origin_line: &str) -> String {
    format!("{MAP_HEAD}{origin_line}{MAP_TAIL}")
}

#[test]
fn a_map_keeps_its_origin_and_a_map_without_one_has_none() {
    let m = parse_map(
        &map("OriginLatLongAlt: 42.1234567 -71.7654321 60.5\n"),
        "a.map",
    )
    .unwrap();
    assert_eq!(m.origin, origin(42.1234567, -71.7654321, 60.5));
    assert_eq!(m.walls.len(), 1, "the rest of the map still loads");
    assert_eq!(m.robots.len(), 1);
    assert_eq!(parse_map(&map(""), "b.map").unwrap().origin, None);
    // ARIA reads the line with no values as "no origin"
    assert_eq!(
        parse_map(&map("OriginLatLongAlt:\n"), "c.map")
            .unwrap()
            .origin,
        None
    );
}

#[test]
fn a_bad_map_origin_is_an_error_at_its_value() {
    let e = parse_map(&map("OriginLatLongAlt: 42 -71\n"), "d.map")
        .unwrap_err()
        .to_string();
    assert!(e.contains("d.map:3:") && e.contains("altitude"), "{e}");
    let e = parse_map(&map("OriginLatLongAlt: 42 -191 0\n"), "e.map")
        .unwrap_err()
        .to_string();
    assert!(e.contains("e.map:3:22:") && e.contains("longitude"), "{e}");
    let e = parse_map(&map("OriginLatLongAlt: 95 0 0\n"), "f.map")
        .unwrap_err()
        .to_string();
    assert!(e.contains("f.map:3:19:") && e.contains("latitude"), "{e}");
    let e = parse_map(&map("OriginLatLongAlt: 1 2 3 4\n"), "g.map")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("g.map:3:25:") && e.contains("unexpected `4`"),
        "{e}"
    );
}

#[test]
fn a_world_file_sets_its_origin_with_or_without_an_altitude() {
    let w = parse_world(
        "box 0 0 10 10\norigin -33.8568 151.2153 12\nrobot r 0 0\n",
        "w.world",
        None,
    )
    .unwrap();
    assert_eq!(w.origin, origin(-33.8568, 151.2153, 12.0));
    let w = parse_world("origin 0.5 -0.5\nrobot r 0 0\n", "w.world", None).unwrap();
    assert_eq!(w.origin, origin(0.5, -0.5, 0.0));
    let w = parse_world("robot r 0 0\n", "w.world", None).unwrap();
    assert_eq!(w.origin, None);
}

#[test]
fn world_file_origin_errors_name_the_line_and_value() {
    let e = parse_world("origin 1\n", "w.world", None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("w.world:1:") && e.contains("origin LATITUDE LONGITUDE"),
        "{e}"
    );
    let e = parse_world("origin 1 200\n", "w.world", None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("w.world:1:10:") && e.contains("longitude"),
        "{e}"
    );
    let e = parse_world("origin 1 2\norigin 3 4\n", "w.world", None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("w.world:2:1:") && e.contains("already set on line 1"),
        "{e}"
    );
}

#[test]
fn a_world_file_takes_its_maps_origin_unless_it_sets_its_own() {
    let dir = std::env::temp_dir().join(format!("skipper-geo-origin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("lab.map"),
        map("OriginLatLongAlt: 42.5 -71.5 100\n"),
    )
    .unwrap();
    let from_map = parse_world("map lab.map\n", "w.world", Some(&dir)).unwrap();
    assert_eq!(from_map.origin, origin(42.5, -71.5, 100.0));
    // an `origin` line wins, before or after the map
    for text in [
        "origin 10 20 30\nmap lab.map\n",
        "map lab.map\norigin 10 20 30\n",
    ] {
        let w = parse_world(text, "w.world", Some(&dir)).unwrap();
        assert_eq!(w.origin, origin(10.0, 20.0, 30.0), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
