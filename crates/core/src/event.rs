//! Events: things that happen during a run (speech, collisions, command statuses, state
//! transitions, goals), collected per cycle for the run log, the report and the dashboard.

use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::time::Duration;

/// One event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    /// Index of the robot (vehicle) it concerns.
    pub robot: usize,
    /// Run time (s).
    #[serde(serialize_with = "secs")]
    pub time: Duration,
    /// What kind of event: `speech`, `collision`, `command_status`, `transition`, `goal`,
    /// `estop`, `controller`, ...
    pub kind: Cow<'static, str>,
    /// Details, as JSON.
    pub data: serde_json::Value,
}

fn secs<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// The events of one cycle. The runner sets the robot they concern before handing the
/// sink to a vehicle or controller.
#[derive(Debug, Clone, Default)]
pub struct Events {
    items: Vec<Event>,
    robot: usize,
}

impl Events {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }
    /// Set the robot that following events concern.
    pub fn set_robot(&mut self, robot: usize) {
        self.robot = robot;
    }
    /// Record an event for the current robot.
    pub fn push(
        &mut self,
        time: Duration,
        kind: impl Into<Cow<'static, str>>,
        data: serde_json::Value,
    ) {
        self.items.push(Event {
            robot: self.robot,
            time,
            kind: kind.into(),
            data,
        });
    }
    /// Record an event for a given robot.
    pub fn push_for(
        &mut self,
        robot: usize,
        time: Duration,
        kind: impl Into<Cow<'static, str>>,
        data: serde_json::Value,
    ) {
        self.items.push(Event {
            robot,
            time,
            kind: kind.into(),
            data,
        });
    }
    /// The events recorded so far.
    pub fn as_slice(&self) -> &[Event] {
        &self.items
    }
    /// Forget them (keeping the capacity).
    pub fn clear(&mut self) {
        self.items.clear();
    }
    /// How many.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// `true` if none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_carry_robot_and_time() {
        let mut e = Events::new();
        e.set_robot(2);
        e.push(
            Duration::from_millis(1500),
            "speech",
            serde_json::json!({"text": "hi"}),
        );
        let j = serde_json::to_value(&e.as_slice()[0]).unwrap();
        assert_eq!(j["robot"], 2);
        assert_eq!(j["time"], 1.5);
        assert_eq!(j["kind"], "speech");
        e.clear();
        assert!(e.is_empty());
    }
}
