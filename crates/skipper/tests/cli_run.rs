//! `skipper run` end to end: summaries, exit statuses, run logs, determinism.

mod cli;
use cli::{skipper_in, text};

use std::path::{Path, PathBuf};
use std::process::Command;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds")
}

#[test]
fn the_demo_runs_to_its_time_limit_and_writes_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = skipper_in(
        &[
            "run",
            "--until",
            "30s",
            "--summary-json",
            "s.json",
            "--log",
            "run.mcap",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("outcome      time_limit"), "{stdout}");
    assert!(
        stdout.contains("sim time     30.0s in 300 cycles"),
        "{stdout}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    for k in [
        "outcome",
        "sim_time_s",
        "wall_time_s",
        "cycles",
        "distance_m",
        "collisions",
    ] {
        assert!(s.get(k).is_some(), "{k} missing in {s}");
    }
    assert_eq!(s["outcome"], "time_limit");
    assert_eq!(s["cycles"], 300);
    assert_eq!(s["sim_time_s"], 30.0);
    assert!(
        s["distance_m"].as_f64().unwrap() > 5.0,
        "the demo moves: {s}"
    );
    assert!(dir.path().join("run.mcap").metadata().unwrap().len() > 1000);
}

#[test]
fn the_default_log_goes_to_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = skipper_in(&["run", "--until", "1s"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let logs: Vec<_> = std::fs::read_dir(dir.path().join("runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(logs.len(), 1);
    assert!(
        logs[0].starts_with("wander-") && logs[0].ends_with("Z.mcap"),
        "{logs:?}"
    );
}

#[test]
fn equal_seeds_give_byte_identical_logs() {
    let dir = tempfile::tempdir().unwrap();
    let world = examples().join("office.world");
    let w = world.to_str().unwrap();
    let run = |log: &str, seed: &str| {
        let out = skipper_in(
            &[
                "run", "--world", w, "--robots", "4", "--seed", seed, "--until", "60s", "--log",
                log,
            ],
            dir.path(),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::read(dir.path().join(log)).unwrap()
    };
    let a = run("a.mcap", "7");
    let b = run("b.mcap", "7");
    assert!(a == b, "same seed, different logs");
}

#[test]
fn noise_makes_seeds_matter() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("n.world"),
        "set odometry_noise 0.05\nbox 0 0 20 20\nrobot r 0 0 0\n",
    )
    .unwrap();
    let run = |log: &str, seed: &str| {
        let out = skipper_in(
            &[
                "run", "--world", "n.world", "--seed", seed, "--until", "20s", "--log", log,
            ],
            dir.path(),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::read(dir.path().join(log)).unwrap()
    };
    assert!(run("a.mcap", "1") != run("b.mcap", "2"));
}

#[test]
fn a_bad_world_exits_2_with_file_line_col_and_a_caret() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.world"),
        "box 0 0 10 10\nrobot r 0 zero\n",
    )
    .unwrap();
    let out = skipper_in(
        &["run", "--world", "bad.world", "--until", "1s", "--no-log"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.world:2:11: error: expected a number for y, found `zero`"),
        "{err}"
    );
    assert!(err.contains("2 | robot r 0 zero"), "{err}");
    assert!(err.contains("^^^^"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_robot_in_a_wall_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("w.world"), "box 0 0 10 10\nrobot r 4.9 0\n").unwrap();
    let out = skipper_in(&["run", "--world", "w.world", "--no-log"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is inside a wall"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_flags_and_unknown_controllers_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["run", "--until", "ten minutes", "--no-log"],
        vec!["run", "robot.txt", "--no-log"],
        vec!["run", "--vehicle", "tractor", "--no-log"],
        vec!["run", "--rate", "0", "--no-log"],
        vec!["run", "--world", "missing.world", "--no-log"],
    ] {
        let out = skipper_in(&args, dir.path());
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!text(&out.stderr).contains("panicked"));
    }
}

/// A file that cannot be read is one sentence naming it, with one `error:` (the world
/// loader's error list put its own `error: ` before the command's).
#[test]
fn a_file_that_cannot_be_read_is_one_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["run", "--world", "missing.world", "--no-log"],
        vec!["run", "--world", "missing.map", "--no-log"],
        vec!["world", "check", "missing.world"],
        vec!["run", "missing.lua", "--no-log"],
        vec!["mission", "check", "missing.lua"],
        vec!["report", "missing.mcap"],
    ] {
        let out = skipper_in(&args, dir.path());
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(err.matches("error:").count(), 1, "{args:?}: {err}");
        assert!(err.contains("missing."), "{args:?}: {err}");
    }
}

/// An agents file that does not compile: its diagnostics, then one summary line, as
/// `xabsl check` shows them.
#[test]
fn agents_that_do_not_compile_are_their_diagnostics_and_a_count() {
    let dir = tempfile::tempdir().unwrap();
    let run = skipper_in(&["run", "missing.xabsl", "--no-log"], dir.path());
    let check = skipper_in(&["xabsl", "check", "missing.xabsl"], dir.path());
    let (r, c) = (text(&run.stderr), text(&check.stderr));
    assert_eq!(run.status.code(), Some(2), "{r}");
    let lines: Vec<&str> = r.lines().collect();
    assert_eq!(lines.len(), 2, "{r}");
    assert_eq!(lines[0], c.lines().next().unwrap(), "{r}\n{c}");
    assert!(
        lines[0].starts_with("error: cannot read `missing.xabsl`"),
        "{r}"
    );
    assert_eq!(lines[1], "error: missing.xabsl: 1 error", "{r}");
}

/// No master where `ROS_MASTER_URI` points: one line that says so and what to do.
#[test]
fn without_a_master_ros_commands_say_there_is_none() {
    for args in [
        vec!["run", "--ros", "--until", "1s", "--no-log"],
        vec!["action", "send", "/robot1/goto", "x=1", "y=0"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
            .args(&args)
            .env("ROS_MASTER_URI", "http://127.0.0.1:9/")
            .output()
            .expect("run skipper");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(
            err.contains("no ROS master at http://127.0.0.1:9/ (") && err.contains("roscore"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_map_file_runs_directly() {
    let dir = tempfile::tempdir().unwrap();
    let map = examples().join("lab.map");
    let out = skipper_in(
        &[
            "run",
            "--world",
            map.to_str().unwrap(),
            "--until",
            "20s",
            "--no-log",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn every_command_has_help_with_an_example() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["--help"],
        vec!["run", "--help"],
        vec!["world", "check", "--help"],
        vec!["report", "--help"],
        vec!["replay", "--help"],
    ] {
        let out = skipper_in(&args, dir.path());
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("Examples:"), "{args:?}");
    }
}

#[test]
fn world_check_summarises_or_lists_errors() {
    let dir = tempfile::tempdir().unwrap();
    let office = examples().join("office.world");
    let out = skipper_in(&["world", "check", office.to_str().unwrap()], dir.path());
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("robot      robot1 (p3dx) at (-14.00, 0.00)"),
        "{}",
        text(&out.stdout)
    );
    std::fs::write(dir.path().join("bad.world"), "wal 1 2 3 4\nball x 1\n").unwrap();
    let out = skipper_in(&["world", "check", "bad.world"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.world:1:1") && err.contains("bad.world:2:6"),
        "{err}"
    );
}

#[test]
fn model_picks_the_splinter_for_every_robot_or_one_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let world = examples().join("office.world");
    let out = skipper_in(
        &[
            "run",
            "--world",
            world.to_str().unwrap(),
            "--robots",
            "2",
            "--model",
            "splinter",
            "--model",
            "robot2=p3dx",
            "--until",
            "5s",
            "--log",
            "run.mcap",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rec =
        skipper_runlog::reader::Recording::open(&dir.path().join("run.mcap"), &|_| false).unwrap();
    let models: Vec<_> = rec.robots.iter().map(|r| r.info.model.as_str()).collect();
    assert_eq!(models, ["splinter", "p3dx"]);

    let out = skipper_in(
        &[
            "run",
            "--model",
            "nobody=splinter",
            "--until",
            "1s",
            "--no-log",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the world has no robot `nobody` (it has robot1)"),
        "{}",
        text(&out.stderr)
    );
    let out = skipper_in(&["run", "--model", "roomba", "--no-log"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("splinter"),
        "{}",
        text(&out.stderr)
    );
}

/// A flag the run has no use for is said so, not silently dropped.
#[test]
fn flags_the_run_cannot_use_are_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let mission = examples().join("../missions/test_mission.lua");
    for (flags, warning) in [
        (
            vec!["--mission-timeout", "5m"],
            "warning: --mission-timeout is for missions (*.lua)",
        ),
        (
            vec![mission.to_str().unwrap(), "--robots", "3"],
            "warning: --robots is for ground robots",
        ),
    ] {
        let mut args = vec!["run", "--until", "1s", "--no-log"];
        args.extend(flags);
        let out = skipper_in(&args, dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains(warning), "{}", text(&out.stderr));
    }
}

/// `world check --svg` draws the world: its walls, goals and robots, by name.
#[test]
fn world_check_draws_the_world() {
    let dir = tempfile::tempdir().unwrap();
    let world = examples().join("office.world");
    let out = skipper_in(
        &[
            "world",
            "check",
            world.to_str().unwrap(),
            "--svg",
            "office.svg",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("  picture    office.svg"));
    let svg = std::fs::read_to_string(dir.path().join("office.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    for name in ["robot1", "kitchen", "mailroom"] {
        assert!(svg.contains(name), "{name} is not drawn");
    }
    // every wall of the world is a line of the picture
    assert!(svg.matches("<polyline").count() >= 68, "walls missing");
    // the soccer field's ball and landmarks
    let world = examples().join("soccer.world");
    let out = skipper_in(
        &["world", "check", world.to_str().unwrap(), "--svg", "s.svg"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(dir.path().join("s.svg")).unwrap();
    for name in ["striker", "ball", "opponent_goal"] {
        assert!(svg.contains(name), "{name} is not drawn");
    }
}

#[test]
fn a_summary_that_cannot_be_written_is_an_error_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = skipper_in(
        &[
            "run",
            "--until",
            "30s",
            "--no-log",
            "--summary-json",
            "no/such/dir/summary.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cannot write no/such/dir/summary.json"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        !text(&out.stdout).contains("run summary"),
        "the run went ahead"
    );
    // a path that can be written gets the summary after the run
    let ok = skipper_in(
        &[
            "run",
            "--until",
            "1s",
            "--no-log",
            "--summary-json",
            "s.json",
        ],
        dir.path(),
    );
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert!(dir.path().join("s.json").exists());
}
