//! A Lua ActionServer with server goal handles (tests/scripts/action_server.lua) against
//! skipper-actionlib's Rust ActionClient over ROS 1 and the fake master: accept, succeed
//! with a result, feedback, reject, cancel through the cancel callback, and Lua errors
//! in the goal callback (the goal is rejected with the error) and in the cancel callback
//! (the goal is aborted), the other goals unaffected.

mod common;
use common::*;
use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::testing::FakeMaster;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn goal(a: &DynAction, g: i32) -> DynMessage {
    let mut m = a.new_goal();
    m.set("goal", Value::I32(g)).unwrap();
    m
}

fn done(h: &ClientGoalHandle<DynAction>) {
    wait_until(&format!("goal {} done", h.id()), || {
        h.comm_state() == CommState::Done
    });
}

#[test]
fn server_goal_handles_in_lua() {
    let m = FakeMaster::start().unwrap();
    let script = Script::start(&m.uri, "action_server.lua", &[]);
    let n = node(&m, "/rust_client");
    let a = DynAction::load("actionlib/Test").unwrap();
    let ac = ActionClient::with_type(a.clone(), "/rust_client", Arc::new(SystemClock));
    let _b = ActionClientBinding::new(&n, "/multi", &ac).unwrap();
    if !ac.wait_for_server(Some(Duration::from_secs(10))) {
        panic!("no server: the script ended with {:?}", script.stop());
    }

    // feedback is checked on a goal that stays active: the protocol does not order a
    // goal's feedback before its result (two topics, two connections)
    let fb = Arc::new(Mutex::new(Vec::new()));
    let f2 = fb.clone();
    let one = ac.send_goal(goal(&a, 1), None, None);
    let two = ac.send_goal(goal(&a, 2), None, None);
    let three = ac.send_goal(goal(&a, 3), None, None);
    let kept = ac.send_goal(
        goal(&a, 5),
        None,
        Some(Box::new(move |_, f: &DynMessage| {
            f2.lock()
                .unwrap()
                .push(f.get("feedback").and_then(Value::as_int).unwrap_or(0))
        })),
    );
    let four = ac.send_goal(goal(&a, 4), None, None);
    for h in [&one, &two, &three] {
        done(h);
    }
    assert_eq!(one.terminal_state(), StatusCode::Succeeded);
    assert_eq!(one.goal_status_text(), "one done");
    assert_eq!(
        one.result()
            .and_then(|r| r.get("result").and_then(Value::as_int)),
        Some(11)
    );
    assert_eq!(two.terminal_state(), StatusCode::Rejected);
    assert_eq!(two.goal_status_text(), "two is rejected");
    assert_eq!(three.terminal_state(), StatusCode::Rejected);
    let t = three.goal_status_text();
    assert!(
        t.contains("action_server.lua:24: three is not a goal"),
        "{t}"
    );

    wait_until("goals 4 and 5 active", || {
        kept.goal_status() == StatusCode::Active && four.goal_status() == StatusCode::Active
    });
    wait_until("goal 5's feedback", || !fb.lock().unwrap().is_empty());
    assert_eq!(*fb.lock().unwrap(), [5]);
    kept.cancel();
    four.cancel();
    done(&kept);
    done(&four);
    assert_eq!(kept.terminal_state(), StatusCode::Preempted);
    assert_eq!(kept.goal_status_text(), "canceled 5");
    assert_eq!(four.terminal_state(), StatusCode::Aborted);
    let t = four.goal_status_text();
    assert!(
        t.contains("action_server.lua:41: cancel of four fails"),
        "{t}"
    );
}
