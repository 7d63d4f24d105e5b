//! A node that serves one goto action, `/bench/goto`, whose goals succeed at once after
//! one feedback: the Skipper side of `scripts/ros2/bench.sh` (the same work as
//! `scripts/ros2/py_bench_server.py`'s rclpy ActionServer). Runs until stdin closes.
//!
//! By default the action is the compiled `skipper_msgs/Goto`; with `--run-time` it is
//! the goto goal kind's action made at run time from the kind's fields (the same type on
//! the wire, so the same rclpy client drives both).

use skipper_core::goals::Record;
use skipper_goals::GOTO;
use skipper_ros2::action::{ActionType, GoalServer, GoalTarget, Goto, Progress};
use skipper_ros2::args::RosArgs;
use skipper_ros2::cdr::Dropped;
use skipper_ros2::dynamic::{DynMsg, GoalPart, KindAction};
use skipper_ros2::io::{IoLoop, ServerHandler};
use skipper_ros2::msg::skipper::{GotoFeedback, GotoGoal, GotoResult};
use skipper_ros2::node::{Discovery, NodeConfig, Ros2Node};
use std::sync::Arc;

/// One feedback, then success with the goal as the result.
#[derive(Default)]
struct Immediate<G> {
    next: u64,
    goal: G,
    fed: bool,
}

impl GoalTarget<Goto> for Immediate<GotoGoal> {
    fn start(&mut self, goal: &GotoGoal) -> Result<u64, String> {
        self.next += 1;
        self.goal = goal.clone();
        self.fed = false;
        Ok(self.next)
    }
    fn poll(&mut self, _id: u64) -> Progress<Goto> {
        if !self.fed {
            self.fed = true;
            return Progress::Active(Some(GotoFeedback {
                distance: self.goal.x.hypot(self.goal.y),
            }));
        }
        Progress::Succeeded(GotoResult {
            x: self.goal.x,
            y: self.goal.y,
            yaw: 0.0,
        })
    }
    fn cancel(&mut self, _id: u64) {}
}

impl GoalTarget<KindAction> for Immediate<Option<DynMsg<GoalPart>>> {
    fn start(&mut self, goal: &DynMsg<GoalPart>) -> Result<u64, String> {
        self.next += 1;
        self.goal = Some(goal.clone());
        self.fed = false;
        Ok(self.next)
    }
    fn poll(&mut self, _id: u64) -> Progress<KindAction> {
        let g = self.goal.as_ref().map(|g| g.record());
        let (x, y) = g.map_or((0.0, 0.0), |g| (g.float("x"), g.float("y")));
        if !self.fed {
            self.fed = true;
            let f = Record::defaults(GOTO.feedback).with("distance", x.hypot(y));
            return Progress::Active(Some(DynMsg::new(f)));
        }
        let r = Record::defaults(GOTO.result)
            .with("x", x)
            .with("y", y)
            .with("yaw", 0.0);
        Progress::Succeeded(DynMsg::new(r))
    }
    fn cancel(&mut self, _id: u64) {}
}

fn serve<A: ActionType>(
    node: &mut Ros2Node,
    ty: A,
    target: impl GoalTarget<A> + 'static,
) -> Result<IoLoop, Box<dyn std::error::Error>> {
    let server = node.action_server("/bench/goto", &ty)?;
    let handler = ServerHandler::new(
        GoalServer::new(ty, server, Box::new(target)).answer_after_discovery(node.peers()),
        Arc::new(Dropped::default()),
        Some(node.logger()),
    );
    Ok(IoLoop::start(vec![Box::new(handler)])?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let run_time = std::env::args().any(|a| a == "--run-time");
    let mut node = Ros2Node::start(NodeConfig {
        name: "bench_server".into(),
        namespace: "/".into(),
        args: RosArgs::from_env()?,
        discovery: Discovery::Localhost,
        parameters: Vec::new(),
        on_set: None,
    })?;
    let io = if run_time {
        let ty = KindAction::of(&GOTO)?;
        serve(
            &mut node,
            ty,
            Immediate::<Option<DynMsg<GoalPart>>>::default(),
        )?
    } else {
        serve(&mut node, Goto, Immediate::<GotoGoal>::default())?
    };
    println!(
        "skipper bench server ready ({})",
        if run_time {
            "run-time type"
        } else {
            "compiled type"
        }
    );
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line)? > 0 {
        line.clear();
    }
    io.stop();
    Ok(())
}
