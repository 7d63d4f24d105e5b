//! `skipper interfaces --ros2|--ros1 OUT [CONTROLLER]`: the checked-in
//! `interfaces/ros2/skipper_msgs` is exactly what it writes for the built-in goal kinds
//! (and for an XABSL agent's and a mission's, which are built-in kinds); the printed type
//! hashes are the ones Jazzy's rosidl gives that package; ROS 1 packages; bad input is
//! exit status 2 with a sentence.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skipper(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run skipper")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Every file under `dir`, by its path relative to `dir`.
fn files(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

fn write_ros2(controller: Option<&str>) -> (tempfile::TempDir, String) {
    let out = tempfile::tempdir().unwrap();
    let mut args = vec!["interfaces", "--ros2", out.path().to_str().unwrap()];
    args.extend(controller);
    let o = skipper(&args);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    (out, text(&o.stdout))
}

#[test]
fn the_checked_in_package_is_what_the_built_in_kinds_write() {
    let want = files(&root().join("interfaces/ros2/skipper_msgs"));
    for controller in [
        None,
        Some("examples/xabsl/goals/agents.xabsl"),
        Some("examples/missions/test_mission.lua"),
    ] {
        let (out, _) = write_ros2(controller);
        let packages: Vec<String> = std::fs::read_dir(out.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(packages, ["skipper_msgs"], "{controller:?}");
        let got = files(&out.path().join("skipper_msgs"));
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{controller:?}"
        );
        for (name, text) in &want {
            assert_eq!(
                &got[name], text,
                "{name} differs from interfaces/ros2/skipper_msgs ({controller:?}); \
                 write it again: skipper interfaces --ros2 interfaces/ros2"
            );
        }
    }
}

/// The hashes rosidl (Jazzy) generated for interfaces/ros2/skipper_msgs
/// (share/skipper_msgs/action/*.json once the package is built).
#[test]
fn the_printed_type_hashes_are_rosidls() {
    let (_, stdout) = write_ros2(None);
    for (kind, ty, hash) in [
        (
            "goto",
            "skipper_msgs/action/Goto",
            "RIHS01_d05755ba3f44f23ba904b82cdec6150739d9b0becafacf598fdfbe402f0cf7cb",
        ),
        (
            "run_option",
            "skipper_msgs/action/RunOption",
            "RIHS01_69e9114aba1debaf0f419df1766304a3b63fae4a31ea5423b845ac224a0075e8",
        ),
        (
            "run_mission",
            "skipper_msgs/action/RunMission",
            "RIHS01_60fdbe0163ba32bb2d7ada65c41456cb98ebcb7e638df97f02ea68e3cdb2ca9c",
        ),
    ] {
        let line = format!("goal kind {kind}: {ty}, type hash {hash}");
        assert!(stdout.contains(&line), "{line}\n{stdout}");
    }
}

#[test]
fn a_ros1_package_is_a_catkin_package_of_the_actions() {
    let out = tempfile::tempdir().unwrap();
    let o = skipper(&[
        "interfaces",
        "--ros1",
        out.path().to_str().unwrap(),
        "examples/xabsl/goals/agents.xabsl",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let got = files(&out.path().join("skipper_msgs"));
    let cmake = &got["CMakeLists.txt"];
    assert!(
        cmake.contains("add_action_files(FILES Goto.action RunOption.action RunMission.action)"),
        "{cmake}"
    );
    assert!(cmake.contains("WaterProperties.msg"), "{cmake}");
    assert!(got["package.xml"].contains("<buildtool_depend>catkin</buildtool_depend>"));
    let fields: Vec<&str> = got["action/RunOption.action"]
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    assert_eq!(
        fields,
        [
            "string option",
            "string parameters",
            "---",
            "bool reached_target_state",
            "---",
            "string active_path"
        ]
    );
    assert!(got.contains_key("msg/BumperState.msg"));
}

#[test]
fn bad_input_is_exit_status_2_with_a_sentence() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    let file = out.path().join("file");
    std::fs::write(&file, "").unwrap();
    let f = file.to_str().unwrap();
    for (args, want) in [
        (vec!["interfaces", o], "--ros2"),
        (
            vec!["interfaces", "--ros2", "--ros1", o],
            "cannot be used with",
        ),
        (
            vec!["interfaces", "--ros2", o, "nope.xabsl"],
            "nope.xabsl: no such controller file",
        ),
        (
            vec!["interfaces", "--ros2", o, "examples/worlds"],
            "don't know how to run",
        ),
        (
            vec!["interfaces", "--ros2", o, "agent.soar"],
            "declares no goal kinds",
        ),
        (vec!["interfaces", "--ros2", f], "not a folder"),
    ] {
        let r = skipper(&args);
        let err = text(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // an agent that does not compile: its diagnostics
    let bad = out.path().join("bad.xabsl");
    std::fs::write(&bad, "agent a(\"A\", nope);\n").unwrap();
    let r = skipper(&["interfaces", "--ros2", o, bad.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
}

#[test]
fn help_shows_examples() {
    let o = skipper(&["interfaces", "--help"]);
    assert!(o.status.success());
    let h = text(&o.stdout);
    assert!(h.contains("Examples:"), "{h}");
    assert!(h.contains("skipper interfaces --ros2 ws/src examples/xabsl/goals/agents.xabsl"));
}
