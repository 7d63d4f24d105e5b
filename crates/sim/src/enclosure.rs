//! Which places walls close off, and how deeply: the test that finds a robot or a goal
//! inside furniture.
//!
//! The plane is cut into regions by the walls (found on a grid: neighbouring cells are
//! in one region unless a wall passes between their centres). The region around
//! everything is at depth 0; a region that walls separate from it is at depth 1 (a
//! room's floor, a building's corridors), a region walled off inside a depth-1 region at
//! depth 2 (a piece of furniture on that floor, a cupboard), and so on: each region's
//! depth is the fewest walls crossed to get out of the world from it.

use crate::spatial::Segment;
use skipper_core::Vec2;
use std::collections::VecDeque;

/// The most grid cells: the cells grow on a very large world.
const MAX_CELLS: f64 = 250_000.0;
/// The most grid cells along one side.
const MAX_SIDE: f64 = 2000.0;
/// The finest cell (m).
const FINEST: f64 = 0.05;

/// The regions of a set of walls and their depths.
pub struct Enclosures {
    lo: Vec2,
    cell: f64,
    nx: usize,
    ny: usize,
    /// the region of each cell
    region: Vec<u32>,
    /// the depth of each region
    depth: Vec<u32>,
    walls: Vec<Segment>,
}

impl Enclosures {
    /// The regions `walls` make.
    pub fn new(walls: &[Segment]) -> Self {
        let (mut lo, mut hi) = (
            Vec2::new(f64::INFINITY, f64::INFINITY),
            Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        );
        for w in walls {
            for p in [w.a, w.b] {
                lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
                hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
            }
        }
        if !((hi.x - lo.x).is_finite() && (hi.y - lo.y).is_finite()) {
            lo = Vec2::new(-1.0, -1.0);
            hi = Vec2::new(1.0, 1.0);
        }
        let (w, h) = (hi.x - lo.x + 1.0, hi.y - lo.y + 1.0);
        // at most MAX_CELLS in all, and at most MAX_SIDE along either side
        let cell = FINEST
            .max((w * h / MAX_CELLS).sqrt())
            .max(w / MAX_SIDE)
            .max(h / MAX_SIDE);
        // two cells of margin: the border ring is outside every wall
        let lo = lo - Vec2::new(2.0 * cell, 2.0 * cell);
        let nx = ((hi.x - lo.x) / cell).ceil() as usize + 3;
        let ny = ((hi.y - lo.y) / cell).ceil() as usize + 3;
        let mut e = Self {
            lo,
            cell,
            nx,
            ny,
            region: Vec::new(),
            depth: Vec::new(),
            walls: walls.to_vec(),
        };
        let (east, north) = e.blocked_edges();
        e.label(&east, &north);
        e.nest(&east, &north);
        e
    }

    fn centre(&self, i: usize, j: usize) -> Vec2 {
        self.lo + Vec2::new((i as f64 + 0.5) * self.cell, (j as f64 + 0.5) * self.cell)
    }

    fn index(&self, i: usize, j: usize) -> usize {
        j * self.nx + i
    }

    /// Which links between neighbouring cell centres a wall crosses: to the east
    /// neighbour, to the north one.
    fn blocked_edges(&self) -> (Vec<bool>, Vec<bool>) {
        let n = self.nx * self.ny;
        let (mut east, mut north) = (vec![false; n], vec![false; n]);
        for w in &self.walls {
            let len = w.a.dist(w.b);
            let steps = (2.0 * len / self.cell).ceil().max(1.0);
            if !steps.is_finite() || steps > 1e7 {
                // a wall beyond any grid (coordinates near the float range): not drawn
                continue;
            }
            let steps = steps as usize;
            for s in 0..=steps {
                let p = w.a + (w.b - w.a) * (s as f64 / steps as f64);
                let ci = ((p.x - self.lo.x) / self.cell - 0.5).floor() as i64;
                let cj = ((p.y - self.lo.y) / self.cell - 0.5).floor() as i64;
                for j in cj - 1..=cj + 1 {
                    for i in ci - 1..=ci + 1 {
                        if i < 0 || j < 0 || i as usize + 1 >= self.nx || j as usize + 1 >= self.ny
                        {
                            continue;
                        }
                        let (i, j) = (i as usize, j as usize);
                        let c = self.centre(i, j);
                        let k = self.index(i, j);
                        if crosses(w, c, self.centre(i + 1, j)) {
                            east[k] = true;
                        }
                        if crosses(w, c, self.centre(i, j + 1)) {
                            north[k] = true;
                        }
                    }
                }
            }
        }
        (east, north)
    }

    /// Give every cell its region: cells joined by links no wall crosses.
    fn label(&mut self, east: &[bool], north: &[bool]) {
        const NONE: u32 = u32::MAX;
        self.region = vec![NONE; self.nx * self.ny];
        let mut next = 0u32;
        let mut queue = VecDeque::new();
        for start in 0..self.region.len() {
            if self.region[start] != NONE {
                continue;
            }
            self.region[start] = next;
            queue.push_back(start);
            while let Some(k) = queue.pop_front() {
                let (i, j) = (k % self.nx, k / self.nx);
                let mut visit = |m: usize, open: bool, region: &mut Vec<u32>| {
                    if open && region[m] == NONE {
                        region[m] = next;
                        queue.push_back(m);
                    }
                };
                if i + 1 < self.nx {
                    visit(k + 1, !east[k], &mut self.region);
                }
                if i > 0 {
                    visit(k - 1, !east[k - 1], &mut self.region);
                }
                if j + 1 < self.ny {
                    visit(k + self.nx, !north[k], &mut self.region);
                }
                if j > 0 {
                    visit(k - self.nx, !north[k - self.nx], &mut self.region);
                }
            }
            next += 1;
        }
    }

    /// Each region's depth: the fewest walls crossed from the region around everything.
    fn nest(&mut self, east: &[bool], north: &[bool]) {
        let regions = self
            .region
            .iter()
            .copied()
            .max()
            .map_or(0, |m| m as usize + 1);
        let mut next_to: Vec<Vec<u32>> = vec![Vec::new(); regions];
        let mut join = |a: u32, b: u32| {
            if a != b {
                next_to[a as usize].push(b);
                next_to[b as usize].push(a);
            }
        };
        for k in 0..self.region.len() {
            if east[k] && k % self.nx + 1 < self.nx {
                join(self.region[k], self.region[k + 1]);
            }
            if north[k] && k + self.nx < self.region.len() {
                join(self.region[k], self.region[k + self.nx]);
            }
        }
        for v in &mut next_to {
            v.sort_unstable();
            v.dedup();
        }
        self.depth = vec![u32::MAX; regions];
        let outside = self.region.first().copied().unwrap_or(0) as usize;
        let mut queue = VecDeque::from([outside]);
        if let Some(d) = self.depth.get_mut(outside) {
            *d = 0;
        }
        while let Some(r) = queue.pop_front() {
            let d = self.depth[r];
            for &n in &next_to[r] {
                if self.depth[n as usize] == u32::MAX {
                    self.depth[n as usize] = d + 1;
                    queue.push_back(n as usize);
                }
            }
        }
    }

    /// How deeply `p` is walled in (0: outside every wall; 1: on a floor walls enclose;
    /// 2 or more: inside something on such a floor). `None` for a point on a wall.
    pub fn depth_at(&self, p: Vec2) -> Option<u32> {
        let ci = ((p.x - self.lo.x) / self.cell - 0.5).floor() as i64;
        let cj = ((p.y - self.lo.y) / self.cell - 0.5).floor() as i64;
        if ci < 1 || cj < 1 || ci + 2 >= self.nx as i64 || cj + 2 >= self.ny as i64 {
            // beyond every wall
            return Some(0);
        }
        // the nearest cell centre that no wall hides from the point
        let mut best: Option<(f64, usize)> = None;
        for j in cj..=cj + 1 {
            for i in ci..=ci + 1 {
                if i < 0 || j < 0 || i as usize >= self.nx || j as usize >= self.ny {
                    continue;
                }
                let c = self.centre(i as usize, j as usize);
                if self.walls.iter().any(|w| crosses(w, p, c)) {
                    continue;
                }
                let d = c.dist(p);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, self.index(i as usize, j as usize)));
                }
            }
        }
        let (_, k) = best?;
        self.depth.get(*self.region.get(k)? as usize).copied()
    }
}

/// At least how deeply `p` could be walled in: the fewest walls a straight line from it
/// to beyond every wall crosses, over eight directions (0 or 1 rules out depth 2 without
/// building the grid).
pub fn depth_bound(walls: &[Segment], p: Vec2) -> usize {
    let far = walls
        .iter()
        .map(|w| w.a.dist(p).max(w.b.dist(p)))
        .fold(1.0, f64::max)
        * 2.0;
    (0..8)
        .map(|k| {
            let q = p + Vec2::from_angle(k as f64 * std::f64::consts::FRAC_PI_4 + 0.1) * far;
            walls.iter().filter(|w| crosses(w, p, q)).count()
        })
        .min()
        .unwrap_or(0)
}

/// Whether the wall `w` meets the segment from `p` to `q` (touching counts).
fn crosses(w: &Segment, p: Vec2, q: Vec2) -> bool {
    let orient = |a: Vec2, b: Vec2, c: Vec2| (b - a).cross(c - a);
    let on = |a: Vec2, b: Vec2, c: Vec2| {
        c.x >= a.x.min(b.x) && c.x <= a.x.max(b.x) && c.y >= a.y.min(b.y) && c.y <= a.y.max(b.y)
    };
    let (d1, d2) = (orient(p, q, w.a), orient(p, q, w.b));
    let (d3, d4) = (orient(w.a, w.b, p), orient(w.a, w.b, q));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    (d1 == 0.0 && on(p, q, w.a))
        || (d2 == 0.0 && on(p, q, w.b))
        || (d3 == 0.0 && on(w.a, w.b, p))
        || (d4 == 0.0 && on(w.a, w.b, q))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(c: Vec2, half: f64) -> Vec<Segment> {
        let k = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| c + Vec2::new(x * half, y * half));
        (0..4)
            .map(|i| Segment {
                a: k[i],
                b: k[(i + 1) % 4],
            })
            .collect()
    }

    #[test]
    fn a_cupboard_on_a_floor_is_two_deep() {
        let mut walls = square(Vec2::default(), 5.0);
        walls.extend(square(Vec2::new(2.0, 2.0), 0.5));
        let e = Enclosures::new(&walls);
        assert_eq!(
            e.depth_at(Vec2::new(20.0, 0.0)),
            Some(0),
            "beyond every wall"
        );
        assert_eq!(e.depth_at(Vec2::new(5.0, 0.0)), None, "on a wall");
        assert_eq!(e.depth_at(Vec2::new(5.2, 0.0)), Some(0));
        assert_eq!(e.depth_at(Vec2::new(0.0, 0.0)), Some(1));
        assert_eq!(e.depth_at(Vec2::new(2.1, 1.9)), Some(2));
        // just outside the cupboard's wall, and just inside it
        assert_eq!(e.depth_at(Vec2::new(2.52, 2.0)), Some(1));
        assert_eq!(e.depth_at(Vec2::new(2.48, 2.0)), Some(2));
    }

    #[test]
    fn a_room_with_a_door_is_part_of_the_floor() {
        let mut walls = square(Vec2::default(), 5.0);
        // a room in the corner, its wall with a 1 m door
        walls.push(Segment {
            a: Vec2::new(0.0, 5.0),
            b: Vec2::new(0.0, 0.0),
        });
        walls.push(Segment {
            a: Vec2::new(0.0, 0.0),
            b: Vec2::new(4.0, 0.0),
        });
        let e = Enclosures::new(&walls);
        assert_eq!(e.depth_at(Vec2::new(2.0, 2.0)), Some(1));
        assert_eq!(e.depth_at(Vec2::new(-2.0, -2.0)), Some(1));
        // without the door the room is walled off inside the floor
        walls.push(Segment {
            a: Vec2::new(4.0, 0.0),
            b: Vec2::new(5.0, 0.0),
        });
        let e = Enclosures::new(&walls);
        assert_eq!(
            e.depth_at(Vec2::new(2.0, 2.0)),
            Some(1),
            "a room beside the outside"
        );
    }

    #[test]
    fn a_straight_line_out_bounds_the_depth() {
        let mut walls = square(Vec2::default(), 5.0);
        walls.extend(square(Vec2::new(2.0, 2.0), 0.5));
        assert_eq!(depth_bound(&walls, Vec2::new(2.0, 2.0)), 2);
        assert_eq!(depth_bound(&walls, Vec2::new(-2.0, -2.0)), 1);
        assert_eq!(depth_bound(&walls, Vec2::new(9.0, 0.0)), 0);
    }

    #[test]
    fn open_walls_enclose_nothing() {
        let walls = vec![Segment {
            a: Vec2::new(0.0, 0.0),
            b: Vec2::new(3.0, 0.0),
        }];
        let e = Enclosures::new(&walls);
        assert_eq!(e.depth_at(Vec2::new(1.0, 1.0)), Some(0));
        assert_eq!(e.depth_at(Vec2::new(1.0, -1.0)), Some(0));
    }
}
