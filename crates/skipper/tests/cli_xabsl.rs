//! `skipper xabsl check|ic|run` end to end: exit statuses, diagnostics, the reference
//! intermediate code and the golden traces.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skipper(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run skipper")
}

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../xabsl/tests/data/golden")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn check_accepts_good_agents_and_lists_every_error() {
    let dir = tempfile::tempdir().unwrap();
    let agents = golden().join("seed7-N5/agents.xabsl");
    let out = skipper(&["xabsl", "check", agents.to_str().unwrap()], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("1 agent, 5 options"),
        "{}",
        text(&out.stdout)
    );

    std::fs::write(
        dir.path().join("agents.xabsl"),
        "include \"o.xabsl\";\nagent a(\"A\", o);\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("o.xabsl"),
        "option o {\n  state s { decision { if (x > 1) goto t; else stay; } action { } }\n}\n",
    )
    .unwrap();
    let out = skipper(&["xabsl", "check", "agents.xabsl"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("o.xabsl:1:8: error: option `o` has no initial state"),
        "{err}"
    );
    assert!(
        err.contains(
            "o.xabsl:2:28: error: no constant, input, output or internal symbol is called `x`"
        ),
        "{err}"
    );
    assert!(
        err.contains("o.xabsl:2:40: error: option `o` has no state called `t`"),
        "{err}"
    );
    assert!(err.contains("3 errors"), "{err}");
}

#[test]
fn ic_is_the_reference_compilers() {
    let dir = tempfile::tempdir().unwrap();
    let agents = golden().join("seed7-N20/agents.xabsl");
    let out = skipper(&["xabsl", "ic", agents.to_str().unwrap()], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = std::fs::read(golden().join("seed7-N20.ic")).unwrap();
    assert!(out.stdout == expected, "the intermediate code differs");
    let out = skipper(
        &["xabsl", "ic", agents.to_str().unwrap(), "-o", "x.ic"],
        dir.path(),
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read(dir.path().join("x.ic")).unwrap(), expected);
}

#[test]
fn run_reproduces_the_golden_trace() {
    let dir = tempfile::tempdir().unwrap();
    let agents = golden().join("seed7-N5/agents.xabsl");
    let trace = golden().join("seed7-N5.trace.jsonl");
    let out = skipper(
        &[
            "xabsl",
            "run",
            agents.to_str().unwrap(),
            "--inputs",
            trace.to_str().unwrap(),
            "--define",
            "in.scaled(k)=in.f0*k",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ours = text(&out.stdout);
    let golden = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(ours.lines().count(), 200);
    for (a, g) in ours.lines().zip(golden.lines()) {
        let start = g.find(",\"inputs\":{").unwrap();
        let end = g[start..].find("},\"path\"").unwrap() + start + 1;
        let g = format!("{}{}", &g[..start], &g[end..]);
        assert_eq!(a, g);
    }
}

#[test]
fn run_reports_bad_lines_and_bad_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let agents = golden().join("seed7-N5/agents.xabsl");
    std::fs::write(
        dir.path().join("in.jsonl"),
        "{\"time_ms\":0,\"inputs\":{\"in.f0\":1}}\n{\"inputs\":{\"in.e0\":\"m9\"}}\n",
    )
    .unwrap();
    let out = skipper(
        &[
            "xabsl",
            "run",
            agents.to_str().unwrap(),
            "--inputs",
            "in.jsonl",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("in.jsonl:2: `m9` is not an element of `mode`"),
        "{err}"
    );
    assert_eq!(text(&out.stdout).lines().count(), 1);

    let out = skipper(
        &[
            "xabsl",
            "run",
            agents.to_str().unwrap(),
            "--inputs",
            "in.jsonl",
            "--define",
            "in.scaled(k)=in.f0 * kk",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "--define:1:9: error: no constant, input, output or internal symbol is called `kk`"
        ),
        "{err}"
    );
}

#[test]
fn xabsl_commands_have_help_with_examples() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["xabsl", "check", "--help"],
        vec!["xabsl", "ic", "--help"],
        vec!["xabsl", "run", "--help"],
    ] {
        let out = skipper(&args, dir.path());
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("Examples:"), "{args:?}");
    }
}
