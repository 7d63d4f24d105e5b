//! A node that serves one `skipper_msgs/Goto` action, `/bench/goto`, whose goals
//! succeed at once after one feedback: the Skipper side of `scripts/ros2/bench.sh`
//! (the same work as `scripts/ros2/py_bench_server.py`'s rclpy ActionServer). Runs until
//! stdin closes.

use skipper_ros2::action::{GoalServer, GoalTarget, Goto, Progress};
use skipper_ros2::args::RosArgs;
use skipper_ros2::cdr::Dropped;
use skipper_ros2::io::{IoLoop, ServerHandler};
use skipper_ros2::msg::skipper::{GotoFeedback, GotoGoal, GotoResult};
use skipper_ros2::node::{Discovery, NodeConfig, Ros2Node};
use std::sync::Arc;

/// One feedback, then success with the goal as the result.
#[derive(Default)]
struct Immediate {
    next: u64,
    goal: GotoGoal,
    fed: bool,
}

impl GoalTarget<Goto> for Immediate {
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut node = Ros2Node::start(NodeConfig {
        name: "bench_server".into(),
        namespace: "/".into(),
        args: RosArgs::from_env()?,
        discovery: Discovery::Localhost,
        parameters: Vec::new(),
        on_set: None,
    })?;
    let server = node.action_server::<Goto>("/bench/goto")?;
    let dropped = Arc::new(Dropped::default());
    let handler = ServerHandler::new(
        GoalServer::new(server, Box::new(Immediate::default()))
            .answer_after_discovery(node.peers()),
        dropped,
        Some(node.logger()),
    );
    let io = IoLoop::start(vec![Box::new(handler)])?;
    println!("skipper bench server ready");
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line)? > 0 {
        line.clear();
    }
    io.stop();
    Ok(())
}
