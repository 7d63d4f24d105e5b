//! Time series and per-robot figures computed from a recording: speed, heading, depth
//! and altitude, distance travelled, and the marks drawn on the map and the profiles
//! (waypoints with capture circles, depth and altitude envelopes).

use serde_json::Value;
use skipper_core::vocabulary::ground::VELOCITY_LINEAR;
use skipper_runlog::reader::{Recording, RobotLog};

/// The signals the report reads (the others are not kept in memory).
pub fn keep_signal(name: &str) -> bool {
    name == VELOCITY_LINEAR.name
        || matches!(
            last_word(name).as_str(),
            "depth" | "altitude" | "height_above_sea_floor" | "sea_floor_depth"
        )
}

/// The last word of a signal name, lowercased (`auv.DEPTH` → `depth`).
fn last_word(name: &str) -> String {
    name.rsplit(['.', '/', ':'])
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase()
}

/// A signal's values as a step series: the log has a value only when it changed, so each
/// value holds until the next one (and the last until `end`).
pub fn stepped(s: &[(f64, f64)], end: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(s.len() * 2 + 1);
    for (k, &(t, v)) in s.iter().enumerate() {
        if k > 0 {
            if let Some(&(_, prev)) = out.last() {
                if prev != v {
                    out.push((t, prev));
                }
            }
        }
        out.push((t, v));
    }
    if let Some(&(t, v)) = out.last() {
        if end > t {
            out.push((end, v));
        }
    }
    out
}

/// A robot's speed over time (m/s): its `velocity.linear` signal when it has one, else
/// from its track.
pub fn speed(r: &RobotLog) -> Vec<(f64, f64)> {
    if let Some(s) = r.signals.get(VELOCITY_LINEAR.name) {
        let v: Vec<(f64, f64)> = s
            .iter()
            .filter_map(|(t, v)| Some((*t, v.as_f64()?)))
            .collect();
        if !v.is_empty() {
            let end = r.poses.last().map_or(0.0, |p| p.t);
            return stepped(&v, end);
        }
    }
    r.poses
        .windows(2)
        .filter_map(|w| {
            let [a, b] = w else { return None };
            let dt = b.t - a.t;
            (dt > 0.0).then(|| (b.t, (b.x - a.x).hypot(b.y - a.y) / dt))
        })
        .collect()
}

/// A robot's heading over time (degrees, -180..180).
pub fn heading(r: &RobotLog) -> Vec<(f64, f64)> {
    r.poses.iter().map(|p| (p.t, p.yaw.to_degrees())).collect()
}

/// Split a heading series where it wraps, so no line crosses the plot.
pub fn split_wraps(s: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for &p in s {
        if let Some(last) = cur.last() {
            if (p.1 - last.1).abs() > 180.0 {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.push(p);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Distance along the track (m), in 3D: an AUV's dives and climbs count, as they do in
/// its odometer (the summary's `distance_m`, its distance through the water: speed ×
/// time; the two differ only by what the buoyancy engine alone moved it, 0.05 % on the
/// spec mission).
pub fn track_length(r: &RobotLog) -> f64 {
    r.poses
        .windows(2)
        .map(|w| match w {
            [a, b] => (b.x - a.x).hypot(b.y - a.y).hypot(b.z - a.z),
            _ => 0.0,
        })
        .sum()
}

fn signal_series(r: &RobotLog, word: &str) -> Option<Vec<(f64, f64)>> {
    r.signals
        .iter()
        .find(|(n, _)| last_word(n) == word)
        .map(|(_, s)| {
            s.iter()
                .filter_map(|(t, v)| Some((*t, v.as_f64()?)))
                .collect()
        })
}

/// Is this robot an underwater vehicle (or does it report a depth)?
pub fn is_underwater(r: &RobotLog) -> bool {
    r.info.kind == "auv" || signal_series(r, "depth").is_some_and(|s| !s.is_empty())
}

/// Depth over time (m, positive down): its depth signal, else minus the height of its
/// pose.
pub fn depth(r: &RobotLog) -> Vec<(f64, f64)> {
    match signal_series(r, "depth") {
        Some(s) if !s.is_empty() => s,
        _ => r.poses.iter().map(|p| (p.t, -p.z)).collect(),
    }
}

/// Altitude above the bottom over time (m), if it reports one (`ALTITUDE` or the CF name
/// `HEIGHT_ABOVE_SEA_FLOOR`).
pub fn altitude(r: &RobotLog) -> Vec<(f64, f64)> {
    signal_series(r, "altitude")
        .filter(|s| !s.is_empty())
        .or_else(|| signal_series(r, "height_above_sea_floor"))
        .unwrap_or_default()
}

/// The depth of the sea floor under the vehicle over time (m), if it reports it
/// (`SEA_FLOOR_DEPTH`).
pub fn sea_floor(r: &RobotLog) -> Vec<(f64, f64)> {
    signal_series(r, "sea_floor_depth").unwrap_or_default()
}

/// A point to reach, with the circle within which it counts as reached.
#[derive(Debug, Clone, PartialEq)]
pub struct Waypoint {
    /// Its name or where it was found.
    pub label: String,
    /// Position (m).
    pub x: f64,
    /// Position (m).
    pub y: f64,
    /// Capture radius (m), if known.
    pub radius: Option<f64>,
    /// From the world file (true) or from a controller (false).
    pub from_world: bool,
}

const RADIUS_KEYS: [&str; 4] = ["capture_radius", "radius", "tolerance", "capture"];
const WAYPOINT_WORDS: [&str; 4] = ["waypoint", "target", "goal", "wp"];

fn number(o: &serde_json::Map<String, Value>, k: &str) -> Option<f64> {
    o.iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(k))
        .and_then(|(_, v)| v.as_f64())
        .filter(|v| v.is_finite())
}

/// Waypoints: the world's goals, and every object with numeric `x` and `y` in a
/// controller's state or an event that either has a capture radius (`capture_radius`,
/// `radius`, `tolerance`) or sits under a key that says so (`waypoint`, `target`, `goal`,
/// `wp`). Duplicates are dropped.
pub fn waypoints(rec: &Recording) -> Vec<Waypoint> {
    let mut out: Vec<Waypoint> = Vec::new();
    if let Some(goals) = rec.world.get("goals").and_then(Value::as_array) {
        for g in goals {
            let Some(o) = g.as_object() else { continue };
            let (Some(x), Some(y)) = (number(o, "x"), number(o, "y")) else {
                continue;
            };
            out.push(Waypoint {
                label: o
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("goal")
                    .to_string(),
                x,
                y,
                radius: RADIUS_KEYS.iter().find_map(|k| number(o, k)),
                from_world: true,
            });
        }
    }
    let mut found = Vec::new();
    for r in &rec.robots {
        for s in &r.controller {
            find_waypoints(&s.state, "", false, &mut found, 0);
        }
    }
    for e in &rec.events {
        find_waypoints(&e.data, "", false, &mut found, 0);
    }
    for w in found {
        let dup = out
            .iter()
            .any(|o| (o.x - w.x).abs() < 1e-6 && (o.y - w.y).abs() < 1e-6 && o.radius == w.radius);
        if !dup && out.len() < 500 {
            out.push(w);
        }
    }
    out
}

fn find_waypoints(v: &Value, key: &str, hinted: bool, out: &mut Vec<Waypoint>, depth: usize) {
    if depth > 12 || out.len() > 2000 {
        return;
    }
    let lower = key.to_ascii_lowercase();
    let hinted = hinted || WAYPOINT_WORDS.iter().any(|w| lower.contains(w));
    match v {
        Value::Object(o) => {
            if let (Some(x), Some(y)) = (number(o, "x"), number(o, "y")) {
                let radius = RADIUS_KEYS.iter().find_map(|k| number(o, k));
                if radius.is_some() || hinted {
                    let label = o
                        .get("name")
                        .and_then(Value::as_str)
                        .map_or_else(|| key.to_string(), str::to_string);
                    out.push(Waypoint {
                        label,
                        x,
                        y,
                        radius,
                        from_world: false,
                    });
                    return;
                }
            }
            for (k, child) in o {
                find_waypoints(child, k, hinted, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for child in a {
                find_waypoints(child, key, hinted, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// Which side of a vertical envelope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// `min_depth`
    MinDepth,
    /// `max_depth`
    MaxDepth,
    /// `min_altitude`
    MinAltitude,
    /// `max_altitude`
    MaxAltitude,
}

impl Bound {
    fn parse(key: &str) -> Option<Self> {
        match key.to_ascii_lowercase().as_str() {
            "min_depth" | "mindepth" => Some(Bound::MinDepth),
            "max_depth" | "maxdepth" => Some(Bound::MaxDepth),
            "min_altitude" | "minaltitude" => Some(Bound::MinAltitude),
            "max_altitude" | "maxaltitude" => Some(Bound::MaxAltitude),
            _ => None,
        }
    }
    /// Is it a depth bound (else an altitude bound)?
    pub fn is_depth(self) -> bool {
        matches!(self, Bound::MinDepth | Bound::MaxDepth)
    }
    /// Its key.
    pub fn name(self) -> &'static str {
        match self {
            Bound::MinDepth => "min_depth",
            Bound::MaxDepth => "max_depth",
            Bound::MinAltitude => "min_altitude",
            Bound::MaxAltitude => "max_altitude",
        }
    }
}

/// An envelope bound that held for a while.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvelopeBound {
    /// Which bound.
    pub bound: Bound,
    /// Its value (m).
    pub value: f64,
    /// From (s).
    pub t0: f64,
    /// To (s).
    pub t1: f64,
    /// Where in the state it was found.
    pub label: String,
}

/// Envelope bounds of robot `r`'s controller states: numeric leaves named `min_depth`,
/// `max_depth`, `min_altitude`, `max_altitude` (any case), each for as long as the state
/// had it with the same value.
pub fn envelopes(r: &RobotLog, end: f64) -> Vec<EnvelopeBound> {
    let mut out: Vec<EnvelopeBound> = Vec::new();
    let mut open: Vec<EnvelopeBound> = Vec::new();
    for s in &r.controller {
        let mut now = Vec::new();
        find_bounds(&s.state, "", &mut now, 0);
        let mut still = Vec::new();
        for o in open.drain(..) {
            if now
                .iter()
                .any(|(l, b, v)| *l == o.label && *b == o.bound && *v == o.value)
            {
                still.push(o);
            } else {
                out.push(EnvelopeBound { t1: s.t, ..o });
            }
        }
        for (label, bound, value) in now {
            if !still.iter().any(|o| o.label == label && o.bound == bound) {
                still.push(EnvelopeBound {
                    bound,
                    value,
                    t0: s.t,
                    t1: end,
                    label,
                });
            }
        }
        open = still;
    }
    out.extend(open.into_iter().map(|o| EnvelopeBound { t1: end, ..o }));
    out
}

fn find_bounds(v: &Value, path: &str, out: &mut Vec<(String, Bound, f64)>, depth: usize) {
    if depth > 12 || out.len() > 100 {
        return;
    }
    match v {
        Value::Object(o) => {
            for (k, child) in o {
                if let (Some(b), Some(x)) = (Bound::parse(k), child.as_f64()) {
                    if x.is_finite() {
                        out.push((path.to_string(), b, x));
                    }
                    continue;
                }
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                find_bounds(child, &p, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                find_bounds(child, &format!("{path}[{i}]"), out, depth + 1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use skipper_runlog::reader::{ControllerSample, PoseSample};

    #[test]
    fn signal_words() {
        assert!(keep_signal("velocity.linear"));
        assert!(keep_signal("DEPTH"));
        assert!(keep_signal("auv.altitude"));
        assert!(keep_signal("HEIGHT_ABOVE_SEA_FLOOR"));
        assert!(keep_signal("SEA_FLOOR_DEPTH"));
        assert!(!keep_signal("sonar.3"));
    }

    #[test]
    fn changes_only_become_steps() {
        let s = [(0.0, 0.0), (1.0, 0.5), (3.0, 0.5), (4.0, 0.0)];
        assert_eq!(
            stepped(&s, 6.0),
            vec![
                (0.0, 0.0),
                (1.0, 0.0),
                (1.0, 0.5),
                (3.0, 0.5),
                (4.0, 0.5),
                (4.0, 0.0),
                (6.0, 0.0)
            ]
        );
    }

    #[test]
    fn heading_splits_at_the_wrap() {
        let s = [(0.0, 170.0), (1.0, 179.0), (2.0, -179.0), (3.0, -170.0)];
        let parts = split_wraps(&s);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[1][0], (2.0, -179.0));
    }

    #[test]
    fn speed_from_the_track_without_a_signal() {
        let r = RobotLog {
            poses: vec![
                PoseSample {
                    t: 0.0,
                    ..Default::default()
                },
                PoseSample {
                    t: 2.0,
                    x: 3.0,
                    y: 4.0,
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        assert_eq!(speed(&r), vec![(2.0, 2.5)]);
        assert_eq!(track_length(&r), 5.0);
    }

    #[test]
    fn envelopes_hold_while_present() {
        let st = |v: Value, t: f64| ControllerSample {
            t,
            controller: "m".into(),
            state: v,
        };
        let r = RobotLog {
            controller: vec![
                st(
                    json!({"DepthEnvelope": {"MIN_DEPTH": 5.0, "max_depth": 300}}),
                    0.0,
                ),
                st(json!({"DepthEnvelope": {"MIN_DEPTH": 5.0}}), 10.0),
                st(json!({}), 20.0),
            ],
            ..Default::default()
        };
        let e = envelopes(&r, 30.0);
        let min = e.iter().find(|b| b.bound == Bound::MinDepth).unwrap();
        assert_eq!((min.t0, min.t1, min.value), (0.0, 20.0, 5.0));
        let max = e.iter().find(|b| b.bound == Bound::MaxDepth).unwrap();
        assert_eq!((max.t0, max.t1, max.value), (0.0, 10.0, 300.0));
    }

    #[test]
    fn waypoints_from_states_and_events() {
        let mut rec = Recording {
            world: json!({"goals": [{"name": "dock", "x": 1.0, "y": 2.0}]}),
            ..Default::default()
        };
        rec.robots.push(RobotLog {
            controller: vec![ControllerSample {
                t: 0.0,
                controller: "m".into(),
                state: json!({"items": [{"name": "wp1", "x": 10.0, "y": 0.0, "capture_radius": 3.0}], "pose": {"x": 0.0, "y": 0.0}}),
            }],
            ..Default::default()
        });
        rec.events.push(skipper_runlog::reader::EventSample {
            robot: 0,
            t: 1.0,
            kind: "goal".into(),
            data: json!({"target": {"x": 4.0, "y": 4.0}}),
        });
        let w = waypoints(&rec);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[0].from_world);
        assert_eq!(w[1].radius, Some(3.0));
        assert_eq!(w[1].label, "wp1");
        assert_eq!((w[2].x, w[2].y, w[2].radius), (4.0, 4.0, None));
    }
}
