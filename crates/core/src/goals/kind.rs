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

    /// The kind as a ROS `.action` file (ROS 1 and ROS 2 read the same text): its
    /// documentation, then its goal, result and feedback fields in order, each under its
    /// documentation. Comments are one line of printable ASCII (other characters become
    /// `?`), which every ROS interface generator takes.
    pub fn action_text(&self) -> String {
        use std::fmt::Write;
        let mut t = String::new();
        let _ = writeln!(t, "# {}: {}", self.name, comment_line(self.doc));
        t.push_str("# (a goal kind Skipper serves; written by `skipper interfaces`)\n\n");
        for (i, part) in [self.goal, self.result, self.feedback].iter().enumerate() {
            if i > 0 {
                t.push_str("---\n");
            }
            for f in part.iter() {
                let doc = comment_line(f.doc);
                if !doc.is_empty() {
                    let _ = writeln!(t, "# {doc}");
                }
                let _ = writeln!(t, "{} {}", f.ty.ros_name(), f.name);
            }
        }
        t
    }
}

/// `text` as one comment line of printable ASCII.
fn comment_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            ' '..='~' => c,
            '\n' | '\r' | '\t' => ' ',
            _ => '?',
        })
        .collect::<String>()
        .trim()
        .to_string()
}

impl PartialEq for GoalKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.type_name == other.type_name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static ADVANCE: GoalKind = GoalKind {
        name: "advance",
        type_name: "tutorial_msgs/Advance",
        doc: "drive straight ahead by a distance",
        goal: &[Field::new("distance", FieldType::Float, "how far (m)")],
        result: &[],
        feedback: &[Field::new(
            "left",
            FieldType::Float,
            "distance left\n(m) \u{b1}",
        )],
        ended: GoalKind::no_result,
    };

    #[test]
    fn a_kind_is_an_action_file_of_its_fields() {
        assert_eq!(
            ADVANCE.action_text(),
            "# advance: drive straight ahead by a distance\n\
             # (a goal kind Skipper serves; written by `skipper interfaces`)\n\n\
             # how far (m)\nfloat64 distance\n---\n---\n# distance left (m) ?\nfloat64 left\n"
        );
    }
}
