//! `skipper xabsl check|ic|run` end to end: exit statuses, diagnostics, the reference
//! intermediate code and the golden traces.

mod cli;
use cli::{skipper_in, text};

use std::path::{Path, PathBuf};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../xabsl/tests/data/golden")
}

#[test]
fn check_accepts_good_agents_and_lists_every_error() {
    let dir = tempfile::tempdir().unwrap();
    let agents = golden().join("seed7-N5/agents.xabsl");
    let out = skipper_in(&["xabsl", "check", agents.to_str().unwrap()], dir.path());
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
    let out = skipper_in(&["xabsl", "check", "agents.xabsl"], dir.path());
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
    let out = skipper_in(&["xabsl", "ic", agents.to_str().unwrap()], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = std::fs::read(golden().join("seed7-N20.ic")).unwrap();
    assert!(out.stdout == expected, "the intermediate code differs");
    let out = skipper_in(
        &["xabsl", "ic", agents.to_str().unwrap(), "-o", "x.ic"],
        dir.path(),
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read(dir.path().join("x.ic")).unwrap(), expected);
}

#[test]
fn run_reproduces_the_golden_trace() {
    // native code (the default) and the interpreter
    for extra in [None, Some("--interpreter")] {
        golden_trace_reproduced(extra);
    }
}

fn golden_trace_reproduced(extra: Option<&str>) {
    let dir = tempfile::tempdir().unwrap();
    let agents = golden().join("seed7-N5/agents.xabsl");
    let trace = golden().join("seed7-N5.trace.jsonl");
    let mut args = vec![
        "xabsl",
        "run",
        agents.to_str().unwrap(),
        "--inputs",
        trace.to_str().unwrap(),
        "--define",
        "in.scaled(k)=in.f0*k",
    ];
    args.extend(extra);
    let out = skipper_in(&args, dir.path());
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
    let out = skipper_in(
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

    let out = skipper_in(
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
        vec!["xabsl", "doc", "--help"],
        vec!["xabsl", "dot", "--help"],
    ] {
        let out = skipper_in(&args, dir.path());
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("Examples:"), "{args:?}");
    }
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap()
}

#[test]
fn the_spec_option_grabs_turns_and_releases_the_ball_on_a_pioneer() {
    let dir = tempfile::tempdir().unwrap();
    let ex = examples().join("xabsl/turn_and_release");
    let out = skipper_in(
        &[
            "run",
            ex.join("agents.xabsl").to_str().unwrap(),
            "--world",
            ex.join("field.world").to_str().unwrap(),
            "--until",
            "60s",
            "--log",
            "run.mcap",
            "--summary-json",
            "s.json",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = summary(dir.path());
    assert_eq!(s["outcome"], "finished", "{s}");
    assert_eq!(s["xabsl_root_state"], "deliver.done");
    // the log holds the transitions: grabbed, turned, released
    let log = std::fs::read(dir.path().join("run.mcap")).unwrap();
    let mut transitions = Vec::new();
    let mut gripper = Vec::new();
    for m in mcap::MessageStream::new(&log).unwrap() {
        let m = m.unwrap();
        if m.channel.topic != "/events" {
            continue;
        }
        let e: serde_json::Value = serde_json::from_slice(&m.data).unwrap();
        match e["kind"].as_str() {
            Some("transition") => transitions.push(format!(
                "{}:{}",
                e["data"]["option"].as_str().unwrap_or(""),
                e["data"]["to"].as_str().unwrap_or("-")
            )),
            Some("gripper") => gripper.push(e["data"].to_string()),
            _ => {}
        }
    }
    let pos = |t: &str| transitions.iter().position(|x| x == t);
    let grabbed = pos("grab_ball_with_head:grabbed").expect("grabbed");
    let turned = pos("turn_and_release:turn_left")
        .or(pos("turn_and_release:turn_right"))
        .expect("turned");
    let released = pos("turn_and_release:release_ball_left")
        .or(pos("turn_and_release:release_ball_right"))
        .expect("released");
    assert!(grabbed < turned && turned < released, "{transitions:?}");
    assert!(gripper.iter().any(|g| g.contains("grasped")), "{gripper:?}");
    assert!(
        gripper.iter().any(|g| g.contains("released")),
        "{gripper:?}"
    );
}

#[test]
fn the_soccer_agent_pushes_the_ball_into_the_goal() {
    let dir = tempfile::tempdir().unwrap();
    let agents = examples().join("xabsl/soccer/agents.xabsl");
    let world = examples().join("worlds/soccer.world");
    let out = skipper_in(
        &[
            "run",
            agents.to_str().unwrap(),
            "--world",
            world.to_str().unwrap(),
            "--until",
            "120s",
            "--no-log",
            "--summary-json",
            "s.json",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = summary(dir.path());
    assert_eq!(s["outcome"], "finished", "{s}");
    assert_eq!(s["xabsl_root_state"], "play.scored");
}

#[test]
fn an_agent_that_does_not_check_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.xabsl"),
        "include \"o.xabsl\";\nagent a(\"A\", nope);\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("o.xabsl"),
        "option o { initial state s { action { } } }",
    )
    .unwrap();
    let out = skipper_in(&["run", "a.xabsl", "--no-log", "--until", "1s"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("a.xabsl:2:14: error: no option is called `nope`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn doc_and_dot_write_documentation_and_graphviz() {
    let dir = tempfile::tempdir().unwrap();
    let agents = examples().join("xabsl/turn_and_release/agents.xabsl");
    let out = skipper_in(
        &["xabsl", "doc", agents.to_str().unwrap(), "-o", "doc"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    for f in [
        "index.html",
        "option.turn_and_release.html",
        "svg/option_turn_and_release.svg",
    ] {
        assert!(dir.path().join("doc").join(f).is_file(), "{f}");
    }
    let out = skipper_in(&["xabsl", "dot", agents.to_str().unwrap()], dir.path());
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("digraph options {"));
    let out = skipper_in(
        &[
            "xabsl",
            "dot",
            agents.to_str().unwrap(),
            "--option",
            "deliver",
            "-o",
            "d.dot",
        ],
        dir.path(),
    );
    assert!(out.status.success());
    let d = std::fs::read_to_string(dir.path().join("d.dot")).unwrap();
    assert!(d.contains("\"carry\" -> \"let_go\";"), "{d}");
    let out = skipper_in(
        &["xabsl", "dot", agents.to_str().unwrap(), "--option", "nope"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no option `nope`"));
}
