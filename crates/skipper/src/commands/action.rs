//! `skipper action send SERVER FIELD=VALUE...`: an actionlib client on the command line.
//! It joins the ROS 1 master, finds the server's action type from the type of its
//! `<server>/goal` topic, sends the goal, prints feedback as it arrives and the result at
//! the end. Ctrl-C (or `--timeout`) cancels the goal.

use crate::exit::{self, Failure};
use clap::{Args, Subcommand};
use skipper_actionlib::msg::skipper_msgs::{
    Goto, GotoGoal, RunMission, RunMissionGoal, RunOption, RunOptionGoal,
};
use skipper_actionlib::msg::test_actions::{Test, TestGoal, TwoInts, TwoIntsGoal};
use skipper_actionlib::ros1::{ActionClientBinding, Node};
use skipper_actionlib::{Action, ActionClient, SimpleActionClient, StatusCode, SystemClock};
use skipper_core::time::parse_duration;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `skipper action ...`
#[derive(Debug, Args)]
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
  skipper action send /robot1/goto x=2 y=1                 drive robot1 of `skipper run --ros` to (2, 1)
  skipper action send /robot1/goto x=2 y=1 tolerance=0.3 --timeout 60s
  skipper action send /fibonacci_like goal=5 --master http://127.0.0.1:11311
  skipper action send /robot1/run_option option=turn_and_release parameters='{\"angle\": 90}'
  skipper action send /tethys/run_mission mission=examples/missions/circle_profile.lua
  skipper action send /tethys/goto x=-200 y=100            fly the AUV of a mission run there (within 10 m)

Action types: skipper_msgs/Goto (x, y, tolerance), skipper_msgs/RunOption (option,
parameters), skipper_msgs/RunMission (mission), actionlib/Test (goal), actionlib/TwoInts
(a, b). The type is read from the master (the type of SERVER/goal).

Exit status: 0 when the goal SUCCEEDED, 1 when it ended otherwise (ABORTED, PREEMPTED,
REJECTED, RECALLED, LOST), timed out or no server answered, 2 for bad input, 130 when
interrupted by Ctrl-C (the goal is cancelled first).")]
    Send(SendArgs),
}

/// Options of `skipper action send`.
#[derive(Debug, Args)]
pub struct SendArgs {
    /// The action server's name (its topic namespace), e.g. /robot1/goto.
    pub server: String,
    /// The goal's fields as FIELD=VALUE.
    #[arg(value_name = "FIELD=VALUE")]
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
}

/// A goal built from FIELD=VALUE arguments.
trait FromFields: Sized + Default {
    const FIELDS: &'static [&'static str];
    fn set(&mut self, field: &str, value: &str) -> Result<(), String>;
}

fn num<T: std::str::FromStr>(field: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{field}={v}: `{v}` is not a number of the right kind"))
}

impl FromFields for GotoGoal {
    const FIELDS: &'static [&'static str] = &["x", "y", "tolerance"];
    fn set(&mut self, f: &str, v: &str) -> Result<(), String> {
        let x: f64 = num(f, v)?;
        if !x.is_finite() {
            return Err(format!("{f}={v}: must be a finite number"));
        }
        match f {
            "x" => self.x = x,
            "y" => self.y = x,
            _ => self.tolerance = x,
        }
        Ok(())
    }
}
impl FromFields for RunOptionGoal {
    const FIELDS: &'static [&'static str] = &["option", "parameters"];
    fn set(&mut self, f: &str, v: &str) -> Result<(), String> {
        match f {
            "option" => self.option = v.into(),
            _ => self.parameters = v.into(),
        }
        Ok(())
    }
}
impl FromFields for RunMissionGoal {
    const FIELDS: &'static [&'static str] = &["mission"];
    fn set(&mut self, _f: &str, v: &str) -> Result<(), String> {
        self.mission = v.into();
        Ok(())
    }
}
impl FromFields for TestGoal {
    const FIELDS: &'static [&'static str] = &["goal"];
    fn set(&mut self, f: &str, v: &str) -> Result<(), String> {
        self.goal = num(f, v)?;
        Ok(())
    }
}
impl FromFields for TwoIntsGoal {
    const FIELDS: &'static [&'static str] = &["a", "b"];
    fn set(&mut self, f: &str, v: &str) -> Result<(), String> {
        let x = num(f, v)?;
        match f {
            "a" => self.a = x,
            _ => self.b = x,
        }
        Ok(())
    }
}

fn build<G: FromFields>(ty: &str, fields: &[String]) -> Result<G, Failure> {
    let mut g = G::default();
    for f in fields {
        let Some((k, v)) = f.split_once('=') else {
            return Err(Failure::bad_input(format!(
                "`{f}` is not FIELD=VALUE (the fields of {ty} are {})",
                G::FIELDS.join(", ")
            )));
        };
        if !G::FIELDS.contains(&k) {
            return Err(Failure::bad_input(format!(
                "{ty} has no field `{k}` (its fields are {})",
                G::FIELDS.join(", ")
            )));
        }
        g.set(k, v).map_err(Failure::bad_input)?;
    }
    Ok(g)
}

/// Run it; returns the exit status.
pub fn run(args: ActionArgs) -> Result<u8, Failure> {
    match args.command {
        ActionCommand::Send(a) => send(a),
    }
}

fn send(args: SendArgs) -> Result<u8, Failure> {
    let server = args.server.trim_end_matches('/').to_string();
    skipper_actionlib::ros1::node::check_name(&server)
        .map_err(|e| Failure::bad_input(e.to_string()))?;
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
    let ty = ty.strip_suffix("ActionGoal").unwrap_or(&ty).to_string();
    match ty.as_str() {
        "skipper_msgs/Goto" => go::<Goto>(&node, &server, build(&ty, &args.fields)?, &args),
        "skipper_msgs/RunOption" => go::<RunOption>(&node, &server, build(&ty, &args.fields)?, &args),
        "skipper_msgs/RunMission" => go::<RunMission>(&node, &server, build(&ty, &args.fields)?, &args),
        "actionlib/Test" => go::<Test>(&node, &server, build(&ty, &args.fields)?, &args),
        "actionlib/TwoInts" => go::<TwoInts>(&node, &server, build(&ty, &args.fields)?, &args),
        other => Err(Failure::failed(format!(
            "{server} serves {other}, which this client does not know (it knows skipper_msgs/Goto, RunOption, RunMission, actionlib/Test, TwoInts)"
        ))),
    }
}

/// Print a line; a closed stdout (`| head`) is not an error worth a panic.
fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_fmt(line);
    let _ = out.write_all(b"\n");
}

fn go<A: Action + Default>(
    node: &Node,
    server: &str,
    goal: A::Goal,
    args: &SendArgs,
) -> Result<u8, Failure> {
    let client = ActionClient::<A>::new(node.name(), Arc::new(SystemClock));
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
    say(format_args!("goal: {goal:?}"));
    c.send_goal(
        goal,
        None,
        Some(Box::new(|| say(format_args!("active")))),
        Some(Box::new(|f: &A::Feedback| {
            say(format_args!("feedback: {f:?}"))
        })),
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
    say(format_args!(
        "{state}{}",
        if text.is_empty() {
            String::new()
        } else {
            format!(": {text}")
        }
    ));
    if let Some(r) = c.result() {
        say(format_args!("result: {r:?}"));
    }
    Ok(match (state, cancelled) {
        (_, Some((_, false))) => exit::INTERRUPTED,
        (StatusCode::Succeeded, _) => 0,
        _ => exit::FAILED,
    })
}
