//! The fuzz target's corpus (`fuzz/corpus/xabsl`) replayed as a regular test, and
//! property tests over random and mutated sources: diagnostics or results, never a
//! panic.

use proptest::prelude::*;
use skipper_xabsl::fuzzing;
use std::path::Path;

#[test]
fn corpus_replays_without_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/xabsl");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        fuzzing::run(&data);
        n += 1;
    }
    assert!(n >= 50, "only {n} inputs in {}", dir.display());
}

#[test]
fn the_bundled_agents_check_and_run() {
    // the bundles are whole agents: they must get all the way to the engine
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/xabsl");
    for name in [
        "bundle-soccer",
        "bundle-turn_and_release",
        "bundle-coverage",
        "bundle-seed7-N5",
    ] {
        let data = std::fs::read_to_string(dir.join(name)).unwrap();
        let mut files = skipper_xabsl::loader::MemLoader::new();
        for (i, part) in data.split("\n%%\n").enumerate() {
            let f = if i == 0 {
                "agents.xabsl".to_string()
            } else {
                format!("f{i}.xabsl")
            };
            files.add(f, part);
        }
        let c = skipper_xabsl::compile("agents.xabsl", &files);
        assert!(!c.diagnostics.has_errors(), "{name}: {}", c.render());
    }
}

const SAMPLE: &str = "namespace s(\"S\") { float input x; bool input b; enum e { p, q }; enum e output o; }\n%%\n\
option f2 { float @k; common decision { if (b) goto a; } initial state a { decision { else if (x > @k) goto t; else stay; } action { o = q; } } target state t { action { } } }\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..400)) {
        fuzzing::run(&data);
    }

    #[test]
    fn random_token_soup_never_panics(words in proptest::collection::vec(prop::sample::select(vec![
        "option", "state", "initial", "target", "{", "}", "(", ")", ";", "decision", "action",
        "if", "else", "goto", "stay", "x", "@k", "1", "2.5", "&&", "||", "==", "<", "?", ":",
        "common", "namespace", "\"t\"", "float", "input", "enum", "include", "agent", ",", "=",
        "/**", "*/", "[0..1]", "-", "!", "state_time", "action_done", "behavior", "capacity",
    ]), 0..80)) {
        fuzzing::run(words.join(" ").as_bytes());
    }

    #[test]
    fn mutated_agents_never_panic(pos in 0usize..400, byte in any::<u8>(), cut in 0usize..400) {
        let agents = format!("include \"f1.xabsl\";\ninclude \"f2.xabsl\";\nagent a(\"A\", f2);\n%%\n{SAMPLE}");
        let mut data = agents.into_bytes();
        if pos < data.len() {
            data[pos] = byte;
        }
        data.truncate(cut.max(10).min(data.len()));
        fuzzing::run(&data);
    }
}

#[test]
fn the_deepest_nesting_allowed_goes_through_everything() {
    // just under the parser's limit: a chain of 90 else-ifs, conditions in 90 parentheses,
    // negations 90 deep; compiled, written as intermediate code, run and documented
    let chain: String = (0..90)
        .map(|i| format!("if (x > {i}) goto t; else "))
        .collect();
    let parens = format!("{}x{} > 1", "(".repeat(90), ")".repeat(90));
    let nots = format!("{}b", "!".repeat(90));
    let option = format!(
        "option f2 {{\n initial state s {{ decision {{ {chain} stay; }} action {{ }} }}\n state t {{ decision {{ if ({parens}) goto s; else if ({nots}) goto s; else stay; }} action {{ }} }}\n}}\n"
    );
    let agents = format!(
        "include \"f1.xabsl\";\ninclude \"f2.xabsl\";\nagent a(\"A\", f2);\n%%\nnamespace f1(\"S\") {{ float input x; bool input b; }}\n%%\n{option}"
    );
    let mut files = skipper_xabsl::loader::MemLoader::new();
    for (i, part) in agents.split("\n%%\n").enumerate() {
        let f = if i == 0 {
            "agents.xabsl".to_string()
        } else {
            format!("f{i}.xabsl")
        };
        files.add(f, part);
    }
    let c = skipper_xabsl::compile("agents.xabsl", &files);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    fuzzing::run(agents.as_bytes());
}

#[test]
fn the_binding_corpus_replays_without_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/xabsl_binding");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let ran = fuzzing::binding(&std::fs::read(&path).unwrap());
        // the good seed checks and runs (the target's agent compiles), the typos do not
        match path.file_name().and_then(|n| n.to_str()) {
            Some("good") => assert!(ran, "the good binding did not check and run"),
            Some(n) if n.starts_with("typo-") => assert!(!ran, "{n} checked"),
            _ => {}
        }
        n += 1;
    }
    assert!(n >= 5, "only {n} inputs in {}", dir.display());
}

proptest! {
    #[test]
    fn random_binding_text_never_panics(words in proptest::collection::vec(prop::sample::select(vec![
        "input", "behavior", "output", "near", "range", "since", "go", "grip", "=", ":", ";",
        "(", ")", ",", "->", "drive", "stop", "gripper", "say", "sonar.3", "pose.x", "speed",
        "turn", "open", "close", "rising", "ms_since", "1000", "*", "-", "pi", "\"hi\"",
    ]), 0..40)) {
        let _ = fuzzing::binding(words.join(" ").as_bytes());
    }
}
