//! The ROS 1 interface packages of goal kinds: what `skipper interfaces --ros1 OUT`
//! writes, so that a rospy or roscpp user builds typed clients of Skipper's actions with
//! catkin.
//!
//! One catkin package per package the kinds' types name (`tutorial_msgs/Advance`:
//! package `tutorial_msgs`, `action/Advance.action` from [`GoalKind::action_text`]).
//! The package `skipper_msgs` also holds the messages of Skipper's ROS 1 topics
//! (`BumperState`, `GripperState`, `WaterProperties`).

use skipper_core::goals::GoalKind;
pub use skipper_goals::package::{write, Package};
use skipper_ros1_wire::msg::loader::TypeLoader;

/// The messages of Skipper's ROS 1 topics that live in `skipper_msgs`.
const OWN_MESSAGES: [&str; 3] = ["BumperState", "GripperState", "WaterProperties"];

/// The packages of `kinds`, in the order their packages first appear (a type given
/// twice is written once). `Err` if a kind's type is not a ROS package/type name.
pub fn packages(kinds: &[&'static GoalKind]) -> Result<Vec<Package>, String> {
    let mut order: Vec<(&str, Vec<&'static GoalKind>)> = Vec::new();
    for &k in kinds {
        let pkg = package_of(k)?;
        match order.iter_mut().find(|(p, _)| *p == pkg) {
            Some((_, list)) if list.iter().any(|o| o.type_name == k.type_name) => {}
            Some((_, list)) => list.push(k),
            None => order.push((pkg, vec![k])),
        }
    }
    Ok(order.iter().map(|(pkg, list)| package(pkg, list)).collect())
}

/// The package a kind's type names, checked against ROS 1's naming rules.
fn package_of(k: &GoalKind) -> Result<&'static str, String> {
    let Some((pkg, name)) = k.type_name.split_once('/') else {
        return Err(format!(
            "goal kind `{}`: its type `{}` is not PACKAGE/Name",
            k.name, k.type_name
        ));
    };
    if !name_ok(pkg, name) {
        return Err(format!(
            "goal kind `{}`: `{}` is not a ROS package/type name",
            k.name, k.type_name
        ));
    }
    Ok(pkg)
}

/// A package name in lower case with digits and underscores, a type name in CamelCase.
fn name_ok(pkg: &str, name: &str) -> bool {
    let lower = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    lower(pkg)
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Package `pkg` with the actions of `kinds` (and Skipper's messages in `skipper_msgs`).
fn package(pkg: &str, kinds: &[&'static GoalKind]) -> Package {
    let actions: Vec<String> = kinds
        .iter()
        .map(|k| k.type_name.split_once('/').map_or("", |x| x.1).to_string())
        .collect();
    let messages = if pkg == "skipper_msgs" {
        own_messages()
    } else {
        Vec::new()
    };
    let mut files = vec![
        ("package.xml".into(), package_xml(pkg, &actions, &messages)),
        ("CMakeLists.txt".into(), cmake(pkg, &actions, &messages)),
    ];
    for (k, a) in kinds.iter().zip(&actions) {
        files.push((format!("action/{a}.action"), k.action_text()));
    }
    for (m, text) in &messages {
        files.push((format!("msg/{m}.msg"), text.clone()));
    }
    Package {
        name: pkg.to_string(),
        files,
    }
}

/// Skipper's topic messages: (name, `.msg` text).
fn own_messages() -> Vec<(String, String)> {
    let loader = TypeLoader::global();
    OWN_MESSAGES
        .iter()
        .filter_map(|m| {
            let s = loader.message(&format!("skipper_msgs/{m}")).ok()?;
            Some((m.to_string(), s.text().to_string()))
        })
        .collect()
}

fn package_xml(pkg: &str, actions: &[String], messages: &[(String, String)]) -> String {
    let mut what = format!("the goal actions Skipper serves ({})", actions.join(", "));
    if !messages.is_empty() {
        let names: Vec<&str> = messages.iter().map(|(n, _)| n.as_str()).collect();
        what.push_str(&format!(" and its topics' messages ({})", names.join(", ")));
    }
    format!(
        r#"<?xml version="1.0"?>
<package format="2">
  <name>{pkg}</name>
  <version>{version}</version>
  <description>ROS 1 interfaces of Skipper, the robot behavior executive: {what}. Written by `skipper interfaces --ros1`.</description>
  <maintainer email="skipper@example.invalid">Skipper developers</maintainer>
  <license>MIT OR Apache-2.0</license>

  <buildtool_depend>catkin</buildtool_depend>
  <build_depend>message_generation</build_depend>
  <exec_depend>message_runtime</exec_depend>
  <depend>actionlib_msgs</depend>
  <depend>std_msgs</depend>
</package>
"#,
        version = env!("CARGO_PKG_VERSION"),
    )
}

fn cmake(pkg: &str, actions: &[String], messages: &[(String, String)]) -> String {
    let files = |names: Vec<&str>, ext: &str| {
        names
            .iter()
            .map(|n| format!("{n}.{ext}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut t = format!(
        "cmake_minimum_required(VERSION 3.0.2)\nproject({pkg})\n\
         find_package(catkin REQUIRED COMPONENTS message_generation actionlib_msgs std_msgs)\n"
    );
    if !messages.is_empty() {
        let names = messages.iter().map(|(n, _)| n.as_str()).collect();
        t.push_str(&format!(
            "add_message_files(FILES {})\n",
            files(names, "msg")
        ));
    }
    t.push_str(&format!(
        "add_action_files(FILES {})\n\
         generate_messages(DEPENDENCIES actionlib_msgs std_msgs)\n\
         catkin_package(CATKIN_DEPENDS message_runtime actionlib_msgs std_msgs)\n",
        files(actions.iter().map(String::as_str).collect(), "action")
    ));
    t
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
        feedback: &[],
        ended: GoalKind::no_result,
    };

    static BAD: GoalKind = GoalKind {
        name: "bad",
        type_name: "Tutorial-msgs/advance",
        doc: "",
        goal: &[],
        result: &[],
        feedback: &[],
        ended: GoalKind::no_result,
    };

    #[test]
    fn a_kind_of_its_own_package_is_a_catkin_package_with_its_action() {
        let p = packages(&[&ADVANCE, &ADVANCE]).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].name, "tutorial_msgs");
        let names: Vec<&str> = p[0].files.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(
            names,
            ["package.xml", "CMakeLists.txt", "action/Advance.action"]
        );
        assert!(p[0].files[1]
            .1
            .contains("add_action_files(FILES Advance.action)"));
        assert!(!p[0].files[1].1.contains("add_message_files"));
        assert_eq!(p[0].files[2].1, ADVANCE.action_text());
    }

    #[test]
    fn a_type_that_is_not_a_ros_name_is_refused() {
        let e = packages(&[&BAD]).unwrap_err();
        assert!(
            e.contains("`Tutorial-msgs/advance` is not a ROS package/type name"),
            "{e}"
        );
    }
}
