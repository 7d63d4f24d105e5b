//! Configuration files beside a mission (`workSite.cfg`, `Control.cfg`), in the LRAUV style:
//! one `name = value [unit];` per line, `//`, `--` or `#` comments, numbers with an optional
//! unit (`36.8 degree`, `1 kilometer`, `0.5 m/s`), quoted strings, `true`/`false`.
//!
//! The loader exposes a file's entries to the mission script as a read-only table named after
//! the file (`workSite.latitude`); numbers keep the unit they were written in.

use crate::error::{Diagnostic, Severity};
use skipper_core::units::{self, Unit};
use std::sync::Arc;

/// One configuration value.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigValue {
    /// A number, in `unit` when one was written.
    Number {
        /// the number as written
        value: f64,
        /// its unit
        unit: Option<&'static Unit>,
    },
    /// Quoted text.
    Text(String),
    /// `true` or `false`.
    Bool(bool),
}

impl ConfigValue {
    /// The number in the canonical unit of its dimension (as written when it has no unit).
    pub fn canonical(&self) -> Option<f64> {
        match self {
            ConfigValue::Number { value, unit } => {
                Some(unit.map_or(*value, |u| u.to_canonical(*value)))
            }
            _ => None,
        }
    }
    /// The number in a given unit (`None` for text, booleans and other dimensions; a
    /// number written without unit is taken as already in `unit`).
    pub fn number_in(&self, unit: &'static Unit) -> Option<f64> {
        match self {
            ConfigValue::Number { value, unit: None } => Some(*value),
            ConfigValue::Number {
                value,
                unit: Some(u),
            } if u.name == unit.name => Some(*value),
            ConfigValue::Number {
                value,
                unit: Some(u),
            } => units::convert(*value, u, unit).ok(),
            _ => None,
        }
    }
}

/// The entries of one configuration file, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConfigTable {
    /// `(name, value)` pairs.
    pub entries: Vec<(String, ConfigValue)>,
}

impl ConfigTable {
    /// A value by name (case-sensitive, last one wins).
    pub fn get(&self, name: &str) -> Option<&ConfigValue> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
    /// Set or replace a value.
    pub fn set(&mut self, name: &str, value: ConfigValue) {
        match self.entries.iter_mut().find(|(k, _)| k == name) {
            Some(e) => e.1 = value,
            None => self.entries.push((name.to_string(), value)),
        }
    }
}

/// A unit by the names configuration files use (`degree`, `arcdeg`, `m/s`, ...).
pub fn unit_by_name(name: &str) -> Option<&'static Unit> {
    match name.to_ascii_lowercase().as_str() {
        "arcdeg" | "deg" => Some(&units::DEGREE),
        "m" => Some(&units::METER),
        _ => Unit::by_name(name),
    }
}

/// Parse a configuration file. Every line that does not parse is an error with its place.
pub fn parse_config(text: &str, file: &str) -> Result<ConfigTable, Vec<Diagnostic>> {
    let f: Arc<str> = file.into();
    let mut table = ConfigTable::default();
    let mut errors = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let body = strip_comment(raw).trim();
        if body.is_empty() {
            continue;
        }
        let body = body.strip_suffix(';').unwrap_or(body).trim();
        let err = |word: Option<&str>, msg: String| {
            Diagnostic::at(Severity::Error, &f, text, line, word, msg)
        };
        let Some((key, value)) = body.split_once('=') else {
            errors.push(err(
                None,
                "expected `name = value [unit];`, e.g. `latitude = 36.8 degree;`".into(),
            ));
            continue;
        };
        let key = key.trim();
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            errors.push(err(
                Some(key),
                format!("`{key}` is not a valid name: use letters, digits, `_` and `.`"),
            ));
            continue;
        }
        match parse_value(value.trim()) {
            Ok(v) => table.set(key, v),
            Err(msg) => errors.push(err(Some(value.trim()), msg)),
        }
    }
    if errors.is_empty() {
        Ok(table)
    } else {
        Err(errors)
    }
}

fn strip_comment(line: &str) -> &str {
    let mut in_str = false;
    let b = line.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'"' => in_str = !in_str,
            b'#' if !in_str => return &line[..i],
            b'/' | b'-' if !in_str && b.get(i + 1) == Some(&b[i]) => return &line[..i],
            _ => {}
        }
    }
    line
}

fn parse_value(v: &str) -> Result<ConfigValue, String> {
    if v.is_empty() {
        return Err("a value is missing after `=`".into());
    }
    if let Some(rest) = v.strip_prefix('"') {
        return match rest.strip_suffix('"') {
            Some(s) if !s.contains('"') => Ok(ConfigValue::Text(s.to_string())),
            _ => Err("text must be in double quotes: \"...\"".into()),
        };
    }
    match v {
        "true" => return Ok(ConfigValue::Bool(true)),
        "false" => return Ok(ConfigValue::Bool(false)),
        _ => {}
    }
    let mut parts = v.split_whitespace();
    let num = parts.next().unwrap_or("");
    let value: f64 = num
        .parse()
        .map_err(|_| format!("`{num}` is not a number (expected e.g. `36.8 degree`)"))?;
    if !value.is_finite() {
        return Err(format!("`{num}` is not a finite number"));
    }
    let unit = match parts.next() {
        None => None,
        Some(u) => Some(unit_by_name(u).ok_or_else(|| {
            format!("unknown unit `{u}` (expected e.g. degree, meter, kilometer, m/s)")
        })?),
    };
    if let Some(extra) = parts.next() {
        return Err(format!("unexpected `{extra}` after the value"));
    }
    Ok(ConfigValue::Number { value, unit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_units_text_and_comments() {
        let t = parse_config(
            "// site\nlatitude = 36.8 degree; -- north\nlongitude = -121.9 arcdeg;\nname = \"Monterey // Bay\"\nfloat = true\nradius = 2 km\n",
            "workSite.cfg",
        )
        .unwrap();
        assert_eq!(
            t.get("latitude").unwrap().number_in(&units::DEGREE),
            Some(36.8)
        );
        assert_eq!(
            t.get("longitude").unwrap().number_in(&units::DEGREE),
            Some(-121.9)
        );
        assert_eq!(
            t.get("name"),
            Some(&ConfigValue::Text("Monterey // Bay".into()))
        );
        assert_eq!(t.get("float"), Some(&ConfigValue::Bool(true)));
        assert_eq!(t.get("radius").unwrap().canonical(), Some(2000.0));
    }

    #[test]
    fn reports_bad_lines_with_their_place() {
        let e = parse_config("latitude = north;\nx 3\ny = 3 furlong\n", "w.cfg").unwrap_err();
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].line, 1);
        assert!(e[0].message.contains("not a number"));
        assert!(e[1].message.contains("expected `name = value"));
        assert!(e[2].message.contains("unknown unit `furlong`"));
    }
}
