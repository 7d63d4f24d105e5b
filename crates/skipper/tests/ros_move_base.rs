//! Navigation clients drive Skipper's ground robots (fake master): a
//! `move_base_msgs/MoveBase` goal on `/robot1/move_base` (sent by `skipper action send`,
//! which knows the type only from its definition; its feedback is the robot's pose, in
//! the odometry frame, nearer the target as it drives) and a pose on
//! `/robot1/move_base_simple/goal` (what rviz's "2D Nav Goal" publishes) each take the
//! robot to the target; a target in a frame the robot does not know is ABORTED.

use skipper_ros1_wire::msg::common::{Header, Point, Pose, PoseStamped, Quaternion};
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::{topics::subscribe, topics::subscribe_dyn, topics::TypedPublisher};
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod ros_cli;
use ros_cli::{send, succeeded, Run};

#[cfg(unix)]
#[test]
fn move_base_and_move_base_simple_drive_the_robot() {
    let m = FakeMaster::start().unwrap();
    let _run = Run::start(&["run", "--ros", &m.uri, "--no-log", "--until", "300"]);
    let mut c = NodeConfig::from_env("/nav_client");
    c.master_uri = m.uri.clone();
    let node = Node::new(c).unwrap();
    // move_base's feedback, subscribed before the goal is sent: every feedback the
    // server publishes arrives here
    let action = TypeLoader::global()
        .action("move_base_msgs/MoveBase")
        .unwrap();
    let feedback: Arc<Mutex<Vec<(String, f64, f64)>>> = Arc::default();
    let f2 = feedback.clone();
    let fb = subscribe_dyn(
        &node,
        "/robot1/move_base/feedback",
        action.action_feedback(),
        move |m, _| {
            let text = |p: &str| m.path(p).and_then(Value::as_str).unwrap_or("").to_string();
            let num = |p: &str| m.path(p).and_then(Value::as_f64).unwrap_or(f64::NAN);
            f2.lock().unwrap().push((
                text("feedback.base_position.header.frame_id"),
                num("feedback.base_position.pose.position.x"),
                num("feedback.base_position.pose.position.y"),
            ));
        },
    )
    .unwrap();
    let start = Instant::now();
    while fb.publishers().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no move_base feedback publisher"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = send(
        &m.uri,
        &[
            "/robot1/move_base",
            "target_pose.header.frame_id=robot1/odom",
            "target_pose.pose.position.x=1.0",
            "target_pose.pose.position.y=0.5",
            "--wait",
            "20s",
        ],
    );
    let text = succeeded(&out);
    assert!(text.contains("SUCCEEDED"), "{text}");
    // the feedback came before the result on its own connection: wait for it
    let start = Instant::now();
    while feedback.lock().unwrap().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no move_base feedback"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let got = feedback.lock().unwrap().clone();
    assert!(
        got.iter().all(|(frame, ..)| frame == "robot1/odom"),
        "{got:?}"
    );
    let to_target = |&(_, x, y): &(String, f64, f64)| (x - 1.0).hypot(y - 0.5);
    let (first, last) = (&got[0], &got[got.len() - 1]);
    assert!(
        to_target(last) < to_target(first),
        "the feedback did not come nearer the target: {got:?}"
    );
    drop(fb);
    let last: Arc<Mutex<Option<PoseStamped>>> = Arc::default();
    let l2 = last.clone();
    let _sub = subscribe::<PoseStamped>(&node, "/robot1/pose", move |p, _| {
        *l2.lock().unwrap() = Some(p)
    })
    .unwrap();
    let at = |x: f64, y: f64, within: f64| {
        let start = Instant::now();
        loop {
            if let Some(p) = last.lock().unwrap().as_ref() {
                if (p.pose.position.x - x).hypot(p.pose.position.y - y) < within {
                    return;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "never near ({x}, {y})"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    // move_base ended where it was sent (the goto's default tolerance)
    at(1.0, 0.5, 0.3);

    // rviz's goal, published once Skipper's subscriber is connected: the robot drives there
    let goal =
        TypedPublisher::<PoseStamped>::advertise(&node, "/robot1/move_base_simple/goal", false)
            .unwrap();
    let target = PoseStamped {
        header: Header {
            frame_id: "map".into(),
            ..Header::default()
        },
        pose: Pose {
            position: Point {
                x: -1.0,
                y: -0.5,
                z: 0.0,
            },
            orientation: Quaternion::from_yaw(0.0),
        },
    };
    let start = Instant::now();
    while goal.raw().subscribers().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "no subscriber");
        std::thread::sleep(Duration::from_millis(20));
    }
    goal.publish(&target);
    at(-1.0, -0.5, 0.3);

    // a frame the robot does not know
    let out = send(
        &m.uri,
        &[
            "/robot1/move_base",
            "target_pose.header.frame_id=robot2/odom",
            "target_pose.pose.position.x=3",
            "--wait",
            "20s",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("ABORTED") && text.contains("robot2/odom"),
        "{text}"
    );
}
