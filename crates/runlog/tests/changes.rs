//! The run log writes what changed: `/actuation` when the controller's request differs
//! from the one last written (and every cycle that carries a one-shot `say`), floats at
//! the resolution of the robot's sensors; equal runs still give equal bytes although a
//! thread writes the file.

use skipper_core::{Controller, ControllerError, Cycle, Drive, RunConfig, Runner, Status};
use skipper_runlog::RunLog;
use skipper_sim::world_file::parse_world;
use skipper_sim::GroundWorld;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Drives at 0.2 m/s, says hello in cycle 10, stops from cycle 30.
struct Steady;

impl Controller for Steady {
    fn name(&self) -> &str {
        "steady"
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let speed = if c.cycle < 30 { 0.2 } else { 0.0 };
        c.actuation.drive = Some(Drive::velocity(speed, 0.0));
        if c.cycle == 10 {
            c.actuation.say.push(Arc::from("hello"));
        }
        Ok(Status::Running)
    }
}

/// Run `Steady` for 5 s (50 cycles) with the log at `path`; the log's bytes.
fn run(path: &Path) -> Vec<u8> {
    let spec = parse_world(
        "world box\nbox 0 0 10 10\nrobot r1 0.3 -0.4 0.5\n",
        "box.world",
        None,
    )
    .unwrap();
    let world = GroundWorld::new(&spec, 0).unwrap();
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            until: Some(Duration::from_secs(5)),
            ..RunConfig::default()
        },
    );
    r.set_controller(0, Box::new(Steady));
    let (log, status) = RunLog::create(path).unwrap();
    r.add_observer(Box::new(log));
    r.run();
    let s = status.lock().unwrap().clone();
    assert!(s.error.is_none(), "{:?}", s.error);
    assert!(s.messages > 100, "{}", s.messages);
    std::fs::read(path).unwrap()
}

fn messages(log: &[u8], topic: &str) -> Vec<serde_json::Value> {
    mcap::MessageStream::new(log)
        .unwrap()
        .map(Result::unwrap)
        .filter(|m| m.channel.topic == topic)
        .map(|m| serde_json::from_slice(&m.data).unwrap())
        .collect()
}

#[test]
fn actuation_is_written_when_it_changes_and_with_every_say() {
    let dir = tempfile::tempdir().unwrap();
    let log = run(&dir.path().join("run.mcap"));
    let written: Vec<(String, f64, bool)> = messages(&log, "/actuation")
        .iter()
        .map(|m| {
            (
                m["t"].to_string(),
                m["drive"]["translation"]["value"].as_f64().unwrap(),
                m.get("say").is_some(),
            )
        })
        .collect();
    // cycle n starts at (n - 1) / 10 s: the first request, the say, the request without
    // it, the stop
    let expected = [
        ("0.0", 0.2, false),
        ("0.9", 0.2, true),
        ("1.0", 0.2, false),
        ("2.9", 0.0, false),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|&(t, v, say)| (t.to_string(), v, say))
        .collect();
    assert_eq!(written, expected);
}

#[test]
fn floats_are_logged_at_what_the_sensors_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let log = run(&dir.path().join("run.mcap"));
    let decimals = |v: &serde_json::Value| {
        let s = v.to_string();
        s.split_once('.').map_or(0, |(_, f)| f.len())
    };
    let poses = messages(&log, "/pose");
    assert_eq!(poses.len(), 50);
    for p in &poses {
        for k in ["x", "y", "z"] {
            assert!(decimals(&p["pose"]["position"][k]) <= 3, "{p}");
        }
        assert!(decimals(&p["pose"]["orientation"]["w"]) <= 6, "{p}");
    }
    let mut xs = 0;
    let mut last_x_t = 0.0;
    for m in messages(&log, "/signals") {
        if let Some(x) = m["values"].get("truth.x") {
            assert!(decimals(x) <= 3, "{m}");
            xs += 1;
            last_x_t = m["t"].as_f64().unwrap();
        }
        if let Some(yaw) = m["values"].get("truth.yaw") {
            assert!(decimals(yaw) <= 4, "{m}");
        }
    }
    // the robot moves 2 cm a cycle for 29 cycles, brakes (0.2 m/s at 0.3 m/s^2: under a
    // second) and stands: its position is not written again
    assert!((29..45).contains(&xs), "{xs}");
    assert!(last_x_t < 4.0, "{last_x_t}");
}

#[test]
fn equal_runs_write_equal_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(&dir.path().join("a.mcap"));
    let b = run(&dir.path().join("b.mcap"));
    assert!(a == b, "the two logs differ");
}
