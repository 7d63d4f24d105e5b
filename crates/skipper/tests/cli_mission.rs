//! `skipper mission check` and `skipper run MISSION.lua` end to end.

mod cli;
use cli::{skipper_in, text};

use std::path::{Path, PathBuf};

fn missions() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/missions")
}

#[test]
fn mission_check_passes_good_missions_and_lists_errors_of_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let spec = missions().join("test_mission.lua");
    let out = skipper_in(&["mission", "check", spec.to_str().unwrap()], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("mission `Test Mission` is fine"));
    let bad = dir.path().join("bad.lua");
    std::fs::write(
        &bad,
        "NAME = \"bad\"\nSTACK = {\n  BEHAVIOR(Guidance.YoYo):SET(Guidance.YoYo.PITCH, Units.METER, 3)\n}\n",
    )
    .unwrap();
    let out = skipper_in(&["mission", "check", "bad.lua"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("bad.lua:3:"), "{err}");
    assert!(err.contains("dimension mismatch"), "{err}");
    assert!(err.contains("^"), "{err}");
    std::fs::write(&bad, "NAME = \"bad\"\nSTACK = {\n").unwrap();
    let out = skipper_in(&["mission", "check", "bad.lua"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Lua syntax error"),
        "{}",
        text(&out.stderr)
    );
    let out = skipper_in(&["run", "bad.lua", "--no-log"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    // diagnostics are printed as they are: a warning first is not called an error
    std::fs::write(
        &bad,
        "print(io)
os.exit(1)
",
    )
    .unwrap();
    let out = skipper_in(&["mission", "check", "bad.lua"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.starts_with("bad.lua:1:1: warning: print: nil"), "{err}");
    assert!(err.contains("bad.lua:2:1: error: "), "{err}");
}

#[test]
fn mission_check_has_help_with_an_example() {
    let dir = tempfile::tempdir().unwrap();
    let out = skipper_in(&["mission", "check", "--help"], dir.path());
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("Examples:"));
}

#[test]
fn running_the_spec_mission_prints_and_writes_the_summary_keys() {
    let dir = tempfile::tempdir().unwrap();
    let spec = missions().join("test_mission.lua");
    let out = skipper_in(
        &[
            "run",
            spec.to_str().unwrap(),
            "--summary-json",
            "s.json",
            "--log",
            "run.mcap",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let outcome = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("outcome "));
    assert_eq!(
        outcome.map(|l| l.split_whitespace().collect::<Vec<_>>()),
        Some(vec!["outcome", "finished"]),
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
        "waypoints_reached",
        "surfacings",
        "gps_fixes",
        "comms_sessions",
        "max_depth_m",
        "min_altitude_m",
    ] {
        assert!(s.get(k).is_some(), "{k} missing: {s}");
    }
    assert_eq!(s["outcome"], "finished");
    assert_eq!(s["waypoints_reached"], 8);
    // 5 Hz for the AUV by default
    let cycles = s["cycles"].as_f64().unwrap();
    let t = s["sim_time_s"].as_f64().unwrap();
    assert!((t / cycles - 0.2).abs() < 1e-9, "{t} s in {cycles} cycles");
    assert!(
        std::fs::metadata(dir.path().join("run.mcap"))
            .unwrap()
            .len()
            > 1000
    );
}

fn worksite(dir: &Path) {
    std::fs::copy(missions().join("workSite.cfg"), dir.join("workSite.cfg")).unwrap();
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap()
}

#[test]
fn a_mission_with_no_speed_anywhere_drives_to_its_waypoint_and_finishes() {
    let dir = tempfile::tempdir().unwrap();
    worksite(dir.path());
    std::fs::write(
        dir.path().join("go.lua"),
        "NAME = \"No speed\"\nSTACK = {\n  COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(workSite.latitude + 0.009, workSite.longitude));\n}\n",
    )
    .unwrap();
    let out = skipper_in(
        &["run", "go.lua", "--no-log", "--summary-json", "s.json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = summary(dir.path());
    assert_eq!(s["outcome"], "finished");
    assert_eq!(s["mission"], "completed");
    assert_eq!(s["waypoints_reached"], 1);
    assert!(s["distance_m"].as_f64().unwrap() > 900.0, "{s}");
}

#[test]
fn a_mission_that_never_finishes_stops_at_the_default_mission_timeout() {
    let dir = tempfile::tempdir().unwrap();
    worksite(dir.path());
    std::fs::write(
        dir.path().join("never.lua"),
        "NAME = \"Never\"\nSTACK = {\n  BEHAVIOR(Guidance.Circle):SET(Guidance.Circle.CENTER, Units.DEGREE(workSite.latitude, workSite.longitude - 0.01));\n}\n",
    )
    .unwrap();
    let check = skipper_in(&["mission", "check", "never.lua"], dir.path());
    assert!(
        text(&check.stdout).contains("time limit 24h 00m 00.0s (the default mission timeout"),
        "{}",
        text(&check.stdout)
    );
    // the Control.cfg beside the mission sets it (and --mission-timeout would)
    std::fs::write(
        dir.path().join("Control.cfg"),
        "MissionTimeout = 30 minute;\n",
    )
    .unwrap();
    let out = skipper_in(
        &["run", "never.lua", "--no-log", "--summary-json", "s.json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let s = summary(dir.path());
    assert_eq!(s["outcome"], "timeout");
    assert_eq!(s["mission"], "timeout");
    assert!(
        s["reason"]
            .as_str()
            .unwrap()
            .contains("default mission timeout of 30 min"),
        "{s}"
    );
    assert!(
        (s["sim_time_s"].as_f64().unwrap() - 1800.2).abs() < 1e-6,
        "{s}"
    );
    assert!(
        text(&out.stderr).contains("error: the run timed out"),
        "{}",
        text(&out.stderr)
    );
    let out = skipper_in(
        &[
            "run",
            "never.lua",
            "--no-log",
            "--mission-timeout",
            "10m",
            "--summary-json",
            "s.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(3));
    assert!((summary(dir.path())["sim_time_s"].as_f64().unwrap() - 600.2).abs() < 1e-6);
}

#[test]
fn mission_check_warns_about_an_item_that_can_never_move_the_vehicle() {
    let dir = tempfile::tempdir().unwrap();
    worksite(dir.path());
    std::fs::write(
        dir.path().join("still.lua"),
        "NAME = \"Still\"\nSTACK = {\n  COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.81, -121.9)):SET(Guidance.Waypoint.SPEED, Units.METER_PER_SECOND, 0);\n}\n",
    )
    .unwrap();
    let out = skipper_in(&["mission", "check", "still.lua"], dir.path());
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("still.lua:3:")
            && err
                .contains("warning: Guidance.Waypoint can never move the vehicle: its speed is 0"),
        "{err}"
    );
}
