//! `--robots N` in the office: the robots start spread over its free floor, where each
//! can move, not packed around the first; the world accepts every one of them (none in
//! furniture, none in a wall).

use skipper_sim::ground::with_robots;
use skipper_sim::{load_world, GroundWorld};
use std::path::Path;

fn office(n: usize) -> skipper_sim::WorldSpec {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds");
    let spec = load_world(&root.join("office.world")).unwrap();
    with_robots(spec, n).unwrap_or_else(|e| panic!("{e}"))
}

/// The least distance between two robots' centres, and the least from a robot's centre
/// to a wall.
fn spacing(spec: &skipper_sim::WorldSpec) -> (f64, f64) {
    let pts: Vec<_> = spec.robots.iter().map(|r| r.pose.position()).collect();
    let mut robots = f64::INFINITY;
    for (i, a) in pts.iter().enumerate() {
        for b in &pts[..i] {
            robots = robots.min(a.dist(*b));
        }
    }
    let walls = pts
        .iter()
        .flat_map(|p| {
            spec.walls
                .iter()
                .map(move |w| w.segment.closest_point(*p).dist(*p))
        })
        .fold(f64::INFINITY, f64::min);
    (robots, walls)
}

#[test]
fn two_hundred_robots_start_spread_over_the_office() {
    let spec = office(200);
    assert_eq!(spec.robots.len(), 200);
    GroundWorld::new(&spec, 0).unwrap_or_else(|e| panic!("{e}"));
    let (robots, walls) = spacing(&spec);
    // packed would be 0.6 m apart (two bodies and a gap) and 0.29 m from walls
    assert!(robots >= 1.0, "nearest two robots {robots:.2} m apart");
    assert!(walls >= 0.5, "a robot {walls:.2} m from a wall");
    // every room of the office has robots, not only the corridor near the first
    for (x, y) in [
        (-12.5, 5.0),
        (12.5, 5.0),
        (-12.5, -5.0),
        (12.5, -5.0),
        (2.5, 5.0),
    ] {
        assert!(
            spec.robots.iter().any(|r| {
                let p = r.pose.position();
                (p.x - x).abs() < 2.5 && (p.y - y).abs() < 4.5
            }),
            "no robot in the room around ({x}, {y})"
        );
    }
}

#[test]
fn fifty_robots_start_further_apart_than_two_hundred() {
    let (fifty, _) = spacing(&office(50));
    let (crowd, _) = spacing(&office(200));
    assert!(fifty > crowd, "{fifty:.2} m for 50, {crowd:.2} m for 200");
    assert!(fifty >= 2.0, "nearest two of 50 robots {fifty:.2} m apart");
}
