//! Runs stay as they were: the README's demo, the spec mission and an XABSL run write
//! the very bytes a recorded binary wrote for the same command (`skipper run ... --log
//! X.mcap` from the repository's root, then `md5sum X.mcap`). Only a deliberate change of
//! what a run does or logs records them anew, in the commit that makes it, saying why.
//!
//! History: the goal layer's redesign (073d57a) wrote what main at bdbeac4 wrote
//! (81c38ef2..., a366808b..., 0597b037...). Issue 19 then changed the log on purpose
//! (`/scan` at the pose its ranges were cast from, mission items with names, one speech
//! event per `say`); the digests below are main's at cb3535a, which the redesign's later
//! commits (typed errors, the runner's steps, the shared session) reproduce.

use md5::{Digest, Md5};
use std::path::Path;
use std::process::Command;

/// Run `skipper ARGS --log LOG` from the repository's root; the log's md5 in hex.
fn digest(args: &[&str], dir: &Path, log: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = dir.join(log);
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .arg("--log")
        .arg(&path)
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&path).unwrap();
    Md5::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn the_demo_the_spec_mission_and_an_xabsl_run_write_what_they_wrote_before() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(
        digest(
            &[
                "run",
                "--world",
                "examples/worlds/office.world",
                "--until",
                "10m"
            ],
            d,
            "demo.mcap"
        ),
        "78d3c39e1cc267bcc881d773d95c1c86",
        "the README's demo"
    );
    assert_eq!(
        digest(
            &["run", "examples/missions/test_mission.lua"],
            d,
            "mission.mcap"
        ),
        "3519cc1b5aca42c6e75a49b604740268",
        "the spec mission"
    );
    assert_eq!(
        digest(
            &[
                "run",
                "examples/xabsl/soccer/agents.xabsl",
                "--world",
                "examples/worlds/soccer.world"
            ],
            d,
            "xabsl.mcap"
        ),
        "7e3e0fb8df989f52e4f5abe608bc0cc1",
        "the soccer agent"
    );
}
