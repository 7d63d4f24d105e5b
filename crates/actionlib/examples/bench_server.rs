//! The server side of the ROS 1 round-trip benchmark (scripts/ros/bench.sh): one
//! SimpleActionServer for actionlib/Test with a goal callback that accepts each goal,
//! publishes one feedback and succeeds at once — the same server as
//! scripts/ros/py_bench_server.py in rospy, so the two processes host the same work and
//! their CPU per goal compares like with like.
//!
//! Usage: `bench_server [NAMESPACE [NODE_NAME]]` (defaults `/bench_simple` and
//! `/skipper_bench`; ROS_MASTER_URI as usual); runs until Ctrl-C (SIGINT) or until the
//! master asks the node to shut down.

use skipper_actionlib::ros1::action::server_config_from_params;
use skipper_actionlib::ros1::ActionServerBinding;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::test_actions::*;
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let ns = args.next().unwrap_or_else(|| "/bench_simple".into());
    let name = args.next().unwrap_or_else(|| "/skipper_bench".into());
    let node = Node::new(NodeConfig::from_env(&name))?;
    let a = ActionServer::<Test>::new(server_config_from_params(&node, &ns), Arc::new(SystemClock));
    let _binding = ActionServerBinding::new(&node, &ns, &a)?;
    let server = SimpleActionServer::new(a);
    let s = server.clone();
    server.register_goal_callback(move || {
        if let Ok(g) = s.accept_new_goal() {
            let _ = s.publish_feedback(TestFeedback { feedback: g.goal });
            let _ = s.set_succeeded(Some(TestResult { result: g.goal }), "");
        }
    });
    server.start();

    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))?;
    println!("bench server ready: {ns} on {}", node.uri());
    // until Ctrl-C or the master's shutdown request (checked once a second: the check
    // is this process's only wake-up besides the server's status timer)
    while !(node.shutdown_requested() || interrupted.load(Ordering::SeqCst)) {
        std::thread::sleep(Duration::from_secs(1));
    }
    node.shutdown();
    Ok(())
}
