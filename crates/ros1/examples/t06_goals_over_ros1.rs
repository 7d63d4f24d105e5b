//! Tutorial 6: the same controller's goals over ROS 1, with no ROS code of its own.
//!
//! skipper-ros1 hosts an actionlib server for every goal kind a robot's controller
//! declares, with the action type made from the kind's fields at run time (`advance` is
//! `tutorial_msgs/Advance`: goal `float64 distance`, result `float64 travelled`, feedback
//! `float64 left`). Any actionlib client can then send goals: here Skipper's own
//! SimpleActionClient, of the same runtime type, on a second node. A real deployment
//! has `roscore`; the tutorial starts a minimal master of its own so that it runs
//! anywhere (`skipper run --ros` does the same wiring against a real master).
//!
//! Run it: `cargo run -p skipper-ros1 --example t06_goals_over_ros1`

#[path = "../../goals/examples/shared/advancer.rs"]
mod advancer;

use advancer::{Advancer, ADVANCE};
use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::{ActionClient, SimpleActionClient, StatusCode, SystemClock};
use skipper_core::{RunConfig, Runner};
use skipper_goals::BindOptions;
use skipper_ros1::RosLink;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::Arc;
use std::time::Duration;

/// Send an `advance` goal over ROS 1; its final state and result.
pub fn run() -> (StatusCode, f64) {
    let master = FakeMaster::start().expect("a master on loopback");
    let world = advancer::world();
    let bound = skipper_goals::bind(
        &world,
        0,
        Some(Box::new(Advancer::default())),
        BindOptions::default(),
    );
    // the run's node serves the robot's goal kinds under /r1
    let link = RosLink::connect(&master.uri, None).expect("the run's node");
    let robot = bound.endpoint(&world, 0);
    let topics = link.serve(&world, vec![robot]).expect("the robot on ROS");
    // ROS lives in wall-clock time: pace the run by it, ten times faster
    let config = RunConfig {
        until: Some(Duration::from_secs(60)),
        realtime: true,
        speed: 10.0,
        ..Default::default()
    };
    let mut runner = Runner::new(Box::new(world), config);
    runner.set_controller(0, bound.controller);
    runner.add_observer(topics);
    let control = runner.control();

    // a client on a node of its own, of the same runtime type, on a thread of its own
    let uri = master.uri.clone();
    let client = std::thread::spawn(move || {
        let result = send_goal(&uri);
        control.request_stop();
        result
    });
    runner.run();
    link.shutdown();
    client.join().expect("the client")
}

/// Send `advance` 2 m to `/r1/advance`; the goal's final state and how far it went.
fn send_goal(master_uri: &str) -> (StatusCode, f64) {
    let action = skipper_ros1::goals::action_type(&ADVANCE).expect("the action type");
    let mut config = NodeConfig::from_env("/tutorial_client");
    config.master_uri = master_uri.to_string();
    let node = Node::new(config).expect("the client's node");
    let client = ActionClient::with_type(action.clone(), node.name(), Arc::new(SystemClock));
    let _binding = ActionClientBinding::new(&node, "/r1/advance", &client).expect("the binding");
    let client = SimpleActionClient::new(client);
    assert!(
        client.wait_for_server(Some(Duration::from_secs(10))),
        "no server"
    );
    let mut goal = action.new_goal();
    goal.set("distance", Value::F64(2.0))
        .expect("a float64 field");
    client.send_goal(goal, None, None, None);
    assert!(
        client.wait_for_result(Some(Duration::from_secs(30))),
        "no result"
    );
    let travelled = client
        .result()
        .and_then(|r| r.get("travelled").and_then(Value::as_f64))
        .unwrap_or(f64::NAN);
    println!(
        "{:?} ({}): travelled {travelled:.2} m",
        client.state(),
        client.goal_status_text()
    );
    (client.state(), travelled)
}

fn main() {
    run();
}

#[test]
fn an_advance_goal_over_ros1_drives_the_robot() {
    let (state, travelled) = run();
    assert_eq!(state, StatusCode::Succeeded);
    assert!((travelled - 2.0).abs() < 0.05, "{travelled}");
}
