//! A goal kind added to a controller reaches it over ROS 1 with no change to the
//! transport: the test takes `skipper_goals::probe`'s kind (`probe_msgs/Probe`, one field
//! of each type) and its controller, and attaches [`Ros1Transport`] to the run through
//! the transport seam, as `skipper run --ros` does, against a master on loopback. An
//! actionlib client of the kind's run-time type sends goals: feedback and result come
//! back field by field, a goal out of bounds is turned down with the reason, a cancel stops a
//! goal.

use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::{ActionClient, SimpleActionClient, StatusCode, SystemClock};
use skipper_goals::probe::{self, PROBE};
use skipper_goals::Transport;
use skipper_ros1::{Ros1Transport, TimeSource};
use skipper_ros1_wire::msg::dynamic::{DynMessage, Value};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn world() -> skipper_sim::GroundWorld {
    let spec = skipper_sim::parse_world("box 0 0 20 20\nrobot probe1 0 0 0\n", "probe.world", None)
        .expect("the world");
    skipper_sim::GroundWorld::new(&spec, 0).expect("the robot fits")
}

/// What the client saw of one goal: its final state, its result, the feedback counts.
struct Seen {
    state: StatusCode,
    text: String,
    result: Option<DynMessage>,
    feedback: Vec<i64>,
}

/// Send one goal of `steps`, `scale` (with label `hello`, loud) and follow it to its end;
/// after `cancel_after`, cancel it.
fn goal(
    client: &SimpleActionClient<skipper_ros1_wire::msg::actionlib_msgs::DynAction>,
    action: &skipper_ros1_wire::msg::actionlib_msgs::DynAction,
    steps: i64,
    scale: f64,
    cancel_after: Option<Duration>,
) -> Seen {
    let mut g = action.new_goal();
    g.set("steps", Value::I64(steps)).expect("int64 steps");
    g.set("label", Value::String("hello".into()))
        .expect("string label");
    g.set("loud", Value::Bool(true)).expect("bool loud");
    g.set("scale", Value::F64(scale)).expect("float64 scale");
    let feedback = Arc::new(Mutex::new(Vec::new()));
    let seen = feedback.clone();
    client.send_goal(
        g,
        None,
        None,
        Some(Box::new(move |f: &DynMessage| {
            let count = f.get("count").and_then(Value::as_int).unwrap_or(-1);
            seen.lock().unwrap().push(count as i64);
        })),
    );
    if let Some(after) = cancel_after {
        std::thread::sleep(after);
        client.cancel_goal();
    }
    assert!(
        client.wait_for_result(Some(Duration::from_secs(30))),
        "no result"
    );
    let feedback = feedback.lock().unwrap().clone();
    Seen {
        state: client.state(),
        text: client.goal_status_text(),
        result: client.result(),
        feedback,
    }
}

#[test]
fn a_kind_added_to_a_controller_is_served_over_ros1() {
    let master = FakeMaster::start().expect("a master on loopback");
    let (mut runner, endpoint) = probe::served(world());
    let mut transport: Box<dyn Transport> =
        Box::new(Ros1Transport::new(&master.uri, None, TimeSource::Wall));
    transport
        .attach(&mut runner, &[endpoint])
        .expect("the transport attaches");

    let uri = master.uri.clone();
    let control = runner.control();
    let client = std::thread::spawn(move || {
        let action = skipper_ros1::goals::action_type(&PROBE).expect("the action type");
        let mut config = NodeConfig::from_env("/probe_client");
        config.master_uri = uri;
        let node = Node::new(config).expect("the client's node");
        let client = ActionClient::with_type(action.clone(), node.name(), Arc::new(SystemClock));
        let _binding =
            ActionClientBinding::new(&node, "/probe1/probe", &client).expect("the binding");
        let client = SimpleActionClient::new(client);
        assert!(
            client.wait_for_server(Some(Duration::from_secs(30))),
            "no server"
        );
        let done = goal(&client, &action, 3, 0.5, None);
        let bad = goal(&client, &action, 3, f64::NAN, None);
        let forever = goal(&client, &action, -1, 0.5, Some(Duration::from_millis(500)));
        control.request_stop();
        (done, bad, forever)
    });
    let mut report = runner.run();
    let (done, bad, forever) = client.join().expect("the client");
    transport.finish(&mut report);

    assert_eq!(done.state, StatusCode::Succeeded, "{}", done.text);
    let result = done.result.expect("a result");
    assert_eq!(
        result.get("answer").and_then(Value::as_str),
        Some("HELLO"),
        "{result:?}"
    );
    assert!(
        result.get("counted").and_then(Value::as_int).unwrap_or(0) >= 3,
        "{result:?}"
    );
    assert!(!done.feedback.is_empty(), "no feedback");
    assert!(
        done.feedback.windows(2).all(|w| w[0] <= w[1]),
        "{:?}",
        done.feedback
    );
    assert!(
        matches!(bad.state, StatusCode::Aborted | StatusCode::Rejected),
        "{:?} {}",
        bad.state,
        bad.text
    );
    assert!(bad.text.contains("scale"), "{}", bad.text);
    assert_eq!(forever.state, StatusCode::Preempted, "{}", forever.text);
}
