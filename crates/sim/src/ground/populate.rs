//! Filling a world with robots (`skipper run --robots N`): new robots go on free floor
//! the first robot can drive to (never inside furniture or behind a wall), spread over
//! all of it as evenly as they fit, away from walls where there is room, so that each
//! starts where it can move.

use super::params;
use crate::spatial::{Segment, Space};
use crate::spec::{RobotSpec, WorldSpec};
use skipper_core::{Pose2, Vec2};
use std::collections::{HashMap, HashSet, VecDeque};

/// The grid the floor is searched on (m).
const STEP: f64 = 0.2;
/// Least distance between two robots' centres (m): two bodies and a gap.
const MIN_SPACING: f64 = 2.0 * params::RADIUS + 0.1;
/// Least distance from a robot's centre to a wall (m).
const MIN_WALL: f64 = params::RADIUS + 0.04;
/// Distance from a wall a robot starts at when the floor has room for that (m).
const ROOMY_WALL: f64 = params::RADIUS + 0.35;
/// The most grid points searched (a bound for very large worlds).
const MAX_POINTS: usize = 4_000_000;

/// `spec` with exactly `total` robots: more added by [`populate`], or the first `total`
/// kept.
pub fn with_robots(mut spec: WorldSpec, total: usize) -> Result<WorldSpec, String> {
    populate(&mut spec, total)?;
    spec.robots.truncate(total);
    Ok(spec)
}

/// Add robots to a world until it has `total`, at free points that can be reached from
/// the first robot without crossing a wall (so none lands inside furniture), as far
/// apart as `total` robots fit on that floor (at least 0.6 m), preferring points at
/// least 0.6 m from walls. New robots are named `robot<N>` and face fixed, varied
/// directions. The same world and `total` always give the same robots.
pub fn populate(spec: &mut WorldSpec, total: usize) -> Result<(), String> {
    if spec.robots.len() >= total {
        return Ok(());
    }
    let floor = Floor::new(spec);
    let reachable = floor.reachable();
    if spec.robots.is_empty() && reachable.is_empty() {
        return Err("the world has no robot to place the others around, and none fits at or near (0, 0), where they start (a wall there, or outside the world): add a line `robot NAME X Y`".into());
    }
    let existing: Vec<Vec2> = spec.robots.iter().map(|r| r.pose.position()).collect();
    let needed = total - spec.robots.len();
    let roomy: Vec<(i64, i64)> = reachable
        .iter()
        .copied()
        .filter(|&k| floor.clear(floor.at(k), ROOMY_WALL))
        .collect();
    let candidates = if spread(&floor, &roomy, &existing, MIN_SPACING, needed).len() >= needed {
        roomy
    } else {
        reachable
    };
    // the widest spacing at which all of them still fit
    let (mut lo, mut hi) = (MIN_SPACING, MIN_SPACING);
    while spread(&floor, &candidates, &existing, hi * 2.0, needed).len() >= needed && hi < 1e4 {
        hi *= 2.0;
    }
    hi *= 2.0;
    for _ in 0..24 {
        let mid = 0.5 * (lo + hi);
        if spread(&floor, &candidates, &existing, mid, needed).len() >= needed {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let chosen = spread(&floor, &candidates, &existing, lo, needed);
    let mut next_name = spec.robots.len() + 1;
    for k in chosen.into_iter().take(needed) {
        while spec
            .robots
            .iter()
            .any(|r| r.name == format!("robot{next_name}"))
        {
            next_name += 1;
        }
        let p = floor.at(k);
        let yaw = ((k.0 * 7 + k.1 * 13).rem_euclid(36) as f64 * 10.0).to_radians();
        spec.robots.push(RobotSpec::new(
            format!("robot{next_name}"),
            Pose2::new(p.x, p.y, yaw),
        ));
        next_name += 1;
    }
    if spec.robots.len() < total {
        return Err(format!(
            "the world has room for only {} robots",
            spec.robots.len()
        ));
    }
    Ok(())
}

/// The points of `candidates`, in order, that keep `spacing` from each other and from
/// `existing`, up to `want` of them.
fn spread(
    floor: &Floor,
    candidates: &[(i64, i64)],
    existing: &[Vec2],
    spacing: f64,
    want: usize,
) -> Vec<(i64, i64)> {
    let bucket = |p: Vec2| {
        (
            (p.x / spacing).floor() as i64,
            (p.y / spacing).floor() as i64,
        )
    };
    let mut placed: HashMap<(i64, i64), Vec<Vec2>> = HashMap::new();
    for &p in existing {
        placed.entry(bucket(p)).or_default().push(p);
    }
    let mut out = Vec::new();
    for &k in candidates {
        let p = floor.at(k);
        let (bx, by) = bucket(p);
        let far = (-1..=1).all(|dx| {
            (-1..=1).all(|dy| {
                placed
                    .get(&(bx + dx, by + dy))
                    .is_none_or(|v| v.iter().all(|q| q.dist(p) >= spacing - 1e-9))
            })
        });
        if far {
            placed.entry((bx, by)).or_default().push(p);
            out.push(k);
            if out.len() >= want {
                break;
            }
        }
    }
    out
}

/// The floor of a world on a grid of [`STEP`] around an origin.
struct Floor {
    space: Space,
    lo: Vec2,
    hi: Vec2,
    origin: Vec2,
}

impl Floor {
    fn new(spec: &WorldSpec) -> Self {
        let (lo, hi) = spec.bounds();
        let segments: Vec<Segment> = spec.walls.iter().map(|w| w.segment).collect();
        let space = Space::new(
            segments,
            0,
            lo - Vec2::new(1.0, 1.0),
            hi + Vec2::new(1.0, 1.0),
            1.0,
        );
        let origin = spec
            .robots
            .first()
            .map_or(Vec2::default(), |r| r.pose.position());
        Self {
            space,
            lo,
            hi,
            origin,
        }
    }

    fn at(&self, k: (i64, i64)) -> Vec2 {
        self.origin + Vec2::new(k.0 as f64, k.1 as f64) * STEP
    }

    /// Inside the world's extent and at least `wall` from every wall.
    fn clear(&self, p: Vec2, wall: f64) -> bool {
        p.x >= self.lo.x
            && p.x <= self.hi.x
            && p.y >= self.lo.y
            && p.y <= self.hi.y
            && self.space.contact(p, wall, usize::MAX, |_| false).is_none()
    }

    /// The grid points the first robot can drive to, nearest first (breadth first).
    fn reachable(&self) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        // the origin itself may be too near a wall; the floor around it counts
        let mut seen = HashSet::from([(0i64, 0i64)]);
        let mut queue = VecDeque::from([(0i64, 0i64)]);
        while let Some(k) = queue.pop_front() {
            let p = self.at(k);
            if self.clear(p, MIN_WALL) {
                out.push(k);
            }
            for d in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let n = (k.0 + d.0, k.1 + d.1);
                if seen.contains(&n) {
                    continue;
                }
                let q = self.at(n);
                if self.clear(q, MIN_WALL) && self.space.line_of_sight(p, q) {
                    seen.insert(n);
                    queue.push_back(n);
                }
            }
            if seen.len() > MAX_POINTS {
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room_with_cupboard() -> WorldSpec {
        let mut w = WorldSpec::empty_room();
        // a closed cupboard: no robot may land inside it
        w.add_box(Vec2::new(5.0, 5.0), 2.0, 2.0, 0.0, None);
        w
    }

    #[test]
    fn robots_spread_over_the_whole_floor() {
        let w = with_robots(room_with_cupboard(), 20).unwrap();
        assert_eq!(w.robots.len(), 20);
        let pts: Vec<Vec2> = w.robots.iter().map(|r| r.pose.position()).collect();
        let mut nearest = f64::INFINITY;
        for (i, a) in pts.iter().enumerate() {
            for b in &pts[..i] {
                nearest = nearest.min(a.dist(*b));
            }
            assert!(
                !(a.x > 4.0 && a.x < 6.0 && a.y > 4.0 && a.y < 6.0),
                "a robot in the cupboard at {a:?}"
            );
            assert!(a.x.abs() < 12.5 - 0.5 && a.y.abs() < 12.5 - 0.5, "{a:?}");
        }
        // 20 robots on 600 m² fit 4 m apart or more; packed would be 0.6 m
        assert!(nearest > 4.0, "nearest two robots {nearest} m apart");
        // they reach the far corners of the room, not only the middle
        let far = pts
            .iter()
            .filter(|p| p.x.abs() > 8.0 && p.y.abs() > 8.0)
            .count();
        assert!(far >= 2, "{pts:?}");
    }

    #[test]
    fn the_same_world_gives_the_same_robots() {
        let a = with_robots(room_with_cupboard(), 30).unwrap();
        let b = with_robots(room_with_cupboard(), 30).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn a_crowd_still_fits_at_the_least_spacing() {
        let mut w = WorldSpec::empty_room();
        w.walls.clear();
        w.add_box(Vec2::default(), 3.0, 3.0, 0.0, None);
        let full = with_robots(w.clone(), 16).unwrap();
        assert_eq!(full.robots.len(), 16);
        let e = with_robots(w, 40).unwrap_err();
        assert!(e.contains("room for only"), "{e}");
    }
}
