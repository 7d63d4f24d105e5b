//! Skipper's run report: one self-contained HTML file with SVG plots, read from a run
//! log ([`skipper_runlog`]).
//!
//! - [`series`]: speed, heading, depth, altitude, waypoints and envelopes from the log;
//! - [`lanes`]: the behavior timeline's lanes, read generically from `/controller` and
//!   `/events`;
//! - [`plots`]: the SVG plots (`plotters`);
//! - [`world_map`]: a world's picture before any run (`skipper world check --svg`);
//! - this module: the summary tables and the page; [`write`] reads a log and writes its
//!   report, [`Error`] says why it could not.

pub mod lanes;
pub mod plots;
pub mod series;
pub mod world_map;

use plots::{MapData, Profile, TimeLine, TimePlot, TrackLine};
use serde_json::Value;
use skipper_runlog::reader::Recording;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The run log could not be read.
    #[error(transparent)]
    Read(#[from] skipper_runlog::Error),
    /// The report could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// where it was to go
        path: PathBuf,
        /// why
        source: std::io::Error,
    },
}

/// A report written.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// where
    pub path: PathBuf,
    /// why the log ended early, if it did (the report shows what it has)
    pub truncated: Option<String>,
}

/// The default report path: the log's path with `.html`.
pub fn default_output(log: &Path) -> PathBuf {
    log.with_extension("html")
}

/// Read the run log at `log` and write its report to `out` (default: beside the log).
pub fn write(log: &Path, out: Option<&Path>) -> Result<Written, Error> {
    let rec = open(log)?;
    let html = render(&rec);
    let path = out.map_or_else(|| default_output(log), Path::to_path_buf);
    std::fs::write(&path, html).map_err(|source| Error::Write {
        path: path.clone(),
        source,
    })?;
    Ok(Written {
        path,
        truncated: rec.truncated,
    })
}

/// The HTML-escaped text.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Read a run log with the signals the report needs.
pub fn open(path: &Path) -> Result<Recording, skipper_runlog::Error> {
    Recording::open(path, &series::keep_signal)
}

/// Drop points closer than `min` to the last kept one (the last point is always kept).
fn thin(points: impl Iterator<Item = (f64, f64)>, min: f64) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut last_dropped = None;
    for p in points {
        match out.last() {
            Some(&q) if (p.0 - q.0).hypot(p.1 - q.1) < min => last_dropped = Some(p),
            _ => {
                out.push(p);
                last_dropped = None;
            }
        }
    }
    out.extend(last_dropped);
    out
}

/// Thin a time series to about `n` points per robot by time.
fn thin_time(s: &[(f64, f64)], n: usize) -> Vec<(f64, f64)> {
    let Some((first, last)) = s.first().zip(s.last()) else {
        return Vec::new();
    };
    let span = last.0 - first.0;
    if s.len() <= n || span <= 0.0 {
        return s.to_vec();
    }
    let step = span / n as f64;
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(n + 1);
    for &p in s {
        if out.last().is_none_or(|q| p.0 - q.0 >= step) {
            out.push(p);
        }
    }
    if out.last() != Some(last) {
        out.push(*last);
    }
    out
}

/// Per-robot figures for the summary table.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotRow {
    /// Name.
    pub name: String,
    /// Kind and model.
    pub kind: String,
    /// Controller name(s).
    pub controller: String,
    /// Track length (m).
    pub distance: f64,
    /// Top speed (m/s).
    pub max_speed: f64,
    /// Mean speed (m/s).
    pub mean_speed: f64,
    /// Collision events.
    pub collisions: usize,
    /// Events of any kind.
    pub events: usize,
    /// Where it ended: x, y (m), heading (deg).
    pub end: Option<(f64, f64, f64)>,
}

/// The per-robot rows.
pub fn robot_rows(rec: &Recording) -> Vec<RobotRow> {
    rec.robots
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let speed = series::speed(r);
            let max_speed = speed.iter().map(|s| s.1.abs()).fold(0.0, f64::max);
            let t = r.poses.last().map_or(0.0, |p| p.t) - r.poses.first().map_or(0.0, |p| p.t);
            let distance = series::track_length(r);
            let mut controllers: Vec<&str> =
                r.controller.iter().map(|c| c.controller.as_str()).collect();
            controllers.dedup();
            RobotRow {
                name: r.info.name.clone(),
                kind: [r.info.kind.as_str(), r.info.model.as_str()]
                    .iter()
                    .filter(|s| !s.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" "),
                controller: controllers.join(", "),
                distance,
                max_speed,
                mean_speed: if t > 0.0 { distance / t } else { 0.0 },
                collisions: rec
                    .events
                    .iter()
                    .filter(|e| e.robot == i && e.kind == "collision")
                    .count(),
                events: rec.events.iter().filter(|e| e.robot == i).count(),
                end: r.poses.last().map(|p| (p.x, p.y, p.yaw.to_degrees())),
            }
        })
        .collect()
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => format!("{}", (f * 1000.0).round() / 1000.0),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(a) if a.iter().all(Value::is_string) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        v => v.to_string(),
    }
}

fn figure(out: &mut String, id: &str, svg: Result<String, String>) {
    let _ = write!(out, "<figure id=\"{id}\">");
    match svg {
        Ok(s) => out.push_str(&s),
        Err(e) => {
            let _ = write!(
                out,
                "<p class=\"err\">this plot could not be drawn: {}</p>",
                esc(&e)
            );
        }
    }
    out.push_str("</figure>\n");
}

const CSS: &str = "body{font-family:sans-serif;margin:2em;color:#222;max-width:1100px}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums}\
figure{margin:.5em 0}.note{color:#666;font-size:.9em}.err{color:#b00}";

/// The whole report page.
pub fn render(rec: &Recording) -> String {
    let title = rec
        .path
        .file_name()
        .map_or_else(|| "run".to_string(), |f| f.to_string_lossy().into_owned());
    let names: Vec<String> = rec.robots.iter().map(|r| r.info.name.clone()).collect();
    let t_end = rec.end_t;
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Skipper run report: {t}</title><style>{CSS}</style></head><body>\n<h1>Skipper run report: {t}</h1>\n",
        t = esc(&title)
    );
    if let Some(why) = &rec.truncated {
        let _ = writeln!(
            h,
            "<p class=\"err\" id=\"truncated\">The log ends early (the run did not finish writing it): {}. Everything before that is shown.</p>",
            esc(why)
        );
    }

    // summary
    h.push_str("<h2>Summary</h2>\n<table id=\"summary\">\n");
    let world_name = rec.world.get("name").and_then(Value::as_str).unwrap_or("");
    let mut row = |k: &str, v: String| {
        let _ = writeln!(
            h,
            "<tr><th>{}</th><td data-key=\"{}\">{}</td></tr>",
            esc(k),
            esc(k),
            esc(&v)
        );
    };
    row("log", rec.path.display().to_string());
    if !world_name.is_empty() {
        row("world", world_name.to_string());
    }
    row("robots", rec.robots.len().to_string());
    if let Some(p) = rec.period_s {
        row("period_s", format!("{p}"));
    }
    match &rec.summary {
        Some(Value::Object(s)) => {
            for (k, v) in s {
                if k == "t" || k == "robots" {
                    continue;
                }
                row(k, value_text(v));
            }
        }
        _ => row(
            "outcome",
            "(no summary: the run did not end cleanly)".into(),
        ),
    }
    row("events", rec.events.len().to_string());
    if rec.skipped > 0 {
        row("messages skipped", rec.skipped.to_string());
    }
    h.push_str("</table>\n");

    let rows = robot_rows(rec);
    h.push_str("<table id=\"robots\">\n<tr><th>robot</th><th>vehicle</th><th>controller</th><th>distance (m)</th><th>max speed (m/s)</th><th>mean speed (m/s)</th><th>collisions</th><th>events</th><th>end pose (x, y, heading)</th></tr>\n");
    for r in &rows {
        let end = r
            .end
            .map_or_else(String::new, |(x, y, a)| format!("{x:.2}, {y:.2}, {a:.0}°"));
        let _ = writeln!(
            h,
            "<tr data-robot=\"{n}\"><td>{n}</td><td>{k}</td><td>{c}</td><td class=\"num\">{d:.2}</td><td class=\"num\">{ms:.2}</td><td class=\"num\">{mn:.2}</td><td class=\"num\">{col}</td><td class=\"num\">{ev}</td><td>{end}</td></tr>",
            n = esc(&r.name),
            k = esc(&r.kind),
            c = esc(&r.controller),
            d = r.distance,
            ms = r.max_speed,
            mn = r.mean_speed,
            col = r.collisions,
            ev = r.events,
            end = esc(&end),
        );
    }
    h.push_str("</table>\n");

    // map
    let walls = rec.walls();
    let coast = coastline(&rec.world);
    let waypoints = series::waypoints(rec);
    let landmarks: Vec<(String, f64, f64)> = rec
        .world
        .get("landmarks")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|l| {
                    Some((
                        l.get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        l.get("x")?.as_f64()?,
                        l.get("y")?.as_f64()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let points: Vec<(f64, f64)> = rec
        .world
        .get("points")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(pair).collect())
        .unwrap_or_default();
    let span = rec
        .bounds()
        .map_or(10.0, |b| (b[2] - b[0]).max(b[3] - b[1]));
    let tracks: Vec<TrackLine> = rec
        .robots
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.poses.is_empty())
        .map(|(i, r)| TrackLine {
            robot: i,
            name: r.info.name.clone(),
            points: thin(r.poses.iter().map(|p| (p.x, p.y)), span / 2000.0),
        })
        .collect();
    let objects = objects_at_the_end(rec);
    h.push_str("<h2>Map</h2>\n");
    let _ = writeln!(
        h,
        "<p class=\"note\">Walls in dark grey, goals of the world in green, waypoints from the controllers in purple with their capture circles in pink, landmarks in brown, balls and cans in amber where the run left them; each robot's track in its colour, from the hollow circle to the filled one. {} walls, {} waypoints, {} objects, {} tracks.</p>",
        walls.len(),
        waypoints.len(),
        objects.len(),
        tracks.len()
    );
    figure(
        &mut h,
        "map",
        plots::map_svg(&MapData {
            title: "Track on the world map",
            walls: &walls,
            coast: &coast,
            waypoints: &waypoints,
            landmarks: &landmarks,
            objects: &objects,
            points: &points,
            tracks: &tracks,
            bounds: rec.bounds(),
        }),
    );

    // time series
    let per_robot = 3000;
    let speed: Vec<TimeLine> = rec
        .robots
        .iter()
        .enumerate()
        .map(|(i, r)| TimeLine {
            robot: i,
            name: r.info.name.clone(),
            parts: vec![thin_time(&series::speed(r), per_robot)],
        })
        .collect();
    let heading: Vec<TimeLine> = rec
        .robots
        .iter()
        .enumerate()
        .map(|(i, r)| TimeLine {
            robot: i,
            name: r.info.name.clone(),
            parts: series::split_wraps(&thin_time(&series::heading(r), per_robot)),
        })
        .collect();
    h.push_str("<h2>Speed and heading</h2>\n");
    figure(
        &mut h,
        "speed",
        plots::time_svg(&TimePlot {
            title: "Speed",
            y_desc: "speed (m/s)",
            lines: &speed,
            t_end,
            y_range: None,
        }),
    );
    figure(
        &mut h,
        "heading",
        plots::time_svg(&TimePlot {
            title: "Heading",
            y_desc: "heading (deg, ccw from +x)",
            lines: &heading,
            t_end,
            y_range: Some((-180.0, 180.0)),
        }),
    );

    // AUVs
    let profiles: Vec<Profile> = rec
        .robots
        .iter()
        .enumerate()
        .filter(|(_, r)| series::is_underwater(r))
        .map(|(i, r)| {
            let depth = series::depth(r);
            // the sea floor: reported, else depth + altitude where the altitude is valid
            let mut seafloor: Vec<(f64, f64)> = series::sea_floor(r)
                .into_iter()
                .filter(|(_, d)| d.is_finite() && *d > 0.0)
                .collect();
            if seafloor.is_empty() {
                seafloor = series::altitude(r)
                    .iter()
                    .filter(|(_, a)| a.is_finite() && *a >= 0.0)
                    .filter_map(|&(t, a)| Some((t, value_at(&depth, t)? + a)))
                    .collect();
            }
            Profile {
                robot: i,
                name: r.info.name.clone(),
                depth: thin_time(&depth, per_robot),
                seafloor: thin_time(&seafloor, per_robot),
                envelopes: series::envelopes(r, t_end),
            }
        })
        .collect();
    if !profiles.is_empty() {
        h.push_str("<h2>Depth and altitude</h2>\n");
        figure(&mut h, "depth", plots::profile_svg(&profiles, t_end));
    }

    // behaviors
    let lanes = lanes::lanes(rec);
    h.push_str("<h2>Behavior timeline</h2>\n");
    if lanes.is_empty() {
        h.push_str("<p class=\"note\" id=\"no-lanes\">The controllers reported no state and there were no events.</p>\n");
    } else {
        let _ = writeln!(
            h,
            "<p class=\"note\">{} lanes{}: controller state first (each text or true/false part of the state, by its path), then statuses from events (goals, commands, transitions), then other events (in italics, a tick each).</p>",
            lanes.len(),
            if lanes.len() > plots::MAX_LANES {
                format!(", the first {} shown", plots::MAX_LANES)
            } else {
                String::new()
            }
        );
        figure(
            &mut h,
            "timeline",
            plots::timeline_svg(&lanes, &names, t_end),
        );
    }

    // events
    if !rec.events.is_empty() {
        h.push_str("<h2>Events</h2>\n<table id=\"events\">\n<tr><th>t (s)</th><th>robot</th><th>kind</th><th>data</th></tr>\n");
        for e in rec.events.iter().take(1000) {
            let _ = writeln!(
                h,
                "<tr><td class=\"num\">{:.1}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                e.t,
                esc(rec.robot_name(e.robot)),
                esc(&e.kind),
                esc(&e.data.to_string())
            );
        }
        h.push_str("</table>\n");
        if rec.events.len() > 1000 {
            let _ = writeln!(
                h,
                "<p class=\"note\">The first 1000 of {} events.</p>",
                rec.events.len()
            );
        }
    }
    h.push_str("</body></html>\n");
    h
}

fn pair(v: &Value) -> Option<(f64, f64)> {
    match v {
        Value::Array(a) => Some((a.first()?.as_f64()?, a.get(1)?.as_f64()?)),
        Value::Object(o) => Some((o.get("x")?.as_f64()?, o.get("y")?.as_f64()?)),
        _ => None,
    }
}

/// The world's coastline: `coastline` as one polyline or a list of them.
fn coastline(world: &Value) -> Vec<Vec<(f64, f64)>> {
    let Some(c) = world.get("coastline").and_then(Value::as_array) else {
        return Vec::new();
    };
    if c.iter().all(|p| pair(p).is_some()) {
        return vec![c.iter().filter_map(pair).collect()];
    }
    c.iter()
        .filter_map(|l| l.as_array().map(|a| a.iter().filter_map(pair).collect()))
        .collect()
}

/// The value of a time series at `t` (the last sample at or before it).
fn value_at(s: &[(f64, f64)], t: f64) -> Option<f64> {
    let n = s.partition_point(|p| p.0 <= t);
    n.checked_sub(1).and_then(|k| s.get(k)).map(|p| p.1)
}

/// Balls and cans where the run left them (the log's last `/objects`): kind, x, y.
fn objects_at_the_end(rec: &Recording) -> Vec<(String, f64, f64)> {
    let last = rec.objects.last().and_then(|(_, v)| v.as_array());
    last.into_iter()
        .flatten()
        .filter_map(|o| {
            let kind = o.get("kind").and_then(Value::as_str)?;
            Some((
                kind.to_string(),
                o.get("x")?.as_f64()?,
                o.get("y")?.as_f64()?,
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_ends() {
        let pts = (0..100).map(|k| (f64::from(k) * 0.001, 0.0));
        let t = thin(pts, 0.01);
        assert_eq!(t.first(), Some(&(0.0, 0.0)));
        assert_eq!(t.last(), Some(&(0.099, 0.0)));
        assert!(t.len() < 15);
        let s: Vec<(f64, f64)> = (0..1000).map(|k| (f64::from(k), 0.0)).collect();
        let tt = thin_time(&s, 100);
        assert!(tt.len() <= 102);
        assert_eq!(tt.last(), Some(&(999.0, 0.0)));
    }

    #[test]
    fn escaping() {
        assert_eq!(
            esc("<a href='x'>&</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"
        );
    }

    #[test]
    fn coastlines_one_or_many() {
        let one = serde_json::json!({"coastline": [[0, 0], [1, 1]]});
        assert_eq!(coastline(&one), vec![vec![(0.0, 0.0), (1.0, 1.0)]]);
        let many = serde_json::json!({"coastline": [[[0, 0], [1, 1]], [{"x": 2, "y": 2}, [3, 3]]]});
        assert_eq!(coastline(&many).len(), 2);
    }
}
