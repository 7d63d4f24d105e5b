//! What the report computes from signals and states besides the decimated series: which
//! signals it reads and what each is ([`Role`]), heading lines split where they wrap,
//! the marks drawn on the map and the profiles (waypoints with capture circles, depth and
//! altitude envelopes), each found one state or event at a time.

use serde_json::Value;
use skipper_core::vocabulary::ground::VELOCITY_LINEAR;

/// What a signal the report reads is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// `velocity.linear` (m/s)
    Speed,
    /// depth (m, down)
    Depth,
    /// altitude above the sea floor (`ALTITUDE`, `HEIGHT_ABOVE_SEA_FLOOR`)
    Altitude,
    /// the depth of the sea floor (`SEA_FLOOR_DEPTH`)
    SeaFloor,
}

/// The role of signal `name`, if the report reads it: `velocity.linear`, and depth,
/// altitude and sea floor by the last word of the name (any prefix, any case).
pub fn role_of(name: &str) -> Option<Role> {
    if name == VELOCITY_LINEAR.name {
        return Some(Role::Speed);
    }
    let word = last_word(name);
    let is = |w: &str| word.eq_ignore_ascii_case(w);
    if is("depth") {
        Some(Role::Depth)
    } else if is("altitude") || is("height_above_sea_floor") {
        Some(Role::Altitude)
    } else if is("sea_floor_depth") {
        Some(Role::SeaFloor)
    } else {
        None
    }
}

/// The signals the report reads (the others are skipped while reading).
pub fn keep_signal(name: &str) -> bool {
    role_of(name).is_some()
}

/// The last word of a signal name (`auv.DEPTH` → `DEPTH`).
fn last_word(name: &str) -> &str {
    name.rsplit(['.', '/', ':']).next().unwrap_or(name)
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

/// Waypoints found in a state or an event: every object with numeric `x` and `y` that
/// either has a capture radius (`capture_radius`, `radius`, `tolerance`) or sits under a
/// key that says so (`waypoint`, `target`, `goal`, `wp`), added to `out` unless it is
/// there already; at most [`MAX_WAYPOINTS`] in all.
pub fn add_waypoints(v: &Value, out: &mut Vec<Waypoint>) {
    let mut found = Vec::new();
    find_waypoints(v, "", false, &mut found, 0);
    for w in found {
        let dup = out
            .iter()
            .any(|o| (o.x - w.x).abs() < 1e-6 && (o.y - w.y).abs() < 1e-6 && o.radius == w.radius);
        if !dup && out.len() < MAX_WAYPOINTS {
            out.push(w);
        }
    }
}

/// The world's goals and the waypoints found in the run's states and events.
pub fn waypoints(d: &crate::Digest) -> Vec<Waypoint> {
    d.waypoints.clone()
}

/// Waypoints kept at most.
pub const MAX_WAYPOINTS: usize = 500;

/// The world's goals, as waypoints.
pub fn world_goals(world: &Value) -> Vec<Waypoint> {
    let mut out = Vec::new();
    for g in world
        .get("goals")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
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

/// A robot's envelope bounds, followed one controller state at a time: numeric leaves
/// named `min_depth`, `max_depth`, `min_altitude`, `max_altitude` (any case), each for as
/// long as the state had it with the same value.
#[derive(Debug, Clone, Default)]
pub struct Envelopes {
    closed: Vec<EnvelopeBound>,
    open: Vec<EnvelopeBound>,
}

/// Envelope bounds kept at most per robot.
const MAX_BOUNDS: usize = 2000;

impl Envelopes {
    /// The controller's state at `t`.
    pub fn state(&mut self, t: f64, state: &Value) {
        let mut now = Vec::new();
        find_bounds(state, "", &mut now, 0);
        let mut still = Vec::new();
        for o in self.open.drain(..) {
            if now
                .iter()
                .any(|(l, b, v)| *l == o.label && *b == o.bound && *v == o.value)
            {
                still.push(o);
            } else if self.closed.len() < MAX_BOUNDS {
                self.closed.push(EnvelopeBound { t1: t, ..o });
            }
        }
        for (label, bound, value) in now {
            if !still.iter().any(|o| o.label == label && o.bound == bound) {
                still.push(EnvelopeBound {
                    bound,
                    value,
                    t0: t,
                    t1: t,
                    label,
                });
            }
        }
        self.open = still;
    }

    /// The bounds, those still open ending at `end`.
    pub fn finish(&self, end: f64) -> Vec<EnvelopeBound> {
        let mut out = self.closed.clone();
        out.extend(self.open.iter().map(|o| EnvelopeBound {
            t1: end.max(o.t0),
            ..o.clone()
        }));
        out
    }
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

    #[test]
    fn signal_words() {
        assert!(keep_signal("velocity.linear"));
        assert!(keep_signal("DEPTH"));
        assert!(keep_signal("auv.altitude"));
        assert_eq!(role_of("HEIGHT_ABOVE_SEA_FLOOR"), Some(Role::Altitude));
        assert_eq!(role_of("SEA_FLOOR_DEPTH"), Some(Role::SeaFloor));
        assert!(!keep_signal("sonar.3"));
    }

    #[test]
    fn heading_splits_at_the_wrap() {
        let s = [(0.0, 170.0), (1.0, 179.0), (2.0, -179.0), (3.0, -170.0)];
        let parts = split_wraps(&s);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[1][0], (2.0, -179.0));
    }

    #[test]
    fn envelopes_hold_while_present() {
        let mut e = Envelopes::default();
        e.state(
            0.0,
            &json!({"DepthEnvelope": {"MIN_DEPTH": 5.0, "max_depth": 300}}),
        );
        e.state(10.0, &json!({"DepthEnvelope": {"MIN_DEPTH": 5.0}}));
        e.state(20.0, &json!({}));
        let e = e.finish(30.0);
        let min = e.iter().find(|b| b.bound == Bound::MinDepth).unwrap();
        assert_eq!((min.t0, min.t1, min.value), (0.0, 20.0, 5.0));
        let max = e.iter().find(|b| b.bound == Bound::MaxDepth).unwrap();
        assert_eq!((max.t0, max.t1, max.value), (0.0, 10.0, 300.0));
    }

    #[test]
    fn waypoints_from_states_and_events() {
        let mut w = world_goals(&json!({"goals": [{"name": "dock", "x": 1.0, "y": 2.0}]}));
        let state = json!({"items": [{"name": "wp1", "x": 10.0, "y": 0.0, "capture_radius": 3.0}], "pose": {"x": 0.0, "y": 0.0}});
        add_waypoints(&state, &mut w);
        add_waypoints(&state, &mut w);
        add_waypoints(&json!({"target": {"x": 4.0, "y": 4.0}}), &mut w);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[0].from_world);
        assert_eq!(w[1].radius, Some(3.0));
        assert_eq!(w[1].label, "wp1");
        assert_eq!((w[2].x, w[2].y, w[2].radius), (4.0, 4.0, None));
    }
}
