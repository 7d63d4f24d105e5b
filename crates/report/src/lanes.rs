//! The behavior timeline's lanes, read generically from what the engines log.
//!
//! Engines differ (XABSL activation paths, mission item states, link command statuses,
//! action goals), and each reports its own JSON, so nothing here knows an engine:
//!
//! - **`/controller` states**: every text or boolean leaf of the state is a lane, named by
//!   its path (`goal.status`, `path[play_soccer].state`); an array element that carries a
//!   name (`name`, `option`, `id`, `behavior`, `command`, `item`) is named by it rather
//!   than by its index, and gets a lane of its own that shows when it was present. A
//!   segment runs from the state that set the value until the value changes or disappears.
//!   Numbers (timers, distances) change every cycle and are left to the dashboard, and
//!   so is what the engine reads (top-level `input`, `input_link`, `inputs`).
//! - **`/events` with a status**: an event whose data has `status`, `state` or `to` is a
//!   status change of the thing it names (`id`, `goal_id`, `command_id`, `name`,
//!   `command`, `option`, `item`); each such thing is a lane, `kind name`.
//! - **other events** (collisions, speech, estop, ...) are marks on a lane per kind.

use serde_json::Value;
use skipper_runlog::reader::Recording;
use std::collections::BTreeMap;

/// Keys that name an array element or the subject of an event, in order of preference.
const NAME_KEYS: [&str; 7] = [
    "name", "option", "id", "goal_id", "behavior", "command", "item",
];
/// Keys that carry an event's new status, in order of preference.
const STATUS_KEYS: [&str; 4] = ["status", "state", "to", "value"];
/// Keys that name an event's subject, in order of preference.
const SUBJECT_KEYS: [&str; 8] = [
    "id",
    "goal_id",
    "command_id",
    "name",
    "command",
    "option",
    "item",
    "controller",
];

/// A flattened state at a time.
type Sample = (f64, BTreeMap<String, String>);

/// One stretch of time with one value.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Start (s).
    pub t0: f64,
    /// End (s).
    pub t1: f64,
    /// The value.
    pub value: String,
}

/// A moment worth marking.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// When (s).
    pub t: f64,
    /// What.
    pub text: String,
}

/// Where a lane comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// A leaf of the controller's state.
    Controller,
    /// Status events.
    Status,
    /// Other events.
    Events,
}

/// One row of the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// Index of the robot.
    pub robot: usize,
    /// Where it comes from.
    pub source: Source,
    /// Its label (a state path, `goal 3`, `collision`).
    pub label: String,
    /// Values over time.
    pub segments: Vec<Segment>,
    /// Moments.
    pub marks: Vec<Mark>,
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn name_of(v: &Value) -> Option<String> {
    let o = v.as_object()?;
    NAME_KEYS.iter().find_map(|k| match o.get(*k)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

/// Top-level keys of a state that hold what the engine reads, not what it decides (the
/// link's input-link mirror and its per-cycle diff, XABSL input symbols): sensor data,
/// plotted elsewhere, and as lanes they would crowd out the behavior.
const INPUT_KEYS: [&str; 3] = ["input", "input_link", "inputs"];

/// The text and boolean leaves of a state, by path (without its `INPUT_KEYS`).
pub fn flatten(state: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    match state {
        Value::Object(o) => {
            for (k, child) in o.iter().filter(|(k, _)| !INPUT_KEYS.contains(&k.as_str())) {
                walk(child, k.clone(), &mut out, 1);
            }
        }
        other => walk(other, String::new(), &mut out, 0),
    }
    out
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn walk(v: &Value, path: String, out: &mut BTreeMap<String, String>, depth: usize) {
    if depth > 16 {
        return;
    }
    match v {
        Value::Object(o) => {
            for (k, child) in o {
                walk(child, join(&path, k), out, depth + 1);
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                match name_of(child) {
                    Some(name) => {
                        let p = format!("{path}[{name}]");
                        out.insert(p.clone(), name);
                        if let Value::Object(o) = child {
                            for (k, grand) in o {
                                if NAME_KEYS.contains(&k.as_str()) {
                                    continue;
                                }
                                walk(grand, join(&p, k), out, depth + 2);
                            }
                        }
                    }
                    None => walk(child, format!("{path}[{i}]"), out, depth + 1),
                }
            }
        }
        other => {
            if let Some(t) = text_of(other) {
                out.insert(
                    if path.is_empty() {
                        "state".into()
                    } else {
                        path
                    },
                    t,
                );
            }
        }
    }
}

/// Lanes from a sequence of (time, flat state): a segment per value, closed when the
/// value changes or its path disappears; open segments end at `end`.
fn state_lanes(robot: usize, samples: &[(f64, BTreeMap<String, String>)], end: f64) -> Vec<Lane> {
    let mut lanes: BTreeMap<String, Lane> = BTreeMap::new();
    let mut open: BTreeMap<String, (f64, String)> = BTreeMap::new();
    for (t, flat) in samples {
        // close what changed or vanished
        let closing: Vec<String> = open
            .iter()
            .filter(|(p, (_, v))| flat.get(*p) != Some(v))
            .map(|(p, _)| p.clone())
            .collect();
        for p in closing {
            if let Some((t0, value)) = open.remove(&p) {
                push_segment(&mut lanes, robot, &p, t0, *t, value);
            }
        }
        for (p, v) in flat {
            open.entry(p.clone()).or_insert_with(|| (*t, v.clone()));
        }
    }
    for (p, (t0, value)) in open {
        push_segment(&mut lanes, robot, &p, t0, end.max(t0), value);
    }
    lanes.into_values().collect()
}

fn push_segment(
    lanes: &mut BTreeMap<String, Lane>,
    robot: usize,
    label: &str,
    t0: f64,
    t1: f64,
    value: String,
) {
    lanes
        .entry(label.to_string())
        .or_insert_with(|| Lane {
            robot,
            source: Source::Controller,
            label: label.to_string(),
            segments: Vec::new(),
            marks: Vec::new(),
        })
        .segments
        .push(Segment { t0, t1, value });
}

fn subject_of(data: &Value) -> Option<String> {
    let o = data.as_object()?;
    SUBJECT_KEYS.iter().find_map(|k| match o.get(*k)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

fn status_of(data: &Value) -> Option<String> {
    let o = data.as_object()?;
    STATUS_KEYS.iter().find_map(|k| o.get(*k).and_then(text_of))
}

/// A short text for an event mark.
pub fn event_text(kind: &str, data: &Value) -> String {
    let s = match data {
        Value::Null => kind.to_string(),
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let preferred = ["text", "message", "reason", "engaged", "with", "what"];
            match preferred.iter().find_map(|k| o.get(*k)) {
                Some(Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
                None => data.to_string(),
            }
        }
        v => v.to_string(),
    };
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// Every lane of the run, robot by robot: controller state lanes first, then status
/// lanes, then event marks.
pub fn lanes(rec: &Recording) -> Vec<Lane> {
    let end = rec.end_t;
    let mut all = Vec::new();
    for (i, r) in rec.robots.iter().enumerate() {
        let samples: Vec<(f64, BTreeMap<String, String>)> = r
            .controller
            .iter()
            .map(|s| (s.t, flatten(&s.state)))
            .collect();
        let state = state_lanes(i, &samples, end);
        let first = samples.first().map_or(0.0, |s| s.0);
        // an element that was there all along says nothing its own lanes do not
        let always = |l: &Lane| {
            l.label.ends_with(']')
                && l.segments.len() == 1
                && l.segments
                    .first()
                    .is_some_and(|s| s.t0 <= first && s.t1 >= end)
                && state
                    .iter()
                    .any(|o| o.label.len() > l.label.len() && o.label.starts_with(&l.label))
        };
        all.extend(state.iter().filter(|l| !always(l)).cloned());

        // status events, per (kind, subject)
        let mut status: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
        let mut marks: BTreeMap<String, Vec<Mark>> = BTreeMap::new();
        for e in rec.events.iter().filter(|e| e.robot == i) {
            match (status_of(&e.data), subject_of(&e.data)) {
                (Some(st), subject) => {
                    let label = match subject {
                        Some(s) => format!("{} {s}", e.kind),
                        None => e.kind.clone(),
                    };
                    let mut flat = BTreeMap::new();
                    flat.insert(label.clone(), st);
                    status.entry(label).or_default().push((e.t, flat));
                }
                _ => marks.entry(e.kind.clone()).or_default().push(Mark {
                    t: e.t,
                    text: event_text(&e.kind, &e.data),
                }),
            }
        }
        for (_, samples) in status {
            // a status holds until the next one of the same subject
            for mut lane in state_lanes_keep(i, &samples, end) {
                lane.source = Source::Status;
                all.push(lane);
            }
        }
        for (kind, m) in marks {
            all.push(Lane {
                robot: i,
                source: Source::Events,
                label: kind,
                segments: Vec::new(),
                marks: m,
            });
        }
    }
    all
}

/// Like [`state_lanes`], but each sample only replaces the paths it has (status events
/// say one thing each).
fn state_lanes_keep(
    robot: usize,
    samples: &[(f64, BTreeMap<String, String>)],
    end: f64,
) -> Vec<Lane> {
    let mut acc: BTreeMap<String, String> = BTreeMap::new();
    let full: Vec<(f64, BTreeMap<String, String>)> = samples
        .iter()
        .map(|(t, flat)| {
            acc.extend(flat.iter().map(|(k, v)| (k.clone(), v.clone())));
            (*t, acc.clone())
        })
        .collect();
    state_lanes(robot, &full, end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_the_engine_reads_is_not_a_lane() {
        let f = flatten(&json!({
            "agent": "robot1",
            "input": {"add": [{"attr": "x", "value": "1"}]},
            "input_link": {"self": {"name": "robot1"}},
            "inputs": {"ball.seen": true},
            "outputs": {"head.mode": "search"},
            "commands": [{"command": "stop", "status": "complete"}],
        }));
        assert_eq!(f.get("agent").map(String::as_str), Some("robot1"));
        assert_eq!(
            f.get("outputs.head.mode").map(String::as_str),
            Some("search")
        );
        assert_eq!(
            f.get("commands[stop].status").map(String::as_str),
            Some("complete")
        );
        assert!(f.keys().all(|k| !k.starts_with("input")), "{f:?}");
    }

    #[test]
    fn flattening_names_array_elements() {
        let s = json!({
            "path": [
                {"option": "play_soccer", "state": "playing", "option_time": 3.0},
                {"option": "go_to_ball", "state": "approach"}
            ],
            "goal": {"status": "active", "distance": 2.0},
            "halted": false,
            "list": ["a", "b"]
        });
        let f = flatten(&s);
        assert_eq!(f["path[play_soccer]"], "play_soccer");
        assert_eq!(f["path[play_soccer].state"], "playing");
        assert_eq!(f["path[go_to_ball].state"], "approach");
        assert_eq!(f["goal.status"], "active");
        assert_eq!(f["halted"], "false");
        assert_eq!(f["list[1]"], "b");
        assert!(!f.contains_key("goal.distance"));
        assert!(!f.contains_key("path[play_soccer].option_time"));
    }

    #[test]
    fn segments_close_when_values_change_or_vanish() {
        let mk = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>()
        };
        let samples = vec![
            (0.0, mk(&[("a", "x"), ("b", "on")])),
            (1.0, mk(&[("a", "y"), ("b", "on")])),
            (2.0, mk(&[("a", "y")])),
        ];
        let l = state_lanes(0, &samples, 5.0);
        let a = l.iter().find(|l| l.label == "a").unwrap();
        assert_eq!(
            a.segments,
            vec![
                Segment {
                    t0: 0.0,
                    t1: 1.0,
                    value: "x".into()
                },
                Segment {
                    t0: 1.0,
                    t1: 5.0,
                    value: "y".into()
                }
            ]
        );
        let b = l.iter().find(|l| l.label == "b").unwrap();
        assert_eq!(b.segments.len(), 1);
        assert_eq!(b.segments[0].t1, 2.0);
    }

    #[test]
    fn event_texts_are_short() {
        assert_eq!(event_text("speech", &json!({"text": "hello"})), "hello");
        assert_eq!(event_text("estop", &json!({"engaged": true})), "true");
        let long = "x".repeat(100);
        assert_eq!(
            event_text("speech", &json!({ "text": long }))
                .chars()
                .count(),
            61
        );
    }
}
