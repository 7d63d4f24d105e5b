//! `skipper action send SERVER FIELD=VALUE...`: an actionlib client on the command line
//! for any action type. It joins the ROS 1 master, finds the server's action type from
//! the type of its `<server>/goal` topic, loads its definition (compiled in, or from the
//! package path: `ROS_PACKAGE_PATH`, Debian's `/usr/share/<package>`), builds the goal
//! from `path=value` pairs and YAML mappings, sends it, prints feedback as it arrives and
//! the result at the end as YAML (the layout of `rostopic echo`). Ctrl-C (or `--timeout`)
//! cancels the goal.

use crate::exit::{self, Failure};
use clap::{Args, Subcommand};
use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::{
    ActionClient, DynAction, DynMessage, SimpleActionClient, StatusCode, SystemClock,
};
use skipper_core::time::parse_duration;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::msg::schema::MsgSchema;
use skipper_ros1_wire::msg::yaml::to_yaml;
use skipper_ros1_wire::Node;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[cfg(feature = "ros2")]
mod ros2;
#[cfg(not(feature = "ros2"))]
#[path = "action/ros2_off.rs"]
mod ros2;

/// `skipper action ...`
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # drive robot1 of `skipper run --ros` (or `--ros2`) to (2, 1)
  skipper action send /robot1/goto x=2 y=1
  skipper action send --ros2 /robot1/goto x=2 y=1")]
pub struct ActionArgs {
    #[command(subcommand)]
    pub command: ActionCommand,
}

/// What to do.
#[derive(Debug, Subcommand)]
pub enum ActionCommand {
    /// Send a goal to an action server and wait for its result, printing feedback as it
    /// arrives.
    #[command(after_help = "Examples:
  # drive robot1 of `skipper run --ros` to (2, 1); with a tolerance, a timeout
  skipper action send /robot1/goto x=2 y=1
  skipper action send /robot1/goto x=2 y=1 tolerance=0.3 --timeout 60s
  # the same goal to robot1 of `skipper run --ros2`
  skipper action send --ros2 /robot1/goto x=2 y=1
  # a server of someone else's, on a given master
  skipper action send /fibonacci order=5 --master http://127.0.0.1:11311
  # a nested goal as YAML, or field by field
  skipper action send /robot1/move_base '{target_pose: {
      header: {frame_id: robot1/odom},
      pose: {position: {x: 1}, orientation: {w: 1}}}}'
  skipper action send /robot1/move_base target_pose.pose.position.x=1 \\
      target_pose.pose.orientation.w=1
  # an XABSL option with parameters; a mission on the AUV
  skipper action send /robot1/run_option option=turn_and_release \\
      parameters='{\"angle\": 90}'
  skipper action send /tethys/run_mission \\
      mission=examples/missions/circle_profile.lua

Any action type: it is read from the master (the type of SERVER/goal) and its
definition is found compiled in (skipper_msgs/*, actionlib/Test, ...) or on the
package path (ROS_PACKAGE_PATH, then /opt/ros/*/share and /usr/share/<package>,
where Debian's ros-*-msgs packages put theirs). A FIELD may be a path into
nested messages (a.b.c); a string field takes the text as it is, any other field
a YAML value (`[1, 2]`, `{x: 1}`). An argument that is not FIELD=VALUE is a YAML
mapping of fields, as `rostopic pub` takes. Feedback and result are printed as
`rostopic echo` prints messages.

Exit status: 0 when the goal SUCCEEDED, 1 when it ended otherwise (ABORTED,
PREEMPTED, REJECTED, RECALLED, LOST), timed out or no server answered, 2 for bad
input, 130 when interrupted by Ctrl-C (the goal is cancelled first).")]
    Send(SendArgs),
}

/// Options of `skipper action send`.
#[derive(Debug, Args)]
pub struct SendArgs {
    /// The action server's name (its topic namespace), e.g. /robot1/goto.
    pub server: String,
    /// The goal's fields: FIELD=VALUE (FIELD may be a.b.c) or a YAML mapping.
    #[arg(value_name = "FIELD=VALUE|YAML")]
    pub fields: Vec<String>,
    /// The ROS master (default: ROS_MASTER_URI, else http://127.0.0.1:11311).
    #[arg(long, value_name = "URI")]
    pub master: Option<String>,
    /// Cancel the goal if it has not ended after this long (e.g. 30s, 5m).
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    pub timeout: Option<Duration>,
    /// How long to wait for the server to appear and answer.
    #[arg(long, value_parser = parse_duration, value_name = "DURATION", default_value = "10s")]
    pub wait: Duration,
    /// Listen on this address instead of 127.0.0.1 (for a master and server on another
    /// machine; prints a warning; for 0.0.0.0 set ROS_IP or ROS_HOSTNAME).
    #[arg(long, value_name = "ADDR")]
    pub ros_host: Option<std::net::IpAddr>,
    /// A ROS 2 action server instead (domain ROS_DOMAIN_ID, peers on this machine):
    /// `skipper action send --ros2 /robot1/goto x=1 y=0.5`.
    #[arg(long, conflicts_with_all = ["master", "ros_host"])]
    pub ros2: bool,
    /// With --ros2: discover peers on the network of this local address too.
    #[arg(long, requires = "ros2", value_name = "ADDR")]
    pub ros2_host: Option<std::net::IpAddr>,
}

/// Run it; returns the exit status.
pub fn run(args: ActionArgs) -> Result<u8, Failure> {
    match args.command {
        ActionCommand::Send(a) => send(a),
    }
}

fn send(args: SendArgs) -> Result<u8, Failure> {
    if args.ros2 {
        return ros2::send(&args, args.ros2_host);
    }
    let server = args.server.trim_end_matches('/').to_string();
    skipper_ros1_wire::node::check_name(&server).map_err(|e| Failure::bad_input(e.to_string()))?;
    let mut config = skipper_ros1::node_config(
        &format!("/skipper_action_{}", std::process::id()),
        args.ros_host,
    )
    .map_err(|e| Failure::bad_input(e.to_string()))?;
    if let Some(m) = &args.master {
        config.master_uri = m.clone();
    }
    let node = Node::new(config).map_err(|e| Failure::failed(e.to_string()))?;
    let goal_topic = format!("{server}/goal");
    // the server may still be starting: look for its goal topic for up to --wait
    let start = Instant::now();
    let ty = loop {
        let types = node
            .topic_types()
            .map_err(|e| Failure::failed(e.to_string()))?;
        if let Some((_, ty)) = types.into_iter().find(|(t, _)| *t == goal_topic) {
            break ty;
        }
        if start.elapsed() >= args.wait {
            return Err(Failure::failed(format!(
                "no action server at {server}: the master knows no topic {goal_topic}"
            )));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let Some(name) = ty.strip_suffix("ActionGoal") else {
        return Err(Failure::bad_input(format!(
            "{goal_topic} carries {ty}, not an action goal (package/NameActionGoal)"
        )));
    };
    let action = TypeLoader::global()
        .action(name)
        .map(DynAction)
        .map_err(|e| Failure::bad_input(format!("{server} serves {name}: {e}")))?;
    let goal = goal_from_args(name, action.schema().goal(), &args.fields)?;
    go(&node, &server, action, goal, &args)
}

/// The goal of action `name` (whose goal message is `goal`) from the command line's
/// arguments: FIELD=VALUE and YAML mappings; bad input names the goal's fields. Both
/// transports read goals with it.
fn goal_from_args(
    name: &str,
    goal: &Arc<MsgSchema>,
    fields: &[String],
) -> Result<DynMessage, Failure> {
    skipper_ros1_wire::msg::yaml::goal_from_args(name, goal, fields).map_err(Failure::bad_input)
}

/// A message as YAML under `key:`, indented by two spaces.
fn say_message(key: &str, m: &DynMessage) {
    say_block(key, &to_yaml(m));
}

/// `key:` and under it `body` (a message as YAML) indented by two spaces.
pub(crate) fn say_block(key: &str, body: &str) {
    let mut text = format!("{key}:");
    for line in body.lines() {
        text.push_str("\n  ");
        text.push_str(line);
    }
    if body.is_empty() {
        text.push_str(" {}");
    }
    crate::outln!("{text}");
}

fn go(
    node: &Node,
    server: &str,
    action: DynAction,
    goal: DynMessage,
    args: &SendArgs,
) -> Result<u8, Failure> {
    let client = ActionClient::with_type(action, node.name(), Arc::new(SystemClock));
    let _binding = ActionClientBinding::new(node, server, &client)
        .map_err(|e| Failure::failed(e.to_string()))?;
    let c = SimpleActionClient::new(client);
    if !c.wait_for_server(Some(args.wait)) {
        return Err(Failure::failed(format!(
            "the action server {server} did not answer within {:?}",
            args.wait
        )));
    }
    let interrupted = Arc::new(AtomicBool::new(false));
    let i2 = interrupted.clone();
    crate::shutdown::on_stop(move || i2.store(true, Ordering::SeqCst));
    say_message("goal", &goal);
    c.send_goal(
        goal,
        None,
        Some(Box::new(|| crate::outln!("active"))),
        Some(Box::new(|f: &DynMessage| say_message("feedback", f))),
    );
    let start = Instant::now();
    let mut cancelled = None;
    while !c.wait_for_result(Some(Duration::from_millis(100))) {
        let timed_out = args.timeout.is_some_and(|t| start.elapsed() >= t);
        if cancelled.is_none() && (timed_out || interrupted.load(Ordering::SeqCst)) {
            eprintln!(
                "{}: cancelling the goal",
                if timed_out { "timeout" } else { "interrupted" }
            );
            c.cancel_goal();
            cancelled = Some((Instant::now(), timed_out));
        }
        if let Some((at, _)) = cancelled {
            if at.elapsed() > Duration::from_secs(5) {
                eprintln!("error: the server did not confirm the cancel within 5 s");
                break;
            }
        }
    }
    let state = c.state();
    let text = c.goal_status_text();
    crate::outln!(
        "{state}{}",
        if text.is_empty() {
            String::new()
        } else {
            format!(": {text}")
        }
    );
    if let Some(r) = c.result() {
        say_message("result", &r);
    }
    Ok(match (state, cancelled) {
        (_, Some((_, false))) => exit::INTERRUPTED,
        (StatusCode::Succeeded, _) => 0,
        _ => exit::FAILED,
    })
}
