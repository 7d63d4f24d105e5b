//! The `.msg` / `.srv` / `.action` text parser: one line per field (`type name`) or
//! constant (`type NAME=value`), `#` comments, `---` between the sections of a service or
//! an action. It checks names, types, array lengths and constant values, and reports
//! the first mistake with its line and column ([`ParseError`]), as genmsg would refuse
//! the file. Types are not resolved here (see [`super::schema`]).

use std::fmt;

/// The builtin (primitive) field types of ROS 1 messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// `bool` (one byte)
    Bool,
    /// `int8` (also the deprecated `byte`)
    Int8,
    /// `uint8` (also the deprecated `char`)
    UInt8,
    /// `int16`
    Int16,
    /// `uint16`
    UInt16,
    /// `int32`
    Int32,
    /// `uint32`
    UInt32,
    /// `int64`
    Int64,
    /// `uint64`
    UInt64,
    /// `float32`
    Float32,
    /// `float64`
    Float64,
    /// `string` (a `u32` length and UTF-8 bytes)
    String,
    /// `time` (`u32` seconds, `u32` nanoseconds)
    Time,
    /// `duration` (`i32` seconds, `i32` nanoseconds)
    Duration,
}

impl Primitive {
    /// The primitive a type name stands for (`byte` and `char` are the deprecated
    /// aliases of `int8` and `uint8`).
    pub fn from_name(s: &str) -> Option<Self> {
        use Primitive::*;
        Some(match s {
            "bool" => Bool,
            "int8" | "byte" => Int8,
            "uint8" | "char" => UInt8,
            "int16" => Int16,
            "uint16" => UInt16,
            "int32" => Int32,
            "uint32" => UInt32,
            "int64" => Int64,
            "uint64" => UInt64,
            "float32" => Float32,
            "float64" => Float64,
            "string" => String,
            "time" => Time,
            "duration" => Duration,
            _ => return None,
        })
    }
    /// The canonical name (`float64`).
    pub fn name(self) -> &'static str {
        use Primitive::*;
        match self {
            Bool => "bool",
            Int8 => "int8",
            UInt8 => "uint8",
            Int16 => "int16",
            UInt16 => "uint16",
            Int32 => "int32",
            UInt32 => "uint32",
            Int64 => "int64",
            UInt64 => "uint64",
            Float32 => "float32",
            Float64 => "float64",
            String => "string",
            Time => "time",
            Duration => "duration",
        }
    }
    /// Bytes on the wire; `None` for `string` (variable).
    pub fn size(self) -> Option<usize> {
        use Primitive::*;
        match self {
            Bool | Int8 | UInt8 => Some(1),
            Int16 | UInt16 => Some(2),
            Int32 | UInt32 | Float32 => Some(4),
            Int64 | UInt64 | Float64 | Time | Duration => Some(8),
            String => None,
        }
    }
    /// Whether a constant may have this type (not `time` or `duration`).
    pub fn can_be_constant(self) -> bool {
        !matches!(self, Primitive::Time | Primitive::Duration)
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The longest fixed-length array a definition may declare.
pub const MAX_FIXED_LEN: usize = 1 << 20;

/// A field's array shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// one value
    Scalar,
    /// `T[]`: a `u32` count, then the elements
    Vec,
    /// `T[N]`: exactly N elements, no count
    Fixed(usize),
}

/// A field type as written: a primitive or a message type name, and its shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeRef {
    /// the type as written, brackets included (`float64[36]`, `geometry_msgs/Point[]`)
    pub text: String,
    /// the element type as written (`float64`, `Header`, `geometry_msgs/Point`)
    pub base: String,
    /// the primitive, if the element type is one
    pub primitive: Option<Primitive>,
    /// the array shape
    pub shape: Shape,
}

/// A field line.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpec {
    /// its type
    pub ty: TypeRef,
    /// its name
    pub name: String,
    /// 1-based line in the file
    pub line: usize,
}

/// A constant's value.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    /// a bool
    Bool(bool),
    /// any integer type
    Int(i128),
    /// `float32` / `float64`
    Float(f64),
    /// a string (the rest of the line, trimmed)
    String(String),
}

/// A constant line.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstSpec {
    /// its type
    pub ty: Primitive,
    /// the type as written (`uint8`, `byte`)
    pub ty_text: String,
    /// its name
    pub name: String,
    /// the value as written (what the md5sum uses)
    pub text: String,
    /// the value
    pub value: ConstValue,
}

/// A parsed message definition (one section of a `.srv` or `.action`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MsgSpec {
    /// constants, in file order
    pub constants: Vec<ConstSpec>,
    /// fields, in file order
    pub fields: Vec<FieldSpec>,
}

/// A mistake in a definition, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}:{line}:{col}: {message}\n  {text}\n  {caret}", caret = caret(*col))]
pub struct ParseError {
    /// the file, or the type name when the text came from elsewhere
    pub origin: String,
    /// 1-based line
    pub line: usize,
    /// 1-based column
    pub col: usize,
    /// the line
    pub text: String,
    /// what is wrong and what was expected
    pub message: String,
}

fn caret(col: usize) -> String {
    format!("{}^", " ".repeat(col.saturating_sub(1)))
}

/// A legal field or constant name: a letter, then letters, digits and `_`.
pub fn is_field_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|c| c.is_ascii_alphabetic())
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A legal package or type name part: a letter, then letters, digits and `_`.
pub fn is_type_part(s: &str) -> bool {
    is_field_name(s)
}

/// The sections of a `.srv` (2) or `.action` (3) text, split at lines that are `---`,
/// each with the 0-based line where it starts.
pub fn sections(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![(0, String::new())];
    for (i, line) in text.lines().enumerate() {
        if line.trim() == "---" {
            out.push((i + 1, String::new()));
        } else if let Some((_, s)) = out.last_mut() {
            s.push_str(line);
            s.push('\n');
        }
    }
    out
}

struct Ctx<'a> {
    origin: &'a str,
    line: usize,
    raw: &'a str,
}

impl Ctx<'_> {
    fn err(&self, col: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            origin: self.origin.to_string(),
            line: self.line,
            col,
            text: self.raw.to_string(),
            message: message.into(),
        }
    }
    /// The 1-based column of `part`, a slice of the raw line.
    fn col_of(&self, part: &str) -> usize {
        let base = self.raw.as_ptr() as usize;
        let p = part.as_ptr() as usize;
        if p >= base && p <= base + self.raw.len() {
            p - base + 1
        } else {
            1
        }
    }
}

/// Parse one message definition. `origin` names it in errors (a path or a type name);
/// `first_line` is the 0-based line of the file where the text starts (for the
/// sections of a `.srv` or `.action`).
pub fn parse_msg(origin: &str, text: &str, first_line: usize) -> Result<MsgSpec, ParseError> {
    let mut spec = MsgSpec::default();
    for (i, raw) in text.lines().enumerate() {
        let cx = Ctx {
            origin,
            line: first_line + i + 1,
            raw,
        };
        let clean = raw.split('#').next().unwrap_or("").trim();
        if clean.is_empty() {
            continue;
        }
        let (ty, rest) = match clean.split_once(|c: char| c.is_ascii_whitespace()) {
            Some(x) => x,
            None => {
                return Err(cx.err(
                    cx.col_of(clean) + clean.len(),
                    format!(
                        "`{clean}` needs a name after the type (`type name` or `type NAME=value`)"
                    ),
                ))
            }
        };
        if clean.contains('=') {
            let c = constant(&cx, ty, rest)?;
            if spec.constants.iter().any(|k| k.name == c.name) {
                return Err(cx.err(
                    cx.col_of(rest.trim_start()),
                    format!("constant `{}` is declared twice", c.name),
                ));
            }
            spec.constants.push(c);
        } else {
            let name = rest.trim();
            let tr = type_ref(&cx, ty)?;
            if !is_field_name(name) {
                return Err(cx.err(
                    cx.col_of(name),
                    format!("`{name}` is not a field name (a letter, then letters, digits and _)"),
                ));
            }
            if spec.fields.iter().any(|f| f.name == name) {
                return Err(cx.err(cx.col_of(name), format!("field `{name}` is declared twice")));
            }
            spec.fields.push(FieldSpec {
                ty: tr,
                name: name.to_string(),
                line: cx.line,
            });
        }
    }
    Ok(spec)
}

fn type_ref(cx: &Ctx<'_>, ty: &str) -> Result<TypeRef, ParseError> {
    let col = cx.col_of(ty);
    let (base, shape) = match ty.find('[') {
        None => (ty, Shape::Scalar),
        Some(at) => {
            let inner = ty[at + 1..].strip_suffix(']').ok_or_else(|| {
                cx.err(
                    col + at,
                    format!("`{ty}`: an array type ends with `[]` or `[N]`"),
                )
            })?;
            let shape = if inner.is_empty() {
                Shape::Vec
            } else {
                let n: usize = inner.parse().map_err(|_| {
                    cx.err(
                        col + at + 1,
                        format!("`{inner}` is not an array length (expected a whole number)"),
                    )
                })?;
                if n > MAX_FIXED_LEN {
                    return Err(cx.err(
                        col + at + 1,
                        format!("array length {n} is over the limit of {MAX_FIXED_LEN}"),
                    ));
                }
                Shape::Fixed(n)
            };
            (&ty[..at], shape)
        }
    };
    let primitive = Primitive::from_name(base);
    if primitive.is_none() {
        let parts: Vec<&str> = base.split('/').collect();
        let ok = match parts.as_slice() {
            [n] => is_type_part(n),
            [p, n] => is_type_part(p) && is_type_part(n),
            _ => false,
        };
        if !ok {
            return Err(cx.err(
                col,
                format!(
                    "`{base}` is not a type (a builtin such as float64, or Name / package/Name)"
                ),
            ));
        }
    }
    Ok(TypeRef {
        text: ty.to_string(),
        base: base.to_string(),
        primitive,
        shape,
    })
}

fn constant(cx: &Ctx<'_>, ty: &str, rest: &str) -> Result<ConstSpec, ParseError> {
    let col = cx.col_of(ty);
    let prim = Primitive::from_name(ty)
        .filter(|p| p.can_be_constant())
        .ok_or_else(|| {
            cx.err(
                col,
                format!("a constant's type is a builtin number, bool or string, not `{ty}`"),
            )
        })?;
    // a string constant's value is everything after `=`, `#` included
    let (name, value) = if prim == Primitive::String {
        let after = cx.raw.trim_start();
        let after = after
            .split_once(|c: char| c.is_ascii_whitespace())
            .map(|x| x.1)
            .unwrap_or("");
        after.split_once('=').unwrap_or((after, ""))
    } else {
        rest.split_once('=').unwrap_or((rest, ""))
    };
    let (name, value) = (name.trim(), value.trim());
    if !is_field_name(name) {
        return Err(cx.err(
            cx.col_of(name),
            format!("`{name}` is not a constant name (a letter, then letters, digits and _)"),
        ));
    }
    let vcol = cx.col_of(value);
    let bad = |what: &str| cx.err(vcol, format!("`{value}` is not {what} (constant {name})"));
    let v = match prim {
        Primitive::String => ConstValue::String(value.to_string()),
        Primitive::Bool => match value {
            "true" | "True" | "1" => ConstValue::Bool(true),
            "false" | "False" | "0" => ConstValue::Bool(false),
            _ => return Err(bad("a bool (true or false)")),
        },
        Primitive::Float32 | Primitive::Float64 => {
            ConstValue::Float(value.parse().map_err(|_| bad("a number"))?)
        }
        p => {
            let n: i128 = value.parse().map_err(|_| bad("a whole number"))?;
            if !int_in_range(p, n) {
                return Err(bad(&format!("in the range of {p}")));
            }
            ConstValue::Int(n)
        }
    };
    Ok(ConstSpec {
        ty: prim,
        ty_text: ty.to_string(),
        name: name.to_string(),
        text: value.to_string(),
        value: v,
    })
}

/// Whether `n` fits the integer primitive `p`.
pub fn int_in_range(p: Primitive, n: i128) -> bool {
    use Primitive::*;
    let (lo, hi): (i128, i128) = match p {
        Int8 => (i8::MIN.into(), i8::MAX.into()),
        UInt8 => (0, u8::MAX.into()),
        Int16 => (i16::MIN.into(), i16::MAX.into()),
        UInt16 => (0, u16::MAX.into()),
        Int32 => (i32::MIN.into(), i32::MAX.into()),
        UInt32 => (0, u32::MAX.into()),
        Int64 => (i64::MIN.into(), i64::MAX.into()),
        UInt64 => (0, u64::MAX.into()),
        _ => return false,
    };
    (lo..=hi).contains(&n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_constants_and_comments() {
        let s = parse_msg(
            "t/A",
            "# a comment\nuint8 A = 3 # three\nstring S=a # b\nfloat64[36] c\nHeader h\ngeometry_msgs/Point[] p\n",
            0,
        )
        .unwrap();
        assert_eq!(s.constants.len(), 2);
        assert_eq!(s.constants[0].value, ConstValue::Int(3));
        assert_eq!(s.constants[1].text, "a # b");
        assert_eq!(s.fields[0].ty.shape, Shape::Fixed(36));
        assert_eq!(s.fields[0].ty.primitive, Some(Primitive::Float64));
        assert_eq!(s.fields[2].ty.shape, Shape::Vec);
        assert_eq!(s.fields[2].ty.base, "geometry_msgs/Point");
        assert_eq!(s.fields[2].line, 6);
    }

    #[test]
    fn mistakes_have_line_and_column() {
        let e = parse_msg("f.msg", "int32 x\nfloat64 1y\n", 0).unwrap_err();
        assert_eq!((e.line, e.col), (2, 9));
        assert!(e
            .to_string()
            .starts_with("f.msg:2:9: `1y` is not a field name"));
        assert!(
            e.to_string().ends_with("\n  float64 1y\n          ^"),
            "{e}"
        );
        for (bad, col) in [
            ("int32\n", 6),
            ("uint8 X = 300\n", 11),
            ("time T = 1\n", 1),
            ("float64[x] a\n", 9),
            ("float64[3 a\n", 8),
            ("a/b/c x\n", 1),
            ("int32 x\nint32 x\n", 7),
            ("bool B = maybe\n", 10),
            ("uint8[99999999] big\n", 7),
        ] {
            let e = parse_msg("t", bad, 0).unwrap_err();
            assert_eq!(e.col, col, "{bad:?}: {e}");
        }
    }

    #[test]
    fn sections_split_at_dashes() {
        let s = sections("int32 a\n---\nint32 b\n ---\nint32 c\n");
        assert_eq!(
            s,
            vec![
                (0, "int32 a\n".to_string()),
                (2, "int32 b\n".to_string()),
                (4, "int32 c\n".to_string())
            ]
        );
    }
}
