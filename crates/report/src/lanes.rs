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
//!
//! Lanes are built while the log is read ([`RobotLanes`], one per robot), from one state
//! or event at a time, and a lane keeps at most [`MAX_SEGMENTS`] segments and marks
//! (neighbours merge beyond that, as a plot of that width would draw them), so what a
//! run's timeline takes does not grow with the length of the run.

use serde_json::Value;
use std::collections::BTreeMap;

/// Segments (and marks) a lane keeps at most: more than a plot's width in pixels.
pub const MAX_SEGMENTS: usize = 2000;

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
pub fn lanes(d: &crate::Digest) -> Vec<Lane> {
    d.lanes()
}

/// One robot's lanes, built one state and one event at a time.
#[derive(Debug, Clone, Default)]
pub struct RobotLanes {
    robot: usize,
    /// controller state lanes, by path
    state: BTreeMap<String, Lane>,
    /// the values of the state last seen, by path, since when
    open: BTreeMap<String, (f64, String)>,
    /// when the first state came
    first: Option<f64>,
    /// status lanes, by `kind subject`, and the status each holds since when
    status: BTreeMap<String, Lane>,
    status_open: BTreeMap<String, (f64, String)>,
    /// event marks, by kind
    marks: BTreeMap<String, Lane>,
}

impl RobotLanes {
    /// The lanes of robot `robot`.
    pub fn new(robot: usize) -> Self {
        Self {
            robot,
            ..Self::default()
        }
    }

    /// The controller's state at `t`: values that changed or vanished close their segment.
    pub fn state(&mut self, t: f64, state: &Value) {
        let flat = flatten(state);
        self.first.get_or_insert(t);
        let closing: Vec<String> = self
            .open
            .iter()
            .filter(|(p, (_, v))| flat.get(*p) != Some(v))
            .map(|(p, _)| p.clone())
            .collect();
        for p in closing {
            if let Some((t0, value)) = self.open.remove(&p) {
                let lane = lane_of(&mut self.state, self.robot, Source::Controller, &p);
                push_segment(lane, Segment { t0, t1: t, value });
            }
        }
        for (p, v) in flat {
            self.open.entry(p).or_insert((t, v));
        }
    }

    /// An event at `t`: a status change of what it names, or a mark.
    pub fn event(&mut self, t: f64, kind: &str, data: &Value) {
        let Some(st) = status_of(data) else {
            let lane = lane_of(&mut self.marks, self.robot, Source::Events, kind);
            push_mark(
                lane,
                Mark {
                    t,
                    text: event_text(kind, data),
                },
            );
            return;
        };
        let label = match subject_of(data) {
            Some(s) => format!("{kind} {s}"),
            None => kind.to_string(),
        };
        match self.status_open.get(&label) {
            Some((_, v)) if *v == st => {}
            _ => {
                if let Some((t0, value)) = self.status_open.insert(label.clone(), (t, st)) {
                    let lane = lane_of(&mut self.status, self.robot, Source::Status, &label);
                    push_segment(lane, Segment { t0, t1: t, value });
                }
                lane_of(&mut self.status, self.robot, Source::Status, &label);
            }
        }
    }

    /// The lanes at the end of the run (`end`): controller state lanes first, then status
    /// lanes, then event marks.
    pub fn finish(&self, end: f64) -> Vec<Lane> {
        let mut state = self.state.clone();
        for (p, (t0, value)) in &self.open {
            let lane = lane_of(&mut state, self.robot, Source::Controller, p);
            let t1 = end.max(*t0);
            push_segment(
                lane,
                Segment {
                    t0: *t0,
                    t1,
                    value: value.clone(),
                },
            );
        }
        let first = self.first.unwrap_or(0.0);
        let state: Vec<Lane> = state.into_values().collect();
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
        let mut all: Vec<Lane> = state.iter().filter(|l| !always(l)).cloned().collect();
        let mut status = self.status.clone();
        for (label, (t0, value)) in &self.status_open {
            let lane = lane_of(&mut status, self.robot, Source::Status, label);
            let t1 = end.max(*t0);
            push_segment(
                lane,
                Segment {
                    t0: *t0,
                    t1,
                    value: value.clone(),
                },
            );
        }
        all.extend(status.into_values());
        all.extend(self.marks.values().cloned());
        all
    }
}

fn lane_of<'a>(
    lanes: &'a mut BTreeMap<String, Lane>,
    robot: usize,
    source: Source,
    label: &str,
) -> &'a mut Lane {
    lanes.entry(label.to_string()).or_insert_with(|| Lane {
        robot,
        source,
        label: label.to_string(),
        segments: Vec::new(),
        marks: Vec::new(),
    })
}

/// Add a segment; a lane that is full merges neighbours (each pair becomes the value that
/// held longer).
fn push_segment(lane: &mut Lane, s: Segment) {
    if lane.segments.len() >= MAX_SEGMENTS {
        lane.segments = lane
            .segments
            .chunks(2)
            .filter_map(|pair| pair.iter().cloned().reduce(merge))
            .collect();
    }
    lane.segments.push(s);
}

/// Two neighbouring segments as one, with the value that held longer.
fn merge(a: Segment, b: Segment) -> Segment {
    let value = if b.t1 - b.t0 > a.t1 - a.t0 {
        b.value
    } else {
        a.value
    };
    Segment {
        t0: a.t0,
        t1: b.t1,
        value,
    }
}

/// Add a mark; a lane that is full keeps every other one.
fn push_mark(lane: &mut Lane, m: Mark) {
    if lane.marks.len() >= MAX_SEGMENTS {
        let mut k = 0;
        lane.marks.retain(|_| {
            k += 1;
            k % 2 == 1
        });
    }
    lane.marks.push(m);
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
        let mut l = RobotLanes::new(0);
        l.state(0.0, &json!({"a": "x", "b": "on"}));
        l.state(1.0, &json!({"a": "y", "b": "on"}));
        l.state(2.0, &json!({"a": "y"}));
        let lanes = l.finish(5.0);
        let a = lanes.iter().find(|l| l.label == "a").unwrap();
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
        let b = lanes.iter().find(|l| l.label == "b").unwrap();
        assert_eq!(b.segments.len(), 1);
        assert_eq!(b.segments[0].t1, 2.0);
    }

    #[test]
    fn statuses_hold_until_the_next_and_other_events_are_marks() {
        let mut l = RobotLanes::new(0);
        l.event(1.0, "goal", &json!({"id": 3, "status": "active"}));
        l.event(2.0, "goal", &json!({"id": 3, "status": "active"}));
        l.event(4.0, "goal", &json!({"id": 3, "status": "succeeded"}));
        l.event(5.0, "speech", &json!({"text": "hi"}));
        let lanes = l.finish(10.0);
        let goal = lanes.iter().find(|l| l.label == "goal 3").unwrap();
        let values: Vec<(f64, f64, &str)> = goal
            .segments
            .iter()
            .map(|s| (s.t0, s.t1, s.value.as_str()))
            .collect();
        assert_eq!(values, [(1.0, 4.0, "active"), (4.0, 10.0, "succeeded")]);
        assert_eq!(goal.source, Source::Status);
        let speech = lanes.iter().find(|l| l.label == "speech").unwrap();
        assert_eq!(speech.marks.len(), 1);
    }

    #[test]
    fn a_lane_that_flips_every_cycle_stays_bounded() {
        let mut l = RobotLanes::new(0);
        for k in 0..100_000 {
            let v = if k % 2 == 0 { "on" } else { "off" };
            l.state(f64::from(k) * 0.1, &json!({ "x": v }));
            l.event(f64::from(k) * 0.1, "tick", &json!({}));
        }
        let lanes = l.finish(1e4);
        assert!(lanes.iter().all(|l| l.segments.len() <= MAX_SEGMENTS + 1));
        assert!(lanes.iter().all(|l| l.marks.len() <= MAX_SEGMENTS + 1));
        let x = lanes.iter().find(|l| l.label == "x").unwrap();
        assert_eq!(x.segments.first().map(|s| s.t0), Some(0.0));
        assert_eq!(x.segments.last().map(|s| s.t1), Some(1e4));
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
