//! `skipper run --ros` and `skipper action send` end to end over ROS 1 on loopback,
//! against the fake master of skipper-actionlib (no ROS installation needed): the goto
//! action drives the robot with feedback, a timeout cancels (the robot stops), the
//! robot's pose is published, bad fields are bad input; the AUV of a mission run takes
//! goto goals too and obeys cmd_vel until it goes silent.

use skipper_ros1_wire::msg::common::{Odometry, PoseStamped, Twist, Vector3};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::{topics::subscribe, topics::TypedPublisher};
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod ros_cli;
use ros_cli::{send, succeeded, Run};

#[cfg(unix)]
#[test]
fn goto_over_ros_with_feedback_cancel_and_pose() {
    let m = FakeMaster::start().unwrap();
    let _run = Run::start(&["run", "--ros", &m.uri, "--no-log", "--until", "120"]);
    let out = send(&m.uri, &["/robot1/goto", "x=1.0", "y=0.5", "--wait", "20s"]);
    let text = succeeded(&out);
    assert!(text.contains("feedback:\n  distance: "), "{text}");
    assert!(text.contains("SUCCEEDED: reached"), "{text}");
    assert!(text.contains("result:\n  x: "), "{text}");

    // the pose is published; a velocity command moves the robot
    let mut c = NodeConfig::from_env("/pose_watcher");
    c.master_uri = m.uri.clone();
    let node = Node::new(c).unwrap();
    let poses: Arc<Mutex<Vec<PoseStamped>>> = Arc::default();
    let p2 = poses.clone();
    let _sub = subscribe::<PoseStamped>(&node, "/robot1/pose", move |p, _| {
        p2.lock().unwrap().push(p)
    })
    .unwrap();
    let start = Instant::now();
    while poses.lock().unwrap().is_empty() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let first = poses.lock().unwrap().first().cloned().expect("a pose");
    assert!(
        (first.pose.position.x - 1.0).hypot(first.pose.position.y - 0.5) < 0.3,
        "{first:?}"
    );
    assert_eq!(first.header.frame_id, "robot1/odom");
    let cmd = TypedPublisher::<Twist>::advertise(&node, "/robot1/cmd_vel", false).unwrap();
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(1500) {
        cmd.publish(&Twist {
            linear: Vector3 {
                x: 0.4,
                ..Default::default()
            },
            angular: Vector3::default(),
        });
        std::thread::sleep(Duration::from_millis(50));
    }
    let last = poses.lock().unwrap().last().cloned().unwrap();
    let moved = (last.pose.position.x - first.pose.position.x)
        .hypot(last.pose.position.y - first.pose.position.y);
    assert!(moved > 0.1, "cmd_vel moved the robot {moved} m");

    // a goal that times out is cancelled: PREEMPTED, exit status 1
    let out = send(&m.uri, &["/robot1/goto", "x=-9", "y=-9", "--timeout", "1s"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("PREEMPTED: canceled; the robot stopped"),
        "{text}"
    );

    // bad input
    let out = send(&m.uri, &["/robot1/goto", "z=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no field `z`"));
    let out = send(&m.uri, &["/robot1/goto", "x=abc"]);
    assert_eq!(out.status.code(), Some(2));
    let out = send(&m.uri, &["/nobody/goto", "x=1", "--wait", "200ms"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no action server at /nobody/goto"));
}

#[cfg(unix)]
#[test]
fn the_auv_takes_goto_goals_and_obeys_cmd_vel() {
    let m = FakeMaster::start().unwrap();
    let mission = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/missions/test_mission.lua");
    let _run = Run::start(&[
        "run",
        mission.to_str().unwrap(),
        "--ros",
        &m.uri,
        "--no-log",
        "--until",
        "2h",
        "--speed",
        "50",
    ]);
    // a goal north-west of the start: flown to within the default 10 m
    let out = send(
        &m.uri,
        &["/tethys/goto", "x=-150", "y=100", "--wait", "20s"],
    );
    let text = succeeded(&out);
    assert!(text.contains("feedback:\n  distance: "), "{text}");
    assert!(text.contains("SUCCEEDED: reached"), "{text}");

    // a slow velocity command overrides the mission; silent, the mission flies on
    let mut c = NodeConfig::from_env("/auv_driver");
    c.master_uri = m.uri.clone();
    let node = Node::new(c).unwrap();
    let speeds: Arc<Mutex<Vec<f64>>> = Arc::default();
    let s2 = speeds.clone();
    let _sub = subscribe::<Odometry>(&node, "/tethys/odom", move |o, _| {
        s2.lock().unwrap().push(o.twist.twist.linear.x)
    })
    .unwrap();
    let cmd = TypedPublisher::<Twist>::advertise(&node, "/tethys/cmd_vel", false).unwrap();
    let slow = |v: &f64| (*v - 0.2).abs() < 0.02;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) && !speeds.lock().unwrap().iter().any(slow) {
        cmd.publish(&Twist {
            linear: Vector3 {
                x: 0.2,
                ..Default::default()
            },
            angular: Vector3::default(),
        });
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        speeds.lock().unwrap().iter().any(slow),
        "cmd_vel did not slow the AUV to 0.2 m/s"
    );
    let n = speeds.lock().unwrap().len();
    let start = Instant::now();
    let fast = |v: &f64| *v > 0.5;
    while start.elapsed() < Duration::from_secs(20) && !speeds.lock().unwrap()[n..].iter().any(fast)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        speeds.lock().unwrap()[n..].iter().any(fast),
        "the mission did not fly on"
    );
}
