//! The JSON wire form: one JSON object per line, in both directions.
//!
//! From the agent's side (a Soar bridge, a client of `skipper link serve`):
//!
//! - `{"type":"hello","agent":"NAME","robot":"robot1"}`: who is connecting (all optional);
//! - `{"type":"step","dc":N,"commands":[...],"ids":{...},"removed":[tt...],"print":[...]}`:
//!   the output-link commands new in decision cycle `N`. A command is
//!   `{"tt":T,"name":"set-velocity","attrs":[["linear-velocity",{"f":0.5}],...]}` where a
//!   value is `{"i":INT}`, `{"f":FLOAT}`, `{"s":"STRING"}` or `{"id":"NAME"}`; the
//!   children of every identifier reachable from a new command are in `ids` by name
//!   (flat, so word lists of any length and cycles decode safely). `removed` lists the
//!   timetags of commands no longer on the output-link; `print` is what the agent wrote;
//! - `{"type":"halted","dc":N}`: the agent halted; `{"type":"error","message":"..."}`;
//! - `{"type":"tell","to":"robot2","from":"http","text":"go to the kitchen"}`: a message
//!   for an agent's received-messages (from outside, as the reference's HTTP front-end).
//!
//! From Skipper: `{"type":"input","cycle":C,"statuses":[...],"remove":[w...],"add":[...],
//! "update":[...]}` (see [`encode_input`]), and `{"type":"welcome",...}` /
//! `{"type":"error",...}` on connection.

use crate::output::StatusUpdate;
use crate::tree::{Diff, Val};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A constant or identifier value of an output-link WME.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Param {
    /// an integer constant
    #[serde(rename = "i")]
    Int(i64),
    /// a float constant
    #[serde(rename = "f")]
    Float(f64),
    /// a string constant
    #[serde(rename = "s")]
    Str(String),
    /// an identifier, by name; its children are in the step's `ids`
    #[serde(rename = "id")]
    Id(String),
}

impl Param {
    /// The value as Soar prints it (identifiers by name).
    pub fn as_text(&self) -> String {
        match self {
            Param::Int(i) => i.to_string(),
            Param::Float(f) => f.to_string(),
            Param::Str(s) | Param::Id(s) => s.clone(),
        }
    }
}

/// The attributes of an identifier: `(attribute, value)` in output-link order.
pub type Attrs = Vec<(String, Param)>;

/// Identifiers reachable from new commands, by name.
pub type IdTable = HashMap<String, Attrs>;

/// One output-link command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Command {
    /// the timetag of the `^name <id>` WME
    pub tt: i64,
    /// the command name (the attribute)
    pub name: String,
    /// its parameters
    #[serde(default)]
    pub attrs: Attrs,
}

impl Command {
    /// The first value of an attribute.
    pub fn get(&self, attr: &str) -> Option<&Param> {
        self.attrs.iter().find(|(a, _)| a == attr).map(|(_, v)| v)
    }
}

/// The commands of one decision cycle.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// decision cycle number
    #[serde(default)]
    pub dc: u64,
    /// new commands, in output-link order
    #[serde(default)]
    pub commands: Vec<Command>,
    /// children of identifiers reachable from them
    #[serde(default)]
    pub ids: IdTable,
    /// timetags of commands gone from the output-link
    #[serde(default)]
    pub removed: Vec<i64>,
    /// what the agent printed (`write`) in this decision cycle
    #[serde(default)]
    pub print: Vec<String>,
    /// the agent halted in this decision cycle
    #[serde(default)]
    pub halted: bool,
}

impl Step {
    /// Forget everything (keeping capacity).
    pub fn clear(&mut self) {
        self.dc = 0;
        self.commands.clear();
        self.ids.clear();
        self.removed.clear();
        self.print.clear();
        self.halted = false;
    }
}

/// A message from the agent's side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentMessage {
    /// who is connecting
    Hello {
        /// the agent's name
        #[serde(default)]
        agent: Option<String>,
        /// the robot it wants to drive
        #[serde(default)]
        robot: Option<String>,
        /// the Soar version, for the log
        #[serde(default)]
        soar: Option<String>,
    },
    /// one decision cycle's output
    Step(Step),
    /// the agent halted
    Halted {
        /// decision cycles run
        #[serde(default)]
        dc: u64,
    },
    /// the agent's side failed
    Error {
        /// what went wrong
        message: String,
    },
    /// a text message for an agent's received-messages
    Tell {
        /// the agent (robot name); none: the connection's own agent
        #[serde(default)]
        to: Option<String>,
        /// the sender (default `http`, as in the reference)
        #[serde(default)]
        from: Option<String>,
        /// the text, split into words at white space
        text: String,
    },
}

/// Decode one line from the agent's side.
pub fn decode(line: &str) -> Result<AgentMessage, crate::LinkError> {
    serde_json::from_str(line).map_err(|e| crate::LinkError::Decode(e.to_string()))
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    // serde_json escapes without allocating
    let _ = serde_json::to_writer(&mut *out, s);
}

fn write_int(out: &mut Vec<u8>, i: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
}

fn write_val(out: &mut Vec<u8>, v: &Val) {
    match v {
        Val::Int(i) => {
            out.extend_from_slice(b"\"t\":\"int\",\"v\":");
            write_int(out, *i);
        }
        Val::Float(f) => {
            out.extend_from_slice(b"\"t\":\"float\",\"v\":");
            // always with a decimal point or exponent, so a reader keeps the type
            let f = if f.is_finite() { *f } else { 0.0 };
            out.extend_from_slice(ryu::Buffer::new().format_finite(f).as_bytes());
        }
        Val::Str(s) => {
            out.extend_from_slice(b"\"t\":\"string\",\"v\":");
            write_str(out, s);
        }
        Val::Id => out.extend_from_slice(b"\"t\":\"id\""),
    }
}

/// Encode an `input` message (statuses, then the tree diff) as one line into `out`
/// (cleared first). Allocates nothing once `out` has grown to size.
///
/// `{"type":"input","cycle":C,"statuses":[{"tt":T,"command":"stop","status":"accepted"},
/// {"tt":T,"command":"x","status":"error","message":"..."}],"remove":[W,...],
/// "add":[{"w":W,"p":PARENT,"a":"ATTR","t":"float","v":1.0},{"w":W,"p":P,"a":"self","t":"id"}],
/// "update":[{"w":W,"t":"int","v":3}]}`
pub fn encode_input(out: &mut Vec<u8>, cycle: u64, statuses: &[StatusUpdate], diff: &Diff) {
    out.clear();
    out.extend_from_slice(b"{\"type\":\"input\",\"cycle\":");
    write_int(out, cycle);
    out.extend_from_slice(b",\"statuses\":[");
    for (k, s) in statuses.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"tt\":");
        write_int(out, s.tt);
        out.extend_from_slice(b",\"command\":");
        write_str(out, s.command);
        out.extend_from_slice(b",\"status\":");
        write_str(out, s.status.as_str());
        if let Some(m) = &s.message {
            out.extend_from_slice(b",\"message\":");
            write_str(out, m);
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"],\"remove\":[");
    for (k, w) in diff.removes.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        write_int(out, *w);
    }
    out.extend_from_slice(b"],\"add\":[");
    for (k, a) in diff.adds.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"w\":");
        write_int(out, a.w);
        out.extend_from_slice(b",\"p\":");
        write_int(out, a.parent);
        out.extend_from_slice(b",\"a\":");
        write_str(out, a.attr);
        out.push(b',');
        write_val(out, &a.value);
        out.push(b'}');
    }
    out.extend_from_slice(b"],\"update\":[");
    for (k, (w, v)) in diff.updates.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"w\":");
        write_int(out, *w);
        out.push(b',');
        write_val(out, v);
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
}

/// The same `input` message as a JSON value (for the run log's `/controller` topic).
pub fn input_json(cycle: u64, statuses: &[StatusUpdate], diff: &Diff) -> serde_json::Value {
    let mut buf = Vec::new();
    encode_input(&mut buf, cycle, statuses, diff);
    serde_json::from_slice(&buf).unwrap_or(serde_json::Value::Null)
}

/// Building identifier tables by hand (tests, simple clients).
pub trait IdTableExt {
    /// Add a word list `first -> ... -> nil` whose first node is named `first`.
    fn add_word_list(&mut self, first: &str, words: &[&str]);
}

impl IdTableExt for IdTable {
    fn add_word_list(&mut self, first: &str, words: &[&str]) {
        for (k, w) in words.iter().enumerate() {
            let name = if k == 0 {
                first.to_string()
            } else {
                format!("{first}.{k}")
            };
            let next = if k + 1 == words.len() {
                Param::Str("nil".into())
            } else {
                Param::Id(format!("{first}.{}", k + 1))
            };
            self.insert(
                name,
                vec![
                    ("word".into(), Param::Str((*w).into())),
                    ("next".into(), next),
                ],
            );
        }
    }
}

/// A signal table and the ids of its pose and laser signals.
type FuzzSignals = (
    skipper_core::Signals,
    Vec<skipper_core::SignalId>,
    Vec<skipper_core::SignalId>,
);

/// The fuzzed link's signal table (a Pioneer's pose and laser) and the ids of its pose
/// and laser signals: declared once, then cloned for each input (declaring was a quarter
/// of an input's time).
fn fuzz_signals() -> FuzzSignals {
    use skipper_core::vocabulary::ground;
    static TABLE: std::sync::OnceLock<FuzzSignals> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut signals = skipper_core::Signals::new();
            let pose = [&ground::POSE_X, &ground::POSE_Y, &ground::POSE_YAW]
                .iter()
                .map(|spec| spec.declare(&mut signals))
                .collect();
            let laser = (0..180)
                .map(|k| ground::LASER.declare(&mut signals, k))
                .collect();
            (signals, pose, laser)
        })
        .clone()
}

/// One fuzzing input: its lines are messages from an agent, one per cycle, run through
/// a link with a signal table like a Pioneer's (steps and tells; the robot moves a little
/// each cycle), so sequences of commands (preemption, running commands, waypoints and
/// messages across cycles) are covered too. Lines that do not decode are skipped, as
/// bad lines are refused. Never panics (the fuzz target and the corpus test call this).
pub fn fuzz_one(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (mut signals, pose, laser) = fuzz_signals();
    let sense = |signals: &mut skipper_core::Signals, cycle: u64| {
        let now = std::time::Duration::from_millis(50 * cycle);
        signals.begin_cycle();
        let c = cycle as f64;
        for (k, id) in pose.iter().enumerate() {
            signals.set_f64(*id, 0.5 + 0.01 * c * (k as f64 + 1.0), now);
        }
        for (k, id) in laser.iter().enumerate() {
            signals.set_f64(*id, 2.0 + ((k as u64 + cycle) % 7) as f64, now);
        }
    };
    sense(&mut signals, 0);
    let post = crate::PostOffice::new();
    post.register("robot2");
    let mut link =
        crate::Link::new(crate::LinkConfig::new("robot1")).with_post_office(post.clone());
    if link.start(&signals, std::time::Duration::ZERO).is_err() {
        return;
    }
    let mut act = skipper_core::Actuation::default();
    let mut up = crate::Update::default();
    let mut out = Vec::new();
    let empty = Step::default();
    let mut cycle = 0u64;
    for line in text.lines().take(64) {
        let Ok(msg) = decode(line) else { continue };
        let step = match msg {
            AgentMessage::Step(s) => s,
            AgentMessage::Tell { to, from, text } => {
                let _ = post.tell(to.as_deref().unwrap_or("robot1"), from.as_deref(), &text);
                Step::default()
            }
            _ => continue,
        };
        for s in [&step, &empty] {
            cycle += 1;
            sense(&mut signals, cycle);
            act.clear();
            let now = std::time::Duration::from_millis(50 * cycle);
            link.cycle(s, &signals, now, cycle, &mut act);
            link.take(&mut up);
            encode_input(&mut out, cycle, &up.statuses, &up.diff);
            debug_assert!(serde_json::from_slice::<serde_json::Value>(&out).is_ok());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_decode() {
        let line = r#"{"type":"step","dc":3,"commands":[{"tt":41,"name":"add-waypoint","attrs":[["id",{"i":1}],["x",{"f":1.5}],["y",{"id":"X1"}]]}],"ids":{"X1":[]}}"#;
        let AgentMessage::Step(s) = decode(line).unwrap() else {
            panic!("not a step")
        };
        assert_eq!(s.dc, 3);
        let c = &s.commands[0];
        assert_eq!(c.get("id"), Some(&Param::Int(1)));
        assert_eq!(c.get("x"), Some(&Param::Float(1.5)));
        assert_eq!(c.get("y"), Some(&Param::Id("X1".into())));
        assert!(decode("{\"type\":\"step\",\"commands\":[{\"tt\":\"x\"}]}").is_err());
        assert!(decode("not json").is_err());
    }

    #[test]
    fn floats_keep_their_type_on_the_wire() {
        let mut t = crate::tree::Tree::new();
        let mut d = Diff::default();
        t.add(0, "x", Val::Float(1.0));
        t.add(0, "n", Val::Int(1));
        t.add(0, "s", Val::str("a \"b\""));
        t.take_diff(&mut d);
        let v = input_json(7, &[], &d);
        assert_eq!(v["add"][0]["v"].as_f64(), Some(1.0));
        assert!(v["add"][0]["v"].is_f64());
        assert!(v["add"][1]["v"].is_i64());
        assert_eq!(v["add"][2]["v"], "a \"b\"");
        assert_eq!(v["cycle"], 7);
    }
}
