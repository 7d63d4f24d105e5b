//! Runs stay as they were: the README's demo, the spec mission and an XABSL run write
//! the very bytes a recorded binary wrote for the same command (`skipper run ... --log
//! X.mcap` from the repository's root, then `md5sum X.mcap`). Only a deliberate change of
//! what a run does or logs records them anew, in the commit that makes it, saying why in
//! its message; a change of the log's framing alone is checked by reading both files'
//! messages with Python's mcap package.

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
        "202d6c8b968bc2d7860ea8eaefbb1dbb",
        "the README's demo"
    );
    assert_eq!(
        digest(
            &["run", "examples/missions/test_mission.lua"],
            d,
            "mission.mcap"
        ),
        "10b72f69380e98c47c34ff903fe97386",
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
        "c782aa9c1b6ac864fbf1c91bc29c7696",
        "the soccer agent"
    );
}
