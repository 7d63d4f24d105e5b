//! A run nobody can stop: `skipper run` with no `--until`, no terminal and a controller
//! that never finishes (the wander demo) stops after the unattended limit of simulated
//! time and says so, instead of running (and writing its log) for ever.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn an_unattended_run_without_until_stops_at_the_limit_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["run", "--no-log", "--summary-json"])
        .arg(&summary)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // an hour of the empty room takes seconds; an unbounded run would never end
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(300) {
            child.kill().unwrap();
            panic!("the unattended run did not stop by itself");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{err}");
    assert!(err.contains("no --until"), "{err}");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(s["outcome"], "time_limit", "{s}");
    assert_eq!(s["sim_time_s"].as_f64(), Some(3600.0), "{s}");
}
