//! The frame: what the page draws at one moment, as JSON. Live runs and replays make the
//! same shape, so the page draws both the same way:
//!
//! ```json
//! {"t": 12.3, "cycle": 123, "paused": false, "estop": false, "speed": 1.0,
//!  "robots": [{"name": "robot1", "x": 1.0, "y": 2.0, "yaw": 0.5,
//!              "view": {"radius": 0.25, "sonar": [[x, y, heading, range], ...],
//!                       "laser": {"x": 0.018, "first": -1.57, "step": 0.017, "ranges": [...]}, ...},
//!              "controller": "wander+goals", "state": {...}, "goal": {...}, "target": {...}}],
//!  "objects": [{"kind": "ball", "x": 1.0, "y": 0.0, ...}],
//!  "events": [{"robot": "robot1", "t": 12.2, "kind": "collision", "data": {...}}]}
//! ```
//!
//! `view` is the vehicle's own description of itself (what `Vehicle::view` gives), with
//! numbers rounded to the millimetre; with more than [`ALL_RAYS_UP_TO`] robots, only the
//! robots a browser selected keep their `sonar` and `laser` (the page draws only theirs); `state` is the controller's state as the engine
//! reports it (numbers rounded the same way), shown by the page's behavior view.

use serde_json::{Map, Value};

/// With more robots than this, sensor rays go only for the robots a browser selected.
pub const ALL_RAYS_UP_TO: usize = 10;

/// Take the sensor rays (`sonar`, `laser`) out of a vehicle's view, keeping the rest.
pub fn without_rays(mut view: Value) -> Value {
    if let Some(m) = view.as_object_mut() {
        m.remove("sonar");
        m.remove("laser");
    }
    view
}

/// Round every fractional number in `v` to three decimals (millimetres, milliradians),
/// which keeps frames small.
pub fn round(v: &mut Value) {
    match v {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64() {
                let r = (f * 1000.0).round() / 1000.0;
                *v = serde_json::Number::from_f64(r).map_or(Value::Null, Value::Number);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(round),
        Value::Object(o) => o.values_mut().for_each(round),
        _ => {}
    }
}

/// A number rounded to three decimals, or null if it is not finite.
pub fn num(x: f64) -> Value {
    serde_json::Number::from_f64((x * 1000.0).round() / 1000.0).map_or(Value::Null, Value::Number)
}

/// One robot's entry.
pub struct RobotEntry<'a> {
    /// Name.
    pub name: &'a str,
    /// Pose (m, m, rad).
    pub pose: (f64, f64, f64),
    /// The vehicle's view.
    pub view: Value,
    /// Controller name.
    pub controller: Option<&'a str>,
    /// Controller state.
    pub state: Option<Value>,
    /// Goal status (from the goal runner).
    pub goal: Option<Value>,
    /// The goal's target as sent.
    pub target: Option<Value>,
}

impl RobotEntry<'_> {
    /// As JSON.
    pub fn to_json(self) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), self.name.into());
        m.insert("x".into(), num(self.pose.0));
        m.insert("y".into(), num(self.pose.1));
        m.insert("yaw".into(), num(self.pose.2));
        let mut view = self.view;
        round(&mut view);
        m.insert("view".into(), view);
        m.insert(
            "controller".into(),
            self.controller.map_or(Value::Null, Value::from),
        );
        let mut state = self.state.unwrap_or(Value::Null);
        round(&mut state);
        m.insert("state".into(), state);
        m.insert("goal".into(), self.goal.unwrap_or(Value::Null));
        m.insert("target".into(), self.target.unwrap_or(Value::Null));
        Value::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rounding_keeps_integers_and_trims_fractions() {
        let mut v = json!({"a": 0.30000000000000004, "b": [1, 2.123456], "c": "x"});
        round(&mut v);
        assert_eq!(v, json!({"a": 0.3, "b": [1, 2.123], "c": "x"}));
        assert_eq!(num(f64::NAN), Value::Null);
    }

    #[test]
    fn the_state_is_rounded_like_the_rest() {
        let e = RobotEntry {
            name: "r",
            pose: (0.0, 0.0, 0.0),
            view: json!({}),
            controller: Some("xabsl:a"),
            state: Some(json!({"path": [{"option": "o", "state_time": 1200, "parameters": {"angle": 171.84325352183265}}]})),
            goal: None,
            target: None,
        }
        .to_json();
        assert_eq!(e["state"]["path"][0]["parameters"]["angle"], 171.843);
        assert_eq!(e["state"]["path"][0]["state_time"], 1200);
        assert_eq!(e["state"]["path"][0]["option"], "o");
    }
}
