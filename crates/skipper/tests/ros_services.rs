//! The run's ROS services over the fake master: `/robot1/estop` (std_srvs/Trigger) stops
//! a driving robot (the answer names the cycle that applied it; every odometry message
//! stamped after that cycle is at rest) and cancels its goal; `/robot1/reset` releases
//! it, and the robot drives again; `/add_two_ints` adds, and refuses a sum that does not
//! fit in an int64.

use skipper_actionlib::DynMessage;
use skipper_ros1_wire::msg::common::Odometry;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::service::{DynServiceClient, ServiceError};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::topics::subscribe;
use skipper_ros1_wire::{Node, NodeConfig};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[allow(dead_code)] // the shared helpers this file does not use
mod ros_cli;
use ros_cli::Run;

type Odoms = Arc<Mutex<Vec<(f64, f64)>>>;

fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < Duration::from_secs(60), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn moving(odoms: &Odoms) -> bool {
    odoms.lock().unwrap().last().is_some_and(|o| o.1 > 0.1)
}

fn call(client: &DynServiceClient) -> (bool, String) {
    let q = DynMessage::new(client.schema().request().clone());
    let r = client.call(&q).unwrap();
    let success = r.get("success").and_then(Value::as_bool).unwrap();
    let message = match r.get("message") {
        Some(Value::String(s)) => s.clone(),
        other => panic!("message: {other:?}"),
    };
    (success, message)
}

/// `skipper action send /robot1/goto x=30` in the background.
fn drive_far(master: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "action",
            "send",
            "--master",
            master,
            "/robot1/goto",
            "x=30",
            "y=0",
        ])
        .args(["--wait", "20s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn estop_stops_within_a_cycle_reset_releases_and_add_two_ints_adds() {
    let m = FakeMaster::start().unwrap();
    let _run = Run::start(&["run", "--ros", &m.uri, "--no-log", "--until", "300"]);
    let mut c = NodeConfig::from_env("/svc_client");
    c.master_uri = m.uri.clone();
    let node = Node::new(c).unwrap();
    let odoms: Odoms = Arc::default();
    let o2 = odoms.clone();
    let _sub = subscribe::<Odometry>(&node, "/robot1/odom", move |o, _| {
        let t = o.header.stamp.secs as f64 + o.header.stamp.nsecs as f64 * 1e-9;
        o2.lock().unwrap().push((t, o.twist.twist.linear.x));
    })
    .unwrap();
    let l = TypeLoader::builtin_only();
    let trigger = l
        .add_srv("std_srvs/Trigger", skipper_ros1::services::TRIGGER)
        .unwrap();
    let estop = DynServiceClient::new(&node, "/robot1/estop", &trigger, false).unwrap();
    let reset = DynServiceClient::new(&node, "/robot1/reset", &trigger, false).unwrap();
    assert!(estop
        .raw()
        .wait_for_existence(Some(Duration::from_secs(30)), &|| false));

    let goal = drive_far(&m.uri);
    wait_for("the robot drives", || moving(&odoms));
    let (ok, text) = call(&estop);
    assert!(ok, "{text}");
    assert!(
        text.starts_with("robot1: estop engaged; stopped in cycle "),
        "{text}"
    );
    let t: f64 = text
        .split("(t=")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no time in {text}"));
    // the goal was cancelled: the client's goal ends PREEMPTED (exit status 1)
    let out = goal.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{printed}");
    assert!(printed.contains("PREEMPTED"), "{printed}");
    // every odometry message of a cycle after the one that applied the estop is at rest
    wait_for("odometry 1 s after the estop", || {
        odoms.lock().unwrap().last().is_some_and(|o| o.0 > t + 1.0)
    });
    let after: Vec<_> = odoms
        .lock()
        .unwrap()
        .iter()
        .copied()
        .filter(|o| o.0 > t + 1e-6)
        .collect();
    assert!(after.iter().all(|o| o.1 == 0.0), "{after:?}");

    // while the estop holds, a goal does not move the robot; reset releases it
    let (ok, text) = call(&reset);
    assert!(ok && text == "estop released", "{text}");
    let (ok, text) = call(&reset);
    assert!(ok && text == "no estop was engaged", "{text}");
    odoms.lock().unwrap().clear();
    let mut goal = drive_far(&m.uri);
    wait_for("the robot drives again after reset", || moving(&odoms));
    let _ = goal.kill();
    let _ = goal.wait();

    let add = l
        .add_srv(
            "skipper_msgs/AddTwoInts",
            skipper_ros1::services::ADD_TWO_INTS,
        )
        .unwrap();
    let client = DynServiceClient::new(&node, "/add_two_ints", &add, false).unwrap();
    let ask = |a: i64, b: i64| {
        let mut q = DynMessage::new(add.request().clone());
        q.set("a", Value::I64(a)).unwrap();
        q.set("b", Value::I64(b)).unwrap();
        client.call(&q)
    };
    let r = ask(2, 3).unwrap();
    assert_eq!(r.get("sum").and_then(Value::as_int), Some(5));
    match ask(i64::MAX, 1) {
        Err(ServiceError::Failed(_, text)) => assert!(text.contains("does not fit"), "{text}"),
        other => panic!("{other:?}"),
    }
}
