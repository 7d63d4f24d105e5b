//! A Lua SimpleActionServer in torch-ros's style (tests/scripts/simple_server.lua)
//! against skipper-actionlib's Rust clients over ROS 1 and the fake master: succeed with
//! a result and text, abort, feedback, preemption by a newer goal, cancel, a Lua error
//! in the goal callback (that goal aborted with the error's file:line, the server goes
//! on), and a stop with a goal running (it ends ABORTED, not stuck).

mod common;
use common::*;
use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_torch_ros::Outcome;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn test_action() -> DynAction {
    DynAction::load("actionlib/Test").unwrap()
}

fn goal(a: &DynAction, g: i32) -> DynMessage {
    let mut m = a.new_goal();
    m.set("goal", Value::I32(g)).unwrap();
    m
}

fn result_of(c: &SimpleActionClient<DynAction>) -> Option<i32> {
    c.result()
        .and_then(|r| r.get("result").and_then(Value::as_int))
        .map(|v| v as i32)
}

#[test]
fn the_spec_scenarios_against_a_lua_simple_action_server() {
    let m = FakeMaster::start().unwrap();
    let script = Script::start(&m.uri, "simple_server.lua", &[]);
    let n = node(&m, "/rust_client");
    let a = test_action();
    let ac = ActionClient::with_type(a.clone(), "/rust_client", Arc::new(SystemClock));
    let _b = ActionClientBinding::new(&n, "/test_action", &ac).unwrap();
    let c = SimpleActionClient::new(ac.clone());
    assert!(c.wait_for_server(Some(Duration::from_secs(30))));
    let wait = || assert!(c.wait_for_result(Some(Duration::from_secs(30))));

    // succeed, with result and text
    c.send_goal(goal(&a, 1), None, None, None);
    wait();
    assert_eq!(c.state(), StatusCode::Succeeded);
    assert_eq!(result_of(&c), Some(10));
    assert_eq!(c.goal_status_text(), "done one");

    // abort
    c.send_goal(goal(&a, 2), None, None, None);
    wait();
    assert_eq!(c.state(), StatusCode::Aborted);
    assert_eq!(c.goal_status_text(), "aborted two");

    // a Lua error in the goal callback aborts that goal, with the script's file:line
    c.send_goal(goal(&a, 3), None, None, None);
    wait();
    assert_eq!(c.state(), StatusCode::Aborted);
    let text = c.goal_status_text();
    assert!(text.contains("simple_server.lua:26:"), "{text}");
    assert!(text.contains("attempt to index a nil value"), "{text}");

    // feedback, then a cancel preempts
    let fb = Arc::new(Mutex::new(Vec::new()));
    let f2 = fb.clone();
    c.send_goal(
        goal(&a, 7),
        None,
        None,
        Some(Box::new(move |f: &DynMessage| {
            f2.lock()
                .unwrap()
                .push(f.get("feedback").and_then(Value::as_int).unwrap_or(0))
        })),
    );
    wait_until("feedback", || !fb.lock().unwrap().is_empty());
    c.cancel_goal();
    wait();
    assert_eq!(c.state(), StatusCode::Preempted);
    assert_eq!(result_of(&c), Some(-1));
    assert_eq!(c.goal_status_text(), "preempted");
    assert!(fb.lock().unwrap().iter().all(|&f| f == 7));

    // preemption by a newer goal: the old one ends PREEMPTED, the new one runs
    let old = ac.send_goal(goal(&a, 8), None, None);
    wait_until("goal 8 active", || old.goal_status() == StatusCode::Active);
    c.send_goal(goal(&a, 1), None, None, None);
    wait();
    assert_eq!(c.state(), StatusCode::Succeeded);
    wait_until("goal 8 done", || old.comm_state() == CommState::Done);
    assert_eq!(old.terminal_state(), StatusCode::Preempted);

    // a stop while a goal runs: the script ends, the goal is aborted, not left active
    let running = ac.send_goal(goal(&a, 9), None, None);
    wait_until("goal 9 active", || {
        running.goal_status() == StatusCode::Active
    });
    assert_eq!(script.stop(), Ok(Outcome::Stopped));
    wait_until("goal 9 done", || running.comm_state() == CommState::Done);
    assert_eq!(running.terminal_state(), StatusCode::Aborted);
    assert_eq!(
        running.goal_status_text(),
        "The Lua node shut down before the goal finished"
    );
}
