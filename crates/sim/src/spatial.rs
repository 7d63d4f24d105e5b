//! Spatial queries for the ground world: a uniform grid over wall segments and moving
//! circles (robots, balls, cans), ray casting through it, and circle contact tests.
//!
//! Rays walk the grid cell by cell (Amanatides & Woo) and stop as soon as the nearest
//! hit lies inside the cells already visited, so a ray that hits a nearby wall tests only
//! the few segments around it. Nothing here allocates after construction: the circle
//! index is rebuilt in place each step.

use skipper_core::Vec2;

/// A wall segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// one end (m)
    pub a: Vec2,
    /// the other end (m)
    pub b: Vec2,
}

impl Segment {
    /// The point of the segment closest to `p`.
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        let e = self.b - self.a;
        let l2 = e.norm2();
        if l2 <= 0.0 {
            return self.a;
        }
        let t = ((p - self.a).dot(e) / l2).clamp(0.0, 1.0);
        self.a + e * t
    }
}

/// A circle (robot body, ball, can).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    /// centre (m)
    pub c: Vec2,
    /// radius (m)
    pub r: f64,
}

/// Distance along the ray `p + t·d` (d a unit vector) to a segment, if it hits.
#[inline]
pub fn ray_segment(p: Vec2, d: Vec2, s: &Segment) -> Option<f64> {
    ray_segment_before(p, d, s, f64::INFINITY)
}

/// Distance along the ray to a segment, if it hits nearer than `best`.
#[inline]
fn ray_segment_before(p: Vec2, d: Vec2, s: &Segment, best: f64) -> Option<f64> {
    let e = s.b - s.a;
    let denom = d.cross(e);
    if denom.abs() < 1e-12 {
        return None;
    }
    let ap = s.a - p;
    // t = tn / denom must be in [0, best); u = un / denom in [0, 1]: test before dividing
    let (tn, un, den) = if denom > 0.0 {
        (ap.cross(e), ap.cross(d), denom)
    } else {
        (-ap.cross(e), -ap.cross(d), -denom)
    };
    let slack = 1e-9 * den;
    if tn < 0.0 || un < -slack || un > den + slack || tn >= best * den {
        return None;
    }
    Some(tn / den)
}

/// Distance along the ray `p + t·d` (d a unit vector) to a circle, if it hits.
#[inline]
pub fn ray_circle(p: Vec2, d: Vec2, c: &Circle) -> Option<f64> {
    ray_circle_before(p, d, c, f64::INFINITY)
}

/// Distance along the ray to a circle, if it hits nearer than `best`.
#[inline]
fn ray_circle_before(p: Vec2, d: Vec2, c: &Circle, best: f64) -> Option<f64> {
    let m = p - c.c;
    let b = m.dot(d);
    // the hit is at least -b - r along the ray
    if -b - c.r >= best {
        return None;
    }
    let cc = m.norm2() - c.r * c.r;
    if cc > 0.0 && b > 0.0 {
        return None;
    }
    let disc = b * b - cc;
    if disc < 0.0 {
        return None;
    }
    let t = -b - disc.sqrt();
    Some(t.max(0.0))
}

/// When a point moving from `c` by `delta` first comes within `r` of `p` (fraction 0..1).
/// Already within `r`: 0 if moving closer, never if moving away.
#[inline]
fn sweep_point(c: Vec2, r: f64, delta: Vec2, p: Vec2) -> Option<f64> {
    let m = c - p;
    let b = m.dot(delta);
    let cc = m.norm2() - r * r;
    if cc <= 0.0 {
        return (b < 0.0).then_some(0.0);
    }
    if b >= 0.0 {
        return None;
    }
    let a = delta.norm2();
    let disc = b * b - a * cc;
    if disc < 0.0 || a <= 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / a;
    (t <= 1.0).then_some(t.max(0.0))
}

/// When a circle of radius `r` moving from `c` by `delta` first touches segment `s`.
#[inline]
fn sweep_segment(c: Vec2, r: f64, delta: Vec2, s: &Segment) -> Option<f64> {
    let e = s.b - s.a;
    let len2 = e.norm2();
    let mut best: Option<f64> = None;
    if len2 > 0.0 {
        // the side of the segment the circle is on
        let len = len2.sqrt();
        let mut n = Vec2::new(-e.y / len, e.x / len);
        let mut d0 = (c - s.a).dot(n);
        if d0 < 0.0 {
            n = n * -1.0;
            d0 = -d0;
        }
        let vn = delta.dot(n);
        if d0 <= r {
            // already touching the line: only the part of the segment beside us counts
            let u = (c - s.a).dot(e) / len2;
            if (0.0..=1.0).contains(&u) {
                return (vn < 0.0).then_some(0.0);
            }
        } else if vn < 0.0 {
            let t = (d0 - r) / -vn;
            if t <= 1.0 {
                let u = (c + delta * t - s.a).dot(e) / len2;
                if (0.0..=1.0).contains(&u) {
                    best = Some(t);
                }
            }
        }
    }
    for p in [s.a, s.b] {
        if let Some(t) = sweep_point(c, r, delta, p) {
            if best.is_none_or(|b| t < b) {
                best = Some(t);
            }
        }
    }
    best
}

/// The cells of the grid.
#[derive(Debug, Clone)]
pub struct GridGeom {
    origin: Vec2,
    cell: f64,
    inv_cell: f64,
    nx: usize,
    ny: usize,
}

impl GridGeom {
    /// The most cells a grid has (the cells grow instead): the index's arrays stay at a
    /// few MiB whatever the world's extent and `grid_cell`. The grid only speeds queries
    /// up; their answers do not depend on it.
    pub const MAX_CELLS: usize = 1 << 20;

    /// A grid of square cells of side `cell` (or larger, see [`GridGeom::MAX_CELLS`])
    /// covering [min, max].
    pub fn new(min: Vec2, max: Vec2, cell: f64) -> Self {
        let mut cell = if cell.is_finite() && cell > 0.05 {
            cell
        } else {
            1.0
        };
        let w = (max.x - min.x).max(cell);
        let h = (max.y - min.y).max(cell);
        let fit = |cell: f64| {
            let nx = ((w / cell).ceil() as usize).clamp(1, 4096);
            let ny = ((h / cell).ceil() as usize).clamp(1, 4096);
            (nx, ny)
        };
        let (mut nx, mut ny) = fit(cell);
        while nx * ny > Self::MAX_CELLS {
            cell = cell.max((w * h / Self::MAX_CELLS as f64).sqrt()) * 1.05;
            (nx, ny) = fit(cell);
        }
        let cell = (w / nx as f64).max(h / ny as f64).max(cell);
        Self {
            origin: min,
            cell,
            inv_cell: 1.0 / cell,
            nx,
            ny,
        }
    }
    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.nx * self.ny
    }
    #[inline]
    fn clamp_ix(&self, x: f64) -> usize {
        // truncation is floor for the non-negative values that are not clamped to 0
        let i = (x - self.origin.x) * self.inv_cell;
        if i > 0.0 {
            (i as usize).min(self.nx - 1)
        } else {
            0
        }
    }
    #[inline]
    fn clamp_iy(&self, y: f64) -> usize {
        let i = (y - self.origin.y) * self.inv_cell;
        if i > 0.0 {
            (i as usize).min(self.ny - 1)
        } else {
            0
        }
    }
    /// The (clamped) cell range covering a box.
    #[inline]
    pub fn range(&self, min: Vec2, max: Vec2) -> (usize, usize, usize, usize) {
        (
            self.clamp_ix(min.x),
            self.clamp_ix(max.x),
            self.clamp_iy(min.y),
            self.clamp_iy(max.y),
        )
    }
    fn cell_min(&self, ix: usize, iy: usize) -> Vec2 {
        Vec2::new(
            self.origin.x + ix as f64 * self.cell,
            self.origin.y + iy as f64 * self.cell,
        )
    }
    fn max(&self) -> Vec2 {
        Vec2::new(
            self.origin.x + self.nx as f64 * self.cell,
            self.origin.y + self.ny as f64 * self.cell,
        )
    }
}

/// Does the segment touch the axis-aligned box [lo, hi] (grown by `pad`)?
fn segment_touches_box(s: &Segment, lo: Vec2, hi: Vec2, pad: f64) -> bool {
    let lo = Vec2::new(lo.x - pad, lo.y - pad);
    let hi = Vec2::new(hi.x + pad, hi.y + pad);
    // Liang-Barsky clip
    let d = s.b - s.a;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-d.x, s.a.x - lo.x),
        (d.x, hi.x - s.a.x),
        (-d.y, s.a.y - lo.y),
        (d.y, hi.y - s.a.y),
    ] {
        if p.abs() < 1e-15 {
            if q < 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Compressed cell lists: `start[c]..start[c+1]` indexes `items`.
#[derive(Debug, Clone, Default)]
struct CellLists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl CellLists {
    #[inline]
    fn cell(&self, c: usize) -> &[u32] {
        match (self.start.get(c), self.start.get(c + 1)) {
            (Some(&a), Some(&b)) => self.items.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// The moving circles by cell, rebuilt as they move: each touched cell's list is
/// `items[start[c]..start[c] + len[c]]`. A rebuild costs what the circles cover, not the
/// grid's size: only the cells touched last time are reset.
#[derive(Debug, Clone)]
struct CircleCells {
    start: Vec<u32>,
    len: Vec<u32>,
    /// cells with a circle, as first met in the last rebuild
    touched: Vec<u32>,
    items: Vec<u32>,
}

impl CircleCells {
    fn new(cells: usize, circles: usize) -> Self {
        Self {
            start: vec![0; cells],
            len: vec![0; cells],
            touched: Vec::with_capacity(circles * 4),
            items: Vec::with_capacity(circles * 4),
        }
    }

    #[inline]
    fn cell(&self, c: usize) -> &[u32] {
        match (self.start.get(c), self.len.get(c)) {
            (Some(&a), Some(&n)) if n > 0 => {
                self.items.get(a as usize..(a + n) as usize).unwrap_or(&[])
            }
            _ => &[],
        }
    }

    /// Index `boxes` (circle index, its cells as `(x0, x1, y0, y1)`) on a grid `nx`
    /// cells wide; `worst` is the most (cell, circle) pairs any placement can make, so
    /// that the lists never grow once warmed up.
    fn rebuild(
        &mut self,
        nx: usize,
        boxes: impl Iterator<Item = (usize, (usize, usize, usize, usize))> + Clone,
        worst: usize,
    ) {
        for &c in &self.touched {
            self.len[c as usize] = 0;
        }
        self.touched.clear();
        if self.touched.capacity() < worst {
            self.touched.reserve(worst);
        }
        let cells = |(x0, x1, y0, y1): (usize, usize, usize, usize)| {
            (y0..=y1).flat_map(move |iy| (x0..=x1).map(move |ix| iy * nx + ix))
        };
        for (_, b) in boxes.clone() {
            for k in cells(b) {
                if self.len[k] == 0 {
                    self.touched.push(k as u32);
                }
                self.len[k] += 1;
            }
        }
        let mut acc = 0u32;
        for &c in &self.touched {
            self.start[c as usize] = acc;
            acc += std::mem::take(&mut self.len[c as usize]);
        }
        if self.items.capacity() < worst {
            self.items.reserve(worst - self.items.len());
        }
        self.items.clear();
        self.items.resize(acc as usize, 0);
        // the lengths count again as the lists fill
        for (i, b) in boxes {
            for k in cells(b) {
                self.items[(self.start[k] + self.len[k]) as usize] = i as u32;
                self.len[k] += 1;
            }
        }
    }
}

/// The cells each segment touches, as lists by cell: the (cell, segment) pairs found in
/// one pass, then placed by a counting sort (each cell's segments in index order).
fn segment_cells(geom: &GridGeom, segments: &[Segment]) -> CellLists {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
        let lo = Vec2::new(s.a.x.min(s.b.x), s.a.y.min(s.b.y));
        let hi = Vec2::new(s.a.x.max(s.b.x), s.a.y.max(s.b.y));
        let (x0, x1, y0, y1) = geom.range(lo, hi);
        for iy in y0..=y1 {
            for ix in x0..=x1 {
                let cmin = geom.cell_min(ix, iy);
                let cmax = cmin + Vec2::new(geom.cell, geom.cell);
                if segment_touches_box(s, cmin, cmax, 1e-9) {
                    pairs.push(((iy * geom.nx + ix) as u32, i as u32));
                }
            }
        }
    }
    let mut start = vec![0u32; geom.cells() + 1];
    for &(c, _) in &pairs {
        start[c as usize + 1] += 1;
    }
    for c in 0..geom.cells() {
        start[c + 1] += start[c];
    }
    let mut next = start.clone();
    let mut items = vec![0u32; pairs.len()];
    for (c, i) in pairs {
        let at = &mut next[c as usize];
        items[*at as usize] = i;
        *at += 1;
    }
    CellLists { start, items }
}

/// Everything rays and bodies can meet: static segments and moving circles.
#[derive(Debug, Clone)]
pub struct Space {
    geom: GridGeom,
    segments: Vec<Segment>,
    seg_cells: CellLists,
    circles: Vec<Circle>,
    /// circles taking part in sensing and contacts (a carried object does not)
    circle_solid: Vec<bool>,
    circ_cells: CircleCells,
}

/// What a circle touches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Contact {
    /// A wall; the point of contact.
    Wall(Vec2),
    /// Another circle (its index); the point of contact.
    Circle(usize, Vec2),
}

impl Space {
    /// A space over `segments`, with `n_circles` circles, on a grid covering `min..max`.
    pub fn new(segments: Vec<Segment>, n_circles: usize, min: Vec2, max: Vec2, cell: f64) -> Self {
        let geom = GridGeom::new(min, max, cell);
        let seg_cells = segment_cells(&geom, &segments);
        let ncells = geom.cells();
        Self {
            geom,
            segments,
            seg_cells,
            circles: vec![
                Circle {
                    c: Vec2::default(),
                    r: 0.0
                };
                n_circles
            ],
            circle_solid: vec![true; n_circles],
            circ_cells: CircleCells::new(ncells, n_circles),
        }
    }

    /// The wall segments.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The grid's corners.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        (self.geom.origin, self.geom.max())
    }

    /// Set circle `i` (call [`Space::index_circles`] after moving circles).
    #[inline]
    pub fn set_circle(&mut self, i: usize, c: Circle, solid: bool) {
        if let Some(slot) = self.circles.get_mut(i) {
            *slot = c;
        }
        if let Some(s) = self.circle_solid.get_mut(i) {
            *s = solid;
        }
    }

    /// Circle `i`.
    pub fn circle(&self, i: usize) -> Option<&Circle> {
        self.circles.get(i)
    }

    /// Rebuild the circle index (counting sort; no allocation once warmed up).
    pub fn index_circles(&mut self) {
        self.index_circles_with_margin(0.0);
    }

    /// Rebuild the circle index with every circle grown by `margin`, so that circles
    /// may move up to `margin` before the index must be rebuilt.
    pub fn index_circles_with_margin(&mut self, margin: f64) {
        let geom = &self.geom;
        let solid = &self.circle_solid;
        let boxes = self
            .circles
            .iter()
            .enumerate()
            .filter(|(i, _)| solid[*i])
            .map(|(i, c)| {
                let rr = c.r + margin;
                (
                    i,
                    geom.range(c.c - Vec2::new(rr, rr), c.c + Vec2::new(rr, rr)),
                )
            });
        // reserve for the worst case once, so that moving circles never grow the index
        let max_r = self.circles.iter().fold(0.0f64, |m, c| m.max(c.r)) + margin;
        let per = ((2.0 * max_r * geom.inv_cell).floor() as usize + 2).pow(2);
        let worst = self
            .circles
            .len()
            .saturating_mul(per)
            .min(self.circles.len() * geom.cells());
        self.circ_cells.rebuild(geom.nx, boxes, worst);
    }

    /// Distance from `p` along the unit vector `d` to the nearest wall or solid circle
    /// (other than circle `skip`), up to `max`. Returns `max` when nothing is hit.
    pub fn raycast(&self, p: Vec2, d: Vec2, max: f64, skip: usize, with_circles: bool) -> f64 {
        let g = &self.geom;
        let gmax = g.max();
        // reciprocal direction: the only divisions of the walk
        let inv = Vec2::new(
            if d.x.abs() < 1e-15 {
                f64::INFINITY
            } else {
                1.0 / d.x
            },
            if d.y.abs() < 1e-15 {
                f64::INFINITY
            } else {
                1.0 / d.y
            },
        );
        let inside = p.x >= g.origin.x && p.x < gmax.x && p.y >= g.origin.y && p.y < gmax.y;
        let mut t_leave = max;
        let start = if inside {
            p
        } else {
            // clip the ray to the grid box
            let mut t_enter = 0.0f64;
            for (o, dd, iv, lo, hi) in [
                (p.x, d.x, inv.x, g.origin.x, gmax.x),
                (p.y, d.y, inv.y, g.origin.y, gmax.y),
            ] {
                if dd.abs() < 1e-15 {
                    if o < lo || o > hi {
                        return max;
                    }
                } else {
                    let (a, b) = ((lo - o) * iv, (hi - o) * iv);
                    let (a, b) = if a < b { (a, b) } else { (b, a) };
                    t_enter = t_enter.max(a);
                    t_leave = t_leave.min(b);
                }
            }
            if t_enter > t_leave {
                return max;
            }
            p + d * t_enter
        };
        let mut ix = g.clamp_ix(start.x);
        let mut iy = g.clamp_iy(start.y);
        let step_x: isize = if d.x > 0.0 { 1 } else { -1 };
        let step_y: isize = if d.y > 0.0 { 1 } else { -1 };
        let bx = g.origin.x + (ix as f64 + if d.x > 0.0 { 1.0 } else { 0.0 }) * g.cell;
        let by = g.origin.y + (iy as f64 + if d.y > 0.0 { 1.0 } else { 0.0 }) * g.cell;
        let mut t_max_x = if inv.x.is_finite() {
            (bx - p.x) * inv.x
        } else {
            f64::INFINITY
        };
        let mut t_max_y = if inv.y.is_finite() {
            (by - p.y) * inv.y
        } else {
            f64::INFINITY
        };
        let t_dx = g.cell * inv.x.abs();
        let t_dy = g.cell * inv.y.abs();
        let mut best = max;
        loop {
            let k = iy * g.nx + ix;
            for &si in self.seg_cells.cell(k) {
                if let Some(s) = self.segments.get(si as usize) {
                    if let Some(t) = ray_segment_before(p, d, s, best) {
                        best = t;
                    }
                }
            }
            if with_circles {
                for &ci in self.circ_cells.cell(k) {
                    let ci = ci as usize;
                    if ci == skip {
                        continue;
                    }
                    if let Some(c) = self.circles.get(ci) {
                        if let Some(t) = ray_circle_before(p, d, c, best) {
                            if t < best {
                                best = t;
                            }
                        }
                    }
                }
            }
            let t_exit = t_max_x.min(t_max_y);
            if best <= t_exit || t_exit >= t_leave {
                break;
            }
            if t_max_x < t_max_y {
                let nx = ix as isize + step_x;
                if nx < 0 || nx >= g.nx as isize {
                    break;
                }
                ix = nx as usize;
                t_max_x += t_dx;
            } else {
                let ny = iy as isize + step_y;
                if ny < 0 || ny >= g.ny as isize {
                    break;
                }
                iy = ny as usize;
                t_max_y += t_dy;
            }
        }
        best
    }

    /// The deepest contact of a circle at `c` with radius `r`: walls, and solid circles
    /// other than `skip` whose index passes `filter`. Returns the contact and the overlap.
    pub fn contact(
        &self,
        c: Vec2,
        r: f64,
        skip: usize,
        filter: impl Fn(usize) -> bool,
    ) -> Option<(Contact, f64)> {
        let g = &self.geom;
        let (x0, x1, y0, y1) = g.range(c - Vec2::new(r, r), c + Vec2::new(r, r));
        let mut best: Option<(Contact, f64)> = None;
        for iy in y0..=y1 {
            for ix in x0..=x1 {
                let k = iy * g.nx + ix;
                for &si in self.seg_cells.cell(k) {
                    if let Some(s) = self.segments.get(si as usize) {
                        let q = s.closest_point(c);
                        let depth = r - q.dist(c);
                        if depth > 0.0 && best.is_none_or(|(_, d)| depth > d) {
                            best = Some((Contact::Wall(q), depth));
                        }
                    }
                }
                for &ci in self.circ_cells.cell(k) {
                    let ci = ci as usize;
                    if ci == skip || !filter(ci) {
                        continue;
                    }
                    if let Some(o) = self.circles.get(ci) {
                        let dist = o.c.dist(c);
                        let depth = r + o.r - dist;
                        if depth > 0.0 && best.is_none_or(|(_, d)| depth > d) {
                            let dir = if dist > 1e-12 {
                                (o.c - c) * (1.0 / dist)
                            } else {
                                Vec2::new(1.0, 0.0)
                            };
                            best = Some((Contact::Circle(ci, c + dir * r), depth));
                        }
                    }
                }
            }
        }
        best
    }

    /// Sweep a circle of radius `r` from `c` by `delta`: the largest fraction of the move
    /// (0..1) before it touches a wall or a solid circle other than `skip`, with what it
    /// touches; `None` if the whole move is free. Contacts the circle is already in only
    /// stop it when it moves further into them.
    pub fn sweep(&self, c: Vec2, r: f64, delta: Vec2, skip: usize) -> Option<(f64, Contact)> {
        let g = &self.geom;
        let end = c + delta;
        let lo = Vec2::new(c.x.min(end.x) - r, c.y.min(end.y) - r);
        let hi = Vec2::new(c.x.max(end.x) + r, c.y.max(end.y) + r);
        let (x0, x1, y0, y1) = g.range(lo, hi);
        let mid = c + delta * 0.5;
        let reach = delta.norm() * 0.5 + r;
        let mut best: Option<(f64, Contact)> = None;
        let mut consider = |t: f64, contact: Contact| {
            if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
                best = Some((t, contact));
            }
        };
        for iy in y0..=y1 {
            for ix in x0..=x1 {
                let k = iy * g.nx + ix;
                for &si in self.seg_cells.cell(k) {
                    let Some(s) = self.segments.get(si as usize) else {
                        continue;
                    };
                    if let Some(t) = sweep_segment(c, r, delta, s) {
                        let p = c + delta * t;
                        consider(t, Contact::Wall(s.closest_point(p)));
                    }
                }
                for &ci in self.circ_cells.cell(k) {
                    let ci = ci as usize;
                    if ci == skip {
                        continue;
                    }
                    let Some(o) = self.circles.get(ci) else {
                        continue;
                    };
                    let near = reach + o.r;
                    if (o.c - mid).norm2() > near * near {
                        continue;
                    }
                    if let Some(t) = sweep_point(c, r + o.r, delta, o.c) {
                        let p = c + delta * t;
                        let dir = o.c - p;
                        let len = dir.norm().max(1e-12);
                        consider(t, Contact::Circle(ci, p + dir * (r / len)));
                    }
                }
            }
        }
        best
    }

    /// Is the straight line from `a` to `b` free of walls?
    pub fn line_of_sight(&self, a: Vec2, b: Vec2) -> bool {
        let d = b - a;
        let len = d.norm();
        if len < 1e-9 {
            return true;
        }
        self.raycast(a, d * (1.0 / len), len, usize::MAX, false) >= len - 1e-9
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_room(half: f64) -> Vec<Segment> {
        let c = [
            Vec2::new(-half, -half),
            Vec2::new(half, -half),
            Vec2::new(half, half),
            Vec2::new(-half, half),
        ];
        (0..4)
            .map(|i| Segment {
                a: c[i],
                b: c[(i + 1) % 4],
            })
            .collect()
    }

    /// A 10 km room with 0.1 m cells asked for would be 10^10 cells (4096 x 4096, 600
    /// MiB of index, before the cap); the cells grow instead, and the rays still hit.
    #[test]
    fn a_huge_world_keeps_its_grid_small_and_its_answers() {
        let (lo, hi) = (Vec2::new(-5001.0, -5001.0), Vec2::new(5001.0, 5001.0));
        let s = Space::new(square_room(5000.0), 0, lo, hi, 0.1);
        assert!(s.geom.cells() <= GridGeom::MAX_CELLS, "{}", s.geom.cells());
        let (a, b) = s.bounds();
        assert!(a.x <= lo.x && a.y <= lo.y && b.x >= hi.x && b.y >= hi.y);
        let p = Vec2::new(1.0, 2.0);
        assert!((s.raycast(p, Vec2::new(1.0, 0.0), 1e4, 0, true) - 4999.0).abs() < 1e-6);
        assert!((s.raycast(p, Vec2::new(0.0, -1.0), 1e4, 0, true) - 5002.0).abs() < 1e-6);
        // a long thin world too
        let g = GridGeom::new(Vec2::new(0.0, 0.0), Vec2::new(1e7, 0.5), 0.06);
        assert!(g.cells() <= GridGeom::MAX_CELLS && g.max().x >= 1e7);
    }

    /// The grid only narrows the search: rays through a clutter of random walls and
    /// circles, on grids of fine and coarse cells covering every wall (as a world's grid
    /// does), hit what a test of every wall and circle hits, however often the circles
    /// move and are indexed again (with and without a margin).
    #[test]
    fn rays_on_the_grid_hit_what_every_wall_and_circle_tested_hits() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let pt = |r: &mut rand_chacha::ChaCha8Rng| {
            Vec2::new(r.random_range(-20.0..20.0), r.random_range(-20.0..20.0))
        };
        let walls: Vec<Segment> = (0..200)
            .map(|_| {
                let a = pt(&mut rng);
                let b =
                    a + Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(0.0..8.0);
                Segment { a, b }
            })
            .collect();
        let n = 30;
        for cell in [0.25, 1.0, 7.0] {
            let (lo, hi) = (Vec2::new(-29.0, -29.0), Vec2::new(29.0, 29.0));
            let mut s = Space::new(walls.clone(), n, lo, hi, cell);
            for round in 0..6 {
                let circles: Vec<(Circle, bool)> = (0..n)
                    .map(|_| {
                        let c = Circle {
                            c: pt(&mut rng),
                            r: rng.random_range(0.1..2.0),
                        };
                        (c, rng.random_bool(0.8))
                    })
                    .collect();
                for (i, (c, solid)) in circles.iter().enumerate() {
                    s.set_circle(i, *c, *solid);
                }
                s.index_circles_with_margin(if round % 2 == 0 { 0.0 } else { 0.5 });
                for _ in 0..200 {
                    let (p, d) = (pt(&mut rng), Vec2::from_angle(rng.random_range(0.0..6.3)));
                    let skip = rng.random_range(0..n);
                    let every = walls
                        .iter()
                        .filter_map(|w| ray_segment(p, d, w))
                        .chain(circles.iter().enumerate().filter_map(|(i, (c, solid))| {
                            (*solid && i != skip).then(|| ray_circle(p, d, c)).flatten()
                        }))
                        .fold(30.0f64, f64::min);
                    let grid = s.raycast(p, d, 30.0, skip, true);
                    assert!(
                        (grid - every).abs() < 1e-9,
                        "cell {cell}, round {round}: {grid} against {every}"
                    );
                }
            }
        }
    }

    #[test]
    fn rays_hit_walls_at_the_right_distance() {
        let s = Space::new(
            square_room(5.0),
            0,
            Vec2::new(-6.0, -6.0),
            Vec2::new(6.0, 6.0),
            1.0,
        );
        let p = Vec2::new(1.0, 2.0);
        assert!((s.raycast(p, Vec2::new(1.0, 0.0), 20.0, 0, true) - 4.0).abs() < 1e-9);
        assert!((s.raycast(p, Vec2::new(-1.0, 0.0), 20.0, 0, true) - 6.0).abs() < 1e-9);
        assert!((s.raycast(p, Vec2::new(0.0, 1.0), 20.0, 0, true) - 3.0).abs() < 1e-9);
        let diag = Vec2::from_angle(std::f64::consts::FRAC_PI_4);
        assert!((s.raycast(Vec2::default(), diag, 20.0, 0, true) - 5.0 * 2f64.sqrt()).abs() < 1e-9);
        // capped at max
        assert_eq!(s.raycast(p, Vec2::new(1.0, 0.0), 2.5, 0, true), 2.5);
    }

    #[test]
    fn rays_see_circles_but_not_the_skipped_one() {
        let mut s = Space::new(
            square_room(5.0),
            2,
            Vec2::new(-6.0, -6.0),
            Vec2::new(6.0, 6.0),
            1.0,
        );
        s.set_circle(
            0,
            Circle {
                c: Vec2::new(0.0, 0.0),
                r: 0.25,
            },
            true,
        );
        s.set_circle(
            1,
            Circle {
                c: Vec2::new(2.0, 0.0),
                r: 0.25,
            },
            true,
        );
        s.index_circles();
        let d = Vec2::new(1.0, 0.0);
        assert!((s.raycast(Vec2::new(0.0, 0.0), d, 20.0, 0, true) - 1.75).abs() < 1e-9);
        assert!((s.raycast(Vec2::new(0.0, 0.0), d, 20.0, 0, false) - 5.0).abs() < 1e-9);
        assert!((s.raycast(Vec2::new(-3.0, 0.0), d, 20.0, usize::MAX, true) - 2.75).abs() < 1e-9);
    }

    #[test]
    fn contacts_report_depth() {
        let mut s = Space::new(
            square_room(5.0),
            1,
            Vec2::new(-6.0, -6.0),
            Vec2::new(6.0, 6.0),
            1.0,
        );
        s.set_circle(
            0,
            Circle {
                c: Vec2::new(0.0, 0.0),
                r: 0.25,
            },
            true,
        );
        s.index_circles();
        let (c, depth) = s
            .contact(Vec2::new(4.9, 0.0), 0.25, usize::MAX, |_| true)
            .unwrap();
        assert!(matches!(c, Contact::Wall(p) if (p.x - 5.0).abs() < 1e-9));
        assert!((depth - 0.15).abs() < 1e-9);
        assert!(s
            .contact(Vec2::new(0.3, 0.0), 0.1, usize::MAX, |_| true)
            .is_some());
        assert!(s
            .contact(Vec2::new(2.0, 2.0), 0.25, usize::MAX, |_| true)
            .is_none());
        assert!(s.line_of_sight(Vec2::new(0.0, 0.0), Vec2::new(4.0, 4.0)));
        // sweeping toward the wall at x = 5 stops 0.25 short of it
        let (t, c) = s
            .sweep(Vec2::new(4.0, 0.0), 0.25, Vec2::new(1.0, 0.0), usize::MAX)
            .unwrap();
        assert!(
            (t - 0.75).abs() < 1e-12 && matches!(c, Contact::Wall(p) if (p.x - 5.0).abs() < 1e-12)
        );
        // toward the circle at the origin, from (1, 0): stops at 0.5 from its centre
        let (t, c) = s
            .sweep(Vec2::new(1.0, 0.0), 0.25, Vec2::new(-1.0, 0.0), usize::MAX)
            .unwrap();
        assert!((t - 0.5).abs() < 1e-12 && matches!(c, Contact::Circle(0, _)));
        // away from it: free; past a wall's end: free
        assert!(s
            .sweep(Vec2::new(1.0, 0.0), 0.25, Vec2::new(1.0, 0.0), usize::MAX)
            .is_none());
        // already touching and moving further in: zero
        let (t, _) = s
            .sweep(Vec2::new(4.8, 0.0), 0.25, Vec2::new(0.1, 0.0), usize::MAX)
            .unwrap();
        assert_eq!(t, 0.0);
        // sliding along a wall that it touches is free
        assert!(s
            .sweep(Vec2::new(4.75, 0.0), 0.25, Vec2::new(0.0, 0.5), usize::MAX)
            .is_none());
        assert!(!s.line_of_sight(Vec2::new(0.0, 0.0), Vec2::new(7.0, 0.0)));
    }
}
