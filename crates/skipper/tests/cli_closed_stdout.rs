//! A command whose standard output is closed before it writes (its reader was `head`
//! or `grep -q` and has gone) does its work and ends with its own exit status: no
//! panic, no exit status 101. Standard output here is a socket whose other end is
//! already closed, so every write fails, as after the reader of a pipe left.

use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Run skipper with a closed standard output: its exit status and standard error.
fn with_closed_stdout(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let (ours, theirs) = UnixStream::pair().expect("a socket pair");
    drop(ours);
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::from(std::os::fd::OwnedFd::from(theirs)))
        .stderr(Stdio::piped())
        .output()
        .expect("run skipper");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn checks_and_runs_end_normally_when_nobody_reads_their_output() {
    let tmp = tempfile::tempdir().unwrap();
    let r = root();
    let world = r.join("examples/worlds/office.world");
    let mission = r.join("examples/missions/test_mission.lua");
    let agent = r.join("examples/xabsl/soccer/agents.xabsl");
    let cases: [(&[&str], i32); 4] = [
        (&["world", "check", world.to_str().unwrap()], 0),
        (&["mission", "check", mission.to_str().unwrap()], 0),
        (&["xabsl", "check", agent.to_str().unwrap()], 0),
        (&["run", "--until", "10s", "--no-log"], 0),
    ];
    for (args, want) in cases {
        let (code, err) = with_closed_stdout(args, tmp.path());
        assert!(
            !err.contains("panicked"),
            "skipper {args:?} panicked:\n{err}"
        );
        assert_eq!(code, Some(want), "skipper {args:?}: {err}");
    }
}
