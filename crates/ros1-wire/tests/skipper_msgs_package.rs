//! The `skipper_msgs` ROS 1 package shipped in `interfaces/ros1/skipper_msgs`: its
//! `.action` files are the ones compiled in, its `msg/` folder holds the seven messages
//! generated from each action (as genaction writes them) and Skipper's own messages, and
//! the md5sum of every shipped `.msg` equals the compiled-in type's, so ROS tools that
//! read the package (rosmsg, genpy's classes for rostopic / rosbag) agree with the wire.
//!
//! `SKIPPER_BLESS_MSGS=1 cargo test -p skipper-actionlib --test skipper_msgs_package`
//! rewrites the generated `.msg` files from the `.action` files.

use skipper_ros1_wire::msg::defs;
use skipper_ros1_wire::msg::loader::TypeLoader;
use std::path::{Path, PathBuf};

fn package() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../interfaces/ros1/skipper_msgs")
}

fn files(dir: &str, ext: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(package().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            (stem, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_package_manifest_names_skipper_msgs() {
    let xml = std::fs::read_to_string(package().join("package.xml")).unwrap();
    assert!(xml.contains("<name>skipper_msgs</name>"), "{xml}");
    for dep in ["actionlib_msgs", "std_msgs"] {
        assert!(xml.contains(&format!("<depend>{dep}</depend>")), "{dep}");
    }
}

#[test]
fn the_shipped_actions_are_the_compiled_in_ones_and_their_messages_are_generated() {
    let actions = files("action", "action");
    let names: Vec<&str> = actions.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Goto", "RunMission", "RunOption"]);
    let bless = std::env::var_os("SKIPPER_BLESS_MSGS").is_some();
    for (name, text) in &actions {
        let full = format!("skipper_msgs/{name}");
        for (ty, generated) in defs::action_messages(&full, text).unwrap() {
            // the compiled-in definition is the shipped one, comments and all
            assert_eq!(defs::text(&ty), Some(generated.as_str()), "{ty}");
            let path = package().join("msg").join(format!("{}.msg", &ty[13..]));
            if bless {
                std::fs::write(&path, &generated).unwrap();
            }
            let shipped = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!("{}: {e} (bless with SKIPPER_BLESS_MSGS=1)", path.display())
            });
            assert_eq!(
                shipped,
                generated,
                "{} is not what {name}.action generates",
                path.display()
            );
        }
    }
}

#[test]
fn every_shipped_message_has_the_md5sum_of_the_compiled_in_type() {
    let msgs = files("msg", "msg");
    assert!(msgs.len() >= 24, "{} messages", msgs.len());
    // the shipped texts replace the compiled-in ones in this loader, so a message that
    // uses another (GotoActionGoal uses GotoGoal) is hashed from the shipped files only
    let loader = TypeLoader::builtin_only();
    for (stem, text) in &msgs {
        loader
            .add_msg(&format!("skipper_msgs/{stem}"), text)
            .unwrap();
    }
    for (stem, _) in &msgs {
        let ty = format!("skipper_msgs/{stem}");
        let shipped = loader.message(&ty).unwrap();
        let compiled = defs::try_md5sum(&ty).unwrap();
        assert_eq!(shipped.md5sum(), compiled, "{ty}");
    }
}

/// `_md5sum` of the classes Debian's genpy makes from the shipped files
/// (`interfaces/ros1/genpy.sh`), printed here on 2026-12-02.
#[test]
fn the_compiled_in_md5sums_are_those_of_genpys_classes() {
    for (ty, md5) in [
        ("skipper_msgs/GotoGoal", "01bcb5646eff78b104a735a902024c1b"),
        (
            "skipper_msgs/GotoActionGoal",
            "b6ba90ab6f58de8fb21578f38e50d042",
        ),
        (
            "skipper_msgs/GotoActionResult",
            "708c4d46ae3fb73d4f51331e4a394a11",
        ),
        (
            "skipper_msgs/GotoActionFeedback",
            "91b3ab9c431abd66bc2e94785acb7601",
        ),
        (
            "skipper_msgs/RunOptionActionGoal",
            "f2e3c59620293b7dd23f55b604823680",
        ),
        (
            "skipper_msgs/RunMissionActionFeedback",
            "76ba503370ede60a2ed4eca86f0cb7ba",
        ),
        (
            "skipper_msgs/WaterProperties",
            "0714a1d098f61965d05db1f9de746b5b",
        ),
        (
            "skipper_msgs/BumperState",
            "f81947761ff7e166a3bbaf937b9869b5",
        ),
        (
            "skipper_msgs/GripperState",
            "dc581bb3e1c9c4363d009e2ad01e9d75",
        ),
    ] {
        assert_eq!(defs::try_md5sum(ty).unwrap(), md5, "{ty}");
    }
}
