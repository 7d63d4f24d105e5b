//! The map: the world (walls, coastline, goals, landmarks, balls and cans, `.map` points)
//! and the tracks, with equal scales on x and y. Its key (what each colour is) is the
//! page's, under the figure; on the map, tracks drawn with `label` carry their robot's
//! name at their end and the coastline is named where it is drawn.

use super::{err, style, Chart, Res, PLOT_W};
use crate::series::Waypoint;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A robot's track, for the map.
pub struct TrackLine {
    /// Its colour.
    pub color: RGBColor,
    /// Its robot's name.
    pub name: String,
    /// Points (m), thinned.
    pub points: Vec<(f64, f64)>,
    /// Whether its name is written at its end.
    pub label: bool,
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
pub(super) fn clip_polyline(l: &[(f64, f64)], r: [f64; 4]) -> Vec<Vec<(f64, f64)>> {
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
        let area = SVGBackend::with_string(&mut scratch, (PLOT_W, 600)).into_drawing_area();
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
        let root = SVGBackend::with_string(&mut svg, (PLOT_W, height)).into_drawing_area();
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
        let coast: Vec<Vec<(f64, f64)>> = d
            .coast
            .iter()
            .flat_map(|l| clip_polyline(l, view))
            .collect();
        chart
            .draw_series(
                coast
                    .iter()
                    .map(|part| PathElement::new(part.clone(), style::COAST.stroke_width(2))),
            )
            .map_err(err)?;
        // the coastline is named where it is drawn
        if let Some(at) = coast
            .iter()
            .max_by_key(|p| p.len())
            .and_then(|p| p.get(p.len() / 2))
        {
            chart
                .draw_series(std::iter::once(Text::new(
                    "coastline",
                    *at,
                    ("sans-serif", 12).into_font().color(&style::COAST),
                )))
                .map_err(err)?;
        }
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
        for t in d.tracks {
            draw_track(&mut chart, t)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn draw_track(chart: &mut Chart<'_, '_>, t: &TrackLine) -> Res<()> {
    let c = t.color;
    chart
        .draw_series(LineSeries::new(t.points.iter().copied(), c.stroke_width(2)))
        .map_err(err)?;
    if let (Some(&a), Some(&b)) = (t.points.first(), t.points.last()) {
        chart
            .draw_series([
                Circle::new(a, 4, c.stroke_width(2)),
                Circle::new(b, 4, c.filled()),
            ])
            .map_err(err)?;
        if t.label {
            chart
                .draw_series(std::iter::once(Text::new(
                    t.name.clone(),
                    b,
                    ("sans-serif", 12).into_font().color(&c),
                )))
                .map_err(err)?;
        }
    }
    Ok(())
}
