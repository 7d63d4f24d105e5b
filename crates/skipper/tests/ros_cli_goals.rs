//! `skipper run --ros` with an XABSL agent and `skipper action send .../run_option` end to
//! end over ROS 1 on loopback (the fake master of skipper-actionlib, no ROS needed), and
//! `--ros-host`: another address than 127.0.0.1 only with a warning.

use skipper_ros1_wire::testing::FakeMaster;
use std::path::{Path, PathBuf};
use std::process::Command;

mod ros_cli;
use ros_cli::{send, succeeded, Run};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

#[cfg(unix)]
#[test]
fn run_option_from_the_command_line() {
    let m = FakeMaster::start().unwrap();
    let agents = examples().join("xabsl/goals/agents.xabsl");
    let _run = Run::start(&[
        "run",
        agents.to_str().unwrap(),
        "--ros",
        &m.uri,
        "--no-log",
        "--until",
        "120",
        "--speed",
        "4",
    ]);
    let out = send(
        &m.uri,
        &[
            "/robot1/run_option",
            "option=turn_to",
            r#"parameters={"yaw": 1.0, "direction": "left"}"#,
            "--wait",
            "20s",
            "--timeout",
            "60s",
        ],
    );
    let text = succeeded(&out);
    assert!(text.contains("turn_to.turning"), "{text}");
    assert!(
        text.contains("SUCCEEDED: option `turn_to` reached a target state (turn_to.there)"),
        "{text}"
    );
    assert!(text.contains("reached_target_state: True"), "{text}");

    // a bad goal is aborted with the reason: exit status 1
    let out = send(&m.uri, &["/robot1/run_option", "option=dance"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("ABORTED: there is no option called `dance`"),
        "{text}"
    );
    // the goto server is still there next to it
    let out = send(
        &m.uri,
        &["/robot1/goto", "x=0.3", "y=0", "--timeout", "60s"],
    );
    succeeded(&out);
}

#[cfg(unix)]
#[test]
fn another_address_than_loopback_needs_the_flag_and_warns() {
    let m = FakeMaster::start().unwrap();
    let run = |args: &[&str], ros_ip: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skipper"));
        c.args(["run", "--no-log", "--until", "1"]).args(args);
        c.env_remove("ROS_IP").env_remove("ROS_HOSTNAME");
        if let Some(ip) = ros_ip {
            c.env("ROS_IP", ip);
        }
        c.output().unwrap()
    };
    // by default: loopback, no warning
    let out = run(&["--ros", &m.uri], None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("ROS: node /skipper on http://127.0.0.1:"),
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");
    // every address: needs ROS_IP, then warns
    let out = run(&["--ros", &m.uri, "--ros-host", "0.0.0.0"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("set ROS_IP"));
    let out = run(
        &["--ros", &m.uri, "--ros-host", "0.0.0.0"],
        Some("127.0.0.1"),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: the ROS node /skipper listens on 0.0.0.0, not only 127.0.0.1"),
        "{err}"
    );
    assert!(
        err.contains("ROS: node /skipper on http://127.0.0.1:"),
        "{err}"
    );
    // the flag belongs to --ros
    let out = run(&["--ros-host", "0.0.0.0"], None);
    assert_eq!(out.status.code(), Some(2));
    // the command-line client has it too
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "action",
            "send",
            "--master",
            &m.uri,
            "--ros-host",
            "0.0.0.0",
        ])
        .args(["/nobody/goto", "x=1", "--wait", "200ms"])
        .env("ROS_IP", "127.0.0.1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("listens on 0.0.0.0, not only 127.0.0.1"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn an_auv_under_ros_publishes_its_pose_in_the_worksite_frame() {
    use skipper_ros1_wire::msg::common::{Odometry, PoseStamped};
    use skipper_ros1_wire::topics::subscribe;
    use skipper_ros1_wire::{Node, NodeConfig};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    let m = FakeMaster::start().unwrap();
    let mission = examples().join("missions/test_mission.lua");
    let _run = Run::start(&[
        "run",
        mission.to_str().unwrap(),
        "--ros",
        &m.uri,
        "--no-log",
        "--until",
        "1h",
        "--speed",
        "50",
    ]);
    let mut c = NodeConfig::from_env("/auv_watcher");
    c.master_uri = m.uri.clone();
    let node = Node::new(c).unwrap();
    let poses: Arc<Mutex<Vec<PoseStamped>>> = Arc::default();
    let p2 = poses.clone();
    let _sub = subscribe::<PoseStamped>(&node, "/tethys/pose", move |p, _| {
        p2.lock().unwrap().push(p)
    })
    .unwrap();
    let odoms: Arc<Mutex<Vec<Odometry>>> = Arc::default();
    let o2 = odoms.clone();
    let _sub2 = subscribe::<Odometry>(&node, "/tethys/odom", move |o, _| {
        o2.lock().unwrap().push(o)
    })
    .unwrap();
    // the spec mission heads for its first waypoint, 890 m west of the start
    let start = Instant::now();
    let west = |p: &PoseStamped| p.pose.position.x < -30.0;
    while start.elapsed() < Duration::from_secs(30) && !poses.lock().unwrap().iter().any(west) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let poses = poses.lock().unwrap();
    let first = poses.first().expect("a pose");
    assert_eq!(first.header.frame_id, "world");
    assert!(
        first.pose.position.x.hypot(first.pose.position.y) < 50.0,
        "{first:?}"
    );
    let last = poses.iter().find(|p| west(p)).expect("the AUV went west");
    assert!(last.pose.position.y.abs() < 30.0, "{last:?}");
    assert!(
        last.pose.position.z <= 0.0,
        "z is minus the depth: {last:?}"
    );
    // heading west: yaw about 180 degrees, so the quaternion is about (0, 0, ±1, 0) but
    // for the pitch
    let q = &last.pose.orientation;
    let yaw = (2.0 * (q.w * q.z + q.x * q.y)).atan2(1.0 - 2.0 * (q.y * q.y + q.z * q.z));
    assert!(yaw.abs() > 2.5, "yaw {yaw} rad: {last:?}");
    let odoms = odoms.lock().unwrap();
    assert!(
        odoms.iter().any(|o| o.twist.twist.linear.x > 0.3),
        "the odometry says it moves"
    );
}
