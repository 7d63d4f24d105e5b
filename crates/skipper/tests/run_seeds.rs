//! Seeds mean something: the simulated robots' sensors and odometry are noisy by
//! default, so two seeds give two office runs and one seed the same bytes every time;
//! `--exact` runs are the same whatever the seed; the summary says which was used.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `skipper run` of the office demo for 60 s with `extra` arguments, logging to `log`
/// in `dir`: the log's bytes and the `--summary-json` object and the text summary.
fn office(dir: &Path, log: &str, extra: &[&str]) -> (Vec<u8>, serde_json::Value, String) {
    let world: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds/office.world");
    let summary = dir.join(format!("{log}.json"));
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["run", "--world", world.to_str().unwrap(), "--until", "60s"])
        .args(extra)
        .arg("--log")
        .arg(dir.join(log))
        .arg("--summary-json")
        .arg(&summary)
        .current_dir(dir)
        .output()
        .expect("run skipper");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    (
        std::fs::read(dir.join(log)).unwrap(),
        json,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn two_seeds_give_two_runs_and_one_seed_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, summary, text) = office(d, "a.mcap", &["--seed", "0"]);
    let (b, _, _) = office(d, "b.mcap", &["--seed", "1"]);
    let (again, _, _) = office(d, "again.mcap", &["--seed", "0"]);
    assert_ne!(a, b, "seeds 0 and 1 wrote the same log");
    assert!(a == again, "seed 0 wrote two different logs");
    assert_eq!(
        summary["noise"], "odometry 0.75%, sonar 0.5 mm, laser 5 mm",
        "{summary}"
    );
    assert_eq!(summary["seed"], 0, "{summary}");
    assert!(
        text.contains("noise") && text.contains("odometry 0.75%, sonar 0.5 mm, laser 5 mm"),
        "{text}"
    );
}

#[test]
fn exact_runs_are_the_same_whatever_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, mut summary, text) = office(d, "a.mcap", &["--exact", "--seed", "0"]);
    let (_, mut other, _) = office(d, "b.mcap", &["--exact", "--seed", "1"]);
    assert_eq!(summary["noise"], "none", "{summary}");
    assert_eq!((&summary["seed"], &other["seed"]), (&0.into(), &1.into()));
    // the same run but for the seed it names (the logs hold the summary, seed and all):
    // the distance to the last bit
    for s in [&mut summary, &mut other] {
        let m = s.as_object_mut().unwrap();
        for k in ["seed", "wall_time_s", "log"] {
            m.remove(k);
        }
    }
    assert_eq!(summary, other);
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["noise", "none"]),
        "{text}"
    );
}
