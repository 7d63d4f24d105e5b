//! Lua SimpleActionClient and ActionClient scripts (tests/scripts/clients.lua) against
//! skipper-actionlib's Rust SimpleActionServer over ROS 1 and the fake master: succeed
//! with result and text, abort, active/feedback/done callbacks, cancel,
//! sendGoalAndWait's timeout, preemption by a newer goal, cancel through a goal handle.
//! The script asserts and ends with status 0 when every check held.

mod common;
use common::*;
use skipper_actionlib::ros1::action::server_config_from_params;
use skipper_actionlib::ros1::ActionServerBinding;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_torch_ros::Outcome;
use std::sync::Arc;
use std::time::Duration;

fn int(m: &DynMessage, f: &str) -> i32 {
    m.get(f).and_then(Value::as_int).unwrap_or(0) as i32
}

fn with(a: &DynAction, field: &str, v: i32, feedback: bool) -> DynMessage {
    let mut m = if feedback {
        a.new_feedback()
    } else {
        a.new_result()
    };
    m.set(field, Value::I32(v)).unwrap();
    m
}

#[test]
fn lua_clients_against_a_rust_server() {
    let m = FakeMaster::start().unwrap();
    let n = node(&m, "/ref_server");
    let a = DynAction::load("actionlib/Test").unwrap();
    let server = ActionServer::with_type(
        a.clone(),
        server_config_from_params(&n, "/ref"),
        Arc::new(SystemClock),
    );
    let _b = ActionServerBinding::new(&n, "/ref", &server).unwrap();
    let a2 = a.clone();
    let simple = SimpleActionServer::with_execute_callback(server, move |s, g| {
        let g = int(&g, "goal");
        let e = |r: Result<(), ActionError>| r.map_err(|e| e.to_string());
        match g {
            1 => e(s.set_succeeded(
                Some(with(&a2, "result", 2, false)),
                "The ref server has succeeded",
            )),
            2 => e(s.set_aborted(None, "The ref server has aborted")),
            4 => {
                while !s.is_preempt_requested() {
                    e(s.publish_feedback(with(&a2, "feedback", 4, true)))?;
                    std::thread::sleep(Duration::from_millis(10));
                }
                e(s.set_preempted(Some(with(&a2, "result", -4, false)), "preempted"))
            }
            _ => {
                e(s.publish_feedback(with(&a2, "feedback", g, true)))?;
                std::thread::sleep(Duration::from_millis(50));
                e(s.set_succeeded(Some(with(&a2, "result", 2 * g, false)), "done"))
            }
        }
    });
    simple.start();
    let script = Script::start(&m.uri, "clients.lua", &[]);
    assert_eq!(script.join(), Ok(Outcome::Finished(0)));
}
