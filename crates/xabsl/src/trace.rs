//! Offline runs: feed an agent one JSON line of inputs per cycle and get one JSON line
//! per cycle back, in the format of the golden traces of the reference engine
//! (`cycle`, `time_ms`, `path`, `outputs`, `basic_behaviors`), numbers written as C's
//! `%.17g` as the reference host wrote them, so the two can be compared byte for byte.
//!
//! Input lines: `{"time_ms": 1000, "inputs": {"in.f0": 0.5, "in.b0": true,
//! "in.e0": "mode.m2"}}`; `cycle` is optional (counted from 0), `time_ms` defaults to
//! the last one plus 100; inputs not given keep their last value (initially 0, false,
//! the first element); enumerated values may be written with or without the
//! enumeration's name. Other keys (such as a golden trace's `path`) are ignored, so a
//! golden trace is itself a valid input file; an input symbol's name as a key of the
//! line (not under `inputs`) is an error.

use crate::engine::Engine;
use crate::model::{SymbolKind, Type};
use crate::Error;
use std::fmt::Write as _;
use std::io::BufRead;

/// Where [`TraceRunner::run_lines`] stopped.
#[derive(Debug)]
pub enum LinesError {
    /// Input line `line` (from 1) could not be read or run.
    Input {
        /// the line's number
        line: usize,
        /// what was wrong
        message: String,
    },
    /// The trace could not be written.
    Output(std::io::Error),
}

/// The index of the agent's input symbol `name`.
fn input_symbol(p: &crate::model::Program, name: &str) -> Option<usize> {
    p.symbols
        .iter()
        .position(|s| s.name == name && s.kind == SymbolKind::Input)
}

/// Runs an engine from JSON lines.
pub struct TraceRunner {
    engine: Engine,
    cycle: u64,
    time: Option<u64>,
    out: String,
}

impl TraceRunner {
    /// Wrap an engine (inputs defined or bound already).
    pub fn new(engine: Engine) -> Self {
        Self {
            engine,
            cycle: 0,
            time: None,
            out: String::with_capacity(4096),
        }
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to change it between cycles.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The engine back, the runner done with.
    pub fn into_engine(self) -> Engine {
        self.engine
    }

    /// Run a cycle for every non-blank line of `input`, writing each output line to
    /// `out`; `warn` hears each cycle's run-time problems in words, with the input
    /// line's number.
    pub fn run_lines(
        &mut self,
        input: impl BufRead,
        out: &mut impl std::io::Write,
        mut warn: impl FnMut(usize, String),
    ) -> Result<(), LinesError> {
        for (i, line) in input.lines().enumerate() {
            let n = i + 1;
            let bad = |message: String| LinesError::Input { line: n, message };
            let line = line.map_err(|e| bad(format!("cannot read: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let text = self.step(&line).map_err(|e| bad(e.to_string()))?;
            writeln!(out, "{text}").map_err(LinesError::Output)?;
            for p in self.engine.problems() {
                warn(n, self.engine.describe(p));
            }
        }
        Ok(())
    }

    /// Run one cycle from one input line; returns the output line (without a newline).
    pub fn step(&mut self, line: &str) -> Result<&str, Error> {
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| Error::Engine(format!("not a JSON object: {e}")))?;
        let obj = v
            .as_object()
            .ok_or_else(|| Error::Engine("expected a JSON object per line".into()))?;
        let cycle = match obj.get("cycle") {
            Some(c) => c
                .as_u64()
                .ok_or_else(|| Error::Engine("`cycle` must be a non-negative integer".into()))?,
            None => self.cycle,
        };
        let time = match obj.get("time_ms") {
            Some(t) => t.as_u64().ok_or_else(|| {
                Error::Engine("`time_ms` must be a non-negative integer (milliseconds)".into())
            })?,
            None => self.time.map_or(0, |t| t.saturating_add(100)),
        };
        self.misplaced_inputs(obj)?;
        if let Some(inputs) = obj.get("inputs") {
            let inputs = inputs
                .as_object()
                .ok_or_else(|| Error::Engine("`inputs` must be an object".into()))?;
            for (name, value) in inputs {
                self.set_input(name, value)?;
            }
        }
        self.engine.execute(time);
        self.cycle = cycle.saturating_add(1);
        self.time = Some(time);
        self.out.clear();
        write_cycle(&mut self.out, &self.engine, cycle, time);
        Ok(&self.out)
    }

    /// An input symbol's name as a key of the line itself (not under `inputs`) would be
    /// ignored with the other keys: it is an error instead.
    fn misplaced_inputs(
        &self,
        obj: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), Error> {
        const KEYS: [&str; 6] = [
            "cycle",
            "time_ms",
            "inputs",
            "path",
            "outputs",
            "basic_behaviors",
        ];
        let p = self.engine.program();
        for (name, value) in obj.iter().filter(|(k, _)| !KEYS.contains(&k.as_str())) {
            if input_symbol(p, name).is_some() {
                return Err(Error::Engine(format!(
                    "`{name}` is an input symbol: give it under `inputs`, as in {{\"inputs\": {{\"{name}\": {value}}}}}"
                )));
            }
        }
        Ok(())
    }

    fn set_input(&mut self, name: &str, value: &serde_json::Value) -> Result<(), Error> {
        let p = self.engine.program().clone();
        let Some(sid) = input_symbol(&p, name) else {
            return Err(Error::Engine(format!(
                "`{name}` is not an input symbol of this agent"
            )));
        };
        if !self.engine.input_is_value(sid) {
            return Err(Error::Engine(format!(
                "`{name}` is defined by an expression; it cannot also be given as an input"
            )));
        }
        let v = match p.symbols[sid].ty {
            Type::Decimal => value
                .as_f64()
                .ok_or_else(|| Error::Engine(format!("`{name}` is a number; got {value}")))?,
            Type::Boolean => match value {
                serde_json::Value::Bool(b) => f64::from(u8::from(*b)),
                other => return Err(Error::Engine(format!("`{name}` is a boolean; got {other}"))),
            },
            Type::Enum(e) => {
                let en = &p.enums[e];
                let s = value.as_str().ok_or_else(|| {
                    Error::Engine(format!(
                        "`{name}` is an element of `{}`; give its name as a string",
                        en.name
                    ))
                })?;
                let i = en
                    .elements
                    .iter()
                    .enumerate()
                    .position(|(i, x)| x == s || en.short(i) == s)
                    .ok_or_else(|| {
                        Error::Engine(format!(
                            "`{s}` is not an element of `{}` (its elements: {})",
                            en.name,
                            en.elements.join(", ")
                        ))
                    })?;
                i as f64
            }
        };
        self.engine.set_input(sid, v);
        Ok(())
    }
}

/// Write one cycle's JSON line.
pub fn write_cycle(out: &mut String, engine: &Engine, cycle: u64, time: u64) {
    let p = engine.program();
    let _ = write!(out, "{{\"cycle\":{cycle},\"time_ms\":{time},\"path\":[");
    for (i, e) in engine.path().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let o = &p.options[e.option];
        let s = o.states.get(e.state).map_or("", |s| s.name.as_str());
        out.push_str("{\"option\":");
        json_str(out, &o.name);
        out.push_str(",\"state\":");
        json_str(out, s);
        let _ = write!(
            out,
            ",\"state_time\":{},\"option_time\":{}}}",
            e.state_time, e.option_time
        );
    }
    out.push_str("],\"outputs\":{");
    let mut first = true;
    for (i, s) in p.symbols.iter().enumerate() {
        if !s.is_output() {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        json_str(out, &s.name);
        out.push(':');
        value(out, p, s.ty, engine.value(i));
    }
    // as the reference host lists them: every basic behavior that ran, in declaration
    // order, with its parameters' values (those of its last call)
    out.push_str("},\"basic_behaviors\":[");
    let mut first = true;
    for (b, bh) in p.behaviors.iter().enumerate() {
        if !engine.behavior_ran(b) {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str("{\"name\":");
        json_str(out, &bh.name);
        for (par, v) in bh.params.iter().zip(engine.behavior_params(b)) {
            out.push(',');
            json_str(out, &par.name);
            out.push(':');
            value(out, p, par.ty, *v);
        }
        out.push('}');
    }
    out.push_str("]}");
}

fn value(out: &mut String, p: &crate::model::Program, ty: Type, v: f64) {
    match ty {
        Type::Decimal => g17(out, v),
        Type::Boolean => out.push_str(if v != 0.0 { "true" } else { "false" }),
        Type::Enum(e) => {
            let name = p
                .enums
                .get(e)
                .and_then(|en| en.elements.get(v as usize))
                .map_or("", String::as_str);
            json_str(out, name);
        }
    }
}

/// A JSON string.
pub fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A number as C's `printf("%.17g")` writes it (`null` for NaN and infinities, which
/// JSON cannot hold).
pub fn g17(out: &mut String, v: f64) {
    if !v.is_finite() {
        out.push_str("null");
        return;
    }
    if v == 0.0 {
        out.push_str(if v.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    let s = format!("{:.16e}", v);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    if neg {
        out.push('-');
    }
    if !(-4..17).contains(&exp) {
        let d = digits.trim_end_matches('0');
        let (first, rest) = d.split_at(1.min(d.len()));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
        return;
    }
    // fixed: 17 significant digits, point after exp+1 digits
    let point = exp + 1;
    let mut text = String::new();
    if point <= 0 {
        text.push_str("0.");
        for _ in 0..(-point) {
            text.push('0');
        }
        text.push_str(&digits);
    } else {
        let p = point as usize;
        text.push_str(&digits[..p.min(digits.len())]);
        if p < digits.len() {
            text.push('.');
            text.push_str(&digits[p..]);
        }
    }
    if text.contains('.') {
        let t = text.trim_end_matches('0').trim_end_matches('.');
        out.push_str(t);
    } else {
        out.push_str(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::g17;

    fn f(v: f64) -> String {
        let mut s = String::new();
        g17(&mut s, v);
        s
    }

    #[test]
    #[allow(clippy::excessive_precision)]
    fn like_printf_g17() {
        assert_eq!(f(0.0), "0");
        assert_eq!(f(1.0), "1");
        assert_eq!(f(51.0), "51");
        assert_eq!(f(0.01), "0.01");
        assert_eq!(f(0.5), "0.5");
        assert_eq!(f(0.070250778721439824), "0.070250778721439824");
        assert_eq!(f(0.00089319404190914969), "0.00089319404190914969");
        assert_eq!(f(0.9063717641272826), "0.9063717641272826");
        assert_eq!(f(-2.5), "-2.5");
        assert_eq!(f(1e-5), "1.0000000000000001e-05");
        assert_eq!(f(1e17), "1e+17");
        assert_eq!(f(123456789.0), "123456789");
    }
}
