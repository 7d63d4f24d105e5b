//! The goal layer's redesign left runs as they were: the README's demo, the spec mission
//! and an XABSL run write the very bytes the binary of main at commit bdbeac4 (before
//! the redesign) wrote for the same command. The digests were recorded with that binary
//! (`skipper run ... --log X.mcap` from the repository's root, then `md5sum X.mcap`); a
//! deliberate change of the run log's format records them anew, with the commit that
//! makes it. Recorded anew at 2893e48 (main), after 25d6816 (/scan's pose and time),
//! b71478d (one speech event per utterance) and cb3535a (mission items' names in
//! /controller) changed what the runs write.

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
