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
per goal kind (ROS 2: ament_cmake and rosidl; ROS 1: catkin). Each action's
ROS 2 type hash is printed: the hash rosidl gives the built package, which
Skipper's servers check their clients' hashes against.

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
    let packages = skipper_ros1::interfaces::packages(kinds).map_err(Failure::bad_input)?;
    skipper_ros1::interfaces::write(out, &packages).map_err(|e| cannot_write(out, e))?;
    for p in &packages {
        let files: Vec<&str> = p.files.iter().map(|(f, _)| f.as_str()).collect();
        crate::outln!("{}: {}", out.join(&p.name).display(), files.join(", "));
    }
    Ok(0)
}
