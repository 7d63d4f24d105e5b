//! Messages as ROS 2's command-line tools print them (`ros2 topic echo`, `ros2 action
//! send_goal`): rosidl_runtime_py's `message_to_yaml`, which is PyYAML's block style.
//! Fields in their declared order, nested messages indented by two spaces, lists as `- `
//! items at their field's indentation, `[]` and `{}` when empty, `true` / `false`, floats
//! as Python's `repr` with PyYAML's touches (`1.0e-05`, `.nan`, `-.inf`), and strings
//! plain unless PyYAML would quote them (it reads them as another type, or they hold an
//! indicator), then in single quotes. One difference, on purpose: a string with a line
//! break is printed in double quotes with `\n`, where PyYAML folds it over lines in single
//! quotes; both read back as the same string.
//!
//! Any `Serialize` message works ([`crate::msg`]'s structs); the tree is built once per
//! message, which suits printing, not publishing.

use serde::ser::{self, Serialize};
use skipper_ros1_wire::python::float_repr;
use std::fmt::Write as _;

/// `m` as `ros2 topic echo` prints it, without the final newline and the `---` line.
pub fn to_yaml<T: Serialize + ?Sized>(m: &T) -> String {
    let mut out = String::new();
    match m.serialize(Tree) {
        Ok(Node::Map(fields)) => map(&mut out, &fields, 0),
        Ok(other) => item(&mut out, &other, 0),
        Err(Unprintable(why)) => out.push_str(&why),
    }
    while out.ends_with('\n') {
        out.pop();
    }
    out
}

/// A message as a tree of rendered scalars.
#[derive(Debug)]
enum Node {
    Scalar(String),
    Map(Vec<(String, Node)>),
    Seq(Vec<Node>),
}

fn map(out: &mut String, fields: &[(String, Node)], indent: usize) {
    for (k, v) in fields {
        let _ = write!(out, "{:indent$}{k}:", "");
        match v {
            Node::Map(m) if !m.is_empty() => {
                out.push('\n');
                map(out, m, indent + 2);
            }
            // lists in a mapping are not indented further (PyYAML's indentless sequences)
            Node::Seq(s) if !s.is_empty() => {
                out.push('\n');
                seq(out, s, indent);
            }
            v => {
                out.push(' ');
                item(out, v, indent);
            }
        }
    }
}

fn seq(out: &mut String, items: &[Node], indent: usize) {
    for v in items {
        let _ = write!(out, "{:indent$}- ", "");
        match v {
            Node::Map(m) if !m.is_empty() => {
                // the first field on the dash's line, the rest under it
                let mut first = String::new();
                map(&mut first, m, indent + 2);
                out.push_str(first.trim_start());
            }
            Node::Seq(s) if !s.is_empty() => {
                let mut inner = String::new();
                seq(&mut inner, s, indent + 2);
                out.push_str(inner.trim_start());
            }
            v => item(out, v, indent),
        }
    }
}

/// A scalar or an empty collection, and the end of its line.
fn item(out: &mut String, v: &Node, indent: usize) {
    match v {
        Node::Scalar(s) => out.push_str(s),
        Node::Map(m) if m.is_empty() => out.push_str("{}"),
        Node::Seq(s) if s.is_empty() => out.push_str("[]"),
        Node::Map(m) => {
            out.push('\n');
            map(out, m, indent);
            return;
        }
        Node::Seq(s) => {
            out.push('\n');
            seq(out, s, indent);
            return;
        }
    }
    out.push('\n');
}

/// A float as PyYAML writes it.
fn float(x: f64) -> String {
    if x.is_nan() {
        return ".nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    let r = float_repr(x);
    if !r.contains('.') && r.contains('e') {
        r.replacen('e', ".0e", 1)
    } else {
        r
    }
}

/// A string as PyYAML writes it in block context.
fn string(s: &str) -> String {
    if s.chars().any(special) || s.contains(['\n', '\u{85}', '\u{2028}', '\u{2029}']) {
        double_quoted(s)
    } else if plain_allowed(s) && !resolves_as_other_type(s) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

/// Characters PyYAML prints only escaped, in double quotes (it allows Unicode).
fn special(c: char) -> bool {
    let printable = matches!(c, ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        || c >= '\u{10000}';
    !(printable || c == '\n' || c == '\u{85}') || c == '\u{feff}'
}

fn double_quoted(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        let esc = match c {
            '\0' => "\\0",
            '\x07' => "\\a",
            '\x08' => "\\b",
            '\t' => "\\t",
            '\n' => "\\n",
            '\x0b' => "\\v",
            '\x0c' => "\\f",
            '\r' => "\\r",
            '\x1b' => "\\e",
            '"' => "\\\"",
            '\\' => "\\\\",
            '\u{85}' => "\\N",
            '\u{2028}' => "\\L",
            '\u{2029}' => "\\P",
            c if special(c) => {
                let n = c as u32;
                let _ = match n {
                    0..=0xff => write!(q, "\\x{n:02X}"),
                    0x100..=0xffff => write!(q, "\\u{n:04X}"),
                    _ => write!(q, "\\U{n:08X}"),
                };
                continue;
            }
            c => {
                q.push(c);
                continue;
            }
        };
        q.push_str(esc);
    }
    q.push('"');
    q
}

/// PyYAML's analysis of a scalar for the plain style in block context.
fn plain_allowed(s: &str) -> bool {
    if s.is_empty() || s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    if s.starts_with([' ', '\t']) || s.ends_with([' ', '\t']) {
        return false;
    }
    let c: Vec<char> = s.chars().collect();
    let space_after = |i: usize| c.get(i + 1).is_none_or(|n| matches!(n, ' ' | '\t'));
    if "#,[]{}&*!|>'\"%@`".contains(c[0]) || ("?:-".contains(c[0]) && space_after(0)) {
        return false;
    }
    (1..c.len()).all(|i| match c[i] {
        ':' => !space_after(i),
        '#' => !matches!(c[i - 1], ' ' | '\t'),
        _ => true,
    })
}

/// Whether PyYAML's implicit resolvers (YAML 1.1) read `s` as something other than a
/// string: a bool, null, int, float, timestamp, merge key or value key.
fn resolves_as_other_type(s: &str) -> bool {
    const WORDS: &[&str] = &[
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL", "<<", "=",
    ];
    WORDS.contains(&s) || int(s) || float_like(s) || timestamp(s)
}

fn digits_(s: &str, ok: impl Fn(char) -> bool) -> bool {
    !s.is_empty() && s.chars().all(|c| c == '_' || ok(c))
}

fn unsigned(s: &str) -> &str {
    s.strip_prefix(['-', '+']).unwrap_or(s)
}

/// `[0-5]?[0-9]` groups after colons: `:30`, `:5:07`.
fn sexagesimal_tail(t: &str) -> bool {
    !t.is_empty()
        && t.split(':').skip(1).all(|g| {
            (1..=2).contains(&g.len())
                && g.chars().all(|c| c.is_ascii_digit())
                && (g.len() == 1 || g.as_bytes()[0] <= b'5')
        })
        && t.starts_with(':')
}

fn int(s: &str) -> bool {
    let u = unsigned(s);
    if let Some(b) = u.strip_prefix("0b") {
        return digits_(b, |c| c == '0' || c == '1');
    }
    if let Some(h) = u.strip_prefix("0x") {
        return digits_(h, |c| c.is_ascii_hexdigit());
    }
    if u == "0" || (u.starts_with('0') && digits_(&u[1..], |c| ('0'..='7').contains(&c))) {
        return true;
    }
    if !u.starts_with(|c: char| ('1'..='9').contains(&c)) {
        return false;
    }
    match u.find(':') {
        None => digits_(u, |c| c.is_ascii_digit()),
        Some(i) => digits_(&u[..i], |c| c.is_ascii_digit()) && sexagesimal_tail(&u[i..]),
    }
}

fn float_like(s: &str) -> bool {
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let u = unsigned(s);
    if matches!(u, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    // the exponent must be signed: `1.0e+5`, never `1.0e5`
    let (body, exp) = match u.find(['e', 'E']) {
        Some(i) => (&u[..i], Some(&u[i + 1..])),
        None => (u, None),
    };
    let exp_ok = exp.is_none_or(|e| {
        e.strip_prefix(['-', '+'])
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
    });
    let Some(dot) = body.find('.') else {
        return false;
    };
    let (whole, frac) = (&body[..dot], &body[dot + 1..]);
    let frac_ok = frac.is_empty() || digits_(frac, |c| c.is_ascii_digit());
    if whole.is_empty() {
        // `.5`, unsigned only
        return s == u && digits_(frac, |c| c.is_ascii_digit()) && !frac.starts_with('_') && exp_ok;
    }
    if !whole.starts_with(|c: char| c.is_ascii_digit()) || !frac_ok {
        return false;
    }
    match whole.find(':') {
        None => digits_(whole, |c| c.is_ascii_digit()) && exp_ok,
        Some(i) => {
            exp.is_none()
                && digits_(&whole[..i], |c| c.is_ascii_digit())
                && sexagesimal_tail(&whole[i..])
        }
    }
}

/// `2002-12-14`, or a date and a time (`2001-12-14t21:59:43.10-05:00`): read as a
/// timestamp (strings that only start like one are taken as one too, and quoted).
fn timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let d = |r: std::ops::Range<usize>| b.get(r).is_some_and(|x| x.iter().all(u8::is_ascii_digit));
    if !(d(0..4) && b.get(4) == Some(&b'-')) {
        return false;
    }
    let date_only = b.len() == 10 && d(5..7) && b[7] == b'-' && d(8..10);
    date_only || s[5..].contains([':']) && s[5..].contains(['T', 't', ' ', '\t'])
}

/// Why a value has no YAML form here (a map with keys that are not strings).
#[derive(Debug)]
struct Unprintable(String);

impl std::fmt::Display for Unprintable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Unprintable {}
impl ser::Error for Unprintable {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unprintable(msg.to_string())
    }
}

/// Serializes a message into a [`Node`] tree.
struct Tree;

fn scalar(s: impl Into<String>) -> Result<Node, Unprintable> {
    Ok(Node::Scalar(s.into()))
}

/// The integer methods of [`ser::Serializer`]: each prints its number in decimal.
macro_rules! integers {
    ($($method:ident : $ty:ty),*) => {$(
        fn $method(self, v: $ty) -> Result<Node, Unprintable> {
            scalar(v.to_string())
        }
    )*};
}

impl ser::Serializer for Tree {
    type Ok = Node;
    type Error = Unprintable;
    type SerializeSeq = Items;
    type SerializeTuple = Items;
    type SerializeTupleStruct = Items;
    type SerializeTupleVariant = Items;
    type SerializeMap = Fields;
    type SerializeStruct = Fields;
    type SerializeStructVariant = Fields;

    fn serialize_bool(self, v: bool) -> Result<Node, Unprintable> {
        scalar(if v { "true" } else { "false" })
    }
    integers!(
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64
    );
    fn serialize_f32(self, v: f32) -> Result<Node, Unprintable> {
        // rclpy holds a float32 field as a Python float: the f32's exact value
        scalar(float(f64::from(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<Node, Unprintable> {
        scalar(float(v))
    }
    fn serialize_char(self, v: char) -> Result<Node, Unprintable> {
        scalar(string(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<Node, Unprintable> {
        scalar(string(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Node, Unprintable> {
        Ok(Node::Seq(
            v.iter().map(|b| Node::Scalar(b.to_string())).collect(),
        ))
    }
    fn serialize_none(self) -> Result<Node, Unprintable> {
        scalar("null")
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Node, Unprintable> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Node, Unprintable> {
        scalar("null")
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Node, Unprintable> {
        Ok(Node::Map(Vec::new()))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Node, Unprintable> {
        scalar(string(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Node, Unprintable> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Node, Unprintable> {
        Ok(Node::Map(vec![(variant.to_string(), v.serialize(Tree)?)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Items, Unprintable> {
        Ok(Items(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<Items, Unprintable> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Items, Unprintable> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        len: usize,
    ) -> Result<Items, Unprintable> {
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Fields, Unprintable> {
        Ok(Fields::default())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields, Unprintable> {
        Ok(Fields::default())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Fields, Unprintable> {
        Ok(Fields::default())
    }
}

/// A list being serialized.
struct Items(Vec<Node>);

impl Items {
    fn push<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unprintable> {
        self.0.push(v.serialize(Tree)?);
        Ok(())
    }
}

/// serde's four list traits, each pushing its elements onto [`Items`].
macro_rules! list_trait {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Items {
            type Ok = Node;
            type Error = Unprintable;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unprintable> {
                self.push(v)
            }
            fn end(self) -> Result<Node, Unprintable> {
                Ok(Node::Seq(self.0))
            }
        }
    )*};
}
list_trait!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// A message or map being serialized: its fields in order.
#[derive(Default)]
struct Fields {
    fields: Vec<(String, Node)>,
    key: Option<String>,
}

impl Fields {
    fn field<T: Serialize + ?Sized>(&mut self, k: &str, v: &T) -> Result<(), Unprintable> {
        self.fields.push((k.to_string(), v.serialize(Tree)?));
        Ok(())
    }
}

/// serde's two struct traits, each adding named fields to [`Fields`].
macro_rules! struct_trait {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Fields {
            type Ok = Node;
            type Error = Unprintable;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                k: &'static str,
                v: &T,
            ) -> Result<(), Unprintable> {
                self.field(k, v)
            }
            fn end(self) -> Result<Node, Unprintable> {
                Ok(Node::Map(self.fields))
            }
        }
    )*};
}
struct_trait!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Fields {
    type Ok = Node;
    type Error = Unprintable;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Unprintable> {
        match k.serialize(Tree)? {
            Node::Scalar(s) => {
                self.key = Some(s);
                Ok(())
            }
            _ => Err(Unprintable("a map key that is not a scalar".into())),
        }
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unprintable> {
        let k = self.key.take().unwrap_or_default();
        self.field(&k, v)
    }
    fn end(self) -> Result<Node, Unprintable> {
        Ok(Node::Map(self.fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::skipper::{Depth, GotoGoal, RunOptionGoal, RunOptionResult};

    #[test]
    fn a_goal_prints_as_ros2_tools_print_it() {
        let g = GotoGoal {
            x: 2.0,
            y: 1e-5,
            tolerance: f64::NAN,
        };
        assert_eq!(to_yaml(&g), "x: 2.0\ny: 1.0e-05\ntolerance: .nan");
        let o = RunOptionGoal {
            option: "turn_to".into(),
            parameters: r#"{"yaw": 1.0}"#.into(),
        };
        assert_eq!(to_yaml(&o), "option: turn_to\nparameters: '{\"yaw\": 1.0}'");
        let r = RunOptionResult {
            reached_target_state: true,
        };
        assert_eq!(to_yaml(&r), "reached_target_state: true");
    }

    #[test]
    fn nested_messages_indent_by_two() {
        let mut d = Depth::default();
        d.header.frame_id = "auv1/base_link".into();
        d.depth = 12.5;
        assert_eq!(
            to_yaml(&d),
            "header:\n  stamp:\n    sec: 0\n    nanosec: 0\n  frame_id: auv1/base_link\n\
             depth: 12.5\naltitude: 0.0"
        );
    }

    /// PyYAML 6.0.4's output for `yaml.dump({"k": s})` and `yaml.dump({"k": x})`, run
    /// 2026-12-06 (scripts/ros2/run.sh checks a goal's, feedback's and result's text
    /// against PyYAML at every run).
    #[test]
    fn scalars_are_written_as_pyyaml_writes_them() {
        for (s, want) in [
            ("turn_to", "turn_to"),
            ("", "''"),
            ("hello world", "hello world"),
            ("true", "'true'"),
            ("True", "'True'"),
            ("yes", "'yes'"),
            ("on", "'on'"),
            ("null", "'null'"),
            ("~", "'~'"),
            ("1.5", "'1.5'"),
            ("12", "'12'"),
            ("0x1F", "'0x1F'"),
            ("1e5", "1e5"),
            ("1.0e+5", "'1.0e+5'"),
            (".inf", "'.inf'"),
            ("a: b", "'a: b'"),
            ("a:b", "a:b"),
            ("a #b", "'a #b'"),
            ("a#b", "a#b"),
            ("-", "'-'"),
            ("- x", "'- x'"),
            ("-x", "-x"),
            ("?x", "?x"),
            (":x", ":x"),
            ("x:", "'x:'"),
            ("it's", "it's"),
            ("a,b", "a,b"),
            ("[x]", "'[x]'"),
            ("x]", "x]"),
            ("2024-01-02", "'2024-01-02'"),
            ("  lead", "'  lead'"),
            ("trail ", "'trail '"),
            ("tab\there", "\"tab\\there\""),
            ("ümlaut", "ümlaut"),
            ("turn_to > search", "turn_to > search"),
            ("/robot1/goto", "/robot1/goto"),
            ("@x", "'@x'"),
            ("`x", "'`x'"),
            ("'x", "'''x'"),
            ("\"x", "'\"x'"),
            ("#x", "'#x'"),
            ("<<", "'<<'"),
            ("=", "'='"),
            ("---", "'---'"),
            ("...x", "'...x'"),
            ("x...", "x..."),
            ("1_000", "'1_000'"),
            ("0o17", "0o17"),
            ("017", "'017'"),
            ("+1", "'+1'"),
            ("-1", "'-1'"),
            ("1:30", "'1:30'"),
            ("x\\y", "x\\y"),
            ("yEs", "yEs"),
            ("NaN", "NaN"),
            (".nan", "'.nan'"),
            ("-.inf", "'-.inf'"),
            ("1.", "'1.'"),
            (".5", "'.5'"),
            ("1e-5", "1e-5"),
        ] {
            assert_eq!(string(s), want, "{s:?}");
        }
        for (x, want) in [
            (2.0, "2.0"),
            (0.25, "0.25"),
            (1e-5, "1.0e-05"),
            (1e16, "1.0e+16"),
            (1.5e-7, "1.5e-07"),
            (-0.0, "-0.0"),
            (f64::INFINITY, ".inf"),
            (f64::NEG_INFINITY, "-.inf"),
            (123456789012345.0, "123456789012345.0"),
        ] {
            assert_eq!(float(x), want, "{x}");
        }
    }

    #[test]
    fn lists_sit_at_their_fields_indentation() {
        #[derive(serde::Serialize)]
        struct Inner {
            g: i32,
            h: String,
        }
        #[derive(serde::Serialize)]
        struct Outer {
            c: Vec<f64>,
            d: Vec<f64>,
            f: Vec<Inner>,
            t: bool,
        }
        let o = Outer {
            c: vec![1.0, 2.5],
            d: vec![],
            f: vec![Inner {
                g: 1,
                h: "x".into(),
            }],
            t: true,
        };
        // as PyYAML prints {"c": [1.0, 2.5], "d": [], "f": [{"g": 1, "h": "x"}], "t": True}
        assert_eq!(
            to_yaml(&o),
            "c:\n- 1.0\n- 2.5\nd: []\nf:\n- g: 1\n  h: x\nt: true"
        );
    }

    /// `s`'s quoted form reads back as `s` (YAML's quoting means the same in PyYAML's
    /// 1.1 and yaml-rust2's 1.2); a plain form is `s` itself.
    fn reads_back(s: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        let out = string(s);
        if out.starts_with(['\'', '"']) {
            let doc = yaml_rust2::YamlLoader::load_from_str(&format!("k: {out}"));
            let doc =
                doc.map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{out}: {e}")))?;
            proptest::prop_assert_eq!(doc[0]["k"].as_str(), Some(s), "{}", out);
        } else {
            proptest::prop_assert_eq!(&out, s);
        }
        Ok(())
    }

    proptest::proptest! {
        /// Printable ASCII: plain, or single-quoted with `'` doubled.
        #[test]
        fn printable_text_reads_back(s in "[ -~]{0,12}") {
            reads_back(&s)?;
        }

        /// Any text a peer may send: control characters, line breaks, Unicode.
        #[test]
        fn any_text_reads_back(s in "[ -~\t\n\r\u{0}-\u{1f}\u{7f}-\u{a0}\u{85}\u{2028}\u{feff}é😀]{0,12}") {
            reads_back(&s)?;
        }
    }

    #[test]
    fn line_breaks_are_double_quoted() {
        assert_eq!(string("line\nbreak"), "\"line\\nbreak\"");
        assert_eq!(string("bell\x07"), "\"bell\\a\"");
    }
}
