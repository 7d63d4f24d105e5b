//! A binding file is checked against the robot's declared signals before any run: a typo
//! in it is bad input (exit 2) with file:line:col, a caret and the nearest valid names,
//! from `skipper xabsl check` and from `skipper run` alike.

mod cli;
use cli::skipper;

use std::path::{Path, PathBuf};

/// The `goals` example agent copied into `dir`, with `binding` as its binding file.
fn agent_with_binding(dir: &Path, binding: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/xabsl/goals");
    copy_dir(&src, dir);
    std::fs::write(dir.join("agents.binding"), binding).unwrap();
    dir.join("agents.xabsl")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn a_typo_in_a_binding_is_bad_input_with_its_place_and_the_nearest_names() {
    let dir = tempfile::tempdir().unwrap();
    let agents = agent_with_binding(dir.path(), "behavior drive: drive(speed, trun);\n");
    let a = agents.to_str().unwrap();
    for args in [
        vec!["xabsl", "check", a],
        vec!["run", a, "--until", "1s", "--no-log"],
    ] {
        let out = skipper(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("agents.binding:1:30: error:"),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("`trun`") && err.contains("did you mean `turn`"),
            "{err}"
        );
        assert!(err.contains('^'), "a caret: {err}");
    }
}

#[test]
fn a_misspelt_signal_names_the_nearest_signals() {
    let dir = tempfile::tempdir().unwrap();
    let binding = "behavior drive: drive(speed * sonr.3, turn);\n";
    let agents = agent_with_binding(dir.path(), binding);
    let out = skipper(&["xabsl", "check", agents.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`sonr.3`") && err.contains("`sonar.3`"),
        "{err}"
    );
    // the example's own binding checks
    let good = agent_with_binding(
        &dir.path().join("good"),
        "behavior drive: drive(speed, turn);\n",
    );
    let out = skipper(&["xabsl", "check", good.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
