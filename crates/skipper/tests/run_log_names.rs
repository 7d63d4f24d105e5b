//! Run logs never overwrite each other: runs started together, in the same second or at
//! once, each get a file of their own, and the summary names it; `--log DIR/` does the
//! same in a directory; `--log FILE` writes exactly there and says when it replaced one.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};

fn start(args: &[&str], dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start skipper")
}

/// Wait for a run; its stdout and stderr.
fn finish(c: Child) -> (String, String) {
    let out = c.wait_with_output().expect("the run ends");
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{e}");
    (o, e)
}

/// The log the summary names.
fn named_log(summary: &str) -> String {
    summary
        .lines()
        .find_map(|l| l.trim().strip_prefix("log"))
        .map(|l| l.trim().to_string())
        .unwrap_or_else(|| panic!("no log line in {summary}"))
}

fn files_in(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn five_runs_at_once_leave_five_logs_each_named_in_its_summary() {
    let dir = tempfile::tempdir().unwrap();
    let runs: Vec<Child> = (1..=5)
        .map(|seed| {
            let s = seed.to_string();
            start(&["run", "--seed", &s, "--until", "2s"], dir.path())
        })
        .collect();
    let named: BTreeSet<String> = runs.into_iter().map(|c| named_log(&finish(c).0)).collect();
    assert_eq!(named.len(), 5, "five summaries, five logs: {named:?}");
    let files = files_in(&dir.path().join("runs"));
    assert_eq!(files.len(), 5, "{files:?}");
    for n in &named {
        let p = dir.path().join(n);
        assert!(std::fs::metadata(&p).unwrap().len() > 0, "{n} is written");
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("wander-") && name.ends_with(".mcap"),
            "{name}"
        );
    }
}

#[test]
fn runs_one_after_another_never_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "3"] {
        finish(start(&["run", "--seed", seed, "--until", "1s"], dir.path()));
    }
    assert_eq!(files_in(&dir.path().join("runs")).len(), 3);
}

#[test]
fn a_directory_for_log_gets_a_new_file_per_run() {
    let dir = tempfile::tempdir().unwrap();
    let a = start(&["run", "--until", "1s", "--log", "sweep/"], dir.path());
    let b = start(&["run", "--until", "1s", "--log", "sweep/"], dir.path());
    let (sa, sb) = (named_log(&finish(a).0), named_log(&finish(b).0));
    assert_ne!(sa, sb);
    assert!(sa.starts_with("sweep/"), "{sa}");
    assert_eq!(files_in(&dir.path().join("sweep")).len(), 2);
}

#[test]
fn an_explicit_log_file_is_written_there_and_a_replaced_one_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = finish(start(
        &["run", "--until", "1s", "--log", "a.mcap"],
        dir.path(),
    ));
    assert_eq!(named_log(&out), "a.mcap");
    assert!(!err.contains("replaced"), "{err}");
    let (out, err) = finish(start(
        &["run", "--until", "1s", "--log", "a.mcap"],
        dir.path(),
    ));
    assert_eq!(named_log(&out), "a.mcap");
    assert!(err.contains("a.mcap existed and is replaced"), "{err}");
    assert_eq!(files_in(dir.path()), BTreeSet::from(["a.mcap".to_string()]));
}
