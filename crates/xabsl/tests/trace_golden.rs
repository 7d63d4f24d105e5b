//! `skipper xabsl run`'s engine reproduces the reference engine's golden traces exactly:
//! for every cycle, the same activation path, outputs and basic behaviors, written the
//! same way (the golden lines without their `inputs` key).

use skipper_xabsl::trace::{LinesError, TraceRunner};
use skipper_xabsl::{compile_path, engine::Engine};
use std::path::Path;
use std::sync::Arc;

fn without_inputs(line: &str) -> String {
    let start = line.find(",\"inputs\":{").expect("inputs");
    let end = line[start..].find("},\"path\"").expect("path") + start + 1;
    format!("{}{}", &line[..start], &line[end..])
}

fn replay(name: &str) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden");
    let c = compile_path(d.join(name).join("agents.xabsl"));
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    let p = Arc::new(c.program);
    let mut engine = Engine::new(p.clone()).unwrap();
    let def = skipper_xabsl::parser::parse_expression("in.f0 * k", Default::default()).unwrap();
    let sym = p.symbol("in.scaled").unwrap();
    let x = skipper_xabsl::check::check_definition(&p, sym, &def).unwrap();
    engine.define_input(sym, &x).unwrap();
    let mut runner = TraceRunner::new(engine);
    let trace = std::fs::read_to_string(d.join(format!("{name}.trace.jsonl"))).unwrap();
    let mut n = 0;
    for line in trace.lines() {
        let ours = runner.step(line).unwrap().to_string();
        assert_eq!(ours, without_inputs(line), "{name}: cycle {n}");
        n += 1;
    }
    assert_eq!(n, 200);
}

#[test]
fn seed7_n5_trace_reproduced_exactly() {
    replay("seed7-N5");
}

#[test]
fn seed7_n20_trace_reproduced_exactly() {
    replay("seed7-N20");
}

/// An input symbol written as a key of the line, not under `inputs`, would change
/// nothing: it is an error that says where it belongs. Other keys stay ignored.
#[test]
fn an_input_outside_inputs_is_an_error_that_says_where_it_goes() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden/seed7-N5");
    let c = compile_path(d.join("agents.xabsl"));
    let mut runner = TraceRunner::new(Engine::new(Arc::new(c.program)).unwrap());
    let e = runner.step(r#"{"in.b0": true}"#).unwrap_err().to_string();
    assert!(
        e.contains(r#"`in.b0` is an input symbol: give it under `inputs`, as in {"inputs": {"in.b0": true}}"#),
        "{e}"
    );
    assert!(runner
        .step(r#"{"note": "any other key", "time_ms": 5}"#)
        .is_ok());
}

/// `run_lines` writes a line per non-blank input line and stops at a bad one, naming its
/// line number.
#[test]
fn run_lines_skips_blank_lines_and_names_the_bad_one() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden/seed7-N5");
    let c = compile_path(d.join("agents.xabsl"));
    let mut runner = TraceRunner::new(Engine::new(Arc::new(c.program)).unwrap());
    let input = "{\"time_ms\": 0}\n\n   \n{\"time_ms\": 100}\nnot json\n{\"time_ms\": 200}\n";
    let mut out = Vec::new();
    let e = runner
        .run_lines(input.as_bytes(), &mut out, |_, _| {})
        .unwrap_err();
    match e {
        LinesError::Input { line, message } => {
            assert_eq!(line, 5);
            assert!(message.contains("not a JSON object"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().all(|l| l.starts_with("{\"cycle\":")), "{text}");
}
