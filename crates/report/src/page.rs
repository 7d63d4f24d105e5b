//! The report page, laid out for what the run was: the map first, then the summary, and
//!
//! - for one robot or a few ([`FLEET_FROM`] robots or fewer), speed, heading, depth, the
//!   behavior timeline and the events, with a line per robot, each in its legend;
//! - for a fleet, the fleet over time (median and spread of speed, distance, collisions
//!   and goals, the worst robots named), the robots table with a link to each robot's
//!   own section, the events by kind, and a section per robot (its speed against the
//!   fleet's median, its timeline, its events).
//!
//! Every plot of individual robots' lines is alone in its section.

use crate::digest::{Digest, RobotDigest};
use crate::fleet;
use crate::lanes::Lane;
use crate::plots::{self, style, BandPlot, MapData, TimeLine, TimePlot, TrackLine};
use crate::series::{self, Waypoint};
use crate::tables::{self, robot_anchor};
use crate::{esc, robot_rows};
use plotters::style::RGBColor;
use serde_json::Value;
use std::fmt::Write as _;

/// More robots than this make a fleet (as many as the robots' colours).
pub const FLEET_FROM: usize = plots::ROBOT_COLORS.len();
/// Lanes of the timeline shown at most (one robot's in a fleet, all of a few robots').
const MAX_LANES: usize = 300;
/// Points of each robot's track on a fleet's map.
const FLEET_TRACK_POINTS: usize = 300;

const CSS: &str = "body{font-family:sans-serif;margin:2em;color:#222;max-width:1100px}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums}\
figure{margin:.5em 0}.note{color:#666;font-size:.9em}.err{color:#b00}.lead{font-size:1.05em}\
nav a{margin-right:1em}figcaption.key span.entry{display:inline-block;margin:0 1.2em .3em 0;font-size:.9em}\
span.sw{display:inline-block;width:1.4em;height:.5em;margin-right:.4em;vertical-align:middle}\
span.sw.dot{width:.7em;height:.7em;border-radius:50%}section.robot{border-top:1px solid #eee}";

/// The whole report page.
pub fn render(d: &Digest) -> String {
    let fleet = d.robots.len() > FLEET_FROM;
    let mut h = String::new();
    head(&mut h, d, fleet);
    map_section(&mut h, d, fleet);
    h.push_str("<section id=\"summary-section\"><h2>Summary</h2>\n");
    tables::summary_table(&mut h, d);
    h.push_str("</section>\n");
    if fleet {
        fleet_sections(&mut h, d);
    } else {
        few_sections(&mut h, d);
    }
    h.push_str("</body></html>\n");
    h
}

fn title(d: &Digest) -> String {
    d.path
        .file_name()
        .map_or_else(|| "run".to_string(), |f| f.to_string_lossy().into_owned())
}

fn head(h: &mut String, d: &Digest, fleet: bool) {
    let t = esc(&title(d));
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Skipper run report: {t}</title><style>{CSS}</style></head><body>\n<h1>Skipper run report: {t}</h1>\n"
    );
    let mut lead = Vec::new();
    if let Some(w) = d.world.get("name").and_then(Value::as_str) {
        lead.push(esc(w));
    }
    let n = d.robots.len();
    lead.push(format!("{n} robot{}", if n == 1 { "" } else { "s" }));
    lead.push(format!("{} simulated", duration_text(d.end_t)));
    if let Some(o) = d
        .summary
        .as_ref()
        .and_then(|s| s.get("outcome"))
        .and_then(Value::as_str)
    {
        lead.push(format!("outcome {}", esc(o)));
    }
    let _ = writeln!(h, "<p class=\"lead\">{}</p>", lead.join(" · "));
    if let Some(why) = &d.truncated {
        let _ = writeln!(
            h,
            "<p class=\"err\" id=\"truncated\">The log ends early (the run did not finish writing it): {}. Everything before that is shown.</p>",
            esc(why)
        );
    }
    let sections: &[(&str, &str)] = if fleet {
        &[
            ("map-section", "map"),
            ("summary-section", "summary"),
            ("fleet-section", "fleet over time"),
            ("robots-section", "robots"),
            ("events-section", "events"),
        ]
    } else {
        &[
            ("map-section", "map"),
            ("summary-section", "summary"),
            ("speed-section", "speed"),
            ("heading-section", "heading"),
            ("timeline-section", "behavior"),
            ("events-section", "events"),
        ]
    };
    h.push_str("<nav>");
    for (id, name) in sections {
        let _ = write!(h, "<a href=\"#{id}\">{name}</a>");
    }
    h.push_str("</nav>\n");
}

/// `1h 02m 03s`, `5m 00s`, `12.3 s`.
fn duration_text(s: f64) -> String {
    if !(s.is_finite() && s >= 60.0) {
        return format!("{:.1} s", s.max(0.0));
    }
    let total = s.round() as u64;
    let (h, m, sec) = (total / 3600, total % 3600 / 60, total % 60);
    if h > 0 {
        format!("{h}h {m:02}m {sec:02}s")
    } else {
        format!("{m}m {sec:02}s")
    }
}

/// Drawing a plot into the page.
fn figure(h: &mut String, id: &str, svg: Result<String, String>, caption: &str) {
    let _ = write!(h, "<figure id=\"{id}\">");
    match svg {
        Ok(s) => h.push_str(&s),
        Err(e) => {
            let _ = write!(
                h,
                "<p class=\"err\">this plot could not be drawn: {}</p>",
                esc(&e)
            );
        }
    }
    h.push_str(caption);
    h.push_str("</figure>\n");
}

// ---- the map --------------------------------------------------------------------------

fn pair(v: &Value) -> Option<(f64, f64)> {
    match v {
        Value::Array(a) => Some((a.first()?.as_f64()?, a.get(1)?.as_f64()?)),
        Value::Object(o) => Some((o.get("x")?.as_f64()?, o.get("y")?.as_f64()?)),
        _ => None,
    }
}

/// The world's coastline: `coastline` as one polyline or a list of them.
pub fn coastline(world: &Value) -> Vec<Vec<(f64, f64)>> {
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

fn landmarks(world: &Value) -> Vec<(String, f64, f64)> {
    let all = world.get("landmarks").and_then(Value::as_array);
    all.into_iter()
        .flatten()
        .filter_map(|l| {
            let name = l.get("name").and_then(Value::as_str).unwrap_or("");
            Some((
                name.to_string(),
                l.get("x")?.as_f64()?,
                l.get("y")?.as_f64()?,
            ))
        })
        .collect()
}

/// Balls and cans where the run left them: kind, x, y.
fn objects(d: &Digest) -> Vec<(String, f64, f64)> {
    let last = d.objects.as_ref().and_then(Value::as_array);
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

/// A robot's track as the map draws it, at most `max` points.
fn track_points(r: &RobotDigest, max: usize) -> Vec<(f64, f64)> {
    let n = r.track.len();
    let step = n.div_ceil(max.max(1)).max(1);
    let mut pts: Vec<(f64, f64)> = r
        .track
        .points()
        .step_by(step)
        .map(|p| (f64::from(p.x), f64::from(p.y)))
        .collect();
    if let Some(last) = r.track.points().last() {
        let last = (f64::from(last.x), f64::from(last.y));
        if pts.last() != Some(&last) {
            pts.push(last);
        }
    }
    pts
}

/// The robots a fleet's map and plots name: the worst on each measure, in turn.
fn named_robots(worst: &[fleet::Worst]) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for k in 0..3 {
        for w in worst {
            if let Some(&(i, _)) = w.robots.get(k) {
                if !out.contains(&i) && out.len() < plots::ROBOT_COLORS.len() {
                    out.push(i);
                }
            }
        }
    }
    out
}

fn tracks(d: &Digest, fleet: bool, named: &[usize]) -> Vec<TrackLine> {
    let with_poses = || {
        d.robots
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.track.is_empty())
    };
    if !fleet {
        return with_poses()
            .map(|(i, r)| TrackLine {
                color: plots::robot_color(i),
                name: r.info.name.clone(),
                points: track_points(r, usize::MAX),
                label: d.robots.len() > 1,
            })
            .collect();
    }
    let mut out: Vec<TrackLine> = with_poses()
        .filter(|(i, _)| !named.contains(i))
        .map(|(_, r)| TrackLine {
            color: style::OTHER_TRACK,
            name: r.info.name.clone(),
            points: track_points(r, FLEET_TRACK_POINTS),
            label: false,
        })
        .collect();
    for (k, &i) in named.iter().enumerate() {
        if let Some(r) = d.robots.get(i).filter(|r| !r.track.is_empty()) {
            out.push(TrackLine {
                color: plots::robot_color(k),
                name: r.info.name.clone(),
                points: track_points(r, FLEET_TRACK_POINTS * 4),
                label: true,
            });
        }
    }
    out
}

/// One entry of a key: a swatch in `color` (a line, or a dot) and what it is.
fn key_entry(out: &mut String, color: RGBColor, dot: bool, text: &str) {
    let _ = write!(
        out,
        "<span class=\"entry\"><span class=\"sw{}\" style=\"background:{}\"></span>{}</span>",
        if dot { " dot" } else { "" },
        plots::hex(color),
        text
    );
}

/// An entry for the key.
fn push(k: &mut Vec<KeyEntry>, color: RGBColor, dot: bool, text: &str) {
    k.push((color, dot, text.to_string()));
}

struct MapParts {
    walls: Vec<[f64; 4]>,
    coast: Vec<Vec<(f64, f64)>>,
    landmarks: Vec<(String, f64, f64)>,
    objects: Vec<(String, f64, f64)>,
    points: Vec<(f64, f64)>,
}

/// An entry of the map's key: its colour, whether it is a dot (else a line), its text
/// (HTML-escaped).
type KeyEntry = (RGBColor, bool, String);

/// The key under the map: what each colour is, only for what is drawn.
fn map_key(entries: &[KeyEntry]) -> String {
    let mut k = String::from("<figcaption class=\"key\">");
    for (color, dot, text) in entries {
        key_entry(&mut k, *color, *dot, text);
    }
    k.push_str(
        "<span class=\"entry note\">each track from ○ (start) to ● (end)</span></figcaption>",
    );
    k
}

/// The entries of the map's key, only for what is drawn.
fn map_key_entries(
    m: &MapParts,
    waypoints: &[Waypoint],
    tracks: &[TrackLine],
    fleet: bool,
) -> Vec<KeyEntry> {
    let mut k = Vec::new();
    let n = |v: usize, one: &str, many: &str| format!("{v} {}", if v == 1 { one } else { many });
    if !m.walls.is_empty() {
        push(
            &mut k,
            style::WALL,
            false,
            &n(m.walls.len(), "wall", "walls"),
        );
    }
    if !m.coast.is_empty() {
        push(&mut k, style::COAST, false, "coastline");
    }
    let goals = waypoints.iter().filter(|w| w.from_world).count();
    if goals > 0 {
        push(
            &mut k,
            style::GOAL,
            true,
            &n(goals, "goal of the world", "goals of the world"),
        );
    }
    let found = waypoints.len() - goals;
    if found > 0 {
        push(
            &mut k,
            style::WAYPOINT,
            true,
            &n(
                found,
                "waypoint of a controller",
                "waypoints of the controllers",
            ),
        );
    }
    if waypoints.iter().any(|w| w.radius.is_some()) {
        push(&mut k, style::CAPTURE, false, "capture circles");
    }
    if !m.landmarks.is_empty() {
        push(
            &mut k,
            style::LANDMARK,
            true,
            &n(m.landmarks.len(), "landmark", "landmarks"),
        );
    }
    if !m.objects.is_empty() {
        push(
            &mut k,
            style::OBJECT,
            true,
            &n(
                m.objects.len(),
                "ball or can where the run left it",
                "balls and cans where the run left them",
            ),
        );
    }
    if !m.points.is_empty() {
        push(&mut k, style::POINT, true, "map points");
    }
    let others = tracks
        .iter()
        .filter(|t| t.color == style::OTHER_TRACK)
        .count();
    if fleet && others > 0 {
        push(
            &mut k,
            style::OTHER_TRACK,
            false,
            &format!("tracks of {}", n(others, "other robot", "other robots")),
        );
    }
    for t in tracks
        .iter()
        .filter(|t| !fleet || t.color != style::OTHER_TRACK)
    {
        push(
            &mut k,
            t.color,
            false,
            &format!("track of {}", esc(&t.name)),
        );
    }
    k
}

fn map_section(h: &mut String, d: &Digest, fleet: bool) {
    let m = MapParts {
        walls: d.walls(),
        coast: coastline(&d.world),
        landmarks: landmarks(&d.world),
        objects: objects(d),
        points: d
            .world
            .get("points")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(pair).collect())
            .unwrap_or_default(),
    };
    let named = if fleet {
        named_robots(&fleet::worst(d))
    } else {
        Vec::new()
    };
    let tracks = tracks(d, fleet, &named);
    h.push_str("<section id=\"map-section\"><h2>Map</h2>\n");
    let svg = plots::map_svg(&MapData {
        title: "Tracks on the world map",
        walls: &m.walls,
        coast: &m.coast,
        waypoints: &d.waypoints,
        landmarks: &m.landmarks,
        objects: &m.objects,
        points: &m.points,
        tracks: &tracks,
        bounds: d.bounds(),
    });
    let key = map_key_entries(&m, &d.waypoints, &tracks, fleet);
    let lines: Vec<(RGBColor, String)> = key
        .iter()
        .filter(|(_, dot, _)| !dot)
        .map(|(c, _, text)| (*c, text.clone()))
        .collect();
    let svg = svg.map(|s| plots::mark_lines(&s, &lines));
    figure(h, "map", svg, &map_key(&key));
    h.push_str("</section>\n");
}

// ---- one robot or a few ---------------------------------------------------------------

fn robot_lines(d: &Digest, f: impl Fn(&RobotDigest) -> Vec<Vec<(f64, f64)>>) -> Vec<TimeLine> {
    d.robots
        .iter()
        .enumerate()
        .map(|(i, r)| TimeLine {
            color: plots::robot_color(i),
            name: r.info.name.clone(),
            parts: f(r),
            dashed: false,
        })
        .collect()
}

fn few_sections(h: &mut String, d: &Digest) {
    h.push_str("<section id=\"robots-section\"><h2>Robots</h2>\n");
    tables::robots_table(h, &robot_rows(d), false);
    h.push_str("</section>\n");
    let speed = robot_lines(d, |r| vec![r.speed().points()]);
    h.push_str("<section id=\"speed-section\"><h2>Speed</h2>\n");
    let plot = |title, y_desc, lines, y_range| TimePlot {
        title,
        y_desc,
        lines,
        t_end: d.end_t,
        y_range,
        height: 300,
    };
    let p = plot("Speed", "speed (m/s)", &speed, None);
    figure(h, "speed", plots::time_svg(&p), "");
    h.push_str("<p class=\"note\">From each robot's velocity.linear signal where it has one, else from its track; at each time, the lowest and highest value of the samples a pixel covers.</p></section>\n");
    let heading = robot_lines(d, |r| series::split_wraps(&r.heading.points()));
    h.push_str("<section id=\"heading-section\"><h2>Heading</h2>\n");
    let p = plot(
        "Heading",
        "heading (deg, ccw from +x)",
        &heading,
        Some((-180.0, 180.0)),
    );
    figure(h, "heading", plots::time_svg(&p), "");
    h.push_str("</section>\n");
    depth_section(h, d, &(0..d.robots.len()).collect::<Vec<_>>(), "depth");
    let lanes = d.lanes();
    let names: Vec<String> = d.robots.iter().map(|r| r.info.name.clone()).collect();
    h.push_str("<section id=\"timeline-section\"><h2>Behavior timeline</h2>\n");
    timeline(h, &lanes, &names, d.end_t, "timeline");
    h.push_str("</section>\n");
    events_section(h, d, false);
}

fn depth_section(h: &mut String, d: &Digest, robots: &[usize], id: &str) {
    let profiles: Vec<plots::Profile> = robots
        .iter()
        .filter_map(|&i| Some((i, d.robots.get(i)?)))
        .filter(|(_, r)| r.is_underwater())
        .map(|(i, r)| plots::Profile {
            robot: i,
            name: r.info.name.clone(),
            depth: r.depth().points(),
            seafloor: r.seafloor().points(),
            envelopes: d.envelopes(i),
        })
        .collect();
    if profiles.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<section id=\"{id}-section\"><h2>Depth and altitude</h2>"
    );
    figure(h, id, plots::profile_svg(&profiles, d.end_t), "");
    h.push_str("</section>\n");
}

fn timeline(h: &mut String, lanes: &[Lane], names: &[String], end: f64, id: &str) {
    if lanes.is_empty() {
        h.push_str("<p class=\"note\" id=\"no-lanes\">The controllers reported no state and there were no events.</p>\n");
        return;
    }
    let shown = &lanes[..lanes.len().min(MAX_LANES)];
    let _ = writeln!(
        h,
        "<p class=\"note\">{} lanes{}: controller state first (each text or true/false part of the state, by its path), then statuses from events (goals, commands, transitions), then other events (in italics, a tick each).</p>",
        lanes.len(),
        if shown.len() < lanes.len() {
            format!(", the first {} shown", shown.len())
        } else {
            String::new()
        }
    );
    figure(h, id, plots::timeline_svg(shown, names, end), "");
}

fn events_section(h: &mut String, d: &Digest, fleet: bool) {
    if d.event_count() == 0 {
        return;
    }
    h.push_str("<section id=\"events-section\"><h2>Events</h2>\n");
    if fleet {
        tables::kinds_table(h, d);
    }
    tables::events_table(h, d, &d.events, Some("events"));
    if d.event_count() > d.events.len() as u64 {
        let _ = writeln!(
            h,
            "<p class=\"note\">The first {} of {} events{}.</p>",
            d.events.len(),
            d.event_count(),
            if fleet {
                "; each robot's section lists its own"
            } else {
                ""
            }
        );
    }
    h.push_str("</section>\n");
}

// ---- a fleet --------------------------------------------------------------------------

fn fleet_sections(h: &mut String, d: &Digest) {
    let n = d.robots.len();
    let f = fleet::bands(d);
    let worst = fleet::worst(d);
    h.push_str("<section id=\"fleet-section\"><h2>The fleet over time</h2>\n");
    if !worst.is_empty() {
        h.push_str("<ul id=\"worst\">");
        for w in &worst {
            let names: Vec<String> = w
                .robots
                .iter()
                .map(|(i, v)| {
                    let name = d.robot_name(*i);
                    format!(
                        "<a href=\"#{}\">{}</a> ({})",
                        robot_anchor(name),
                        esc(name),
                        esc(v)
                    )
                })
                .collect();
            let _ = write!(h, "<li>{}: {}</li>", w.what, names.join(", "));
        }
        h.push_str("</ul>\n");
    }
    let band_label = format!("10–90 % of the {n} robots");
    let mut band = |id: &str, title: &str, y_desc: &str, b: &[plots::Band]| {
        let p = BandPlot {
            title,
            y_desc,
            band: b,
            band_label: &band_label,
            median_label: "median robot",
            lines: &[],
            t_end: d.end_t,
        };
        figure(h, id, plots::band_svg(&p), "");
    };
    band("fleet-speed", "Speed of the fleet", "speed (m/s)", &f.speed);
    band(
        "fleet-distance",
        "Distance covered",
        "distance so far (m)",
        &f.distance,
    );
    band(
        "fleet-collisions",
        "Collisions",
        "collisions so far",
        &f.collisions,
    );
    if !f.goals.is_empty() {
        band(
            "fleet-goals",
            "Goals reached",
            "goals reached so far",
            &f.goals,
        );
    }
    h.push_str("</section>\n<section id=\"robots-section\"><h2>Robots</h2>\n<p class=\"note\">Each name leads to the robot's own section.</p>\n");
    tables::robots_table(h, &robot_rows(d), true);
    h.push_str("</section>\n");
    events_section(h, d, true);
    let median: Vec<(f64, f64)> = f.speed.iter().map(|b| (b.t, b.mid)).collect();
    for i in 0..n {
        robot_section(h, d, i, &median);
    }
}

fn robot_section(h: &mut String, d: &Digest, i: usize, median: &[(f64, f64)]) {
    let Some(r) = d.robots.get(i) else { return };
    let name = &r.info.name;
    let anchor = robot_anchor(name);
    let _ = writeln!(
        h,
        "<section class=\"robot\" id=\"{anchor}\"><h2>{}</h2>",
        esc(name)
    );
    let _ = writeln!(
        h,
        "<p>{} {} · {} · {:.1} m at {:.2} m/s on average · {} collisions · {} goals reached · {} events · <a href=\"#robots-section\">all robots</a></p>",
        esc(&r.info.kind),
        esc(&r.info.model),
        esc(&r.controllers.join(", ")),
        r.distance,
        r.mean_speed(),
        r.collisions.total(),
        r.goals.total(),
        r.event_count()
    );
    let lines = [
        TimeLine {
            color: style::MEDIAN,
            name: "median robot of the fleet".into(),
            parts: vec![median.to_vec()],
            dashed: true,
        },
        TimeLine {
            color: plots::robot_color(i),
            name: name.clone(),
            parts: vec![r.speed().points()],
            dashed: false,
        },
    ];
    let p = TimePlot {
        title: "Speed",
        y_desc: "speed (m/s)",
        lines: &lines,
        t_end: d.end_t,
        y_range: None,
        height: 220,
    };
    figure(h, &format!("speed-{anchor}"), plots::time_svg(&p), "");
    depth_section(h, d, &[i], &format!("depth-{anchor}"));
    let lanes = r.lanes.finish(d.end_t);
    timeline(
        h,
        &lanes,
        std::slice::from_ref(name),
        d.end_t,
        &format!("timeline-{anchor}"),
    );
    if !r.events.is_empty() {
        tables::events_table(h, d, &r.events, None);
    }
    h.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coastlines_one_or_many() {
        let one = serde_json::json!({"coastline": [[0, 0], [1, 1]]});
        assert_eq!(coastline(&one), vec![vec![(0.0, 0.0), (1.0, 1.0)]]);
        let many = serde_json::json!({"coastline": [[[0, 0], [1, 1]], [{"x": 2, "y": 2}, [3, 3]]]});
        assert_eq!(coastline(&many).len(), 2);
    }

    #[test]
    fn durations() {
        assert_eq!(duration_text(12.34), "12.3 s");
        assert_eq!(duration_text(1800.0), "30m 00s");
        assert_eq!(duration_text(3723.4), "1h 02m 03s");
    }
}
