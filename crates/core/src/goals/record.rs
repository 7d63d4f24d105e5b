//! Records: the values of a goal, a feedback or a result, one per field of its schema,
//! in the schema's order. Transports build them from what arrives (a ROS message, JSON
//! from a browser) and controllers read them by field name.

use super::kind::{FieldType, Schema};
use std::fmt;

/// One field's value.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum FieldValue {
    /// `bool`
    Bool(bool),
    /// `int64`
    Int(i64),
    /// `float64`
    Float(f64),
    /// `string`
    Text(String),
}

impl FieldValue {
    /// The default of a type: false, 0, 0.0, "".
    pub fn default_of(ty: FieldType) -> Self {
        match ty {
            FieldType::Bool => FieldValue::Bool(false),
            FieldType::Int => FieldValue::Int(0),
            FieldType::Float => FieldValue::Float(0.0),
            FieldType::Text => FieldValue::Text(String::new()),
        }
    }

    /// Its type.
    pub fn ty(&self) -> FieldType {
        match self {
            FieldValue::Bool(_) => FieldType::Bool,
            FieldValue::Int(_) => FieldType::Int,
            FieldValue::Float(_) => FieldType::Float,
            FieldValue::Text(_) => FieldType::Text,
        }
    }
}

impl From<f64> for FieldValue {
    fn from(v: f64) -> Self {
        FieldValue::Float(v)
    }
}
impl From<bool> for FieldValue {
    fn from(v: bool) -> Self {
        FieldValue::Bool(v)
    }
}
impl From<i64> for FieldValue {
    fn from(v: i64) -> Self {
        FieldValue::Int(v)
    }
}
impl From<&str> for FieldValue {
    fn from(v: &str) -> Self {
        FieldValue::Text(v.to_string())
    }
}
impl From<String> for FieldValue {
    fn from(v: String) -> Self {
        FieldValue::Text(v)
    }
}

/// Why values do not make a record of a schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// a name the schema does not have
    #[error("no field `{name}` (the fields are: {fields})")]
    UnknownField {
        /// the name given
        name: String,
        /// the schema's fields, comma separated
        fields: String,
    },
    /// a value of the wrong type
    #[error("field `{name}` takes a {expected}, not {got}")]
    WrongType {
        /// the field
        name: String,
        /// its type
        expected: &'static str,
        /// what was given
        got: String,
    },
    /// not a JSON object
    #[error("expected a JSON object of fields, not {0}")]
    NotAnObject(String),
}

/// The values of one goal, feedback or result.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    schema: Schema,
    values: Vec<FieldValue>,
}

impl Record {
    /// Every field at its default.
    pub fn defaults(schema: Schema) -> Self {
        Self {
            schema,
            values: schema
                .iter()
                .map(|f| FieldValue::default_of(f.ty))
                .collect(),
        }
    }

    /// The schema.
    pub fn schema(&self) -> Schema {
        self.schema
    }

    /// The values, in the schema's order.
    pub fn values(&self) -> &[FieldValue] {
        &self.values
    }

    /// Set field `name`; its type must match (an integer is taken for a real number).
    pub fn set(&mut self, name: &str, v: impl Into<FieldValue>) -> Result<(), RecordError> {
        let i = self.index(name)?;
        let field = &self.schema[i];
        let v = match (field.ty, v.into()) {
            (FieldType::Float, FieldValue::Int(n)) => FieldValue::Float(n as f64),
            (ty, v) if v.ty() == ty => v,
            (ty, v) => {
                return Err(RecordError::WrongType {
                    name: name.into(),
                    expected: ty.ros_name(),
                    got: format!("{v:?}"),
                })
            }
        };
        self.values[i] = v;
        Ok(())
    }

    /// With field `name` set (for building records in code; a wrong name or type is a
    /// programming error and leaves the field as it was, which tests catch).
    pub fn with(mut self, name: &str, v: impl Into<FieldValue>) -> Self {
        let _ = self.set(name, v);
        self
    }

    fn index(&self, name: &str) -> Result<usize, RecordError> {
        self.schema
            .iter()
            .position(|f| f.name == name)
            .ok_or_else(|| RecordError::UnknownField {
                name: name.into(),
                fields: self
                    .schema
                    .iter()
                    .map(|f| f.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Field `name`'s value.
    pub fn get(&self, name: &str) -> Option<&FieldValue> {
        self.index(name).ok().and_then(|i| self.values.get(i))
    }

    /// A real-number field (NaN when there is none).
    pub fn float(&self, name: &str) -> f64 {
        match self.get(name) {
            Some(FieldValue::Float(v)) => *v,
            Some(FieldValue::Int(v)) => *v as f64,
            _ => f64::NAN,
        }
    }

    /// A text field ("" when there is none).
    pub fn text(&self, name: &str) -> &str {
        match self.get(name) {
            Some(FieldValue::Text(t)) => t,
            _ => "",
        }
    }

    /// A truth-value field (false when there is none).
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(FieldValue::Bool(true)))
    }

    /// An integer field (0 when there is none).
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Some(FieldValue::Int(v)) => *v,
            _ => 0,
        }
    }

    /// Build from values in the schema's order (each converted as [`Record::set`] does).
    pub fn from_values(schema: Schema, values: Vec<FieldValue>) -> Result<Self, RecordError> {
        let mut r = Self::defaults(schema);
        for (f, v) in schema.iter().zip(values) {
            r.set(f.name, v)?;
        }
        Ok(r)
    }

    /// Build from a JSON object; fields left out keep their default.
    pub fn from_json(schema: Schema, json: &serde_json::Value) -> Result<Self, RecordError> {
        let obj = json
            .as_object()
            .ok_or_else(|| RecordError::NotAnObject(json.to_string()))?;
        let mut r = Self::defaults(schema);
        for (k, v) in obj {
            let i = r.index(k)?;
            let value = json_value(schema[i].ty, v).ok_or_else(|| RecordError::WrongType {
                name: k.clone(),
                expected: schema[i].ty.ros_name(),
                got: v.to_string(),
            })?;
            r.values[i] = value;
        }
        Ok(r)
    }

    /// The record as a JSON object (non-finite numbers as null).
    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        for (f, v) in self.schema.iter().zip(&self.values) {
            m.insert(
                f.name.into(),
                serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
            );
        }
        serde_json::Value::Object(m)
    }
}

fn json_value(ty: FieldType, v: &serde_json::Value) -> Option<FieldValue> {
    Some(match ty {
        FieldType::Bool => FieldValue::Bool(v.as_bool()?),
        FieldType::Int => FieldValue::Int(v.as_i64()?),
        FieldType::Float => FieldValue::Float(v.as_f64()?),
        FieldType::Text => FieldValue::Text(v.as_str()?.to_string()),
    })
}

impl fmt::Display for Record {
    /// `x: 2, y: 1` (as feedback and results are printed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (field, v)) in self.schema.iter().zip(&self.values).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match v {
                FieldValue::Text(t) => write!(f, "{}: {t:?}", field.name)?,
                FieldValue::Bool(b) => write!(f, "{}: {b}", field.name)?,
                FieldValue::Int(n) => write!(f, "{}: {n}", field.name)?,
                FieldValue::Float(x) => write!(f, "{}: {x}", field.name)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::kind::Field;
    use super::*;

    static S: &[Field] = &[
        Field::new("x", FieldType::Float, "m"),
        Field::new("name", FieldType::Text, ""),
        Field::new("on", FieldType::Bool, ""),
    ];

    #[test]
    fn records_are_built_read_and_checked_by_field_name() {
        let r = Record::defaults(S).with("x", 2i64).with("name", "a");
        assert_eq!(r.float("x"), 2.0);
        assert_eq!(r.text("name"), "a");
        assert!(!r.flag("on"));
        assert!(r.float("nope").is_nan());
        let mut r2 = r.clone();
        assert!(matches!(
            r2.set("x", "text"),
            Err(RecordError::WrongType { .. })
        ));
        assert!(matches!(
            r2.set("z", 1.0),
            Err(RecordError::UnknownField { .. })
        ));
        assert_eq!(r.to_string(), "x: 2, name: \"a\", on: false");
    }

    #[test]
    fn json_in_and_out() {
        let r = Record::from_json(S, &serde_json::json!({"x": 1.5, "on": true})).unwrap();
        assert_eq!(
            r.to_json(),
            serde_json::json!({"x": 1.5, "name": "", "on": true})
        );
        assert!(Record::from_json(S, &serde_json::json!({"x": "a"})).is_err());
        assert!(Record::from_json(S, &serde_json::json!({"y": 1})).is_err());
        assert!(Record::from_json(S, &serde_json::json!([1])).is_err());
    }
}
