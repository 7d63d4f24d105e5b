//! Goal kinds: what a controller declares it accepts (`goto`, `run_option`,
//! `run_mission`, ...), each with the fields of its goal, feedback and result.
//!
//! A kind is a `static` a controller's crate writes once; transports derive their wire
//! types from it (a ROS action `skipper_msgs/Goto` with fields in this order), so a new
//! kind needs no transport code.

use super::record::Record;

/// The type of a field of a goal, feedback or result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    /// a truth value (ROS `bool`)
    Bool,
    /// a whole number (ROS `int64`)
    Int,
    /// a real number (ROS `float64`)
    Float,
    /// text (ROS `string`)
    Text,
}

impl FieldType {
    /// The name used in messages and docs (`bool`, `int64`, `float64`, `string`).
    pub fn ros_name(self) -> &'static str {
        match self {
            FieldType::Bool => "bool",
            FieldType::Int => "int64",
            FieldType::Float => "float64",
            FieldType::Text => "string",
        }
    }
}

/// One field.
#[derive(Debug, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    /// its name (`x`, `option`)
    pub name: &'static str,
    /// its type
    #[serde(rename = "type")]
    pub ty: FieldType,
    /// what it means, with its unit
    pub doc: &'static str,
}

impl Field {
    /// A field.
    pub const fn new(name: &'static str, ty: FieldType, doc: &'static str) -> Self {
        Self { name, ty, doc }
    }
}

/// The fields of a goal, a feedback or a result, in order.
pub type Schema = &'static [Field];

/// How a goal ended without the controller ending it, for the result a kind reports then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// replaced by a newer goal of the same kind
    Preempted,
    /// cancelled
    Canceled,
    /// refused before it started (a goal that cannot run)
    Refused,
    /// the run ended while it was active
    RunEnded,
}

/// A kind of goal a controller accepts.
#[derive(Debug)]
pub struct GoalKind {
    /// the kind's name, also the last part of the action's name (`/robot1/goto`)
    pub name: &'static str,
    /// the type's name (`Goto`: the ROS action `skipper_msgs/Goto`)
    pub type_name: &'static str,
    /// one line for docs and `--help`
    pub doc: &'static str,
    /// the goal's fields
    pub goal: Schema,
    /// the result's fields
    pub result: Schema,
    /// the feedback's fields
    pub feedback: Schema,
    /// the result of a goal that ended without the controller ending it (`None`: every
    /// field at its default)
    pub ended: fn(&'static GoalKind, Ending) -> Option<Record>,
}

impl GoalKind {
    /// The result of a goal that ended as `how`, every field given.
    pub fn ending_result(&'static self, how: Ending) -> Record {
        (self.ended)(self, how).unwrap_or_else(|| Record::defaults(self.result))
    }

    /// For [`GoalKind::ended`]: every field at its default.
    pub fn no_result(_: &'static GoalKind, _: Ending) -> Option<Record> {
        None
    }
}

impl PartialEq for GoalKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.type_name == other.type_name
    }
}
