//! SIGTERM (and SIGHUP) stop every long-running command the way Ctrl-C does:
//! `run` and `link serve` finish their log and summary and exit with 128 + 15,
//! `sim serve` closes its P2OS sessions and exits 0, `replay` stops its server and exits
//! 0. Each test waits for what the command prints or writes once it has started.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn skipper(args: &[&str], dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// Wait (at most a minute) until `path` exists.
fn wait_for_file(path: &Path) {
    let start = Instant::now();
    while !path.exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(path.exists(), "{} was never written", path.display());
}

/// The first line of the child's standard output.
fn first_line(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    line
}

fn assert_finished_log(dir: &Path) {
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap();
    assert_eq!(s["outcome"], "interrupted");
    // a finished MCAP file ends with the magic bytes
    let log = std::fs::read(dir.join("run.mcap")).unwrap();
    assert_eq!(&log[log.len() - 8..], b"\x89MCAP0\r\n");
}

#[test]
fn sigterm_ends_a_run_with_a_finished_log() {
    for sig in ["TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let args = [
            "run",
            "--realtime",
            "--log",
            "run.mcap",
            "--summary-json",
            "s.json",
        ];
        let child = skipper(&args, dir.path());
        wait_for_file(&dir.path().join("run.mcap"));
        signal(&child, sig);
        let out = child.wait_with_output().unwrap();
        let expected = if sig == "TERM" { 143 } else { 129 };
        assert_eq!(
            out.status.code(),
            Some(expected),
            "{sig}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_finished_log(dir.path());
    }
}

#[test]
fn sigterm_ends_link_serve_with_a_finished_log() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "link",
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--agents",
        "0",
        "--realtime",
        "--log",
        "run.mcap",
        "--summary-json",
        "s.json",
    ];
    let mut child = skipper(&args, dir.path());
    let line = first_line(&mut child);
    assert!(line.contains("listening on"), "{line}");
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(143),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_finished_log(dir.path());
}

#[test]
fn sigterm_closes_the_p2os_sessions_of_sim_serve() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = skipper(&["sim", "serve", "--p2os", "127.0.0.1:0"], dir.path());
    // "robot1 (p3dx) on 127.0.0.1:PORT"
    let line = first_line(&mut child);
    let addr = line.trim().rsplit(' ').next().unwrap().to_string();
    let mut client = TcpStream::connect(&addr).unwrap();
    // SYNC0 answered: the server has accepted the session and read all the client sent
    // (a connection still in the listen backlog, or unread bytes, would be reset at exit)
    let sync0 = skipper_p2os::PacketBuf::bare(0);
    client.write_all(sync0.as_bytes()).unwrap();
    let mut echo = vec![0; sync0.as_bytes().len()];
    client.read_exact(&mut echo).unwrap();
    assert_eq!(echo, sync0.as_bytes());
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // the server closed the session: the client reads to the end, not a reset
    client
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut rest = Vec::new();
    client.read_to_end(&mut rest).unwrap();
}

#[test]
fn sigterm_stops_a_replay() {
    let dir = tempfile::tempdir().unwrap();
    let log =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/run_log/empty-room-0.3s");
    let args = ["replay", log.to_str().unwrap(), "--serve", "127.0.0.1:0"];
    let mut child = skipper(&args, dir.path());
    let mut line = String::new();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    // wait for the server's announcement
    while !line.contains("http://") {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "replay ended early");
    }
    signal(&child, "TERM");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}
