//! Where a goal stands, as every transport sees it.

use super::kind::GoalKind;
use super::record::Record;

/// A goal's id, unique within one robot's goals.
pub type GoalId = u64;

/// The states of a goal (the SimpleActionServer's, without the transitional ones a wire
/// protocol adds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalState {
    /// accepted, waiting for the robot's next cycle
    Pending,
    /// the controller works on it
    Active,
    /// done as asked
    Succeeded,
    /// given up, or refused (the text says why)
    Aborted,
    /// cancelled from outside
    Canceled,
    /// replaced by a newer goal of the same kind
    Preempted,
}

impl GoalState {
    /// `true` once the goal is over.
    pub fn is_terminal(self) -> bool {
        !matches!(self, GoalState::Pending | GoalState::Active)
    }
}

/// The latest of a goal.
#[derive(Debug, Clone, PartialEq)]
pub struct GoalUpdate {
    /// the goal
    pub id: GoalId,
    /// its kind
    pub kind: &'static GoalKind,
    /// its state
    pub state: GoalState,
    /// the latest feedback, once there was one
    pub feedback: Option<Record>,
    /// the result, once the goal is over
    pub result: Option<Record>,
    /// why it ended (empty while it runs)
    pub text: String,
    /// grows with every change of this goal (new feedback, a new state)
    pub seq: u64,
}

impl GoalUpdate {
    /// The update as JSON for views and logs: `{"id", "kind", "status", "feedback",
    /// "result", "text"}`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        m.insert("id".into(), self.id.into());
        m.insert("kind".into(), self.kind.name.into());
        m.insert(
            "status".into(),
            serde_json::to_value(self.state).unwrap_or_default(),
        );
        if let Some(f) = &self.feedback {
            m.insert("feedback".into(), f.to_json());
        }
        if let Some(r) = &self.result {
            m.insert("result".into(), r.to_json());
        }
        if !self.text.is_empty() {
            m.insert("text".into(), self.text.clone().into());
        }
        serde_json::Value::Object(m)
    }

    /// The update as one flat JSON object for views: `{"status", "id"}` with the
    /// feedback's fields while active, the result's once succeeded, and the text as
    /// `reason` once aborted (`{"status": "active", "id": 3, "distance": 1.2}`).
    pub fn to_flat_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        m.insert(
            "status".into(),
            serde_json::to_value(self.state).unwrap_or_default(),
        );
        m.insert("id".into(), self.id.into());
        let fields = match self.state {
            GoalState::Active => self.feedback.as_ref(),
            GoalState::Succeeded => self.result.as_ref(),
            _ => None,
        };
        if let Some(serde_json::Value::Object(f)) = fields.map(Record::to_json) {
            m.extend(f);
        }
        if self.state == GoalState::Aborted {
            m.insert("reason".into(), self.text.clone().into());
        }
        serde_json::Value::Object(m)
    }
}
