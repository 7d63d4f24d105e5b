//! The ROS 2 wiring of the binary (cargo feature `ros2`, on by default): `skipper run
//! --ros2` binds the run's robots through `skipper_ros2::link`, `skipper action send
//! --ros2` sends one goal with `skipper_ros2::client`. See docs/ros2.md.

use crate::commands::action::{say_block, SendArgs};
use crate::exit::{self, Failure};
use skipper_core::goals::GoalPort;
use skipper_core::velocity::VelocityInbox;
use skipper_core::{RunControl, Runner};
use skipper_ros1_wire::msg::json::to_json;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros2::action::{status_name, ActionType, GoalStatusEnum, Goto, RunMission, RunOption};
use skipper_ros2::args::RosArgs;
use skipper_ros2::client::{self, Ending, Event};
use skipper_ros2::link::{Robot, Ros2Link};
use skipper_ros2::node::{Discovery, NodeConfig, Ros2Node};
use skipper_ros2::yaml::to_yaml;
use skipper_ros2::Ros2Error;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn failure(e: Ros2Error) -> Failure {
    match e {
        Ros2Error::Config(m) => Failure::bad_input(m),
        e => Failure::failed(e.to_string()),
    }
}

/// `skipper run --ros2`: serve `robots` (index, goals, velocity inbox) of `runner`'s
/// world on ROS 2.
pub fn attach(
    runner: &mut Runner,
    robots: Vec<(usize, Arc<dyn GoalPort>, VelocityInbox)>,
    ros_args: &[String],
    host: Option<IpAddr>,
    rate: f64,
) -> Result<(), Failure> {
    let control: Arc<RunControl> = runner.control();
    let names: Vec<String> = (0..runner.world().len())
        .filter_map(|i| runner.world().vehicle(i).map(|v| v.info().name.clone()))
        .collect();
    let link = Ros2Link::start(ros_args, host, &names, rate, control).map_err(failure)?;
    let robots = robots
        .into_iter()
        .map(|(index, goals, velocity)| Robot {
            index,
            goals,
            velocity,
        })
        .collect();
    let observer = link
        .serve(runner.world(), robots, &crate::vehicles::pioneer_sensors())
        .map_err(failure)?;
    runner.add_observer(observer);
    Ok(())
}

/// A goal of type `ty` (`skipper_msgs/Goto`) from the command line's arguments, read
/// as under `--ros` (`x=2`, a YAML value after `=`, or a YAML mapping `'{x: 2, y: 1}'`):
/// the ROS 1 definition of each of Skipper's actions has the ROS 2 one's fields. A number
/// that is not finite is bad input, as the server would reject the goal.
fn ros2_goal<G: serde::de::DeserializeOwned>(ty: &str, fields: &[String]) -> Result<G, Failure> {
    let action = TypeLoader::global()
        .action(ty)
        .map_err(|e| Failure::failed(format!("{ty}: {e}")))?;
    let goal = crate::commands::action::goal_from_args(ty, action.goal(), fields)?;
    let json = to_json(&goal);
    if let Some((k, _)) = json
        .as_object()
        .and_then(|o| o.iter().find(|(_, v)| v.is_null()))
    {
        return Err(Failure::bad_input(format!("{k}: must be a finite number")));
    }
    serde_json::from_value(json).map_err(|e| Failure::failed(format!("{ty}: {e}")))
}

/// `skipper action send --ros2`: the exit status as for ROS 1 (0 SUCCEEDED, 1
/// otherwise, 2 bad fields, 130 interrupted).
pub fn send(args: &SendArgs, host: Option<IpAddr>) -> Result<u8, Failure> {
    // a relative name is resolved in the client node's namespace, `/`, as ros2's CLI does
    let server = format!(
        "/{}",
        args.server.trim_start_matches('/').trim_end_matches('/')
    );
    skipper_ros2::names::check_name(&server).map_err(Failure::bad_input)?;
    let domain = std::env::var("ROS_DOMAIN_ID").ok();
    let ros_args = RosArgs::parse::<&str>(&[], domain.as_deref()).map_err(failure)?;
    let discovery = Discovery::from_host(host).map_err(failure)?;
    let mut node = Ros2Node::start(NodeConfig {
        name: format!("skipper_action_{}", std::process::id()),
        namespace: "/".into(),
        args: ros_args,
        discovery: discovery.clone(),
        parameters: Vec::new(),
        on_set: None,
    })
    .map_err(failure)?;
    if let Some(w) = discovery.warning(&node.fully_qualified_name()) {
        eprintln!("{w}");
    }
    let (pkg, action) = client::action_type(&node, &server, args.wait)
        .map_err(|e| Failure::failed(e.to_string()))?;
    let ty = format!("{pkg}/{action}");
    let f = &args.fields;
    match ty.as_str() {
        "skipper_msgs/Goto" => go::<Goto>(&mut node, &server, ros2_goal(&ty, f)?, args),
        "skipper_msgs/RunOption" => go::<RunOption>(&mut node, &server, ros2_goal(&ty, f)?, args),
        "skipper_msgs/RunMission" => go::<RunMission>(&mut node, &server, ros2_goal(&ty, f)?, args),
        other => Err(Failure::failed(format!(
            "{server} serves {other}, which this client does not know over ROS 2 (it knows skipper_msgs/Goto, RunOption, RunMission)"
        ))),
    }
}

fn go<A: ActionType>(
    node: &mut Ros2Node,
    server: &str,
    goal: A::Goal,
    args: &SendArgs,
) -> Result<u8, Failure> {
    let stop = Arc::new(AtomicBool::new(false));
    let s2 = stop.clone();
    crate::shutdown::on_stop(move || s2.store(true, Ordering::SeqCst));
    say_block("goal", &to_yaml(&goal));
    let mut interrupted = false;
    let ending = client::send::<A>(
        node,
        server,
        goal,
        args.wait,
        args.timeout,
        &stop,
        |e| match e {
            Event::Accepted => crate::outln!("active"),
            Event::Feedback(f) => say_block("feedback", &to_yaml(&f)),
            Event::Canceling(timed_out) => {
                interrupted = !timed_out;
                eprintln!(
                    "{}: cancelling the goal",
                    if timed_out { "timeout" } else { "interrupted" }
                );
            }
        },
    )
    .map_err(|e| Failure::failed(e.to_string()))?;
    let code = match ending {
        Ending::Rejected => {
            crate::outln!("REJECTED");
            exit::FAILED
        }
        Ending::Unconfirmed => {
            eprintln!("error: the server did not confirm the cancel within 5 s");
            exit::FAILED
        }
        Ending::Done(status, result) => {
            crate::outln!("{}", status_name(status));
            say_block("result", &to_yaml(&result));
            if status == GoalStatusEnum::Succeeded {
                0
            } else {
                exit::FAILED
            }
        }
    };
    Ok(if interrupted { exit::INTERRUPTED } else { code })
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_ros2::msg::skipper::{GotoGoal, RunOptionGoal};

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn goals_take_the_same_arguments_as_under_ros1() {
        let g: GotoGoal = ros2_goal(
            "skipper_msgs/Goto",
            &args(&["{x: 1, y: -0.5}", "tolerance=0.2"]),
        )
        .unwrap();
        assert_eq!((g.x, g.y, g.tolerance), (1.0, -0.5, 0.2));
        let o: RunOptionGoal = ros2_goal(
            "skipper_msgs/RunOption",
            &args(&["option=turn_to", r#"parameters={"yaw": 1.0}"#]),
        )
        .unwrap();
        assert_eq!(o.parameters, r#"{"yaw": 1.0}"#);
    }

    #[test]
    fn bad_goal_arguments_say_what_the_goal_has() {
        for (a, want) in [
            ("z=1", "no field `z`"),
            ("x=abc", "expected a number"),
            ("x=.nan", "x: must be a finite number"),
            ("[1, 2]", "float64 x, float64 y, float64 tolerance"),
        ] {
            let e = ros2_goal::<GotoGoal>("skipper_msgs/Goto", &args(&[a])).unwrap_err();
            assert_eq!(e.code, exit::BAD_INPUT, "{a}");
            assert!(e.message.contains(want), "{a}: {}", e.message);
        }
    }
}
