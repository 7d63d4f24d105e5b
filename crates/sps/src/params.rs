//! Reading a command's parameters, with the reference's validation (rule O4): numbers
//! are parsed from their string form, so ints, floats and numeric strings all count; an
//! identifier where a number belongs, a missing required attribute or a value that does
//! not parse is an error with a message that says which.

use crate::wire::{Command, IdTable, Param};
use std::sync::Arc;

/// A parameter error, as the text of the `^message` added with `^status error`.
pub type ParamError = String;

/// An optional number: `Ok(None)` when absent.
pub fn number(cmd: &Command, attr: &str) -> Result<Option<f64>, ParamError> {
    match cmd.get(attr) {
        None => Ok(None),
        Some(p) => parse_number(cmd, attr, p).map(Some),
    }
}

/// A required number.
pub fn required_number(cmd: &Command, attr: &str) -> Result<f64, ParamError> {
    number(cmd, attr)?.ok_or_else(|| format!("{}: missing ^{attr}", cmd.name))
}

/// An optional coordinate, where an identifier counts as absent (gotcha G1: Soar 9.6
/// turns `^x {<x> 0.}` into a new identifier, and the agent must still run).
pub fn lenient_number(cmd: &Command, attr: &str) -> Result<Option<f64>, ParamError> {
    match cmd.get(attr) {
        None | Some(Param::Id(_)) => Ok(None),
        Some(p) => parse_number(cmd, attr, p).map(Some),
    }
}

fn parse_number(cmd: &Command, attr: &str, p: &Param) -> Result<f64, ParamError> {
    let v = match p {
        Param::Int(i) => *i as f64,
        Param::Float(f) => *f,
        Param::Str(s) => s
            .trim()
            .parse::<f64>()
            .map_err(|_| format!("{}: ^{attr} `{s}` is not a number", cmd.name))?,
        Param::Id(id) => {
            return Err(format!(
                "{}: ^{attr} is an identifier ({id}), expected a number",
                cmd.name
            ))
        }
    };
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("{}: ^{attr} must be a finite number", cmd.name))
    }
}

/// An optional integer, parsed from its string form (`3` and `|3|`, not `3.0`).
pub fn integer(cmd: &Command, attr: &str) -> Result<Option<i64>, ParamError> {
    match cmd.get(attr) {
        None => Ok(None),
        Some(Param::Int(i)) => Ok(Some(*i)),
        Some(Param::Str(s)) => s
            .trim()
            .parse::<i64>()
            .map(Some)
            .map_err(|_| format!("{}: ^{attr} `{s}` is not an integer", cmd.name)),
        Some(Param::Float(f)) => Err(format!("{}: ^{attr} {f} is not an integer", cmd.name)),
        Some(Param::Id(id)) => Err(format!(
            "{}: ^{attr} is an identifier ({id}), expected an integer",
            cmd.name
        )),
    }
}

/// An optional constant, as text (identifiers are an error).
pub fn text(cmd: &Command, attr: &str) -> Result<Option<String>, ParamError> {
    match cmd.get(attr) {
        None => Ok(None),
        Some(Param::Id(id)) => Err(format!(
            "{}: ^{attr} is an identifier ({id}), expected a constant",
            cmd.name
        )),
        Some(p) => Ok(Some(p.as_text())),
    }
}

/// A required constant, as text.
pub fn required_text(cmd: &Command, attr: &str) -> Result<String, ParamError> {
    text(cmd, attr)?.ok_or_else(|| format!("{}: missing ^{attr}", cmd.name))
}

/// Walk the word list that starts at `^first` (each node `^word W ^next <node>|nil`).
/// Empty words are dropped; a missing word or next, a next that is neither an
/// identifier nor `nil`, a loop, or a list with no words is an error (O15).
pub fn word_list(cmd: &Command, ids: &IdTable) -> Result<Vec<Arc<str>>, ParamError> {
    let name = &cmd.name;
    let mut at = match cmd.get("first") {
        None => return Err(format!("{name}: missing ^first (the word list)")),
        Some(Param::Id(id)) => id.as_str(),
        Some(_) => return Err(format!("{name}: ^first must be an identifier")),
    };
    let mut words = Vec::new();
    let mut steps = 0usize;
    loop {
        steps += 1;
        if steps > ids.len() + 1 {
            return Err(format!("{name}: the word list loops"));
        }
        let Some(node) = ids.get(at) else {
            return Err(format!("{name}: word list node {at} has no ^word"));
        };
        let get = |a: &str| node.iter().find(|(k, _)| k == a).map(|(_, v)| v);
        match get("word") {
            None => return Err(format!("{name}: word list node {at} has no ^word")),
            Some(Param::Id(_)) => {
                return Err(format!(
                    "{name}: ^word of {at} is an identifier, expected a word"
                ))
            }
            Some(w) => {
                let w = w.as_text();
                if !w.is_empty() {
                    words.push(Arc::from(w.as_str()));
                }
            }
        }
        match get("next") {
            None => return Err(format!("{name}: word list node {at} has no ^next")),
            Some(Param::Id(next)) => at = next.as_str(),
            Some(Param::Str(s)) if s == "nil" => break,
            Some(other) => {
                return Err(format!(
                    "{name}: ^next of {at} is `{}`, expected an identifier or nil",
                    other.as_text()
                ))
            }
        }
    }
    if words.is_empty() {
        return Err(format!("{name}: the word list has no words"));
    }
    Ok(words)
}
