//! The ROS 2 interface packages of goal kinds: what `skipper interfaces --ros2 OUT`
//! writes, so that an rclpy or rclcpp user builds typed clients of Skipper's actions
//! with colcon (or plain cmake).
//!
//! One package per package the kinds' types name (`tutorial_msgs/Advance`: package
//! `tutorial_msgs`, `action/Advance.action`), each an ament_cmake package (`package.xml`
//! format 3, `CMakeLists.txt` calling `rosidl_generate_interfaces`). The `.action` files
//! ([`GoalKind::action_text`]) hold the kinds' fields in order, each under its
//! documentation as a comment: exactly the type [`crate::dynamic::KindAction`] serves,
//! so the type hashes agree. The package
//! `skipper_msgs` also holds the messages of Skipper's own topics (`Depth`,
//! `WaterProperties`).

use crate::dynamic::KindAction;
use skipper_core::goals::{GoalKind, Schema};
pub use skipper_goals::package::{write, Package};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Skipper's own package.
pub const SKIPPER_MSGS: &str = "skipper_msgs";

/// The messages of Skipper's topics that live in `skipper_msgs`: (name, `.msg` text).
pub const OWN_MESSAGES: &[(&str, &str)] = &[
    (
        "Depth",
        "# An underwater vehicle's depth below the surface and height above the sea floor.
std_msgs/Header header
# metres below the surface (positive down)
float64 depth
# metres above the sea floor (NaN when unknown)
float64 altitude
",
    ),
    (
        "WaterProperties",
        "# The water around an underwater vehicle, as its sensors measure it.
std_msgs/Header header
# degrees Celsius
float64 temperature
# practical salinity units (PSU)
float64 salinity
",
    ),
];

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn package_xml(name: &str, actions: &[&str], messages: &[&str], std_msgs: bool) -> String {
    let mut what = format!("the goal actions Skipper serves ({})", actions.join(", "));
    if !messages.is_empty() {
        let _ = write!(what, " and its topics' messages ({})", messages.join(", "));
    }
    let mut deps = String::from("  <depend>action_msgs</depend>\n");
    if std_msgs {
        deps.push_str("  <depend>std_msgs</depend>\n");
    }
    format!(
        r#"<?xml version="1.0"?>
<?xml-model href="http://download.ros.org/schema/package_format3.xsd" schematypens="http://www.w3.org/2001/XMLSchema"?>
<package format="3">
  <name>{name}</name>
  <version>{version}</version>
  <description>ROS 2 interfaces of Skipper, the robot behavior executive: {what}. Written by `skipper interfaces --ros2`.</description>
  <maintainer email="skipper@example.invalid">Skipper developers</maintainer>
  <license>MIT OR Apache-2.0</license>

  <buildtool_depend>ament_cmake</buildtool_depend>
  <buildtool_depend>rosidl_default_generators</buildtool_depend>
{deps}  <exec_depend>rosidl_default_runtime</exec_depend>
  <member_of_group>rosidl_interface_packages</member_of_group>

  <export>
    <build_type>ament_cmake</build_type>
  </export>
</package>
"#,
        version = env!("CARGO_PKG_VERSION"),
        what = xml(&what),
    )
}

fn cmake_lists(name: &str, files: &[String], std_msgs: bool) -> String {
    let mut t = format!(
        "cmake_minimum_required(VERSION 3.16)\nproject({name} C CXX)\n\n\
         find_package(ament_cmake REQUIRED)\nfind_package(rosidl_default_generators REQUIRED)\n"
    );
    if std_msgs {
        t.push_str("find_package(std_msgs REQUIRED)\n");
    }
    t.push_str("\nrosidl_generate_interfaces(${PROJECT_NAME}\n");
    for f in files {
        let _ = writeln!(t, "  \"{f}\"");
    }
    if std_msgs {
        t.push_str("  DEPENDENCIES std_msgs\n");
    }
    t.push_str(")\n\nament_export_dependencies(rosidl_default_runtime)\nament_package()\n");
    t
}

/// The packages of `kinds`, in the order their packages first appear (a kind given
/// twice, or two kinds of one type with the same fields, is written once). `Err` if a
/// kind's names are not a ROS 2 interface's, or two kinds name one type with different
/// fields.
pub fn packages(kinds: &[&'static GoalKind]) -> Result<Vec<Package>, String> {
    let mut order: Vec<String> = Vec::new();
    let mut by_package: BTreeMap<String, Vec<(KindAction, &'static GoalKind)>> = BTreeMap::new();
    for &k in kinds {
        let a = KindAction::of(k)?;
        use crate::action::ActionType;
        let pkg = a.package().to_string();
        let list = by_package.entry(pkg.clone()).or_default();
        if list.is_empty() {
            order.push(pkg);
        }
        match list.iter().find(|(b, _)| b.name() == a.name()) {
            Some((_, other)) if !same_fields(other, k) => {
                return Err(format!(
                    "goal kinds `{}` and `{}` both name the type {} but their fields differ",
                    other.name,
                    k.name,
                    a.type_name()
                ))
            }
            Some(_) => {}
            None => list.push((a, k)),
        }
    }
    Ok(order
        .into_iter()
        .map(|name| {
            let list = by_package.remove(&name).unwrap_or_default();
            package(&name, &list)
        })
        .collect())
}

/// Whether two kinds have the same fields (names and types, in order).
fn same_fields(a: &GoalKind, b: &GoalKind) -> bool {
    let same = |x: Schema, y: Schema| {
        x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|(f, g)| f.name == g.name && f.ty == g.ty)
    };
    same(a.goal, b.goal) && same(a.result, b.result) && same(a.feedback, b.feedback)
}

fn package(name: &str, list: &[(KindAction, &'static GoalKind)]) -> Package {
    use crate::action::ActionType;
    let own = name == SKIPPER_MSGS;
    let mut interface_files = Vec::new();
    let mut files = Vec::new();
    for (a, k) in list {
        let path = format!("action/{}.action", a.name());
        files.push((path.clone(), k.action_text()));
        interface_files.push(path);
    }
    let messages: Vec<&str> = if own {
        OWN_MESSAGES.iter().map(|(n, _)| *n).collect()
    } else {
        Vec::new()
    };
    if own {
        for (n, text) in OWN_MESSAGES {
            let path = format!("msg/{n}.msg");
            files.push((path.clone(), text.to_string()));
            interface_files.push(path);
        }
    }
    let actions: Vec<&str> = list.iter().map(|(a, _)| a.name()).collect();
    let mut all = vec![
        (
            "package.xml".to_string(),
            package_xml(name, &actions, &messages, own),
        ),
        (
            "CMakeLists.txt".to_string(),
            cmake_lists(name, &interface_files, own),
        ),
    ];
    all.extend(files);
    Package {
        name: name.to_string(),
        files: all,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::goals::{Field, FieldType};

    static ADVANCE: GoalKind = GoalKind {
        name: "advance",
        type_name: "tutorial_msgs/Advance",
        doc: "drive straight ahead by a distance",
        goal: &[Field::new("distance", FieldType::Float, "how far (m)")],
        result: &[],
        feedback: &[Field::new("left", FieldType::Float, "distance left (m)")],
        ended: GoalKind::no_result,
    };

    #[test]
    fn one_package_per_package_named() {
        let p = packages(&[&skipper_goals::GOTO, &ADVANCE, &ADVANCE]).unwrap();
        let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["skipper_msgs", "tutorial_msgs"]);
        let files: Vec<&str> = p[1].files.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(
            files,
            ["package.xml", "CMakeLists.txt", "action/Advance.action"]
        );
        let own: Vec<&str> = p[0].files.iter().map(|(f, _)| f.as_str()).collect();
        assert!(own.contains(&"msg/Depth.msg"), "{own:?}");
        assert!(p[1].files[1].1.contains("\"action/Advance.action\""));
        assert!(!p[1].files[1].1.contains("std_msgs"));
    }

    #[test]
    fn one_type_with_two_definitions_is_refused() {
        static OTHER: GoalKind = GoalKind {
            name: "advance2",
            type_name: "tutorial_msgs/Advance",
            doc: "",
            goal: &[],
            result: &[],
            feedback: &[Field::new("left", FieldType::Float, "other words")],
            ended: GoalKind::no_result,
        };
        let e = packages(&[&ADVANCE, &OTHER]).unwrap_err();
        assert!(
            e.contains("both name the type tutorial_msgs/action/Advance"),
            "{e}"
        );
    }
}
