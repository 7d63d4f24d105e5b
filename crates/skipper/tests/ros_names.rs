//! `skipper run --ros` as roslaunch starts it, against the fake master of
//! skipper-actionlib: `__ns:=`, `__name:=`, a remap of an action's name and a private
//! parameter take effect; the slave API's `shutdown` (`rosnode kill`) ends the run with
//! exit status 0; a remap to an illegal name is bad input (exit 2).

#[allow(dead_code)] // the shared helpers this file does not use
mod ros_cli;

use ros_cli::Run;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::xmlrpc::{self, Value};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn master_call(m: &FakeMaster, method: &str, params: &[Value]) -> Value {
    let v = xmlrpc::call(&m.uri, method, params, Duration::from_secs(5)).unwrap();
    v.as_array().and_then(|a| a.get(2)).cloned().unwrap()
}

fn topics(m: &FakeMaster) -> Vec<String> {
    let v = master_call(m, "getTopicTypes", &["/test".into()]);
    v.as_array()
        .unwrap_or(&[])
        .iter()
        .filter_map(|p| p.as_array()?.first()?.as_str().map(str::to_string))
        .collect()
}

#[cfg(unix)]
#[test]
fn a_launched_run_takes_its_namespace_remaps_and_is_killed_cleanly() {
    let m = FakeMaster::start().unwrap();
    let mut run = Run(Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "run",
            "--ros",
            &m.uri,
            "--no-log",
            "__name:=fleet_exec",
            "__ns:=/fleet",
            "robot1/goto:=robot1/drive",
            "_note:=launched",
            "__log:=/dev/null",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap());
    let child = &mut run.0;
    // the node advertises its topics one after another: wait for every one looked at
    let wanted = [
        "/fleet/robot1/drive/goal",
        "/fleet/robot1/pose",
        "/fleet/robot1/drive/status",
    ];
    let start = Instant::now();
    let mut t = topics(&m);
    while !wanted.iter().all(|w| t.iter().any(|x| x == w)) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{wanted:?} in {t:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
        t = topics(&m);
    }
    assert!(!t.iter().any(|x| x.starts_with("/robot1/")), "{t:?}");
    assert_eq!(
        master_call(
            &m,
            "getParam",
            &["/test".into(), "/fleet/fleet_exec/note".into()]
        ),
        Value::Str("launched".into())
    );
    // the node's URI, as the master gives it to a subscriber; then `rosnode kill`
    let pubs = master_call(
        &m,
        "registerSubscriber",
        &[
            "/test".into(),
            "/fleet/robot1/pose".into(),
            "geometry_msgs/PoseStamped".into(),
            "http://127.0.0.1:9/".into(),
        ],
    );
    let uri = pubs.as_array().unwrap()[0].as_str().unwrap().to_string();
    let r = xmlrpc::call(
        &uri,
        "shutdown",
        &["/rosnode".into(), "user request".into()],
        Duration::from_secs(5),
    )
    .unwrap();
    assert_eq!(
        r.as_array().and_then(|a| a.first()).and_then(Value::as_int),
        Some(1)
    );
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the run did not end after shutdown");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    use std::io::Read;
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(
        err.contains("/rosnode asked node /fleet/fleet_exec to shut down: user request"),
        "{err}"
    );
}

#[test]
fn a_remap_to_an_illegal_name_is_bad_input() {
    let m = FakeMaster::start().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["run", "--ros", &m.uri, "--no-log", "robot1/goto:=robot 1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`robot 1` is not a ROS name in the remap robot1/goto:=robot 1"),
        "{err}"
    );
}
