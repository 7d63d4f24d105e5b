//! `skipper interfaces`: the ROS 2 or ROS 1 interface packages of a controller's goal
//! kinds (the built-in goto, an XABSL agent's run_option, a mission's run_mission, and
//! any kind an embedded controller declares), so that rclpy, rclcpp, rospy or roscpp
//! clients talk to Skipper's actions with typed messages. `skipper_msgs` always holds
//! every built-in kind and the messages of Skipper's topics; a kind of another package
//! gets a package of its own.

use crate::controllers::ControllerChoice;
use crate::exit::Failure;
use clap::Args;
use skipper_core::goals::GoalKind;
use skipper_core::World;
use skipper_goals::BindOptions;
use std::path::{Path, PathBuf};

/// `skipper interfaces ...`
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # skipper_msgs with the built-in kinds (goto, run_option, run_mission)
  skipper interfaces --ros2 ws/src
  # the packages of an XABSL agent's and a mission's goal kinds
  skipper interfaces --ros2 ws/src examples/xabsl/goals/agents.xabsl
  skipper interfaces --ros2 ws/src examples/missions/test_mission.lua
  # then, in a ROS 2 workspace
  cd ws && colcon build && source install/setup.bash
  # a catkin package for ROS 1
  skipper interfaces --ros1 catkin_ws/src examples/xabsl/goals/agents.xabsl

Each package OUT/<package> has package.xml, CMakeLists.txt and one .action file
per goal kind (ROS 2: ament_cmake and rosidl; ROS 1: catkin). Each action's ROS 2
type hash is printed: the hash rosidl gives the built package, which Skipper's
servers check their clients' hashes against.

Exit status: 0 when written, 2 for bad input (a controller that does not load, a
goal kind whose names are not ROS names, OUT that cannot be written).")]
#[command(group(clap::ArgGroup::new("middleware").required(true).args(["ros2", "ros1"])))]
pub struct InterfacesArgs {
    /// Write ROS 2 packages (ament_cmake, rosidl_generate_interfaces).
    #[arg(long)]
    pub ros2: bool,
    /// Write ROS 1 packages (catkin, add_action_files).
    #[arg(long)]
    pub ros1: bool,
    /// The folder to write the packages in (made if missing; a package there is
    /// replaced file by file).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// The controller whose goal kinds to write: an XABSL agent (*.xabsl), a mission
    /// (*.lua), or none for the built-in kinds.
    #[arg(value_name = "CONTROLLER")]
    pub controller: Option<PathBuf>,
}

/// The goal kinds Skipper itself serves: goto (every robot), run_option (an XABSL
/// agent's robots), run_mission (a mission's AUV).
pub fn builtin_kinds() -> Vec<&'static GoalKind> {
    vec![
        &skipper_goals::GOTO,
        &skipper_xabsl::robot::RUN_OPTION,
        &skipper_mission::RUN_MISSION,
    ]
}

/// The goal kinds the robots of `choice` take, as `skipper run` binds them (goto on
/// top of each controller), in a simulated world of the kind the controller needs.
pub fn controller_kinds(choice: &ControllerChoice) -> Result<Vec<&'static GoalKind>, Failure> {
    let world: Box<dyn World> = match choice {
        ControllerChoice::Mission(_, m) => {
            Box::new(crate::controllers::mission::world(m, None, 0)?)
        }
        _ => Box::new(crate::vehicles::ground_world(None, None, 0, false)?),
    };
    let mut kinds: Vec<&'static GoalKind> = Vec::new();
    let options = BindOptions {
        goto: true,
        velocity: false,
    };
    for (i, c) in choice.build(&*world, 0)? {
        let bound = skipper_goals::bind(&*world, i, Some(c), options);
        for k in skipper_core::goals::GoalPort::kinds(&*bound.goals) {
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
    }
    Ok(kinds)
}

/// Run it; returns the exit status.
pub fn run(args: InterfacesArgs) -> Result<u8, Failure> {
    let choice = match args.controller.as_deref() {
        Some(p) if p.extension().is_some_and(|e| e == "soar") => {
            return Err(Failure::bad_input(format!(
                "{}: a Soar agent declares no goal kinds (its robots take the built-in goto); give no CONTROLLER for the built-in kinds",
                p.display()
            )))
        }
        Some(p) if !p.exists() => {
            return Err(Failure::bad_input(format!(
                "{}: no such controller file",
                p.display()
            )))
        }
        p => ControllerChoice::parse(p)?,
    };
    let mut kinds = builtin_kinds();
    for k in controller_kinds(&choice)? {
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    if args.out.exists() && !args.out.is_dir() {
        return Err(Failure::bad_input(format!(
            "{}: not a folder (OUT is where the packages go)",
            args.out.display()
        )));
    }
    if args.ros2 {
        ros2(&args.out, &kinds)
    } else {
        ros1(&args.out, &kinds)
    }
}

fn cannot_write(out: &Path, e: std::io::Error) -> Failure {
    Failure::bad_input(format!("{}: cannot write the packages: {e}", out.display()))
}

#[cfg(feature = "ros2")]
fn ros2(out: &Path, kinds: &[&'static GoalKind]) -> Result<u8, Failure> {
    use skipper_ros2::dynamic::KindAction;
    let packages = skipper_ros2::interfaces::packages(kinds).map_err(Failure::bad_input)?;
    skipper_ros2::interfaces::write(out, &packages).map_err(|e| cannot_write(out, e))?;
    for p in &packages {
        let files: Vec<&str> = p.files.iter().map(|(f, _)| f.as_str()).collect();
        crate::outln!("{}: {}", out.join(&p.name).display(), files.join(", "));
    }
    for k in kinds {
        let a = KindAction::of(k).map_err(Failure::bad_input)?;
        crate::outln!(
            "  goal kind {}: {}, type hash {}",
            k.name,
            a.type_name(),
            a.hashes().action
        );
    }
    Ok(0)
}

#[cfg(not(feature = "ros2"))]
fn ros2(_: &Path, _: &[&'static GoalKind]) -> Result<u8, Failure> {
    Err(Failure::bad_input(
        "this skipper was built without ROS 2 (cargo feature `ros2`)",
    ))
}

/// ROS 1: one catkin package per package the kinds name; `skipper_msgs` also holds the
/// messages of Skipper's ROS 1 topics.
fn ros1(out: &Path, kinds: &[&'static GoalKind]) -> Result<u8, Failure> {
    let mut order: Vec<(&str, Vec<&'static GoalKind>)> = Vec::new();
    for &k in kinds {
        let Some((pkg, name)) = k.type_name.split_once('/') else {
            return Err(Failure::bad_input(format!(
                "goal kind `{}`: its type `{}` is not PACKAGE/Name",
                k.name, k.type_name
            )));
        };
        if !ros1_name_ok(pkg, name) {
            return Err(Failure::bad_input(format!(
                "goal kind `{}`: `{}` is not a ROS package/type name",
                k.name, k.type_name
            )));
        }
        match order.iter_mut().find(|(p, _)| *p == pkg) {
            Some((_, list)) if list.iter().any(|o| o.type_name == k.type_name) => {}
            Some((_, list)) => list.push(k),
            None => order.push((pkg, vec![k])),
        }
    }
    for (pkg, list) in &order {
        let dir = out.join(pkg);
        let mut written = Vec::new();
        let mut put = |rel: String, text: String| -> Result<(), Failure> {
            let path = dir.join(&rel);
            if let Some(d) = path.parent() {
                std::fs::create_dir_all(d).map_err(|e| cannot_write(out, e))?;
            }
            std::fs::write(&path, text).map_err(|e| cannot_write(out, e))?;
            written.push(rel);
            Ok(())
        };
        let actions: Vec<String> = list
            .iter()
            .map(|k| k.type_name.split_once('/').map_or("", |x| x.1).to_string())
            .collect();
        let messages: Vec<(String, String)> = if *pkg == "skipper_msgs" {
            ["BumperState", "GripperState", "WaterProperties"]
                .iter()
                .filter_map(|m| {
                    let loader = skipper_ros1_wire::msg::loader::TypeLoader::global();
                    let s = loader.message(&format!("skipper_msgs/{m}")).ok()?;
                    Some((m.to_string(), s.text().to_string()))
                })
                .collect()
        } else {
            Vec::new()
        };
        put(
            "package.xml".into(),
            ros1_package_xml(pkg, &actions, &messages),
        )?;
        put(
            "CMakeLists.txt".into(),
            ros1_cmake(pkg, &actions, &messages),
        )?;
        for (k, a) in list.iter().zip(&actions) {
            put(format!("action/{a}.action"), k.action_text())?;
        }
        for (m, text) in &messages {
            put(format!("msg/{m}.msg"), text.clone())?;
        }
        crate::outln!("{}: {}", dir.display(), written.join(", "));
    }
    Ok(0)
}

fn ros1_name_ok(pkg: &str, name: &str) -> bool {
    let lower = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    lower(pkg)
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

fn ros1_package_xml(pkg: &str, actions: &[String], messages: &[(String, String)]) -> String {
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

fn ros1_cmake(pkg: &str, actions: &[String], messages: &[(String, String)]) -> String {
    let files = |v: Vec<String>, ext: &str| {
        v.iter()
            .map(|n| format!("{n}.{ext}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut t = format!(
        "cmake_minimum_required(VERSION 3.0.2)\nproject({pkg})\n\
         find_package(catkin REQUIRED COMPONENTS message_generation actionlib_msgs std_msgs)\n"
    );
    if !messages.is_empty() {
        let names = messages.iter().map(|(n, _)| n.clone()).collect();
        t.push_str(&format!(
            "add_message_files(FILES {})\n",
            files(names, "msg")
        ));
    }
    t.push_str(&format!(
        "add_action_files(FILES {})\n\
         generate_messages(DEPENDENCIES actionlib_msgs std_msgs)\n\
         catkin_package(CATKIN_DEPENDS message_runtime actionlib_msgs std_msgs)\n",
        files(actions.to_vec(), "action")
    ));
    t
}
