//! The reference compiler's negative cases (its `testcases/` suite, restated in today's
//! syntax) and the other errors of its catalogue give the right errors: the reference's
//! number, the file, line and column of the offending token. Where the reference
//! compiler gave an error, it gave the same number at the same line (checked by running
//! it outside the project); `boolean_conditional`, `enum_parameter_domain` and `cycle`
//! are accepted by the reference compiler and refused by the reference engine at load
//! time, so we report them at check time.

use skipper_xabsl::compile_path;
use std::path::Path;

/// The errors of a case as `(code, "file:line:col")`, in order.
fn errors(case: &str) -> Vec<(&'static str, String)> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/negative");
    let c = compile_path(d.join(format!("{case}.xabsl")));
    c.diagnostics
        .errors()
        .map(|e| {
            let pos = e.span.map_or(String::new(), |s| {
                let p = c.program.sources.position(s);
                p.rsplit_once('/').map_or(p.clone(), |(_, f)| f.to_string())
            });
            (e.code, pos)
        })
        .collect()
}

fn expect(case: &str, want: &[(&str, &str)]) {
    let got = errors(case);
    let got: Vec<(&str, &str)> = got.iter().map(|(c, p)| (*c, p.as_str())).collect();
    assert_eq!(got, want, "{case}");
}

#[test]
fn initial_state_missing() {
    expect(
        "initial_state_missing",
        &[("X5273", "initial_state_missing.xabsl:2:8")],
    );
}

#[test]
fn initial_state_twice() {
    expect(
        "initial_state_twice",
        &[("X5327", "initial_state_twice.xabsl:6:17")],
    );
}

#[test]
fn type_mismatch() {
    expect(
        "type_mismatch",
        &[
            ("X5525", "type_mismatch.xabsl:7:30"),
            ("X5525", "type_mismatch.xabsl:9:21"),
            ("X5525", "type_mismatch.xabsl:11:25"),
            ("X5525", "type_mismatch.xabsl:17:15"),
        ],
    );
}

#[test]
fn mismatching_domain() {
    expect(
        "mismatching_domain",
        &[
            ("X5255", "mismatching_domain.xabsl:7:19"),
            ("X5525", "mismatching_domain.xabsl:10:16"),
            ("X5255", "mismatching_domain.xabsl:11:21"),
        ],
    );
}

#[test]
fn output_symbol_domain_mismatch() {
    expect(
        "output_symbol_domain_mismatch",
        &[("X5552", "output_symbol_domain_mismatch.xabsl:6:16")],
    );
}

#[test]
fn unknown_option_behavior_and_state() {
    expect(
        "unknown_option_symbol",
        &[("X5552", "unknown_option_symbol.xabsl:5:7")],
    );
    expect(
        "unknown_behavior_symbol",
        &[("X5552", "unknown_behavior_symbol.xabsl:6:7")],
    );
    expect(
        "unknown_state_symbol",
        &[("X5552", "unknown_state_symbol.xabsl:5:12")],
    );
}

#[test]
fn redefinitions() {
    expect(
        "option_redefinition",
        &[("X5372", "option_redefinition2.xabsl:1:8")],
    );
    expect("state_twice", &[("X5372", "state_twice.xabsl:6:9")]);
    expect(
        "double_definitions",
        &[
            ("X5372", "double_definitions.xabsl:3:15"),
            ("X5372", "double_definitions.xabsl:5:18"),
            ("X5372", "double_definitions.xabsl:6:8"),
            ("X5372", "double_definitions.xabsl:8:15"),
        ],
    );
}

#[test]
fn parameters_declared_or_set_twice() {
    expect(
        "option_parameter_twice",
        &[
            ("X5372", "option_parameter_twice.xabsl:5:9"),
            ("X3725", "option_parameter_twice.xabsl:8:41"),
            ("X3725", "option_parameter_twice.xabsl:9:21"),
        ],
    );
}

#[test]
fn ambiguous_symbols() {
    expect(
        "ambiguous",
        &[
            ("X5723", "ambiguous.xabsl:6:20"),
            ("X5723", "ambiguous.xabsl:8:7"),
            ("X5723", "ambiguous.xabsl:9:7"),
        ],
    );
}

#[test]
fn comment_tokenizer_cases() {
    expect(
        "tokenizer_comments",
        &[("X3257", "tokenizer_comments.xabsl:1:32")],
    );
    expect(
        "tokenizer_comments2",
        &[("X3275", "tokenizer_comments2.xabsl:1:1")],
    );
}

#[test]
fn a_doc_comment_before_an_include_is_explained() {
    expect(
        "doc_comment_before_include",
        &[("X2537", "doc_comment_before_include.xabsl:2:1")],
    );
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/negative");
    let c = compile_path(d.join("doc_comment_before_include.xabsl"));
    let text = c.render();
    assert!(text.contains("after the doc comment"), "{text}");
    assert!(
        !text.contains("found `include`") || !text.contains("expected `include`"),
        "{text}"
    );
}

#[test]
fn garbage() {
    expect("binary_garbage", &[("X2573", "binary_garbage.xabsl:1:1")]);
    expect("text_garbage", &[("X2537", "text_garbage.xabsl:1:1")]);
    expect(
        "single_empty_option",
        &[("X2537", "single_empty_option.xabsl:3:1")],
    );
    expect("syntax_error", &[("X2537", "syntax_error.xabsl:3:26")]);
}

#[test]
fn includes() {
    expect(
        "includes",
        &[
            ("X9001", "includes.xabsl:2:1"),
            ("X2375", "includes.xabsl:3:1"),
            ("X7253", "includes.xabsl:4:1"),
        ],
    );
}

#[test]
fn decision_trees_and_namespaces() {
    expect(
        "must_not_start_with_else",
        &[("X7352", "must_not_start_with_else.xabsl:3:16")],
    );
    expect(
        "namespace_separation",
        &[("X3527", "namespace_separation.xabsl:3:12")],
    );
}

#[test]
fn what_the_reference_engine_would_refuse() {
    expect(
        "boolean_conditional",
        &[("X8002", "boolean_conditional.xabsl:4:25")],
    );
    expect(
        "enum_parameter_domain",
        &[("X5526", "enum_parameter_domain.xabsl:5:40")],
    );
    expect("cycle", &[("X8001", "cycle2.xabsl:2:30")]);
}

#[test]
fn messages_say_what_was_expected() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/negative");
    let c = compile_path(d.join("output_symbol_domain_mismatch.xabsl"));
    let text = c.render();
    assert!(
        text.contains("`beer` is an element of `drink`, but an element of `food` is expected here"),
        "{text}"
    );
    assert!(
        text.contains("6 |       hunger = beer;\n  |                ^^^^\n"),
        "{text}"
    );
}

#[test]
fn option_chains_deeper_than_the_engine_goes() {
    let mut files = skipper_xabsl::loader::MemLoader::new();
    let n = 300;
    let mut agents = String::new();
    for i in 0..n {
        let call = if i + 1 < n {
            format!("o{}();", i + 1)
        } else {
            String::new()
        };
        files.add(
            format!("o{i}.xabsl"),
            format!("option o{i} {{ initial state s {{ action {{ {call} }} }} }}"),
        );
        agents.push_str(&format!("include \"o{i}.xabsl\";\n"));
    }
    agents.push_str("agent a(\"A\", o0);\n");
    files.add("agents.xabsl", agents);
    let c = skipper_xabsl::compile("agents.xabsl", &files);
    let codes: Vec<&str> = c.diagnostics.errors().map(|d| d.code).collect();
    assert_eq!(codes, vec!["X8009"], "{}", c.render());
}

/// The warnings of a case as `(code, "file:line:col")`, in order.
fn warnings(case: &str) -> Vec<(&'static str, String)> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/negative");
    let c = compile_path(d.join(format!("{case}.xabsl")));
    c.diagnostics
        .warnings()
        .map(|e| {
            let pos = e.span.map_or(String::new(), |s| {
                let p = c.program.sources.position(s);
                p.rsplit_once('/').map_or(p.clone(), |(_, f)| f.to_string())
            });
            (e.code, pos)
        })
        .collect()
}

#[test]
fn a_cycle_is_reported_at_the_call_that_closes_it_seen_from_the_root() {
    // b.xabsl is included (and read) before a.xabsl, but the agent starts at `a`: the
    // engine goes a -> b and the call in `b` closes the cycle
    expect("cycle_root/agents", &[("X8001", "b.xabsl:2:30")]);
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/negative");
    let c = compile_path(d.join("cycle_root/agents.xabsl"));
    let e = c.diagnostics.errors().next().unwrap();
    assert!(
        e.message.ends_with("`a` calls `b` calls `a`"),
        "{}",
        e.message
    );
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("root option of agent `x`")),
        "{:?}",
        e.notes
    );
    let other = e.notes.iter().find(|n| n.starts_with("`a` calls `b` at "));
    assert!(
        other.is_some_and(|n| n.ends_with("a.xabsl:2:30")),
        "{:?}",
        e.notes
    );
}

#[test]
fn no_false_action_done_warning_after_a_parameter_type_error() {
    expect(
        "parameter_type_error",
        &[("X5525", "parameter_type_error.xabsl:5:29")],
    );
    let w = warnings("parameter_type_error");
    assert!(!w.iter().any(|(c, _)| *c == "X8003"), "{w:?}");
}

#[test]
fn the_action_done_warning_points_at_action_done() {
    assert_eq!(
        warnings("action_done_without_option"),
        vec![("X8003", "action_done_without_option.xabsl:3:39".to_string())]
    );
}

#[test]
fn a_missing_semicolon_is_reported_at_the_end_of_its_line() {
    expect(
        "missing_semicolon",
        &[("X2537", "missing_semicolon.xabsl:5:16")],
    );
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/negative");
    let text = compile_path(d.join("missing_semicolon.xabsl")).render();
    assert!(
        text.contains("5 |       speed = 1\n  |                ^\n"),
        "{text}"
    );
    assert!(text.contains("missing at the end of this line"), "{text}");
}
