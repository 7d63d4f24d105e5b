//! Bad input to `skipper action send` that comes from the ROS system rather than the
//! command line: the server's action type (read from the master) has a malformed
//! `.action` file on the package path, or no definition anywhere. Each is bad input:
//! exit status 2, a sentence on stderr that names the file and line (or the type and
//! where it was looked for), never a panic. (A remap to an invalid name is in
//! ros_names.rs.)

use skipper_ros1_wire::testing::FakeMaster;
use std::path::Path;
use std::process::{Command, Output};

/// A package `pkg` under `root` (a ROS_PACKAGE_PATH folder) with `action/NAME.action`.
fn package(root: &Path, pkg: &str, name: &str, text: &str) {
    let dir = root.join(pkg);
    std::fs::create_dir_all(dir.join("action")).unwrap();
    std::fs::write(
        dir.join("package.xml"),
        format!("<package format=\"2\"><name>{pkg}</name><version>0.0.0</version></package>\n"),
    )
    .unwrap();
    std::fs::write(dir.join("action").join(format!("{name}.action")), text).unwrap();
}

/// `skipper action send` to `server`, whose goal topic the master says is of type `ty`,
/// with the package path `root` only.
fn send_to(root: &Path, server: &str, ty: &str) -> Output {
    let m = FakeMaster::start().unwrap();
    // (the port is never connected to: the client stops at the type)
    m.fake_publisher(&format!("{server}/goal"), ty, 9);
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "action", "send", "--master", &m.uri, server, "order=3", "--wait", "5s",
        ])
        .env("ROS_PACKAGE_PATH", root)
        .env_remove("CMAKE_PREFIX_PATH")
        .output()
        .unwrap()
}

fn bad_input(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn a_malformed_action_file_is_bad_input_with_its_file_and_line() {
    let root = tempfile::tempdir().unwrap();
    package(
        root.path(),
        "broken_msgs",
        "Count",
        "int32 order\n---\nint32[ sequence\n---\nint32 step\n",
    );
    let out = send_to(root.path(), "/count", "broken_msgs/CountActionGoal");
    let err = bad_input(&out);
    assert!(err.contains("/count serves broken_msgs/Count"), "{err}");
    assert!(err.contains("Count.action"), "the file is named: {err}");
    assert!(err.contains(":3"), "the line is named: {err}");
}

#[test]
fn a_field_of_a_malformed_message_file_is_bad_input() {
    let root = tempfile::tempdir().unwrap();
    package(
        root.path(),
        "broken_msgs",
        "Walk",
        "broken_msgs/Step first\n---\nbool done\n---\nbool moving\n",
    );
    let msg = root.path().join("broken_msgs").join("msg");
    std::fs::create_dir_all(&msg).unwrap();
    std::fs::write(msg.join("Step.msg"), "float64 x\nfloat64 = 3\n").unwrap();
    let out = send_to(root.path(), "/walk", "broken_msgs/WalkActionGoal");
    let err = bad_input(&out);
    assert!(err.contains("Step.msg"), "the file is named: {err}");
    assert!(err.contains(":2"), "the line is named: {err}");
}

#[test]
fn an_unknown_action_type_is_bad_input() {
    let root = tempfile::tempdir().unwrap();
    let out = send_to(root.path(), "/nowhere", "no_such_msgs/NothingActionGoal");
    let err = bad_input(&out);
    assert!(
        err.contains("/nowhere serves no_such_msgs/Nothing")
            && err.contains("unknown type")
            && err.contains("no definition found"),
        "{err}"
    );
}
