//! `skipper run --vehicle ros1:/NS` drives a ROS 1 robot that is not Skipper (here a
//! robot written in the test with skipper-ros1-wire, on the fake master: no ROS
//! installation needed; `scripts/ros1-robot` does the same with a rospy robot):
//! an XABSL agent reaches its target on it; an agent reading a signal the robot lacks is
//! refused at load; the robot's laser is placed from `/tf_static` and served again with
//! `--ros` in the robot's own geometry; a robot that goes silent is stopped within the
//! bound and the run ends; Ctrl-C leaves a zero velocity; bad messages are counted and
//! skipped; a robot that never appears, or whose laser has no transform, is a clear
//! error.

use skipper_ros1_wire::msg::common::{
    Header, Odometry, Point, Pose, PoseWithCovariance, Quaternion, Twist, TwistWithCovariance,
    Vector3,
};
use skipper_ros1_wire::msg::sensor::{LaserScan, TfMessage, Transform, TransformStamped};
use skipper_ros1_wire::node::Subscriber;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::time::Time;
use skipper_ros1_wire::topics::{subscribe, TypedPublisher};
use skipper_ros1_wire::{Node, NodeConfig};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The test robot's laser: 91 beams over 270 degrees, 0.12 m ahead, turned a quarter
/// turn left (so that only its transform puts its beams where they point).
const BEAMS: usize = 91;
const FIRST: f64 = -135.0 - 90.0; // in the laser's frame (deg)
const STEP: f64 = 3.0;
const LASER_X: f64 = 0.12;
const LASER_YAW: f64 = std::f64::consts::FRAC_PI_2;

#[derive(Clone, Copy, Default)]
struct Behaviour {
    /// no /tf_static
    no_transform: bool,
    /// stop publishing this long after the first moving command
    silent_after: Option<Duration>,
    /// also publish odometry that is not finite and scans of the wrong size
    bad: bool,
}

/// What the robot knows: its pose, and every command it got (when, forward, turn).
#[derive(Default)]
struct State {
    pose: (f64, f64, f64),
    velocity: (f64, f64),
    commands: Vec<(Instant, f64, f64)>,
    silent_since: Option<Instant>,
}

/// A differential-drive robot on ROS 1: `NS/odom`, `NS/scan` and `/tf_static` out,
/// `NS/cmd_vel` in; it integrates what it is sent.
struct Robot {
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    _node: Node,
    _sub: Subscriber,
}

fn now_time() -> Time {
    let d = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    Time::from_nanos(d.as_nanos() as u64)
}

fn header(frame: &str) -> Header {
    Header {
        seq: 0,
        stamp: now_time(),
        frame_id: frame.to_string(),
    }
}

impl Robot {
    fn start(master: &str, ns: &str, b: Behaviour) -> Robot {
        let mut c = NodeConfig::from_env_only(&format!("/test_robot{}", ns.replace('/', "_")));
        c.master_uri = master.to_string();
        let node = Node::new(c).unwrap();
        let state: Arc<Mutex<State>> = Arc::default();
        let s2 = state.clone();
        let sub = subscribe(&node, &format!("{ns}/cmd_vel"), move |t: Twist, _| {
            let mut s = s2.lock().unwrap();
            s.velocity = (t.linear.x, t.angular.z);
            s.commands.push((Instant::now(), t.linear.x, t.angular.z));
        })
        .unwrap();
        let odom =
            TypedPublisher::<Odometry>::advertise(&node, &format!("{ns}/odom"), false).unwrap();
        let scan =
            TypedPublisher::<LaserScan>::advertise(&node, &format!("{ns}/scan"), false).unwrap();
        let tf = TypedPublisher::<TfMessage>::advertise(&node, "/tf_static", true).unwrap();
        if !b.no_transform {
            tf.publish(&TfMessage {
                transforms: vec![TransformStamped {
                    header: header("base_link"),
                    child_frame_id: "laser".into(),
                    transform: Transform {
                        translation: Vector3 {
                            x: LASER_X,
                            y: 0.0,
                            z: 0.3,
                        },
                        rotation: Quaternion::from_yaw(LASER_YAW),
                    },
                }],
            });
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (st, s3) = (stop.clone(), state.clone());
        let thread = std::thread::spawn(move || {
            let _tf = tf;
            let dt = 0.05;
            let mut tick = 0u64;
            while !st.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(50));
                tick += 1;
                let mut s = s3.lock().unwrap();
                let (v, w) = s.velocity;
                let (x, y, yaw) = s.pose;
                s.pose = (x + v * yaw.cos() * dt, y + v * yaw.sin() * dt, yaw + w * dt);
                let first = s.commands.iter().find(|c| c.1 != 0.0).map(|c| c.0);
                if let (Some(after), Some(t0)) = (b.silent_after, first) {
                    if t0.elapsed() > after {
                        s.silent_since.get_or_insert_with(Instant::now);
                        continue;
                    }
                }
                let (x, y, yaw) = s.pose;
                drop(s);
                let mut o = Odometry {
                    header: header("odom"),
                    child_frame_id: "base_link".into(),
                    pose: PoseWithCovariance {
                        pose: Pose {
                            position: Point { x, y, z: 0.0 },
                            orientation: Quaternion::from_yaw(yaw),
                        },
                        ..Default::default()
                    },
                    twist: TwistWithCovariance {
                        twist: Twist {
                            linear: Vector3 {
                                x: v,
                                y: 0.0,
                                z: 0.0,
                            },
                            angular: Vector3 {
                                x: 0.0,
                                y: 0.0,
                                z: w,
                            },
                        },
                        ..Default::default()
                    },
                };
                odom.publish(&o);
                if b.bad {
                    o.pose.pose.position.x = f64::NAN;
                    odom.publish(&o);
                }
                if tick % 2 == 0 {
                    let mut s = LaserScan {
                        header: header("laser"),
                        angle_min: FIRST.to_radians() as f32,
                        angle_max: (FIRST + STEP * (BEAMS - 1) as f64).to_radians() as f32,
                        angle_increment: STEP.to_radians() as f32,
                        range_min: 0.05,
                        range_max: 10.0,
                        ranges: vec![4.0; BEAMS],
                        ..Default::default()
                    };
                    scan.publish(&s);
                    if b.bad {
                        s.ranges.truncate(BEAMS - 5);
                        scan.publish(&s);
                    }
                }
            }
        });
        Robot {
            state,
            stop,
            thread: Some(thread),
            _node: node,
            _sub: sub,
        }
    }

    fn pose(&self) -> (f64, f64, f64) {
        self.state.lock().unwrap().pose
    }

    fn commands(&self) -> Vec<(Instant, f64, f64)> {
        self.state.lock().unwrap().commands.clone()
    }
}

impl Drop for Robot {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn skipper(master: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skipper"));
    c.env("ROS_MASTER_URI", master)
        .env_remove("ROS_NAMESPACE")
        .env_remove("ROS_IP")
        .env_remove("ROS_HOSTNAME")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    c
}

fn run(master: &str, args: &[&str]) -> Output {
    skipper(master).arg("run").args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const AGENTS: &str = "scripts/ros2-robot/agents";

#[test]
fn an_xabsl_agent_reaches_its_target_on_a_ros1_robot_placed_by_its_transforms() {
    let m = FakeMaster::start().unwrap();
    let robot = Robot::start(&m.uri, "/bot", Behaviour::default());
    let out = run(
        &m.uri,
        &[
            &format!("{AGENTS}/reach.xabsl"),
            "--vehicle",
            "ros1:/bot",
            "--no-log",
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // the laser's beams are put in the base's order through its transform: the first
    // (rightmost) one points -135 degrees from ahead
    assert!(
        err.contains("bot_skipper is the robot at /bot: odom, scan 91 beams from -135.0° by 3.00° (laser 0.12 m ahead); cmd_vel Twist"),
        "{err}"
    );
    let (x, _, yaw) = robot.pose();
    assert!(
        x >= 1.0 && (1.45..1.9).contains(&yaw),
        "ended at x {x}, yaw {yaw}"
    );
    let last = robot.commands().last().map(|c| (c.1, c.2));
    assert_eq!(last, Some((0.0, 0.0)), "the run leaves the robot stopped");
}

#[test]
fn an_agent_reading_a_signal_the_robot_lacks_is_refused_at_load() {
    let m = FakeMaster::start().unwrap();
    let _robot = Robot::start(&m.uri, "/bot", Behaviour::default());
    let out = run(
        &m.uri,
        &[
            &format!("{AGENTS}/sonar.xabsl"),
            "--vehicle",
            "ros1:/bot",
            "--no-log",
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sonar_symbols.xabsl:") && err.contains("`sonar.3`"),
        "file:line:col and the missing signal: {err}"
    );
}

#[test]
fn a_silent_robot_is_stopped_within_the_bound_and_the_run_ends() {
    let m = FakeMaster::start().unwrap();
    let b = Behaviour {
        silent_after: Some(Duration::from_secs(1)),
        ..Behaviour::default()
    };
    let robot = Robot::start(&m.uri, "/bot", b);
    let out = run(
        &m.uri,
        &[
            &format!("{AGENTS}/cruise.xabsl"),
            "--vehicle",
            "ros1:/bot,stale=300ms,give_up=2s",
            "--no-log",
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no odometry from the robot on /bot/odom for")
            && err.contains("the robot was stopped"),
        "{err}"
    );
    let silent = robot
        .state
        .lock()
        .unwrap()
        .silent_since
        .expect("went silent");
    let cmds = robot.commands();
    let last_moving = cmds
        .iter()
        .rev()
        .find(|c| c.1 != 0.0 || c.2 != 0.0)
        .unwrap();
    // the bound (0.3 s) and a second of slack for a loaded machine: a safety property,
    // not a speed
    assert!(
        last_moving.0 <= silent + Duration::from_millis(1300),
        "a moving command {:?} after the robot went silent",
        last_moving.0.saturating_duration_since(silent)
    );
    let (_, v, w) = *cmds.last().unwrap();
    assert_eq!((v, w), (0.0, 0.0));
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_a_zero_velocity_as_the_last_command() {
    let m = FakeMaster::start().unwrap();
    let robot = Robot::start(&m.uri, "/bot", Behaviour::default());
    let mut child = skipper(&m.uri)
        .args([
            "run",
            &format!("{AGENTS}/cruise.xabsl"),
            "--vehicle",
            "ros1:/bot",
            "--no-log",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !robot.commands().iter().any(|c| c.1 != 0.0) {
        assert!(start.elapsed() < Duration::from_secs(60), "never driven");
        std::thread::sleep(Duration::from_millis(20));
    }
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    // what was written before the process left arrives
    let start = Instant::now();
    loop {
        let last = robot.commands().last().map(|c| (c.1, c.2));
        if last == Some((0.0, 0.0)) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "last command {last:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn bad_messages_are_counted_and_skipped() {
    let m = FakeMaster::start().unwrap();
    let b = Behaviour {
        bad: true,
        ..Behaviour::default()
    };
    let robot = Robot::start(&m.uri, "/bot", b);
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let out = run(
        &m.uri,
        &[
            &format!("{AGENTS}/reach.xabsl"),
            "--vehicle",
            "ros1:/bot",
            "--no-log",
            "--summary-json",
            summary.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let skipped = &s["skipped_messages"];
    assert!(skipped["odometry not finite"].as_u64() > Some(0), "{s}");
    assert!(
        skipped["scan size does not match its angles"].as_u64() > Some(0),
        "{s}"
    );
    let (x, _, _) = robot.pose();
    assert!(x >= 1.0, "the robot still got there: x {x}");
}

#[test]
fn a_robot_that_never_appears_is_a_clear_error() {
    let m = FakeMaster::start().unwrap();
    let out = run(&m.uri, &["--vehicle", "ros1:/nobody,wait=1s", "--no-log"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no odometry on /nobody/odom within 1 s"),
        "{err}"
    );
}

#[test]
fn a_laser_without_a_transform_is_a_clear_error() {
    let m = FakeMaster::start().unwrap();
    let b = Behaviour {
        no_transform: true,
        ..Behaviour::default()
    };
    let _robot = Robot::start(&m.uri, "/bot", b);
    let out = run(&m.uri, &["--vehicle", "ros1:/bot,wait=2s", "--no-log"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "the scan's frame `laser` has no transform to the robot's base frame `base_link`"
        ),
        "{err}"
    );
}

#[test]
fn served_with_ros_the_robot_publishes_its_own_geometry() {
    let m = FakeMaster::start().unwrap();
    let _robot = Robot::start(&m.uri, "/bot", Behaviour::default());
    let mut c = NodeConfig::from_env_only("/watcher");
    c.master_uri = m.uri.clone();
    let watcher = Node::new(c).unwrap();
    let statics: Arc<Mutex<Vec<TransformStamped>>> = Arc::default();
    let scans: Arc<Mutex<Vec<LaserScan>>> = Arc::default();
    let (s1, s2) = (statics.clone(), scans.clone());
    let _a = subscribe(&watcher, "/tf_static", move |m: TfMessage, _| {
        s1.lock().unwrap().extend(m.transforms)
    })
    .unwrap();
    let _b = subscribe(&watcher, "/bot_skipper/scan", move |m: LaserScan, _| {
        s2.lock().unwrap().push(m)
    })
    .unwrap();
    let mut child = skipper(&m.uri)
        .args([
            "run",
            "--vehicle",
            "ros1:/bot",
            "--ros",
            "--no-log",
            "--until",
            "60s",
        ])
        .args([&format!("{AGENTS}/cruise.xabsl")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let found = loop {
        let laser = statics
            .lock()
            .unwrap()
            .iter()
            .find(|t| t.child_frame_id == "bot_skipper/laser")
            .cloned();
        let scan = scans.lock().unwrap().last().cloned();
        if let (Some(l), Some(s)) = (laser, scan) {
            break (l, s);
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no served geometry"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let _ = child.wait();
    let (laser, scan) = found;
    assert_eq!(laser.header.frame_id, "bot_skipper/base_link");
    assert!((laser.transform.translation.x - LASER_X).abs() < 1e-9);
    assert_eq!(scan.ranges.len(), BEAMS);
    assert!(
        (f64::from(scan.angle_min).to_degrees() - (-135.0)).abs() < 1e-3,
        "{}",
        scan.angle_min
    );
    assert!((f64::from(scan.angle_increment).to_degrees() - STEP).abs() < 1e-3);
}
