//! Goal kinds as ROS 2 actions whose types are made at run time from the kind's fields
//! (`skipper_core::goals::GoalKind`): no code per kind. A kind whose type is
//! `tutorial_msgs/Advance` is the action `tutorial_msgs/action/Advance` ([`KindAction`]),
//! its goal, result and feedback are [`DynMsg`]s — a goal-layer [`Record`] written to and
//! read from CDR field by field in the kind's order (`bool`, `int64`, `float64`,
//! `string`; an empty part is rosidl's one `uint8`) — and its type hash is what rosidl
//! computes for the same `.action` file ([`crate::typedesc`]).
//!
//! ros2-client decodes a request with serde's `Deserialize`, which carries no schema: a
//! reader of run-time types decodes inside [`decoding`], which lends the kind to the
//! current thread for the call. Outside it a run-time message does not decode (an
//! error, never a guess).

use crate::action::ActionType;
use crate::cdr::{Bounded, DecodeError, MAX_TEXT};
use crate::reply::ClientType;
use crate::typedesc::{self, FieldType, TypeSet};
use serde::de::{Error as _, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use skipper_core::goals::{self, Ending, FieldValue, GoalKind, Record, Schema};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

/// Which part of an action a message is.
pub trait Part: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// `Goal`, `Result` or `Feedback`.
    const NAME: &'static str;
    /// The part's fields in `kind`.
    fn schema(kind: &'static GoalKind) -> Schema;
}

macro_rules! part {
    ($($t:ident => $name:literal, $field:ident);*) => {$(
        #[doc = concat!("The ", $name, " of an action.")]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $t;
        impl Part for $t {
            const NAME: &'static str = $name;
            fn schema(kind: &'static GoalKind) -> Schema {
                kind.$field
            }
        }
    )*};
}

part! {
    GoalPart => "Goal", goal;
    ResultPart => "Result", result;
    FeedbackPart => "Feedback", feedback
}

/// A goal, result or feedback of a run-time type: a record of the part's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct DynMsg<P> {
    record: Record,
    part: PhantomData<P>,
}

impl<P: Part> DynMsg<P> {
    /// The message holding `record` (its schema is the part's).
    pub fn new(record: Record) -> Self {
        Self {
            record,
            part: PhantomData,
        }
    }
    /// The record.
    pub fn record(&self) -> &Record {
        &self.record
    }
    /// The record, taken out.
    pub fn into_record(self) -> Record {
        self.record
    }
}

impl<P: Part> ros2_client::Message for DynMsg<P> {}

impl<P> Serialize for DynMsg<P> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let values = self.record.values();
        if values.is_empty() {
            // rosidl's member of an empty message
            let mut t = s.serialize_tuple(1)?;
            t.serialize_element(&0u8)?;
            return t.end();
        }
        let mut t = s.serialize_tuple(values.len())?;
        for v in values {
            match v {
                FieldValue::Bool(b) => t.serialize_element(b)?,
                FieldValue::Int(i) => t.serialize_element(i)?,
                FieldValue::Float(f) => t.serialize_element(f)?,
                FieldValue::Text(x) => t.serialize_element(x.as_str())?,
            }
        }
        t.end()
    }
}

thread_local! {
    static KIND: Cell<Option<&'static GoalKind>> = const { Cell::new(None) };
}

/// Run `f` with `kind` lent to this thread: the run-time messages `f` decodes are read
/// with its fields.
pub fn decoding<R>(kind: &'static GoalKind, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<&'static GoalKind>);
    impl Drop for Restore {
        fn drop(&mut self) {
            KIND.with(|k| k.set(self.0));
        }
    }
    let _restore = Restore(KIND.with(|k| k.replace(Some(kind))));
    f()
}

impl<'de, P: Part> Deserialize<'de> for DynMsg<P> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let kind = KIND
            .with(Cell::get)
            .ok_or_else(|| D::Error::custom("a run-time type decoded with no kind lent"))?;
        let schema = P::schema(kind);
        d.deserialize_tuple(schema.len().max(1), Fields::<P>(schema, PhantomData))
    }
}

struct Fields<P>(Schema, PhantomData<P>);

impl<'de, P: Part> Visitor<'de> for Fields<P> {
    type Value = DynMsg<P>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} fields", self.0.len())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DynMsg<P>, A::Error> {
        let schema = self.0;
        let short = |i| A::Error::invalid_length(i, &self);
        if schema.is_empty() {
            seq.next_element::<u8>()?.ok_or_else(|| short(0))?;
            return Ok(DynMsg::new(Record::defaults(schema)));
        }
        let mut values = Vec::with_capacity(schema.len());
        for (i, f) in schema.iter().enumerate() {
            let v = match f.ty {
                goals::FieldType::Bool => seq.next_element::<bool>()?.map(FieldValue::Bool),
                goals::FieldType::Int => seq.next_element::<i64>()?.map(FieldValue::Int),
                goals::FieldType::Float => seq.next_element::<f64>()?.map(FieldValue::Float),
                goals::FieldType::Text => seq.next_element::<String>()?.map(FieldValue::Text),
            };
            values.push(v.ok_or_else(|| short(i))?);
        }
        Record::from_values(schema, values)
            .map(DynMsg::new)
            .map_err(A::Error::custom)
    }
}

impl<P> Bounded for DynMsg<P> {
    fn check(&self) -> Result<(), String> {
        for (f, v) in self.record.schema().iter().zip(self.record.values()) {
            match v {
                FieldValue::Float(x) if !x.is_finite() => {
                    return Err(format!("{} must be a finite number, not {x}", f.name))
                }
                FieldValue::Text(t) if t.len() > MAX_TEXT => {
                    return Err(format!(
                        "{} is {} bytes long, more than {MAX_TEXT}",
                        f.name,
                        t.len()
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// `record` with `schema`'s fields: itself when it has them, otherwise each field of
/// `schema` taken by name where `record` has one of that type (default elsewhere).
pub fn conform(record: &Record, schema: Schema) -> Record {
    if record.schema() == schema {
        return record.clone();
    }
    let mut out = Record::defaults(schema);
    for f in schema {
        if let Some(v) = record.get(f.name) {
            let _ = out.set(f.name, v.clone());
        }
    }
    out
}

/// Decode `sample` (encapsulation header and CDR) as `P` of `kind`, with bounds, as a
/// Skipper node reads it: the fuzz target's entry.
pub fn decode<P: Part>(kind: &'static GoalKind, sample: &[u8]) -> Result<DynMsg<P>, DecodeError> {
    decoding(kind, || crate::cdr::decode::<DynMsg<P>>(sample))
}

/// The most fields [`decode_shaped`] gives a kind.
pub const SHAPED_FIELDS: usize = 5;

/// The kinds of every shape [`decode_shaped`] reads: up to [`SHAPED_FIELDS`] goal fields
/// of the four types, made once.
fn shaped_kinds() -> &'static [&'static GoalKind] {
    static KINDS: std::sync::OnceLock<Vec<&'static GoalKind>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        const NAMES: [&str; SHAPED_FIELDS] = ["a", "b", "c", "d", "e"];
        let mut shapes: Vec<Vec<goals::FieldType>> = vec![Vec::new()];
        let mut last = shapes.clone();
        for _ in 0..SHAPED_FIELDS {
            last = last
                .iter()
                .flat_map(|s| {
                    TYPES.iter().map(move |t| {
                        let mut s = s.clone();
                        s.push(*t);
                        s
                    })
                })
                .collect();
            shapes.extend(last.iter().cloned());
        }
        shapes
            .into_iter()
            .map(|shape| {
                let fields: Vec<goals::Field> = shape
                    .iter()
                    .zip(NAMES)
                    .map(|(t, n)| goals::Field::new(n, *t, ""))
                    .collect();
                &*Box::leak(Box::new(GoalKind {
                    name: "shaped",
                    type_name: "fuzz_msgs/Shaped",
                    doc: "",
                    goal: Box::leak(fields.into_boxed_slice()),
                    result: &[],
                    feedback: &[],
                    ended: GoalKind::no_result,
                }))
            })
            .collect()
    })
}

/// The field types, by the byte [`decode_shaped`] reads (modulo 4).
const TYPES: [goals::FieldType; 4] = [
    goals::FieldType::Bool,
    goals::FieldType::Int,
    goals::FieldType::Float,
    goals::FieldType::Text,
];

/// A goal request of a run-time type whose shape the input gives, as a Skipper node
/// receives it: the fuzz target's entry. The first byte is the number of goal fields
/// (modulo [`SHAPED_FIELDS`] + 1), the next bytes their types (modulo 4: bool, int64,
/// float64, string), the rest the serialized request (encapsulation header, the goal's
/// 16-byte id, the goal). `Ok` if it was accepted, `Err` why it was dropped.
pub fn decode_shaped(input: &[u8]) -> Result<(), DecodeError> {
    let (&n, rest) = input
        .split_first()
        .ok_or_else(|| DecodeError::Encapsulation("no shape".into()))?;
    let n = usize::from(n) % (SHAPED_FIELDS + 1);
    let (shape, sample) = rest
        .split_at_checked(n)
        .ok_or_else(|| DecodeError::Encapsulation("no shape".into()))?;
    // the kinds are in order of length, then of the types as base-4 digits
    let first = (0..n).map(|k| TYPES.len().pow(k as u32)).sum::<usize>();
    let index = first
        + shape.iter().fold(0, |acc, b| {
            acc * TYPES.len() + usize::from(*b) % TYPES.len()
        });
    let kind = shaped_kinds()
        .get(index)
        .ok_or_else(|| DecodeError::Encapsulation("no such shape".into()))?;
    decoding(kind, || {
        crate::cdr::decode_goal_request::<DynMsg<GoalPart>>(sample)
    })
}

/// The ROS 2 type of a goal kind: `tutorial_msgs/Advance` (or
/// `tutorial_msgs/action/Advance`) is the action `Advance` of package `tutorial_msgs`.
#[derive(Debug, Clone, PartialEq)]
pub struct KindAction {
    kind: &'static GoalKind,
    package: String,
    name: String,
    hashes: Arc<Hashes>,
}

/// The type hashes of an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hashes {
    /// `pkg/action/Name`
    pub action: String,
    /// the types a client's endpoints announce
    pub client: Vec<ClientType>,
}

/// Whether `s` is a package or field name as rosidl takes them: lowercase letters,
/// digits and single underscores, starting with a letter, not ending with `_`.
pub fn is_lower_name(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(u8::is_ascii_lowercase)
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
        && !s.contains("__")
        && !s.ends_with('_')
}

/// Whether `s` is an interface name as rosidl takes them: an uppercase letter, then
/// letters and digits.
pub fn is_type_name(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(u8::is_ascii_uppercase) && b.iter().all(u8::is_ascii_alphanumeric)
}

/// The field of a ROS 2 type description for a goal field.
pub fn field_type(ty: goals::FieldType) -> FieldType {
    FieldType::basic(match ty {
        goals::FieldType::Bool => typedesc::id::BOOLEAN,
        goals::FieldType::Int => typedesc::id::INT64,
        goals::FieldType::Float => typedesc::id::DOUBLE,
        goals::FieldType::Text => typedesc::id::STRING,
    })
}

fn fields(schema: Schema) -> Vec<typedesc::Field> {
    schema
        .iter()
        .map(|f| typedesc::Field::new(f.name, field_type(f.ty)))
        .collect()
}

impl KindAction {
    /// The action of `kind`, or why its names are not a ROS 2 interface's.
    pub fn of(kind: &'static GoalKind) -> Result<Self, String> {
        let parts: Vec<&str> = kind.type_name.split('/').collect();
        let (package, name) = match parts[..] {
            [p, n] | [p, "action", n] => (p, n),
            _ => {
                return Err(format!(
                    "goal kind `{}`: its type `{}` is not PACKAGE/Name",
                    kind.name, kind.type_name
                ))
            }
        };
        if !is_lower_name(package) {
            return Err(format!(
                "goal kind `{}`: `{package}` is not a ROS package name (lowercase letters, digits and single underscores, starting with a letter)",
                kind.name
            ));
        }
        if !is_type_name(name) {
            return Err(format!(
                "goal kind `{}`: `{name}` is not a ROS interface name (a capital letter, then letters and digits)",
                kind.name
            ));
        }
        for (part, schema) in [
            ("goal", kind.goal),
            ("result", kind.result),
            ("feedback", kind.feedback),
        ] {
            for (i, f) in schema.iter().enumerate() {
                if !is_lower_name(f.name) {
                    return Err(format!(
                        "goal kind `{}`: {part} field `{}` is not a ROS field name (lowercase letters, digits and single underscores, starting with a letter)",
                        kind.name, f.name
                    ));
                }
                if schema[..i].iter().any(|g| g.name == f.name) {
                    return Err(format!(
                        "goal kind `{}`: {part} field `{}` appears twice",
                        kind.name, f.name
                    ));
                }
            }
        }
        let types = types(package, name, kind);
        let action = format!("{package}/action/{name}");
        let client = [
            ("rq", "/_action/send_goalRequest", true, "_SendGoal_Request"),
            ("rr", "/_action/send_goalReply", false, "_SendGoal_Response"),
            (
                "rq",
                "/_action/get_resultRequest",
                true,
                "_GetResult_Request",
            ),
            (
                "rr",
                "/_action/get_resultReply",
                false,
                "_GetResult_Response",
            ),
            ("rt", "/_action/feedback", false, "_FeedbackMessage"),
        ]
        .into_iter()
        .map(|(p, t, writer, ty)| {
            let type_name = format!("{action}{ty}");
            ClientType {
                topic: (p, t),
                writer,
                hash: types.hash(&type_name).unwrap_or_default(),
                type_name,
            }
        })
        .collect();
        let hashes = Hashes {
            action: types.hash(&action).unwrap_or_default(),
            client,
        };
        Ok(Self {
            kind,
            package: package.to_string(),
            name: name.to_string(),
            hashes: Arc::new(hashes),
        })
    }

    /// The goal kind.
    pub fn kind(&self) -> &'static GoalKind {
        self.kind
    }

    /// `pkg/action/Name`.
    pub fn type_name(&self) -> String {
        format!("{}/action/{}", self.package, self.name)
    }

    /// The type hashes of its types.
    pub fn hashes(&self) -> &Hashes {
        &self.hashes
    }

    /// Every type of the action, described ([`crate::typedesc`]).
    pub fn types(&self) -> TypeSet {
        types(&self.package, &self.name, self.kind)
    }

    /// A goal of this action.
    pub fn goal(&self, record: Record) -> DynMsg<GoalPart> {
        DynMsg::new(conform(&record, self.kind.goal))
    }
}

fn types(package: &str, name: &str, kind: &GoalKind) -> TypeSet {
    let mut t = TypeSet::with_action_basics();
    t.add_action(
        &format!("{package}/action/{name}"),
        fields(kind.goal),
        fields(kind.result),
        fields(kind.feedback),
    );
    t
}

impl ActionType for KindAction {
    type Goal = DynMsg<GoalPart>;
    type Result = DynMsg<ResultPart>;
    type Feedback = DynMsg<FeedbackPart>;
    fn package(&self) -> &str {
        &self.package
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn ending_result(&self, how: Ending) -> Self::Result {
        DynMsg::new(self.kind.ending_result(how))
    }
    fn decoding<R>(&self, f: impl FnOnce() -> R) -> R {
        decoding(self.kind, f)
    }
    fn client_types(&self) -> &[ClientType] {
        &self.hashes.client
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::goals::{Field, FieldType as Ft};

    static KIND: GoalKind = GoalKind {
        name: "probe",
        type_name: "probe_msgs/Probe",
        doc: "",
        goal: &[
            Field::new("on", Ft::Bool, ""),
            Field::new("count", Ft::Int, ""),
            Field::new("depth", Ft::Float, ""),
            Field::new("label", Ft::Text, ""),
        ],
        result: &[],
        feedback: &[Field::new("left", Ft::Float, "")],
        ended: GoalKind::no_result,
    };

    fn encode<T: Serialize>(v: &T) -> Vec<u8> {
        let mut out = vec![0, 1, 0, 0];
        out.extend(
            ros2_client::dds::rustdds::cdr_encoding::to_vec::<_, byteorder::LittleEndian>(v)
                .unwrap(),
        );
        out
    }

    #[test]
    fn a_goal_is_its_fields_in_cdr() {
        let r = Record::defaults(KIND.goal)
            .with("on", true)
            .with("count", -3i64)
            .with("depth", 2.5)
            .with("label", "ab");
        let bytes = encode(&DynMsg::<GoalPart>::new(r.clone()));
        // bool, pad to 8, int64, float64, string length 3 ("ab" and its NUL)
        let mut want = vec![0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
        want.extend((-3i64).to_le_bytes());
        want.extend(2.5f64.to_le_bytes());
        want.extend(3u32.to_le_bytes());
        want.extend(b"ab\0");
        assert_eq!(bytes, want);
        let back = decode::<GoalPart>(&KIND, &bytes).unwrap();
        assert_eq!(back.record(), &r);
    }

    #[test]
    fn an_empty_part_is_one_byte() {
        let bytes = encode(&DynMsg::<ResultPart>::new(Record::defaults(KIND.result)));
        assert_eq!(bytes, [0, 1, 0, 0, 0]);
        assert!(decode::<ResultPart>(&KIND, &bytes).is_ok());
        assert!(decode::<ResultPart>(&KIND, &bytes[..4]).is_err());
    }

    #[test]
    fn nothing_decodes_without_a_kind() {
        let bytes = encode(&DynMsg::<FeedbackPart>::new(Record::defaults(
            KIND.feedback,
        )));
        assert!(crate::cdr::decode::<DynMsg<FeedbackPart>>(&bytes).is_err());
        assert!(decode::<FeedbackPart>(&KIND, &bytes).is_ok());
        // the kind is lent for the call only
        assert!(crate::cdr::decode::<DynMsg<FeedbackPart>>(&bytes).is_err());
    }

    #[test]
    fn out_of_bounds_fields_are_refused() {
        let nan = Record::defaults(KIND.goal).with("depth", f64::NAN);
        let bytes = encode(&DynMsg::<GoalPart>::new(nan));
        let e = decode::<GoalPart>(&KIND, &bytes).unwrap_err();
        assert!(
            e.to_string().contains("depth must be a finite number"),
            "{e}"
        );
        let long = Record::defaults(KIND.goal).with("label", "x".repeat(MAX_TEXT + 1));
        let bytes = encode(&DynMsg::<GoalPart>::new(long));
        let e = decode::<GoalPart>(&KIND, &bytes).unwrap_err();
        assert!(e.to_string().contains("label is"), "{e}");
    }

    #[test]
    fn a_length_beyond_the_sample_is_malformed() {
        let mut bytes = encode(&DynMsg::<GoalPart>::new(Record::defaults(KIND.goal)));
        let n = bytes.len();
        bytes[n - 5..n - 1].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            decode::<GoalPart>(&KIND, &bytes),
            Err(DecodeError::Malformed(_))
        ));
    }

    /// The hashes rosidl generated for `interfaces/ros2/skipper_msgs`'s Goto
    /// (share/skipper_msgs/action/Goto.json after the package is built).
    #[test]
    fn the_goto_kind_hashes_as_skipper_msgs_goto() {
        let a = KindAction::of(&skipper_goals::GOTO).unwrap();
        let h = a.hashes();
        assert_eq!(
            h.action,
            "RIHS01_d05755ba3f44f23ba904b82cdec6150739d9b0becafacf598fdfbe402f0cf7cb"
        );
        let of = |t: &str| {
            let name = format!("skipper_msgs/action/Goto{t}");
            h.client
                .iter()
                .find(|c| c.type_name == name)
                .unwrap()
                .hash
                .clone()
        };
        assert!(of("_SendGoal_Response").starts_with("RIHS01_d513a9bab5ee3"));
        assert!(of("_GetResult_Response").starts_with("RIHS01_42d1f3b793763"));
        assert!(of("_SendGoal_Request").starts_with("RIHS01_e44c29000ecc7"));
        assert!(of("_GetResult_Request").starts_with("RIHS01_9996f748dd654"));
        assert!(of("_FeedbackMessage").starts_with("RIHS01_3c69616b52cf3"));
    }

    #[test]
    fn a_shaped_kind_is_the_shape_the_input_gives() {
        let kinds = shaped_kinds();
        assert_eq!(kinds.len(), 1 + 4 + 16 + 64 + 256 + 1024);
        // 3 floats: the goto goal
        let goal =
            DynMsg::<GoalPart>::new(Record::defaults(skipper_goals::GOTO.goal).with("x", 1.1));
        #[derive(Serialize)]
        struct Req<'a>([u8; 16], &'a DynMsg<GoalPart>);
        let mut input = vec![3, 2, 2, 2];
        input.extend(encode(&Req([7; 16], &goal)));
        assert!(decode_shaped(&input).is_ok());
        input[1] = 3; // a string first: its length is the float's low bytes, beyond the sample
        assert!(decode_shaped(&input).is_err());
        assert!(decode_shaped(&[]).is_err());
        assert!(decode_shaped(&[5, 1]).is_err());
    }

    #[test]
    fn names_follow_rosidls_rules() {
        assert!(KindAction::of(&KIND).is_ok());
        for ok in ["a", "ab_c1", "x9"] {
            assert!(is_lower_name(ok), "{ok}");
        }
        for bad in ["", "A", "1a", "_a", "a_", "a__b", "a-b", "é"] {
            assert!(!is_lower_name(bad), "{bad}");
        }
        assert!(is_type_name("Advance") && is_type_name("A1"));
        for bad in ["", "advance", "Ad_vance", "1A"] {
            assert!(!is_type_name(bad), "{bad}");
        }
        static BAD: GoalKind = GoalKind {
            name: "bad",
            type_name: "Bad/advance",
            doc: "",
            goal: &[],
            result: &[],
            feedback: &[],
            ended: GoalKind::no_result,
        };
        let e = KindAction::of(&BAD).unwrap_err();
        assert!(e.contains("`Bad` is not a ROS package name"), "{e}");
    }

    #[test]
    fn the_action_of_a_kind_is_named_after_its_type() {
        let a = KindAction::of(&KIND).unwrap();
        assert_eq!(a.type_name(), "probe_msgs/action/Probe");
        assert_eq!((a.package(), a.name()), ("probe_msgs", "Probe"));
        assert!(a.hashes().action.starts_with("RIHS01_"));
        assert_eq!(a.hashes().client.len(), 5);
        assert!(a
            .hashes()
            .client
            .iter()
            .all(|c| c.hash.starts_with("RIHS01_")));
    }
}
