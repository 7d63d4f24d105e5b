//! `skipper world check` refuses a goal inside furniture and a robot inside a wall, with
//! file:line:col and a caret under the name; every example world passes.

mod cli;
use cli::skipper_in;

use std::path::{Path, PathBuf};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// `world check` of `text` as `f.world`: its exit status and stderr.
fn check(text: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.world"), text).unwrap();
    let out = skipper_in(&["world", "check", "f.world"], dir.path());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A room with a cupboard (a closed box) on its floor.
const ROOM: &str = "box 0 0 20 10\nbox 6 2 2 1\nrobot r -5 0 0\n";

#[test]
fn a_goal_in_a_box_is_refused_at_its_name() {
    let (code, err) = check(&format!("{ROOM}goal cupboard 6.2 2.1\n"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("f.world:4:6: error: goal `cupboard` at (6.20, 2.10) is inside furniture"),
        "{err}"
    );
    assert!(
        err.contains("4 | goal cupboard 6.2 2.1\n  |      ^^^^^^^^"),
        "{err}"
    );
}

#[test]
fn a_robot_in_a_wall_is_refused_at_its_name() {
    let (code, err) = check(&format!("{ROOM}robot stuck 5.1 2 0\n"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("f.world:4:7: error: robot `stuck` at (5.10, 2.00) is inside a wall"),
        "{err}"
    );
    assert!(
        err.contains("4 | robot stuck 5.1 2 0\n  |       ^^^^^"),
        "{err}"
    );
}

#[test]
fn a_robot_in_a_box_is_refused() {
    let (code, err) = check(&format!("{ROOM}robot boxed 6 2 0\n"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("f.world:4:7: error: robot `boxed` at (6.00, 2.00) is inside furniture"),
        "{err}"
    );
}

#[test]
fn every_example_world_passes() {
    let root = examples();
    let mut worlds: Vec<PathBuf> = std::fs::read_dir(root.join("worlds"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    worlds.push(root.join("xabsl/turn_and_release/field.world"));
    worlds.sort();
    assert!(worlds.len() >= 7, "{worlds:?}");
    for w in worlds {
        let out = skipper_in(&["world", "check", w.to_str().unwrap()], &root);
        assert!(
            out.status.success(),
            "{}: {}",
            w.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
