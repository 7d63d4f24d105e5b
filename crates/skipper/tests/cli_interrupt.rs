//! Ctrl-C ends a run cleanly: exit status 130, a finished log with its summary.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[cfg(unix)]
#[test]
fn sigint_ends_the_run_with_a_finished_log() {
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "run",
            "--realtime",
            "--log",
            "run.mcap",
            "--summary-json",
            "s.json",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // wait until the run has started writing its log
    let start = Instant::now();
    while !dir.path().join("run.mcap").exists() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    assert_eq!(s["outcome"], "interrupted");
    // a finished MCAP file ends with the magic bytes
    let log = std::fs::read(dir.path().join("run.mcap")).unwrap();
    assert_eq!(&log[log.len() - 8..], b"\x89MCAP0\r\n");
}
