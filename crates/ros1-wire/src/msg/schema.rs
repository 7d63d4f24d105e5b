//! Message schemas known at run time: a [`MsgSchema`] is a parsed `.msg` definition with
//! every nested type resolved, its md5sum and its full definition text computed by the
//! ROS rule; an [`ActionSchema`] is the seven messages of an `.action`, a [`SrvSchema`]
//! the request and response of a `.srv`. Schemas come from a
//! [`TypeLoader`](super::loader::TypeLoader), which finds definition texts.
//!
//! The md5sum of a type is the MD5 of its canonical text: constants first (`type
//! NAME=value`), then fields, builtin types as written (`float64[36] covariance`) and
//! nested message types replaced by their own md5sum (`<md5> name`, array brackets
//! dropped); comments and blank lines dropped, lines joined with `\n`. A service's is the
//! MD5 of its request's canonical text followed by its response's.

use super::parse::{ConstSpec, MsgSpec, ParseError, Primitive, Shape};
use md5::{Digest, Md5};
use std::fmt::Write as _;
use std::sync::Arc;

/// What a field holds.
#[derive(Debug, Clone)]
pub enum FieldKind {
    /// a builtin type
    Primitive(Primitive),
    /// a nested message
    Message(Arc<MsgSchema>),
}

/// One field of a message.
#[derive(Debug, Clone)]
pub struct FieldSchema {
    /// its name
    pub name: String,
    /// its type as written (`float64[36]`, `Header`)
    pub type_text: String,
    /// the element type
    pub kind: FieldKind,
    /// scalar, `T[]` or `T[N]`
    pub shape: Shape,
}

impl FieldSchema {
    /// The element type's name (`float64`, `std_msgs/Header`).
    pub fn element_type(&self) -> &str {
        match &self.kind {
            FieldKind::Primitive(p) => p.name(),
            FieldKind::Message(m) => m.name(),
        }
    }
}

/// A message type with every nested type resolved.
#[derive(Debug)]
pub struct MsgSchema {
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) constants: Vec<ConstSpec>,
    pub(crate) fields: Vec<FieldSchema>,
    pub(crate) md5: String,
    pub(crate) definition: String,
    /// the least bytes a message of this type takes on the wire
    pub(crate) min_size: usize,
    /// the values a default message holds (bounded when the schema is built)
    pub(crate) cells: usize,
}

/// The most values a default message of one type may hold (fixed arrays multiply).
pub const MAX_CELLS: usize = 1 << 20;

impl MsgSchema {
    /// `package/Type`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The package.
    pub fn package(&self) -> &str {
        self.name.split('/').next().unwrap_or("")
    }
    /// The definition text as written (comments included).
    pub fn text(&self) -> &str {
        &self.text
    }
    /// The fields, in wire order.
    pub fn fields(&self) -> &[FieldSchema] {
        &self.fields
    }
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<(usize, &FieldSchema)> {
        self.fields.iter().enumerate().find(|(_, f)| f.name == name)
    }
    /// The constants, in file order.
    pub fn constants(&self) -> &[ConstSpec] {
        &self.constants
    }
    /// The md5sum (hex).
    pub fn md5sum(&self) -> &str {
        &self.md5
    }
    /// The full definition: this type's text, then each type it uses (depth first,
    /// once each) after a line of 80 `=` and `MSG: package/Type` (TCPROS's
    /// `message_definition`, what `rostopic echo` and rosbag read).
    pub fn definition(&self) -> &str {
        &self.definition
    }
    /// The least bytes a message of this type takes on the wire.
    pub fn min_size(&self) -> usize {
        self.min_size
    }
    /// The text the md5sum is taken of.
    fn md5_text(&self) -> String {
        let mut lines: Vec<String> = self
            .constants
            .iter()
            .map(|c| format!("{} {}={}", c.ty_text, c.name, c.text))
            .collect();
        for f in &self.fields {
            lines.push(match &f.kind {
                FieldKind::Primitive(_) => format!("{} {}", f.type_text, f.name),
                FieldKind::Message(m) => format!("{} {}", m.md5, f.name),
            });
        }
        lines.join("\n")
    }
    /// A description of the type for errors and help: its fields, one per line.
    pub fn describe(&self) -> String {
        self.fields
            .iter()
            .map(|f| format!("{} {}", f.type_text, f.name))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Why a type could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    /// A type name that is not `package/Name`.
    #[error("`{0}` is not a type name (expected package/Name)")]
    BadName(String),
    /// No definition was found.
    #[error("unknown type {ty}{}: no definition found (searched {searched})", used_by.as_ref().map(|u| format!(" (used by {u})")).unwrap_or_default())]
    Unknown {
        /// the type
        ty: String,
        /// the type whose field needs it
        used_by: Option<String>,
        /// where it was looked for
        searched: String,
    },
    /// A definition that does not parse.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// A type that contains itself.
    #[error("{0} contains itself (a recursive type)")]
    Recursive(String),
    /// A type whose default message would be too large.
    #[error(
        "{0}: a message of this type holds more than {MAX_CELLS} values (fixed arrays too long)"
    )]
    TooLarge(String),
    /// An `.action` or `.srv` text with the wrong number of `---` sections.
    #[error("{name}: {what} needs {want} sections separated by `---` lines, found {found}")]
    Sections {
        /// the type
        name: String,
        /// `an action` / `a service`
        what: &'static str,
        /// how many it needs
        want: usize,
        /// how many it has
        found: usize,
    },
    /// A definition file that could not be read.
    #[error("cannot read {path}: {msg}")]
    Io {
        /// the file
        path: String,
        /// the error
        msg: String,
    },
}

/// Split `package/Name`.
pub fn split_type(ty: &str) -> Result<(&str, &str), SchemaError> {
    use super::parse::is_type_part;
    match ty.split_once('/') {
        Some((p, n)) if is_type_part(p) && is_type_part(n) => Ok((p, n)),
        _ => Err(SchemaError::BadName(ty.to_string())),
    }
}

/// The full name of a field type used in package `pkg` (`Header` is `std_msgs/Header`).
pub fn resolve_name(pkg: &str, ty: &str) -> String {
    if ty == "Header" {
        "std_msgs/Header".into()
    } else if ty.contains('/') || pkg.is_empty() {
        ty.to_string()
    } else {
        format!("{pkg}/{ty}")
    }
}

fn md5_hex(text: &str) -> String {
    let digest = Md5::digest(text.as_bytes());
    let mut hex = String::with_capacity(32);
    for b in digest {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

/// Build a schema from its parsed text and its resolved field types (`kinds`, one per
/// field, in order).
pub(crate) fn build(
    name: &str,
    text: &str,
    spec: MsgSpec,
    kinds: Vec<FieldKind>,
) -> Result<MsgSchema, SchemaError> {
    let mut fields = Vec::with_capacity(spec.fields.len());
    let (mut min_size, mut cells) = (0usize, 1usize);
    for (f, kind) in spec.fields.into_iter().zip(kinds) {
        let (elem_min, elem_cells) = match &kind {
            FieldKind::Primitive(p) => (p.size().unwrap_or(4), 1),
            FieldKind::Message(m) => (m.min_size, m.cells),
        };
        let (fmin, fcells) = match f.ty.shape {
            Shape::Scalar => (elem_min, elem_cells),
            Shape::Vec => (4, 1),
            Shape::Fixed(n) => (
                elem_min.saturating_mul(n),
                match kind {
                    FieldKind::Primitive(_) => 1,
                    FieldKind::Message(_) => elem_cells.saturating_mul(n),
                },
            ),
        };
        min_size = min_size.saturating_add(fmin);
        cells = cells.saturating_add(fcells);
        fields.push(FieldSchema {
            name: f.name,
            type_text: f.ty.text,
            kind,
            shape: f.ty.shape,
        });
    }
    if cells > MAX_CELLS {
        return Err(SchemaError::TooLarge(name.to_string()));
    }
    let mut s = MsgSchema {
        name: name.to_string(),
        text: text.to_string(),
        constants: spec.constants,
        fields,
        md5: String::new(),
        definition: String::new(),
        min_size,
        cells,
    };
    s.md5 = md5_hex(&s.md5_text());
    s.definition = full_definition(&s);
    Ok(s)
}

fn full_definition(s: &MsgSchema) -> String {
    fn deps<'a>(s: &'a MsgSchema, seen: &mut Vec<&'a MsgSchema>) {
        for f in &s.fields {
            if let FieldKind::Message(m) = &f.kind {
                if !seen.iter().any(|x| x.name == m.name) {
                    seen.push(m);
                    deps(m, seen);
                }
            }
        }
    }
    let mut seen = Vec::new();
    deps(s, &mut seen);
    let mut out = s.text.clone();
    for d in seen {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        let _ = write!(out, "\n{}\nMSG: {}\n{}", "=".repeat(80), d.name, d.text);
    }
    out
}

/// The header line of messages generated from an action.
pub const AUTOGEN: &str = "# ====== DO NOT MODIFY! AUTOGENERATED FROM AN ACTION DEFINITION ======";

/// The seven message texts of an action `package/Name` from its `.action` text:
/// (`package/NameGoal`, text), ... in the order Goal, Result, Feedback, ActionGoal,
/// ActionResult, ActionFeedback, Action.
pub fn action_texts(name: &str, text: &str) -> Result<Vec<(String, String)>, SchemaError> {
    let (_, base) = split_type(name)?;
    let secs = super::parse::sections(text);
    let found = secs.len();
    let [goal, result, feedback] =
        <[(usize, String); 3]>::try_from(secs).map_err(|_| SchemaError::Sections {
            name: name.to_string(),
            what: "an action",
            want: 3,
            found,
        })?;
    let gen = |body: &str| format!("{AUTOGEN}\n{body}");
    Ok(vec![
        (format!("{name}Goal"), gen(&goal.1)),
        (format!("{name}Result"), gen(&result.1)),
        (format!("{name}Feedback"), gen(&feedback.1)),
        (
            format!("{name}ActionGoal"),
            gen(&format!("\nHeader header\nactionlib_msgs/GoalID goal_id\n{base}Goal goal\n")),
        ),
        (
            format!("{name}ActionResult"),
            gen(&format!("\nHeader header\nactionlib_msgs/GoalStatus status\n{base}Result result\n")),
        ),
        (
            format!("{name}ActionFeedback"),
            gen(&format!("\nHeader header\nactionlib_msgs/GoalStatus status\n{base}Feedback feedback\n")),
        ),
        (
            format!("{name}Action"),
            gen(&format!(
                "\n{base}ActionGoal action_goal\n{base}ActionResult action_result\n{base}ActionFeedback action_feedback\n"
            )),
        ),
    ])
}

/// The suffixes of the seven messages of an action, in [`action_texts`] order.
pub const ACTION_SUFFIXES: [&str; 7] = [
    "Goal",
    "Result",
    "Feedback",
    "ActionGoal",
    "ActionResult",
    "ActionFeedback",
    "Action",
];

/// An action type known at run time: its name and its seven messages.
#[derive(Debug)]
pub struct ActionSchema {
    pub(crate) name: String,
    pub(crate) goal: Arc<MsgSchema>,
    pub(crate) result: Arc<MsgSchema>,
    pub(crate) feedback: Arc<MsgSchema>,
    pub(crate) action_goal: Arc<MsgSchema>,
    pub(crate) action_result: Arc<MsgSchema>,
    pub(crate) action_feedback: Arc<MsgSchema>,
    pub(crate) action: Arc<MsgSchema>,
}

impl ActionSchema {
    /// `package/Name`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// `NameGoal`.
    pub fn goal(&self) -> &Arc<MsgSchema> {
        &self.goal
    }
    /// `NameResult`.
    pub fn result(&self) -> &Arc<MsgSchema> {
        &self.result
    }
    /// `NameFeedback`.
    pub fn feedback(&self) -> &Arc<MsgSchema> {
        &self.feedback
    }
    /// `NameActionGoal` (on `<ns>/goal`).
    pub fn action_goal(&self) -> &Arc<MsgSchema> {
        &self.action_goal
    }
    /// `NameActionResult` (on `<ns>/result`).
    pub fn action_result(&self) -> &Arc<MsgSchema> {
        &self.action_result
    }
    /// `NameActionFeedback` (on `<ns>/feedback`).
    pub fn action_feedback(&self) -> &Arc<MsgSchema> {
        &self.action_feedback
    }
    /// `NameAction` (the bundle; never on a topic).
    pub fn action(&self) -> &Arc<MsgSchema> {
        &self.action
    }
}

/// A service type known at run time.
#[derive(Debug)]
pub struct SrvSchema {
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) request: Arc<MsgSchema>,
    pub(crate) response: Arc<MsgSchema>,
    pub(crate) md5: String,
}

impl SrvSchema {
    /// Build from the request and response (named `package/NameRequest`, `...Response`).
    pub(crate) fn new(
        name: &str,
        text: &str,
        request: Arc<MsgSchema>,
        response: Arc<MsgSchema>,
    ) -> Self {
        let md5 = md5_hex(&format!("{}{}", request.md5_text(), response.md5_text()));
        Self {
            name: name.to_string(),
            text: text.to_string(),
            request,
            response,
            md5,
        }
    }
    /// `package/Name`.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The `.srv` text.
    pub fn text(&self) -> &str {
        &self.text
    }
    /// The request message.
    pub fn request(&self) -> &Arc<MsgSchema> {
        &self.request
    }
    /// The response message.
    pub fn response(&self) -> &Arc<MsgSchema> {
        &self.response
    }
    /// The service's md5sum.
    pub fn md5sum(&self) -> &str {
        &self.md5
    }
}
