//! Signals: the named, typed, time-stamped values a vehicle senses into and controllers read.
//!
//! A vehicle declares its signals once (`pose.x`, `sonar.3`, `DEPTH`, ...) and gets a
//! [`SignalId`] for each; from then on it writes by id, which neither hashes nor allocates.
//! Each signal keeps two times: when its last *new datum* arrived (every [`Signals::set`],
//! even with an equal value — what Tethys `ELAPSED` asks) and when its value last
//! *changed* (what the run log records per cycle).

use crate::units::Unit;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// A signal's value.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// No valid value (never read, sensor invalid).
    #[default]
    None,
    /// A truth value.
    Bool(bool),
    /// An integer (counts, bit fields, enums).
    Int(i64),
    /// A real number, in the signal's unit.
    Float(f64),
    /// Text.
    Text(Arc<str>),
    /// A geographic position in degrees.
    Position {
        /// latitude (deg)
        lat: f64,
        /// longitude (deg)
        lon: f64,
    },
}

impl PartialEq for Value {
    /// Equality as "the same datum": floats compare bit for bit, so NaN equals NaN.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::None, Value::None) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Text(a), Value::Text(b)) => a == b,
            (Value::Position { lat: a, lon: b }, Value::Position { lat: c, lon: d }) => {
                a.to_bits() == c.to_bits() && b.to_bits() == d.to_bits()
            }
            _ => false,
        }
    }
}

impl Value {
    /// The value as a number: floats as they are, integers converted, booleans as 0/1.
    /// `None` for no value, text, positions and NaN.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float(f) if !f.is_nan() => Some(f),
            Value::Int(i) => Some(i as f64),
            Value::Bool(b) => Some(if b { 1.0 } else { 0.0 }),
            _ => None,
        }
    }
    /// The value as a truth value: booleans as they are, numbers true when non-zero.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => self.as_f64().map(|f| f != 0.0),
        }
    }
    /// The value as an integer (floats rounded toward zero).
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(i) => Some(i),
            _ => self.as_f64().map(|f| f as i64),
        }
    }
    /// The text, if the value is text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Text(t) => Some(t),
            _ => None,
        }
    }
    /// `true` unless the value is `None` or a NaN float.
    pub fn is_valid(&self) -> bool {
        match self {
            Value::None => false,
            Value::Float(f) => !f.is_nan(),
            _ => true,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::None => f.write_str("none"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Text(t) => f.write_str(t),
            Value::Position { lat, lon } => write!(f, "({lat}, {lon})"),
        }
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.into())
    }
}

/// The handle of a declared signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SignalId(u32);

impl SignalId {
    /// The index of the signal in its table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone)]
struct Entry {
    name: Arc<str>,
    unit: Option<&'static Unit>,
    value: Value,
    updated_at: Option<Duration>,
    changed_at: Option<Duration>,
    changed_cycle: u64,
}

/// The signal table of one vehicle.
#[derive(Debug, Clone, Default)]
pub struct Signals {
    entries: Vec<Entry>,
    index: HashMap<Arc<str>, SignalId>,
    cycle: u64,
}

impl Signals {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declare a signal (or find it, if already declared) and return its id. The unit is
    /// the one its numbers are in; a later declaration does not change it.
    pub fn declare(&mut self, name: &str, unit: Option<&'static Unit>) -> SignalId {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = SignalId(self.entries.len() as u32);
        let name: Arc<str> = name.into();
        self.entries.push(Entry {
            name: name.clone(),
            unit,
            value: Value::None,
            updated_at: None,
            changed_at: None,
            changed_cycle: 0,
        });
        self.index.insert(name, id);
        id
    }

    /// The id of a declared signal.
    pub fn id(&self, name: &str) -> Option<SignalId> {
        self.index.get(name).copied()
    }

    /// The number of declared signals.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when nothing is declared.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A signal's name.
    pub fn name(&self, id: SignalId) -> &str {
        self.entries.get(id.index()).map_or("", |e| &e.name)
    }

    /// A signal's unit.
    pub fn unit(&self, id: SignalId) -> Option<&'static Unit> {
        self.entries.get(id.index()).and_then(|e| e.unit)
    }

    /// Start a new cycle: "changed this cycle" is measured from here.
    pub fn begin_cycle(&mut self) {
        self.cycle += 1;
    }

    /// The current cycle number (starts at 0, +1 per [`Signals::begin_cycle`]).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Record a new datum at time `now`.
    pub fn set(&mut self, id: SignalId, value: Value, now: Duration) {
        let cycle = self.cycle;
        if let Some(e) = self.entries.get_mut(id.index()) {
            e.updated_at = Some(now);
            if e.value != value || e.changed_at.is_none() {
                e.value = value;
                e.changed_at = Some(now);
                e.changed_cycle = cycle;
            }
        }
    }

    /// Record a new number.
    pub fn set_f64(&mut self, id: SignalId, v: f64, now: Duration) {
        self.set(id, Value::Float(v), now);
    }

    /// Record a new truth value.
    pub fn set_bool(&mut self, id: SignalId, v: bool, now: Duration) {
        self.set(id, Value::Bool(v), now);
    }

    /// Record a new integer.
    pub fn set_i64(&mut self, id: SignalId, v: i64, now: Duration) {
        self.set(id, Value::Int(v), now);
    }

    /// Declare (if needed) and set by name: convenient, but it hashes; hot paths use ids.
    pub fn set_named(
        &mut self,
        name: &str,
        unit: Option<&'static Unit>,
        value: Value,
        now: Duration,
    ) {
        let id = self.declare(name, unit);
        self.set(id, value, now);
    }

    /// Mark a signal invalid (a new datum of "no value").
    pub fn invalidate(&mut self, id: SignalId, now: Duration) {
        self.set(id, Value::None, now);
    }

    /// A signal's value (`Value::None` for an unknown id).
    pub fn get(&self, id: SignalId) -> &Value {
        static NONE: Value = Value::None;
        self.entries.get(id.index()).map_or(&NONE, |e| &e.value)
    }

    /// A signal's value by name.
    pub fn get_named(&self, name: &str) -> Option<&Value> {
        self.id(name).map(|id| self.get(id))
    }

    /// A signal's value as a number.
    pub fn f64(&self, id: SignalId) -> Option<f64> {
        self.get(id).as_f64()
    }

    /// When the last new datum arrived (`None`: never).
    pub fn updated_at(&self, id: SignalId) -> Option<Duration> {
        self.entries.get(id.index()).and_then(|e| e.updated_at)
    }

    /// When the value last changed (`None`: never set).
    pub fn changed_at(&self, id: SignalId) -> Option<Duration> {
        self.entries.get(id.index()).and_then(|e| e.changed_at)
    }

    /// Time since the last new datum; `None` if there never was one (then it is, by the
    /// Tethys rule, infinitely long ago).
    pub fn elapsed(&self, id: SignalId, now: Duration) -> Option<Duration> {
        self.updated_at(id).map(|t| now.saturating_sub(t))
    }

    /// Did the value change in the current cycle?
    pub fn changed_this_cycle(&self, id: SignalId) -> bool {
        self.entries
            .get(id.index())
            .is_some_and(|e| e.changed_at.is_some() && e.changed_cycle == self.cycle)
    }

    /// Every signal: id, name, value.
    pub fn iter(&self) -> impl Iterator<Item = (SignalId, &str, &Value)> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, e)| (SignalId(i as u32), &*e.name, &e.value))
    }

    /// The signals whose value changed in the current cycle, in declaration order.
    pub fn changed(&self) -> impl Iterator<Item = (SignalId, &str, &Value)> {
        let cycle = self.cycle;
        self.entries
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.changed_at.is_some() && e.changed_cycle == cycle)
            .map(|(i, e)| (SignalId(i as u32), &*e.name, &e.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units;

    #[test]
    fn declare_is_idempotent_and_keeps_the_unit() {
        let mut s = Signals::new();
        let a = s.declare("pose.x", Some(&units::METER));
        let b = s.declare("pose.x", Some(&units::FOOT));
        assert_eq!(a, b);
        assert_eq!(s.unit(a).unwrap().name, "METER");
        assert_eq!(s.name(a), "pose.x");
        assert_eq!(s.id("pose.x"), Some(a));
        assert_eq!(s.id("pose.y"), None);
    }

    #[test]
    fn new_datum_and_change_are_different_times() {
        let mut s = Signals::new();
        let fix = s.declare("PLATFORM_LOCATION_FIX", None);
        let t = Duration::from_secs;
        assert_eq!(s.elapsed(fix, t(10)), None);
        s.begin_cycle();
        s.set_bool(fix, true, t(1));
        assert!(s.changed_this_cycle(fix));
        s.begin_cycle();
        s.set_bool(fix, true, t(5)); // same value, new datum
        assert!(!s.changed_this_cycle(fix));
        assert_eq!(s.changed_at(fix), Some(t(1)));
        assert_eq!(s.updated_at(fix), Some(t(5)));
        assert_eq!(s.elapsed(fix, t(8)), Some(t(3)));
        assert_eq!(s.changed().count(), 0);
        s.set_bool(fix, false, t(6));
        assert_eq!(
            s.changed().map(|(_, n, _)| n).collect::<Vec<_>>(),
            ["PLATFORM_LOCATION_FIX"]
        );
    }

    #[test]
    fn value_conversions() {
        assert_eq!(Value::Int(3).as_f64(), Some(3.0));
        assert_eq!(Value::Bool(true).as_f64(), Some(1.0));
        assert_eq!(Value::Float(f64::NAN).as_f64(), None);
        assert!(!Value::Float(f64::NAN).is_valid());
        assert_eq!(Value::Float(0.0).as_bool(), Some(false));
        assert_eq!(Value::from("x").as_str(), Some("x"));
        assert_eq!(Value::Float(f64::NAN), Value::Float(f64::NAN));
        assert_eq!(
            serde_json::to_string(&Value::Position { lat: 1.0, lon: 2.0 }).unwrap(),
            r#"{"lat":1.0,"lon":2.0}"#
        );
        assert_eq!(serde_json::to_string(&Value::None).unwrap(), "null");
    }

    #[test]
    fn unknown_ids_read_as_none() {
        let s = Signals::new();
        assert_eq!(s.get(SignalId(7)), &Value::None);
        assert_eq!(s.name(SignalId(7)), "");
    }
}
