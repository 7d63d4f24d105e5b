//! ROS 2 type descriptions and type hashes: what Jazzy's `rosidl` computes for each
//! interface (`type_description_interfaces/msg/TypeDescription`, and its hash: `RIHS01_`
//! and 64 hex digits), so that a type Skipper makes at run time hashes exactly as the
//! same type generated from an `.action` file.
//!
//! A type is described by its fields (name; type id, array capacity, string capacity,
//! nested type name); its full description is it and every type it refers to,
//! transitively, sorted by name. The hash is the SHA-256 of that description written as
//! JSON the way Python's `json.dumps` writes it with separators `", "` and `": "`, keys
//! in their declared order, field default values left out.
//!
//! An action `pkg/action/Name` is the types rosidl derives from its goal, result and
//! feedback ([`TypeSet::add_action`]): `Name_Goal`, `_Result`, `_Feedback`, the services
//! `Name_SendGoal` and `Name_GetResult` (each a request, a response and an event message),
//! `Name_FeedbackMessage`, and the action itself, which refers to them all.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Type ids of `type_description_interfaces/msg/FieldType`.
pub mod id {
    /// a message of its own (`nested_type_name`)
    pub const NESTED: u8 = 1;
    /// `int8`
    pub const INT8: u8 = 2;
    /// `uint8`
    pub const UINT8: u8 = 3;
    /// `int16`
    pub const INT16: u8 = 4;
    /// `uint16`
    pub const UINT16: u8 = 5;
    /// `int32`
    pub const INT32: u8 = 6;
    /// `uint32`
    pub const UINT32: u8 = 7;
    /// `int64`
    pub const INT64: u8 = 8;
    /// `float32`
    pub const FLOAT: u8 = 10;
    /// `float64`
    pub const DOUBLE: u8 = 11;
    /// `bool`
    pub const BOOLEAN: u8 = 15;
    /// `string`
    pub const STRING: u8 = 17;
    /// added to a type id: a fixed-size array of it
    pub const ARRAY: u8 = 48;
    /// added to a type id: a bounded sequence of it
    pub const BOUNDED_SEQUENCE: u8 = 96;
    /// added to a type id: a sequence of it
    pub const SEQUENCE: u8 = 144;
}

/// The field every empty message gets (IDL structures need a member).
pub const EMPTY_MEMBER: &str = "structure_needs_at_least_one_member";
/// The prefix of a RIHS01 hash.
pub const RIHS01: &str = "RIHS01_";

/// A field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldType {
    /// see [`id`]
    pub type_id: u8,
    /// the size of a fixed array, the bound of a bounded sequence (else 0)
    pub capacity: u64,
    /// the bound of a bounded string (else 0)
    pub string_capacity: u64,
    /// the nested type's name (`builtin_interfaces/msg/Time`), or empty
    pub nested_type_name: String,
}

impl FieldType {
    /// A basic type.
    pub fn basic(type_id: u8) -> Self {
        Self {
            type_id,
            capacity: 0,
            string_capacity: 0,
            nested_type_name: String::new(),
        }
    }
    /// A nested message.
    pub fn nested(type_name: &str) -> Self {
        Self {
            nested_type_name: type_name.to_string(),
            ..Self::basic(id::NESTED)
        }
    }
    /// An array of `n` of this.
    pub fn array(self, n: u64) -> Self {
        Self {
            type_id: self.type_id + id::ARRAY,
            capacity: n,
            ..self
        }
    }
    /// A sequence of at most `n` of this.
    pub fn bounded_sequence(self, n: u64) -> Self {
        Self {
            type_id: self.type_id + id::BOUNDED_SEQUENCE,
            capacity: n,
            ..self
        }
    }
    /// A sequence of this.
    pub fn sequence(self) -> Self {
        Self {
            type_id: self.type_id + id::SEQUENCE,
            ..self
        }
    }
}

/// One field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// its name
    pub name: String,
    /// its type
    pub ty: FieldType,
}

impl Field {
    /// A field.
    pub fn new(name: &str, ty: FieldType) -> Self {
        Self {
            name: name.to_string(),
            ty,
        }
    }
}

/// One type with its own fields (`IndividualTypeDescription`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndividualType {
    /// `pkg/msg/Name`, `pkg/action/Name_Goal`, ...
    pub type_name: String,
    /// its fields, in order
    pub fields: Vec<Field>,
}

impl IndividualType {
    /// A type; no fields is the one member rosidl gives empty messages.
    pub fn new(type_name: &str, mut fields: Vec<Field>) -> Self {
        if fields.is_empty() {
            fields.push(Field::new(EMPTY_MEMBER, FieldType::basic(id::UINT8)));
        }
        Self {
            type_name: type_name.to_string(),
            fields,
        }
    }
}

/// A type and every type it refers to (`TypeDescription`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Description {
    /// the type
    pub top: IndividualType,
    /// what it refers to, transitively, sorted by name
    pub referenced: Vec<IndividualType>,
}

fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => {
                // as Python's ensure_ascii: \uXXXX, astral characters as surrogate pairs
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

fn json_type(out: &mut String, t: &IndividualType) {
    out.push_str("{\"type_name\": ");
    json_str(out, &t.type_name);
    out.push_str(", \"fields\": [");
    for (i, f) in t.fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("{\"name\": ");
        json_str(out, &f.name);
        let _ = write!(
            out,
            ", \"type\": {{\"type_id\": {}, \"capacity\": {}, \"string_capacity\": {}, \"nested_type_name\": ",
            f.ty.type_id, f.ty.capacity, f.ty.string_capacity
        );
        json_str(out, &f.ty.nested_type_name);
        out.push_str("}}");
    }
    out.push_str("]}");
}

impl Description {
    /// The text that is hashed: the description as JSON without default values.
    pub fn hashed_json(&self) -> String {
        let mut out = String::from("{\"type_description\": ");
        json_type(&mut out, &self.top);
        out.push_str(", \"referenced_type_descriptions\": [");
        for (i, t) in self.referenced.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            json_type(&mut out, t);
        }
        out.push_str("]}");
        out
    }

    /// Its RIHS01 hash (`RIHS01_` and 64 hex digits).
    pub fn hash(&self) -> String {
        format!(
            "{RIHS01}{}",
            crate::sha256::hex_digest(self.hashed_json().as_bytes())
        )
    }
}

/// Individual types by name, from which full descriptions are drawn.
#[derive(Debug, Clone, Default)]
pub struct TypeSet {
    types: BTreeMap<String, IndividualType>,
}

impl TypeSet {
    /// The types every action refers to: `builtin_interfaces/msg/Time`,
    /// `unique_identifier_msgs/msg/UUID`, `service_msgs/msg/ServiceEventInfo`.
    pub fn with_action_basics() -> Self {
        let mut s = Self::default();
        s.insert(IndividualType::new(
            TIME,
            vec![
                Field::new("sec", FieldType::basic(id::INT32)),
                Field::new("nanosec", FieldType::basic(id::UINT32)),
            ],
        ));
        s.insert(IndividualType::new(
            UUID,
            vec![Field::new("uuid", FieldType::basic(id::UINT8).array(16))],
        ));
        s.insert(IndividualType::new(
            EVENT_INFO,
            vec![
                Field::new("event_type", FieldType::basic(id::UINT8)),
                Field::new("stamp", FieldType::nested(TIME)),
                Field::new("client_gid", FieldType::basic(id::UINT8).array(16)),
                Field::new("sequence_number", FieldType::basic(id::INT64)),
            ],
        ));
        s
    }

    /// Add (or replace) a type.
    pub fn insert(&mut self, t: IndividualType) {
        self.types.insert(t.type_name.clone(), t);
    }

    /// A type by name.
    pub fn get(&self, type_name: &str) -> Option<&IndividualType> {
        self.types.get(type_name)
    }

    /// A service `type_name` (`pkg/action/Name_SendGoal`) with its request, response and
    /// event messages.
    pub fn add_service(&mut self, type_name: &str, request: Vec<Field>, response: Vec<Field>) {
        let req = format!("{type_name}_Request");
        let resp = format!("{type_name}_Response");
        let event = format!("{type_name}_Event");
        self.insert(IndividualType::new(&req, request));
        self.insert(IndividualType::new(&resp, response));
        self.insert(IndividualType::new(
            &event,
            vec![
                Field::new("info", FieldType::nested(EVENT_INFO)),
                Field::new("request", FieldType::nested(&req).bounded_sequence(1)),
                Field::new("response", FieldType::nested(&resp).bounded_sequence(1)),
            ],
        ));
        self.insert(IndividualType::new(
            type_name,
            vec![
                Field::new("request_message", FieldType::nested(&req)),
                Field::new("response_message", FieldType::nested(&resp)),
                Field::new("event_message", FieldType::nested(&event)),
            ],
        ));
    }

    /// The action `pkg/action/Name` (`action`) of these goal, result and feedback fields,
    /// and every type rosidl derives from it. Needs [`TypeSet::with_action_basics`].
    pub fn add_action(
        &mut self,
        action: &str,
        goal: Vec<Field>,
        result: Vec<Field>,
        feedback: Vec<Field>,
    ) {
        let part = |s: &str| format!("{action}_{s}");
        self.insert(IndividualType::new(&part("Goal"), goal));
        self.insert(IndividualType::new(&part("Result"), result));
        self.insert(IndividualType::new(&part("Feedback"), feedback));
        self.add_service(
            &part("SendGoal"),
            vec![
                Field::new("goal_id", FieldType::nested(UUID)),
                Field::new("goal", FieldType::nested(&part("Goal"))),
            ],
            vec![
                Field::new("accepted", FieldType::basic(id::BOOLEAN)),
                Field::new("stamp", FieldType::nested(TIME)),
            ],
        );
        self.add_service(
            &part("GetResult"),
            vec![Field::new("goal_id", FieldType::nested(UUID))],
            vec![
                Field::new("status", FieldType::basic(id::INT8)),
                Field::new("result", FieldType::nested(&part("Result"))),
            ],
        );
        self.insert(IndividualType::new(
            &part("FeedbackMessage"),
            vec![
                Field::new("goal_id", FieldType::nested(UUID)),
                Field::new("feedback", FieldType::nested(&part("Feedback"))),
            ],
        ));
        let members = [
            ("goal", "Goal"),
            ("result", "Result"),
            ("feedback", "Feedback"),
            ("send_goal_service", "SendGoal"),
            ("get_result_service", "GetResult"),
            ("feedback_message", "FeedbackMessage"),
        ];
        self.insert(IndividualType::new(
            action,
            members
                .iter()
                .map(|(n, t)| Field::new(n, FieldType::nested(&part(t))))
                .collect(),
        ));
    }

    /// The full description of `type_name`; `None` if it, or a type it refers to, is not
    /// in the set.
    pub fn description(&self, type_name: &str) -> Option<Description> {
        let top = self.types.get(type_name)?.clone();
        let mut seen = BTreeSet::new();
        let mut queue: Vec<&str> = nested(&top).collect();
        while let Some(name) = queue.pop() {
            if seen.insert(name.to_string()) {
                queue.extend(nested(self.types.get(name)?));
            }
        }
        let referenced = seen
            .iter()
            .map(|n| self.types.get(n).cloned())
            .collect::<Option<Vec<_>>>()?;
        Some(Description { top, referenced })
    }

    /// The RIHS01 hash of `type_name`.
    pub fn hash(&self, type_name: &str) -> Option<String> {
        self.description(type_name).map(|d| d.hash())
    }

    /// Every type's name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.types.keys().map(String::as_str)
    }
}

fn nested(t: &IndividualType) -> impl Iterator<Item = &str> {
    t.fields
        .iter()
        .map(|f| f.ty.nested_type_name.as_str())
        .filter(|n| !n.is_empty())
}

/// `builtin_interfaces/msg/Time`.
pub const TIME: &str = "builtin_interfaces/msg/Time";
/// `unique_identifier_msgs/msg/UUID`.
pub const UUID: &str = "unique_identifier_msgs/msg/UUID";
/// `service_msgs/msg/ServiceEventInfo`.
pub const EVENT_INFO: &str = "service_msgs/msg/ServiceEventInfo";

/// The hash rmw announces in an endpoint's USER_DATA (`typehash=RIHS01_...;`), if any.
pub fn hash_in_user_data(user_data: &[u8]) -> Option<&str> {
    // the value as it arrives may keep its CDR length in front: look for the key
    let at = user_data.windows(9).position(|w| w == b"typehash=")? + 9;
    let rest = user_data.get(at..)?;
    let end = rest.iter().position(|&b| b == b';').unwrap_or(rest.len());
    std::str::from_utf8(rest.get(..end)?)
        .ok()
        .filter(|h| h.starts_with(RIHS01))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `test_msgs/action/Fibonacci` (`int32 order` / `int32[] sequence` /
    /// `int32[] sequence`) and the hashes Jazzy's rosidl generated for it
    /// (share/test_msgs/action/Fibonacci.json of the ros-jazzy-test-msgs wheel).
    #[test]
    fn an_action_hashes_as_rosidl_hashes_it() {
        let mut s = TypeSet::with_action_basics();
        let seq = || {
            vec![Field::new(
                "sequence",
                FieldType::basic(id::INT32).sequence(),
            )]
        };
        s.add_action(
            "test_msgs/action/Fibonacci",
            vec![Field::new("order", FieldType::basic(id::INT32))],
            seq(),
            seq(),
        );
        for (name, hash) in [
            (
                "test_msgs/action/Fibonacci",
                "be9273e3557225044b4a040811112491f7079326e3a573f83258b0b4c30bd069",
            ),
            (
                "builtin_interfaces/msg/Time",
                "b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197",
            ),
            (
                "service_msgs/msg/ServiceEventInfo",
                "41bcbbe07a75c9b52bc96bfd5c24d7f0fc0a08c0cb7921b3373c5732345a6f45",
            ),
            (
                "test_msgs/action/Fibonacci_Feedback",
                "7d1110f2efa019ad5ad8ad2244db98d862f39dc9fae8c976814b0065fa2f32d5",
            ),
            (
                "test_msgs/action/Fibonacci_FeedbackMessage",
                "37487bae8cea358366b97003c1ef1ca7ce7c08df36f9e8cca496624226aee64e",
            ),
            (
                "test_msgs/action/Fibonacci_GetResult",
                "5d30fdeb21d20e117aa5f36c7b4f0b6874f1a8cf7a9c038d58f1156c5737b209",
            ),
            (
                "test_msgs/action/Fibonacci_GetResult_Event",
                "fe0aa5843ef10550a9b322aeeccd5b11e78bca05b3571cf6999c51bff30c1e23",
            ),
            (
                "test_msgs/action/Fibonacci_GetResult_Request",
                "c65e93c4c4328d7f1abd6ace83dba8e5fa0f32de76b4d2c96b5c655d94803b92",
            ),
            (
                "test_msgs/action/Fibonacci_GetResult_Response",
                "ef88159d47a3d21d9bf4bec690cf668939d9542db28a9cfd77dbcd97eaf1add2",
            ),
            (
                "test_msgs/action/Fibonacci_Goal",
                "e58ef5a8f4f039ab522a740823547c460b1d5aed8031c8b7825d33d345d90df8",
            ),
            (
                "test_msgs/action/Fibonacci_Result",
                "0774b095467813c6904d475498b5486b7ebd4cda6a4569f97e8de8c862689049",
            ),
            (
                "test_msgs/action/Fibonacci_SendGoal",
                "d807633803e38e164276573cd97e9fbd71e109c290bbf4cc312a0a1c9da7bbd9",
            ),
            (
                "test_msgs/action/Fibonacci_SendGoal_Event",
                "a20e708c6aae7a99d1eb0e930a0916f596bb5bae93a342a61752e13135be2c44",
            ),
            (
                "test_msgs/action/Fibonacci_SendGoal_Request",
                "dfe75c73dc2c090cbc8fd8c45039bfa279d16aa6aadd348f812c6adad26e669e",
            ),
            (
                "test_msgs/action/Fibonacci_SendGoal_Response",
                "1e7e84f7edf1fb020d9e51c7842bceef4cbdbd847f354125f3227cf4f314a683",
            ),
            (
                "unique_identifier_msgs/msg/UUID",
                "1b8e8aca958cbea28fe6ef60bf6c19b683c97a9ef60bb34752067d0f2f7ab437",
            ),
        ] {
            assert_eq!(s.hash(name).unwrap(), format!("RIHS01_{hash}"), "{name}");
        }
        assert_eq!(s.names().count(), 16);
    }

    #[test]
    fn an_empty_message_has_rosidls_one_member() {
        // test_msgs/msg/Empty (share/test_msgs/msg/Empty.json)
        let mut s = TypeSet::default();
        s.insert(IndividualType::new("test_msgs/msg/Empty", Vec::new()));
        assert_eq!(
            s.hash("test_msgs/msg/Empty").unwrap(),
            "RIHS01_6587ceacfdb97a895b60774d021011c64f8c7299f53322404af4036dec6142dc"
        );
    }

    #[test]
    fn json_is_written_as_python_writes_it() {
        let d = Description {
            top: IndividualType::new(
                "p/msg/T",
                vec![Field::new("a\"é😀", FieldType::nested("p/msg/U"))],
            ),
            referenced: vec![IndividualType::new("p/msg/U", Vec::new())],
        };
        assert_eq!(
            d.hashed_json(),
            "{\"type_description\": {\"type_name\": \"p/msg/T\", \"fields\": [{\"name\": \"a\\\"\\u00e9\\ud83d\\ude00\", \"type\": {\"type_id\": 1, \"capacity\": 0, \"string_capacity\": 0, \"nested_type_name\": \"p/msg/U\"}}]}, \"referenced_type_descriptions\": [{\"type_name\": \"p/msg/U\", \"fields\": [{\"name\": \"structure_needs_at_least_one_member\", \"type\": {\"type_id\": 3, \"capacity\": 0, \"string_capacity\": 0, \"nested_type_name\": \"\"}}]}]}"
        );
    }

    #[test]
    fn a_missing_reference_has_no_description() {
        let mut s = TypeSet::default();
        s.insert(IndividualType::new(
            "p/msg/T",
            vec![Field::new("t", FieldType::nested(TIME))],
        ));
        assert!(s.description("p/msg/T").is_none());
        assert!(s.description("p/msg/X").is_none());
    }

    #[test]
    fn the_hash_in_an_endpoints_user_data() {
        let h = format!("RIHS01_{}", "ab".repeat(32));
        assert_eq!(
            hash_in_user_data(format!("typehash={h};").as_bytes()),
            Some(h.as_str())
        );
        assert_eq!(
            hash_in_user_data(format!("x=1;typehash={h};").as_bytes()),
            Some(h.as_str())
        );
        // as RustDDS hands it over: the CDR length, the text, padding
        let mut raw = 81u32.to_le_bytes().to_vec();
        raw.extend(format!("typehash={h};\0\0\0").as_bytes());
        assert_eq!(hash_in_user_data(&raw), Some(h.as_str()));
        assert_eq!(hash_in_user_data(b""), None);
        assert_eq!(hash_in_user_data(b"typehash=;"), None);
        assert_eq!(hash_in_user_data(&[0xff, 0xfe]), None);
    }
}
