//! The report's plots, drawn as SVG with `plotters`: the map with the tracks, time
//! series (speed, heading), the depth and altitude profile, and the behavior timeline.
//!
//! Each kind of thing has its own colour (see the `style` constants), so a reader — and
//! the tests — can tell walls from tracks from capture circles in the SVG.

use super::lanes::{Lane, Source};
use super::series::{Bound, EnvelopeBound, Waypoint};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Colours of the things drawn (robots use [`ROBOT_COLORS`]).
pub mod style {
    use plotters::style::RGBColor;
    /// Walls and the world's outline.
    pub const WALL: RGBColor = RGBColor(0x30, 0x30, 0x30);
    /// Goals named in the world file.
    pub const GOAL: RGBColor = RGBColor(0x00, 0x64, 0x00);
    /// Landmarks of the world file.
    pub const LANDMARK: RGBColor = RGBColor(0x8B, 0x45, 0x13);
    /// Waypoints found in the controllers' states and events.
    pub const WAYPOINT: RGBColor = RGBColor(0xC7, 0x15, 0x85);
    /// Capture circles.
    pub const CAPTURE: RGBColor = RGBColor(0xDB, 0x70, 0x93);
    /// Coastline.
    pub const COAST: RGBColor = RGBColor(0x46, 0x82, 0xB4);
    /// Depth and altitude envelopes.
    pub const ENVELOPE: RGBColor = RGBColor(0xFF, 0x8C, 0x00);
    /// The seafloor under an AUV.
    pub const SEAFLOOR: RGBColor = RGBColor(0xA0, 0x52, 0x2D);
    /// Balls and cans: amber with a dark rim, a colour no robot's track has.
    pub const OBJECT: RGBColor = RGBColor(0xFF, 0xC1, 0x07);
    /// The rim of a ball or can, and its name.
    pub const OBJECT_RIM: RGBColor = RGBColor(0x3A, 0x2E, 0x00);
    /// Map points (`.map` files' scan points).
    pub const POINT: RGBColor = RGBColor(0x90, 0x90, 0x90);
    /// Event marks on the timeline.
    pub const MARK: RGBColor = RGBColor(0xB2, 0x22, 0x22);
}

/// One colour per robot, in turn (Tableau 10, without its grey).
pub const ROBOT_COLORS: [RGBColor; 9] = [
    RGBColor(0x1F, 0x77, 0xB4),
    RGBColor(0xFF, 0x7F, 0x0E),
    RGBColor(0x2C, 0xA0, 0x2C),
    RGBColor(0xD6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xBD),
    RGBColor(0x8C, 0x56, 0x4B),
    RGBColor(0xE3, 0x77, 0xC2),
    RGBColor(0xBC, 0xBD, 0x22),
    RGBColor(0x17, 0xBE, 0xCF),
];

/// The colour of robot `i`.
pub fn robot_color(i: usize) -> RGBColor {
    ROBOT_COLORS[i % ROBOT_COLORS.len()]
}

/// `#RRGGBB`, as the SVG has it.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// Legends are drawn for at most this many robots.
const MAX_LEGEND: usize = 12;
/// The timeline shows at most this many lanes.
pub const MAX_LANES: usize = 80;

type Res<T> = Result<T, String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// A robot's track, for the map.
pub struct TrackLine {
    /// Robot index.
    pub robot: usize,
    /// Its name.
    pub name: String,
    /// Points (m), thinned.
    pub points: Vec<(f64, f64)>,
}

/// What the map shows.
pub struct MapData<'a> {
    /// Its caption.
    pub title: &'a str,
    /// `[x1, y1, x2, y2]` each.
    pub walls: &'a [[f64; 4]],
    /// Coastline polylines.
    pub coast: &'a [Vec<(f64, f64)>],
    /// Named goals and found waypoints.
    pub waypoints: &'a [Waypoint],
    /// Landmarks: name, x, y.
    pub landmarks: &'a [(String, f64, f64)],
    /// Movable objects (balls, cans) where they start: kind, x, y.
    pub objects: &'a [(String, f64, f64)],
    /// Scan points of a `.map`.
    pub points: &'a [(f64, f64)],
    /// The tracks.
    pub tracks: &'a [TrackLine],
    /// The world's bounds, if known.
    pub bounds: Option<[f64; 4]>,
}

fn grow(b: &mut [f64; 4], x: f64, y: f64) {
    if x.is_finite() && y.is_finite() {
        b[0] = b[0].min(x);
        b[1] = b[1].min(y);
        b[2] = b[2].max(x);
        b[3] = b[3].max(y);
    }
}

fn extent(d: &MapData<'_>) -> [f64; 4] {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    if let Some(w) = d.bounds {
        grow(&mut b, w[0], w[1]);
        grow(&mut b, w[2], w[3]);
    }
    for w in d.walls {
        grow(&mut b, w[0], w[1]);
        grow(&mut b, w[2], w[3]);
    }
    for t in d.tracks {
        for &(x, y) in &t.points {
            grow(&mut b, x, y);
        }
    }
    for &(_, x, y) in d.objects {
        grow(&mut b, x, y);
    }
    for w in d.waypoints {
        let r = w.radius.unwrap_or(0.0);
        grow(&mut b, w.x - r, w.y - r);
        grow(&mut b, w.x + r, w.y + r);
    }
    if !b[0].is_finite() {
        // nothing but a coastline (or nothing at all)
        for l in d.coast {
            for &(x, y) in l {
                grow(&mut b, x, y);
            }
        }
    } else {
        // a coastline can run for tens of km: show the stretch nearest the tracks, when it
        // is near enough to matter
        let (cx, cy) = ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
        let span = (b[2] - b[0]).max(b[3] - b[1]);
        let nearest = d
            .coast
            .iter()
            .flat_map(|l| l.windows(2))
            .filter_map(|w| match w {
                [p, q] => Some(closest_on_segment((cx, cy), *p, *q)),
                _ => None,
            })
            .min_by(|a, b| {
                let da = (a.0 - cx).hypot(a.1 - cy);
                let db = (b.0 - cx).hypot(b.1 - cy);
                da.total_cmp(&db)
            });
        if let Some((x, y)) = nearest {
            if (x - cx).hypot(y - cy) <= 5.0 * span + 1000.0 {
                grow(&mut b, x, y);
            }
        }
    }
    if !b[0].is_finite() {
        return [-1.0, -1.0, 1.0, 1.0];
    }
    let pad = ((b[2] - b[0]).max(b[3] - b[1]) * 0.03).max(0.5);
    [b[0] - pad, b[1] - pad, b[2] + pad, b[3] + pad]
}

/// The parts of a polyline inside the rectangle `[x0, y0, x1, y1]` (Liang-Barsky on each
/// segment), so a long coastline is drawn where it is, not squashed onto the border.
fn clip_polyline(l: &[(f64, f64)], r: [f64; 4]) -> Vec<Vec<(f64, f64)>> {
    let mut parts: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for w in l.windows(2) {
        let [p, q] = w else { continue };
        match clip_segment(*p, *q, r) {
            Some((a, b)) => {
                if cur.last() != Some(&a) {
                    if cur.len() >= 2 {
                        parts.push(std::mem::take(&mut cur));
                    }
                    cur.clear();
                    cur.push(a);
                }
                cur.push(b);
            }
            None => {
                if cur.len() >= 2 {
                    parts.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
        }
    }
    if cur.len() >= 2 {
        parts.push(cur);
    }
    parts
}

fn clip_segment(p: (f64, f64), q: (f64, f64), r: [f64; 4]) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (pk, qk) in [
        (-dx, p.0 - r[0]),
        (dx, r[2] - p.0),
        (-dy, p.1 - r[1]),
        (dy, r[3] - p.1),
    ] {
        if pk == 0.0 {
            if qk < 0.0 {
                return None;
            }
        } else {
            let t = qk / pk;
            if pk < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t0 <= t1 && t0.is_finite() && t1.is_finite()).then_some((
        (p.0 + t0 * dx, p.1 + t0 * dy),
        (p.0 + t1 * dx, p.1 + t1 * dy),
    ))
}

/// The point of segment `p`-`q` nearest to `c`.
fn closest_on_segment(c: (f64, f64), p: (f64, f64), q: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len2 = dx * dx + dy * dy;
    if len2 <= 0.0 || !len2.is_finite() {
        return p;
    }
    let k = (((c.0 - p.0) * dx + (c.1 - p.1) * dy) / len2).clamp(0.0, 1.0);
    (p.0 + k * dx, p.1 + k * dy)
}

const MAP_W: u32 = 900;

fn map_chart_builder<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    title: &str,
) -> ChartBuilder<'a, 'a, SVGBackend<'b>> {
    let mut b = ChartBuilder::on(area);
    b.margin(15)
        .caption(title, ("sans-serif", 18))
        .x_label_area_size(35)
        .y_label_area_size(50);
    b
}

/// The map: walls, coastline, goals and waypoints with their capture circles, landmarks
/// and each robot's track (start: hollow circle; end: filled circle).
pub fn map_svg(d: &MapData<'_>) -> Res<String> {
    let [mut x0, mut y0, mut x1, mut y1] = extent(d);
    // measure the plotting area on a scratch chart, then pick ranges with equal scales
    let (pw, ph_for_h) = {
        let mut scratch = String::new();
        let area = SVGBackend::with_string(&mut scratch, (MAP_W, 600)).into_drawing_area();
        let chart = map_chart_builder(&area, d.title)
            .build_cartesian_2d(0.0..1.0, 0.0..1.0)
            .map_err(err)?;
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        (
            f64::from(xr.end - xr.start),
            600.0 - f64::from(yr.end - yr.start),
        )
    };
    let scale = pw / (x1 - x0);
    let mut ph = (y1 - y0) * scale;
    let ph_max = 700.0;
    if ph > ph_max {
        // too tall: widen x so the scales stay equal
        let s = ph_max / (y1 - y0);
        let grow = pw / s - (x1 - x0);
        x0 -= grow / 2.0;
        x1 += grow / 2.0;
        ph = ph_max;
    } else if ph < 200.0 {
        let grow = 200.0 / scale - (y1 - y0);
        y0 -= grow / 2.0;
        y1 += grow / 2.0;
        ph = 200.0;
    }
    let height = (ph + ph_for_h).round().max(100.0) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (MAP_W, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = map_chart_builder(&root, d.title)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("x (m)")
            .y_desc("y (m)")
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .draw()
            .map_err(err)?;
        let (xr, _) = chart.plotting_area().get_pixel_range();
        let px_per_m = f64::from(xr.end - xr.start) / (x1 - x0);

        chart
            .draw_series(
                d.points
                    .iter()
                    .take(20_000)
                    .map(|&(x, y)| Circle::new((x, y), 1, style::POINT.filled())),
            )
            .map_err(err)?;
        chart
            .draw_series(d.walls.iter().map(|w| {
                PathElement::new(
                    vec![(w[0], w[1]), (w[2], w[3])],
                    style::WALL.stroke_width(2),
                )
            }))
            .map_err(err)?;
        let view = [x0, y0, x1, y1];
        chart
            .draw_series(
                d.coast
                    .iter()
                    .flat_map(|l| clip_polyline(l, view))
                    .map(|part| PathElement::new(part, style::COAST.stroke_width(2))),
            )
            .map_err(err)?;
        for w in d.waypoints {
            let color = if w.from_world {
                style::GOAL
            } else {
                style::WAYPOINT
            };
            if let Some(r) = w.radius {
                let px = (r * px_per_m).round().max(1.0) as i32;
                chart
                    .draw_series(std::iter::once(Circle::new(
                        (w.x, w.y),
                        px,
                        style::CAPTURE.stroke_width(1),
                    )))
                    .map_err(err)?;
            }
            chart
                .draw_series(std::iter::once(Cross::new(
                    (w.x, w.y),
                    5,
                    color.stroke_width(2),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    w.label.clone(),
                    (w.x, w.y),
                    ("sans-serif", 12).into_font().color(&color),
                )))
                .map_err(err)?;
        }
        // landmarks (triangles) and balls and cans (dots), each with its name
        let marks = d
            .landmarks
            .iter()
            .map(|m| (m, style::LANDMARK))
            .chain(d.objects.iter().map(|m| (m, style::OBJECT)));
        for ((name, x, y), color) in marks {
            let at = (*x, *y);
            if color == style::LANDMARK {
                chart
                    .draw_series(std::iter::once(TriangleMarker::new(at, 5, color.filled())))
                    .map_err(err)?;
            } else {
                let rim = Circle::new(at, 5, style::OBJECT_RIM.filled());
                let ball = Circle::new(at, 4, color.filled());
                chart.draw_series([rim, ball]).map_err(err)?;
            }
            let label = if color == style::OBJECT {
                style::OBJECT_RIM
            } else {
                color
            };
            chart
                .draw_series(std::iter::once(Text::new(
                    name.clone(),
                    at,
                    ("sans-serif", 11).into_font().color(&label),
                )))
                .map_err(err)?;
        }
        let legend = d.tracks.len() <= MAX_LEGEND;
        for t in d.tracks {
            let c = robot_color(t.robot);
            let s = chart
                .draw_series(LineSeries::new(t.points.iter().copied(), c.stroke_width(2)))
                .map_err(err)?;
            if legend {
                s.label(t.name.clone()).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                });
            }
            if let (Some(&a), Some(&b)) = (t.points.first(), t.points.last()) {
                chart
                    .draw_series([
                        Circle::new(a, 4, c.stroke_width(2)),
                        Circle::new(b, 4, c.filled()),
                    ])
                    .map_err(err)?;
            }
        }
        if legend && !d.tracks.is_empty() {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.3))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One robot's line in a time plot, in parts (split where it wraps or has no data).
pub struct TimeLine {
    /// Robot index (its colour).
    pub robot: usize,
    /// Its name, for the legend.
    pub name: String,
    /// The parts.
    pub parts: Vec<Vec<(f64, f64)>>,
}

/// A time plot: one line per robot.
pub struct TimePlot<'a> {
    /// Caption.
    pub title: &'a str,
    /// What the y axis shows, with its unit.
    pub y_desc: &'a str,
    /// The lines.
    pub lines: &'a [TimeLine],
    /// The x range (s).
    pub t_end: f64,
    /// Fixed y range, else from the data.
    pub y_range: Option<(f64, f64)>,
}

fn data_range(lines: &[TimeLine]) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for l in lines {
        for p in &l.parts {
            for &(_, v) in p {
                if v.is_finite() {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-6 {
        return (lo - 0.5, hi + 0.5);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

/// A time plot: speed, heading, ...
pub fn time_svg(p: &TimePlot<'_>) -> Res<String> {
    let (lo, hi) = p.y_range.unwrap_or_else(|| data_range(p.lines));
    let t_end = p.t_end.max(1e-3);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (MAP_W, 300)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(15)
            .caption(p.title, ("sans-serif", 18))
            .x_label_area_size(35)
            .y_label_area_size(55)
            .build_cartesian_2d(0.0..t_end, lo..hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc(p.y_desc)
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .draw()
            .map_err(err)?;
        let legend = p.lines.len() <= MAX_LEGEND && !p.lines.is_empty();
        for l in p.lines {
            let c = robot_color(l.robot);
            for (k, part) in l.parts.iter().enumerate() {
                let s = chart
                    .draw_series(LineSeries::new(part.iter().copied(), c.stroke_width(1)))
                    .map_err(err)?;
                if legend && k == 0 {
                    s.label(l.name.clone()).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                    });
                }
            }
        }
        if legend {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.3))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One AUV's profile: depth, the seafloor under it, and its envelopes.
pub struct Profile {
    /// Robot index.
    pub robot: usize,
    /// Name.
    pub name: String,
    /// Depth over time (m, positive down).
    pub depth: Vec<(f64, f64)>,
    /// Seafloor depth (depth + altitude) where the altitude was valid.
    pub seafloor: Vec<(f64, f64)>,
    /// Envelope bounds.
    pub envelopes: Vec<EnvelopeBound>,
}

/// The depth and altitude profile of underwater vehicles: depth downward, the seafloor
/// (depth + altitude) under it, depth envelopes as dashed lines, altitude envelopes as
/// dashed lines above the seafloor.
pub fn profile_svg(profiles: &[Profile], t_end: f64) -> Res<String> {
    let mut deepest: f64 = 1.0;
    for p in profiles {
        for &(_, d) in p.depth.iter().chain(&p.seafloor) {
            if d.is_finite() {
                deepest = deepest.max(d);
            }
        }
        for e in &p.envelopes {
            if e.bound.is_depth() {
                deepest = deepest.max(e.value);
            }
        }
    }
    let bottom = -(deepest * 1.08);
    let t_end = t_end.max(1e-3);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (MAP_W, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(15)
            .caption("Depth and altitude", ("sans-serif", 18))
            .x_label_area_size(35)
            .y_label_area_size(55)
            .build_cartesian_2d(0.0..t_end, bottom..(deepest * 0.04))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc("depth (m)")
            .y_label_formatter(&|v| format!("{:.0}", -v + 0.0))
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .draw()
            .map_err(err)?;
        let neg = |s: &[(f64, f64)]| s.iter().map(|&(t, d)| (t, -d)).collect::<Vec<_>>();
        for p in profiles {
            let c = robot_color(p.robot);
            if !p.seafloor.is_empty() {
                chart
                    .draw_series(LineSeries::new(
                        neg(&p.seafloor),
                        style::SEAFLOOR.stroke_width(2),
                    ))
                    .map_err(err)?
                    .label(format!("{} seafloor", p.name))
                    .legend(|(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], style::SEAFLOOR.stroke_width(2))
                    });
            }
            chart
                .draw_series(LineSeries::new(neg(&p.depth), c.stroke_width(2)))
                .map_err(err)?
                .label(format!("{} depth", p.name))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                });
            for e in &p.envelopes {
                let line: Vec<(f64, f64)> = if e.bound.is_depth() {
                    vec![(e.t0, -e.value), (e.t1, -e.value)]
                } else {
                    // an altitude bound is a depth limit that follows the seafloor
                    p.seafloor
                        .iter()
                        .filter(|(t, _)| *t >= e.t0 && *t <= e.t1)
                        .map(|&(t, floor)| (t, -(floor - e.value)))
                        .collect()
                };
                if line.len() < 2 {
                    continue;
                }
                chart
                    .draw_series(DashedLineSeries::new(
                        line,
                        6,
                        4,
                        style::ENVELOPE.stroke_width(2),
                    ))
                    .map_err(err)?;
                let at = if e.bound.is_depth() {
                    (e.t0, -e.value)
                } else {
                    (e.t0, bottom * 0.98)
                };
                let text = match e.bound {
                    Bound::MinDepth | Bound::MaxDepth => {
                        format!("{} {} m", e.bound.name(), e.value)
                    }
                    _ => format!("{} {} m", e.bound.name(), e.value),
                };
                chart
                    .draw_series(std::iter::once(Text::new(
                        text,
                        at,
                        ("sans-serif", 11).into_font().color(&style::ENVELOPE),
                    )))
                    .map_err(err)?;
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .position(SeriesLabelPosition::LowerLeft)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A colour for a value, the same every time.
fn value_color(v: &str) -> RGBColor {
    const PASTEL: [RGBColor; 12] = [
        RGBColor(0xAE, 0xC7, 0xE8),
        RGBColor(0xFF, 0xBB, 0x78),
        RGBColor(0x98, 0xDF, 0x8A),
        RGBColor(0xFF, 0x98, 0x96),
        RGBColor(0xC5, 0xB0, 0xD5),
        RGBColor(0xC4, 0x9C, 0x94),
        RGBColor(0xF7, 0xB6, 0xD2),
        RGBColor(0xDB, 0xDB, 0x8D),
        RGBColor(0x9E, 0xDA, 0xE5),
        RGBColor(0xD9, 0xD9, 0xD9),
        RGBColor(0xBC, 0xE4, 0xB5),
        RGBColor(0xFD, 0xD0, 0xA2),
    ];
    // FNV-1a: stable across runs and builds
    let h = v.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    PASTEL[(h % PASTEL.len() as u64) as usize]
}

const LANE_H: u32 = 22;
const LABEL_W: u32 = 260;

/// The behavior timeline: one row per lane, a coloured box per value (labelled where it
/// fits), a tick per event.
pub fn timeline_svg(lanes: &[Lane], names: &[String], t_end: f64) -> Res<String> {
    let shown = &lanes[..lanes.len().min(MAX_LANES)];
    let n = shown.len().max(1);
    let height = 90 + LANE_H * n as u32;
    let t_end = t_end.max(1e-3);
    let multi = names.len() > 1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (MAP_W + 100, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(15)
            .caption("Behavior timeline", ("sans-serif", 18))
            .x_label_area_size(35)
            .y_label_area_size(LABEL_W)
            .build_cartesian_2d(0.0..t_end, 0.0..n as f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .disable_y_mesh()
            .y_labels(0)
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .draw()
            .map_err(err)?;
        let (xr, _) = chart.plotting_area().get_pixel_range();
        let px_per_s = f64::from(xr.end - xr.start) / t_end;
        for (k, lane) in shown.iter().enumerate() {
            // lane 0 at the top
            let y0 = (n - 1 - k) as f64;
            let label = if multi {
                format!(
                    "{} · {}",
                    names.get(lane.robot).map_or("?", String::as_str),
                    lane.label
                )
            } else {
                lane.label.clone()
            };
            let label: String = if label.chars().count() > 40 {
                let tail: String = label
                    .chars()
                    .rev()
                    .take(39)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                format!("…{tail}")
            } else {
                label
            };
            let (lx, ly) = chart.backend_coord(&(0.0, y0 + 0.5));
            let weight = if lane.source == Source::Events {
                FontStyle::Italic
            } else {
                FontStyle::Normal
            };
            root.draw(&Text::new(
                label,
                (lx - LABEL_W as i32 + 5, ly - 6),
                ("sans-serif", 12).into_font().style(weight).color(&BLACK),
            ))
            .map_err(err)?;
            for s in &lane.segments {
                let c = value_color(&s.value);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(s.t0, y0 + 0.12), (s.t1.max(s.t0), y0 + 0.88)],
                        c.filled(),
                    )))
                    .map_err(err)?;
                let w = (s.t1 - s.t0) * px_per_s;
                let chars = s.value.chars().count() as f64;
                if w > chars * 6.5 + 6.0 {
                    chart
                        .draw_series(std::iter::once(Text::new(
                            s.value.clone(),
                            (s.t0, y0 + 0.78),
                            ("sans-serif", 11).into_font().color(&BLACK),
                        )))
                        .map_err(err)?;
                }
            }
            chart
                .draw_series(lane.marks.iter().map(|m| {
                    PathElement::new(
                        vec![(m.t, y0 + 0.1), (m.t, y0 + 0.9)],
                        style::MARK.stroke_width(2),
                    )
                }))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coastlines_are_clipped_to_the_map() {
        let r = [0.0, 0.0, 10.0, 10.0];
        // crosses the map: one part, cut at the border
        let parts = clip_polyline(&[(-5.0, 5.0), (15.0, 5.0)], r);
        assert_eq!(parts, vec![vec![(0.0, 5.0), (10.0, 5.0)]]);
        // wholly outside: nothing
        assert!(clip_polyline(&[(20.0, -50.0), (20.0, 50.0)], r).is_empty());
        // leaves and comes back: two parts
        let parts = clip_polyline(&[(1.0, 1.0), (1.0, 20.0), (5.0, 20.0), (5.0, 1.0)], r);
        assert_eq!(parts.len(), 2);
    }

    #[test]
    fn colours_are_stable_and_distinct_from_the_map_styles() {
        assert_eq!(value_color("active"), value_color("active"));
        for c in ROBOT_COLORS {
            for s in [
                style::WALL,
                style::GOAL,
                style::WAYPOINT,
                style::CAPTURE,
                style::COAST,
                style::LANDMARK,
                style::ENVELOPE,
                style::SEAFLOOR,
            ] {
                assert_ne!(hex(c), hex(s));
            }
        }
    }
}
