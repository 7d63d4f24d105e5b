//! `skipper action send --ros2` as a library: join the graph with a node of its own,
//! find the type the server serves, read the goal from command-line arguments (as under
//! ROS 1: `x=2`, a YAML value after `=`, or a YAML mapping `'{x: 2, y: 1}'`, through the
//! ROS 1 definition of the action, which has the ROS 2 one's fields), send it and report
//! goal, feedback and result as `ros2 action send_goal` prints them (YAML).

use crate::action::{status_name, ActionType, GoalStatusEnum, Goto, RunMission, RunOption};
use crate::args::RosArgs;
use crate::client::{self, Ending, Event};
use crate::node::{Discovery, NodeConfig, Ros2Node};
use crate::yaml::to_yaml;
use crate::Ros2Error;
use skipper_ros1_wire::msg::json::to_json;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::msg::yaml::goal_from_args;
use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One goal to send.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// the action server's name (relative names are resolved in `/`, as ros2's CLI does)
    pub server: &'a str,
    /// the goal's fields: `FIELD=VALUE` and YAML mappings, applied in order
    pub fields: &'a [String],
    /// how long to wait for the server to appear
    pub wait: Duration,
    /// cancel the goal after this long
    pub timeout: Option<Duration>,
    /// discover peers on the network of this local address too (default: this machine)
    pub host: Option<IpAddr>,
}

/// What happens, as it happens, with messages already as YAML.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// Something the user should know (the node discovers beyond this machine).
    Warning(String),
    /// The goal about to be sent.
    Goal(String),
    /// The server accepted it.
    Active,
    /// Feedback.
    Feedback(String),
    /// A cancel was sent: because of the timeout (`true`) or of `stop` (`false`).
    Canceling(bool),
}

/// How the goal ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The server did not accept it.
    Rejected,
    /// It was cancelled here and the server confirmed no end in time.
    Unconfirmed,
    /// It ended with this status (`SUCCEEDED`, `ABORTED`, `CANCELED`) and result (YAML).
    Done {
        /// the status's name
        status: &'static str,
        /// whether it succeeded
        succeeded: bool,
        /// the result as YAML
        result: String,
    },
}

/// Send the goal `req` describes and follow it to its end; `stop` (Ctrl-C) cancels it.
/// Bad names and goal fields are [`Ros2Error::Config`].
pub fn send(
    req: &Request<'_>,
    stop: &AtomicBool,
    mut report: impl FnMut(Report),
) -> Result<Outcome, Ros2Error> {
    let server = format!(
        "/{}",
        req.server.trim_start_matches('/').trim_end_matches('/')
    );
    crate::names::check_name(&server).map_err(Ros2Error::Config)?;
    let domain = std::env::var("ROS_DOMAIN_ID").ok();
    let ros_args = RosArgs::parse::<&str>(&[], domain.as_deref())?;
    let discovery = Discovery::from_host(req.host)?;
    let mut node = Ros2Node::start(NodeConfig {
        name: format!("skipper_action_{}", std::process::id()),
        namespace: "/".into(),
        args: ros_args,
        discovery: discovery.clone(),
        parameters: Vec::new(),
        on_set: None,
    })?;
    if let Some(w) = discovery.warning(&node.fully_qualified_name()) {
        report(Report::Warning(w));
    }
    let (pkg, action) = client::action_type(&node, &server, req.wait).map_err(failed)?;
    let ty = format!("{pkg}/{action}");
    let s = Sent {
        server: &server,
        req,
        stop,
    };
    match ty.as_str() {
        "skipper_msgs/Goto" => s.go(&mut node, Goto, goal(&ty, req.fields)?, report),
        "skipper_msgs/RunOption" => s.go(&mut node, RunOption, goal(&ty, req.fields)?, report),
        "skipper_msgs/RunMission" => {
            s.go(&mut node, RunMission, goal(&ty, req.fields)?, report)
        }
        other => Err(Ros2Error::Failed(format!(
            "{server} serves {other}, which this client does not know over ROS 2 (it knows skipper_msgs/Goto, RunOption, RunMission)"
        ))),
    }
}

/// Any error of following a goal is a failure of the goal, not of the user's input.
fn failed(e: Ros2Error) -> Ros2Error {
    Ros2Error::Failed(e.to_string())
}

/// A goal of type `ty` (`skipper_msgs/Goto`) from the arguments, through the ROS 1
/// definition of the action. A number that is not finite is refused, as the server would
/// reject the goal.
fn goal<G: serde::de::DeserializeOwned>(ty: &str, fields: &[String]) -> Result<G, Ros2Error> {
    let action = TypeLoader::global()
        .action(ty)
        .map_err(|e| Ros2Error::Failed(format!("{ty}: {e}")))?;
    let goal = goal_from_args(ty, action.goal(), fields).map_err(Ros2Error::Config)?;
    let json = to_json(&goal);
    if let Some((k, _)) = json
        .as_object()
        .and_then(|o| o.iter().find(|(_, v)| v.is_null()))
    {
        return Err(Ros2Error::Config(format!("{k}: must be a finite number")));
    }
    serde_json::from_value(json).map_err(|e| Ros2Error::Failed(format!("{ty}: {e}")))
}

/// The goal's server, its request and the stop flag.
struct Sent<'a> {
    server: &'a str,
    req: &'a Request<'a>,
    stop: &'a AtomicBool,
}

impl Sent<'_> {
    fn go<A: ActionType>(
        &self,
        node: &mut Ros2Node,
        ty: A,
        goal: A::Goal,
        mut report: impl FnMut(Report),
    ) -> Result<Outcome, Ros2Error> {
        report(Report::Goal(to_yaml(&goal)));
        let ending = client::send(
            node,
            &ty,
            self.server,
            goal,
            self.req.wait,
            self.req.timeout,
            self.stop,
            |e| match e {
                Event::Accepted => report(Report::Active),
                Event::Feedback(f) => report(Report::Feedback(to_yaml(&f))),
                Event::Canceling(timed_out) => report(Report::Canceling(timed_out)),
            },
        )
        .map_err(failed)?;
        Ok(match ending {
            Ending::Rejected => Outcome::Rejected,
            Ending::Unconfirmed => Outcome::Unconfirmed,
            Ending::Done(status, result) => Outcome::Done {
                status: status_name(status),
                succeeded: status == GoalStatusEnum::Succeeded,
                result: to_yaml(&result),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn goals_take_the_same_arguments_as_under_ros1() {
        use crate::msg::skipper::{GotoGoal, RunOptionGoal};
        let g: GotoGoal = goal(
            "skipper_msgs/Goto",
            &args(&["{x: 1, y: -0.5}", "tolerance=0.2"]),
        )
        .unwrap();
        assert_eq!((g.x, g.y, g.tolerance), (1.0, -0.5, 0.2));
        let o: RunOptionGoal = goal(
            "skipper_msgs/RunOption",
            &args(&["option=turn_to", r#"parameters={"yaw": 1.0}"#]),
        )
        .unwrap();
        assert_eq!(o.parameters, r#"{"yaw": 1.0}"#);
    }

    #[test]
    fn bad_goal_arguments_say_what_the_goal_has() {
        use crate::msg::skipper::GotoGoal;
        for (a, want) in [
            ("z=1", "no field `z`"),
            ("x=abc", "expected a number"),
            ("x=.nan", "x: must be a finite number"),
            ("[1, 2]", "float64 x, float64 y, float64 tolerance"),
        ] {
            match goal::<GotoGoal>("skipper_msgs/Goto", &args(&[a])) {
                Err(Ros2Error::Config(m)) => assert!(m.contains(want), "{a}: {m}"),
                other => panic!("{a}: {other:?}"),
            }
        }
    }
}
