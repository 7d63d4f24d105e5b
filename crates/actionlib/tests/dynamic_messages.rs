//! Messages and actions whose types are known only at run time: schemas from `.msg` /
//! `.srv` / `.action` texts and from a package folder, md5sums against the values
//! genpy ships, byte-for-byte agreement with the compiled-in types, bounded decoding,
//! JSON and YAML (rostopic's layout, vectors printed by genpy on Debian), and a
//! runtime-typed SimpleActionServer talking to a compiled-in SimpleActionClient.

use skipper_actionlib::transport::inproc::InProcBus;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::actionlib_msgs::{Action, DynAction, Wire};
use skipper_ros1_wire::msg::common::{Header, Odometry, Point, Pose, PoseStamped, Quaternion};
use skipper_ros1_wire::msg::defs;
use skipper_ros1_wire::msg::dynamic::{Array, DynMessage, Value, ValueError, MAX_EMPTY_ELEMENTS};
use skipper_ros1_wire::msg::json::{from_json, to_json};
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::msg::schema::SchemaError;
use skipper_ros1_wire::msg::skipper_msgs::{Goto, GotoFeedback, GotoGoal, GotoResult};
use skipper_ros1_wire::msg::test_actions::TestRequestGoal;
use skipper_ros1_wire::msg::yaml::{message_from_args, to_yaml};
use skipper_ros1_wire::msg::{DecodeError, Message};
use skipper_ros1_wire::time::{RosDuration, Time};
use std::path::PathBuf;
use std::sync::Arc;

/// The goal kind the lead's goal layer declares for goto, as a schema text.
const GOTO: &str = "float64 x\nfloat64 y\nfloat64 tolerance\n---\nfloat64 x\nfloat64 y\nfloat64 yaw\n---\nfloat64 distance";

#[test]
fn a_runtime_goto_has_the_md5sums_of_the_compiled_in_one() {
    let l = TypeLoader::builtin_only();
    let a = l.add_action("skipper_msgs/Goto", GOTO).unwrap();
    for (s, name) in [
        (a.goal(), "skipper_msgs/GotoGoal"),
        (a.result(), "skipper_msgs/GotoResult"),
        (a.feedback(), "skipper_msgs/GotoFeedback"),
        (a.action_goal(), "skipper_msgs/GotoActionGoal"),
        (a.action_result(), "skipper_msgs/GotoActionResult"),
        (a.action_feedback(), "skipper_msgs/GotoActionFeedback"),
        (a.action(), "skipper_msgs/GotoAction"),
    ] {
        assert_eq!(s.name(), name);
        assert_eq!(Some(s.md5sum()), defs::md5sum(name), "{name}");
    }
    let d = DynAction(a);
    let typed = Goto;
    for w in [Wire::Goal, Wire::Result, Wire::Feedback] {
        assert_eq!(d.wire_type(w).md5sum, typed.wire_type(w).md5sum);
        assert_eq!(d.wire_type(w).name, typed.wire_type(w).name);
    }
    // the definition lists the nested types as genpy does
    let def = d.wire_type(Wire::Goal).definition;
    let order: Vec<&str> = def
        .lines()
        .filter_map(|l| l.strip_prefix("MSG: "))
        .collect();
    assert_eq!(
        order,
        [
            "std_msgs/Header",
            "actionlib_msgs/GoalID",
            "skipper_msgs/GotoGoal"
        ]
    );
}

/// A folder with packages as `ROS_PACKAGE_PATH` would name it, made for one test.
struct Packages(PathBuf);

impl Packages {
    fn new(tag: &str, files: &[(&str, &str)]) -> Self {
        let root = std::env::temp_dir().join(format!(
            "skipper-dyn-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Packages(root)
    }
    fn loader(&self) -> TypeLoader {
        TypeLoader::with_paths(vec![self.0.clone()], vec![])
    }
}

impl Drop for Packages {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const PKG: &str = "<?xml version=\"1.0\"?>\n<package format=\"2\"><name>NAME</name><version>1.0.0</version></package>\n";

#[test]
fn types_are_found_in_packages_and_md5sums_match_genpy() {
    let p = Packages::new(
        "pkgs",
        &[
            ("ws/src/nav/package.xml", &PKG.replace("NAME", "move_base_msgs")),
            (
                "ws/src/nav/action/MoveBase.action",
                "geometry_msgs/PoseStamped target_pose\n---\n---\ngeometry_msgs/PoseStamped base_position\n",
            ),
            ("srvs/package.xml", &PKG.replace("NAME", "std_srvs")),
            ("srvs/srv/Trigger.srv", "---\nbool success   # did it work\nstring message\n"),
            ("srvs/srv/SetBool.srv", "bool data\n---\nbool success\nstring message\n"),
            ("srvs/srv/Empty.srv", "---\n"),
            ("tut/package.xml", &PKG.replace("NAME", "rospy_tutorials")),
            ("tut/srv/AddTwoInts.srv", "int64 a\nint64 b\n---\nint64 sum\n"),
        ],
    );
    let l = p.loader();
    // values of Debian's python3-move-base-msgs and python3-std-srvs classes
    let mb = l.action("move_base_msgs/MoveBase").unwrap();
    assert_eq!(mb.action().md5sum(), "70b6aca7c7f7746d8d1609ad94c80bb8");
    assert_eq!(
        mb.action_goal().md5sum(),
        "660d6895a1b9a16dce51fbdd9a64a56b"
    );
    assert_eq!(mb.goal().md5sum(), "257d089627d7eb7136c24d3593d05a16");
    assert_eq!(
        mb.action_feedback().md5sum(),
        "7d1870ff6e0decea702b943b5af0b42e"
    );
    assert_eq!(
        l.message("move_base_msgs/MoveBaseActionGoal")
            .unwrap()
            .md5sum(),
        "660d6895a1b9a16dce51fbdd9a64a56b"
    );
    for (srv, md5) in [
        ("std_srvs/Trigger", "937c9679a518e3a18d831e57125ea522"),
        ("std_srvs/SetBool", "09fb03525b03e7ea1fd3992bafd87e16"),
        ("std_srvs/Empty", "d41d8cd98f00b204e9800998ecf8427e"),
        (
            "rospy_tutorials/AddTwoInts",
            "6a2e34150c00229791cc89ff309fff21",
        ),
    ] {
        assert_eq!(l.service(srv).unwrap().md5sum(), md5, "{srv}");
    }
    assert_eq!(
        l.service("std_srvs/SetBool").unwrap().request().name(),
        "std_srvs/SetBoolRequest"
    );
}

#[test]
fn bad_definitions_and_unknown_types_are_clear_errors() {
    let p = Packages::new(
        "bad",
        &[
            ("b/package.xml", &PKG.replace("NAME", "bad_msgs")),
            ("b/msg/Typo.msg", "int32 x\nflaot64 y z\n"),
            ("b/msg/Loop.msg", "Loop next\n"),
            ("b/msg/UsesMissing.msg", "Missing m\n"),
            ("b/action/Short.action", "int32 a\n---\nint32 b\n"),
            (
                "b/action/Wrong.action",
                "int32 a\n---\nint32 b\n---\nint32 1c\n",
            ),
        ],
    );
    let l = p.loader();
    let e = l.message("bad_msgs/Typo").unwrap_err().to_string();
    assert!(e.contains("Typo.msg:2:"), "{e}");
    assert!(e.contains("flaot64 y z"), "{e}");
    assert!(matches!(
        l.message("bad_msgs/Loop"),
        Err(SchemaError::Recursive(_))
    ));
    let e = l.message("bad_msgs/UsesMissing").unwrap_err().to_string();
    assert!(
        e.starts_with("unknown type bad_msgs/Missing (used by bad_msgs/UsesMissing)"),
        "{e}"
    );
    assert!(matches!(
        l.action("bad_msgs/Short"),
        Err(SchemaError::Sections {
            want: 3,
            found: 2,
            ..
        })
    ));
    // a mistake in a section is reported at its line of the .action file
    let e = l.action("bad_msgs/Wrong").unwrap_err().to_string();
    assert!(
        e.contains("Wrong.action:5:7: `1c` is not a field name"),
        "{e}"
    );
    assert!(matches!(
        l.message("nonsense"),
        Err(SchemaError::BadName(_))
    ));
    assert!(matches!(
        l.message("no_such_pkg/Thing"),
        Err(SchemaError::Unknown { .. })
    ));
    assert!(matches!(
        l.add_msg("t/Huge", "float64[1000] a\nt2/Inner[1000] b\n"),
        Err(SchemaError::Unknown { .. })
    ));
    l.add_msg("t2/Inner", "uint8[1000] a\n").unwrap();
    l.add_msg("t2/Many", "Inner[1000] b\n").unwrap();
    assert!(matches!(
        l.add_msg("t2/TooMany", "Many[2000] c\n"),
        Err(SchemaError::TooLarge(_))
    ));
}

fn dyn_of<M: Message>(m: &M) -> DynMessage {
    let s = TypeLoader::builtin_only().message(M::type_name()).unwrap();
    DynMessage::decode(&s, &m.to_bytes()).unwrap()
}

#[test]
fn runtime_messages_encode_as_the_compiled_in_ones() {
    let pose = PoseStamped {
        header: Header {
            seq: 3,
            stamp: Time::new(12, 5000),
            frame_id: "robot1/odom".into(),
        },
        pose: Pose {
            position: Point {
                x: 1.5,
                y: -0.1,
                z: 0.0,
            },
            orientation: Quaternion {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            },
        },
    };
    let d = dyn_of(&pose);
    assert_eq!(d.to_bytes(), pose.to_bytes());
    assert_eq!(d.path("pose.position.x"), Some(&Value::F64(1.5)));
    assert_eq!(
        d.path("header.frame_id").and_then(Value::as_str),
        Some("robot1/odom")
    );
    let mut odom = Odometry::default();
    odom.pose.covariance.0[7] = 2.0;
    odom.child_frame_id = "base_link".into();
    let d = dyn_of(&odom);
    assert_eq!(d.to_bytes(), odom.to_bytes());
    let cov = d
        .path("pose")
        .unwrap()
        .as_message()
        .unwrap()
        .get("covariance");
    assert_eq!(cov.and_then(Value::as_array).map(Array::len), Some(36));
    let req = TestRequestGoal {
        terminate_status: 3,
        ignore_cancel: true,
        result_text: "é".into(),
        the_result: -4,
        is_simple_client: false,
        delay_accept: RosDuration { secs: -1, nsecs: 5 },
        delay_terminate: RosDuration::default(),
        pause_status: RosDuration { secs: 2, nsecs: 0 },
    };
    let d = dyn_of(&req);
    assert_eq!(d.to_bytes(), req.to_bytes());
    // a default runtime message is the default compiled-in one's bytes
    let s = TypeLoader::builtin_only()
        .message("nav_msgs/Odometry")
        .unwrap();
    assert_eq!(
        DynMessage::new(s).to_bytes(),
        Odometry::default().to_bytes()
    );
}

#[test]
fn decoding_is_bounded_and_never_panics() {
    let l = TypeLoader::builtin_only();
    l.add_msg("t/E", "").unwrap();
    let s = l
        .add_msg("t/Arrays", "float64[] a\nstring[] s\nt/E[] e\n")
        .unwrap();
    // a count of 2^32-1 doubles in a 12-byte message
    let mut b = u32::MAX.to_le_bytes().to_vec();
    b.extend([0; 8]);
    assert!(matches!(
        DynMessage::decode(&s, &b),
        Err(DecodeError::BadLength { .. })
    ));
    // empty messages take no bytes: their count is capped
    let mut b = vec![0u8; 8];
    b.extend(((MAX_EMPTY_ELEMENTS + 1) as u32).to_le_bytes());
    assert!(matches!(
        DynMessage::decode(&s, &b),
        Err(DecodeError::BadLength { .. })
    ));
    let mut b = vec![0u8; 8];
    b.extend(3u32.to_le_bytes());
    let m = DynMessage::decode(&s, &b).unwrap();
    assert_eq!(
        m.get("e").and_then(Value::as_array).map(Array::len),
        Some(3)
    );
    assert!(matches!(
        DynMessage::decode(&s, &[1, 0]),
        Err(DecodeError::Truncated { .. })
    ));
    let mut extra = m.to_bytes();
    extra.push(0);
    assert!(matches!(
        DynMessage::decode(&s, &extra),
        Err(DecodeError::Trailing(1))
    ));
    // any bytes: an error or a message that encodes back to the same bytes
    let goal = l.action("actionlib/TestRequest").unwrap();
    let mut x: u64 = 1;
    for n in 0..2000 {
        let bytes: Vec<u8> = (0..n % 97)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 56) as u8
            })
            .collect();
        for s in [goal.action_goal(), goal.action_result()] {
            if let Ok(m) = DynMessage::decode(s, &bytes) {
                // the same bytes, but for bools, which are kept canonical (0 or 1)
                assert_eq!(m.to_bytes().len(), bytes.len());
            }
        }
    }
}

#[test]
fn values_are_checked_against_their_fields() {
    let g = DynAction(
        TypeLoader::builtin_only()
            .action("skipper_msgs/Goto")
            .unwrap(),
    );
    let mut goal = g.new_goal();
    goal.set("x", Value::F64(2.0)).unwrap();
    assert_eq!(
        goal.set("x", Value::String("two".into())),
        Err(ValueError::WrongType {
            path: "x".into(),
            want: "float64".into(),
            got: "a string".into()
        })
    );
    let e = goal.set("z", Value::F64(1.0)).unwrap_err().to_string();
    assert_eq!(
        e,
        "skipper_msgs/GotoGoal has no field `z` (its fields are x, y, tolerance)"
    );
    let typed = GotoGoal::decode(&goal.to_bytes()).unwrap();
    assert_eq!(typed.x, 2.0);
}

#[test]
fn json_round_trips_and_converts_what_a_person_expects() {
    let l = TypeLoader::builtin_only();
    let s = l.message("geometry_msgs/PoseStamped").unwrap();
    let j = serde_json::json!({"header": {"stamp": 1.5, "frame_id": "map"}, "pose": {"position": {"x": 2}}});
    let m = from_json(&s, &j).unwrap();
    assert_eq!(m.path("pose.position.x"), Some(&Value::F64(2.0)));
    assert_eq!(
        m.path("header.stamp"),
        Some(&Value::Time(Time::new(1, 500_000_000)))
    );
    let back = from_json(&s, &to_json(&m)).unwrap();
    assert_eq!(back, m);
    let e = from_json(&s, &serde_json::json!({"header": {"seq": -1}}))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "header.seq: expected a whole number in the range of uint32, got the number -1"
    );
    let e = from_json(&s, &serde_json::json!({"pose": {"position": {"w": 1}}}))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("geometry_msgs/Point has no field `w`"), "{e}");
}

#[test]
fn yaml_is_printed_as_rostopic_echo_prints_it() {
    let l = TypeLoader::builtin_only();
    let s = l.message("geometry_msgs/PoseStamped").unwrap();
    let m = message_from_args(
        &s,
        &[
            "header.seq=3".into(),
            "{header: {stamp: {secs: 12, nsecs: 5000}, frame_id: robot1/odom}}".into(),
            "pose.position.x=1.5".into(),
            "pose: {position: {y: -0.1}, orientation: {w: 1}}".into(),
        ],
    )
    .unwrap();
    // printed by genpy 0.6 (Debian's python3-genpy) for the same message
    let want = "header: \n  seq: 3\n  stamp: \n    secs: 12\n    nsecs:      5000\n  frame_id: \"robot1/odom\"\npose: \n  position: \n    x: 1.5\n    y: -0.1\n    z: 0.0\n  orientation: \n    x: 0.0\n    y: 0.0\n    z: 0.0\n    w: 1.0";
    assert_eq!(to_yaml(&m), want);
    let a = l.message("actionlib_msgs/GoalStatusArray").unwrap();
    let m = message_from_args(
        &a,
        &[r#"{status_list: [{status: 3, text: "done \"x\""}, {}]}"#.into()],
    )
    .unwrap();
    let want = "header: \n  seq: 0\n  stamp: \n    secs: 0\n    nsecs:         0\n  frame_id: ''\nstatus_list: \n  - \n    goal_id: \n      stamp: \n        secs: 0\n        nsecs:         0\n      id: ''\n    status: 3\n    text: \"done \\\"x\\\"\"\n  - \n    goal_id: \n      stamp: \n        secs: 0\n        nsecs:         0\n      id: ''\n    status: 0\n    text: ''";
    assert_eq!(to_yaml(&m), want);
    l.add_msg(
        "t/Scan",
        "float32[] ranges\nfloat32[] intensities\nbool ok\nuint8[] data",
    )
    .unwrap();
    let sc = l.message("t/Scan").unwrap();
    let m = message_from_args(
        &sc,
        &["ranges=[1.0, 2.5, .inf]".into(), "data=[1, 2]".into()],
    )
    .unwrap();
    assert_eq!(
        to_yaml(&m),
        "ranges: [1.0, 2.5, inf]\nintensities: []\nok: False\ndata: [1, 2]"
    );
    // a string field takes the text as it is (JSON parameters of run_option)
    let ro = l.action("skipper_msgs/RunOption").unwrap();
    let m = message_from_args(
        ro.goal(),
        &["option=turn_to".into(), r#"parameters={"yaw": 1.0}"#.into()],
    )
    .unwrap();
    assert_eq!(
        m.get("parameters").and_then(Value::as_str),
        Some(r#"{"yaw": 1.0}"#)
    );
    for bad in ["x=two", "{x: [1]}", "[1, 2]", "nofield=1", "{x: "] {
        assert!(
            message_from_args(l.action("skipper_msgs/Goto").unwrap().goal(), &[bad.into()])
                .is_err(),
            "{bad}"
        );
    }
}

#[test]
fn a_runtime_typed_simple_server_serves_a_compiled_in_client() {
    let clock = Arc::new(ManualClock::at_secs(100.0));
    let l = TypeLoader::builtin_only();
    let action = DynAction(l.add_action("skipper_msgs/Goto", GOTO).unwrap());
    let server = ActionServer::with_type(action.clone(), ServerConfig::default(), clock.clone());
    let simple = SimpleActionServer::new(server.clone());
    let bus = InProcBus::<DynAction>::new();
    bus.attach_server(&server);
    simple.start();
    // the typed client reaches it through the wire bytes, as over ROS
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (s2, a2, seen2) = (simple.clone(), action.clone(), seen.clone());
    simple.register_goal_callback(move || {
        let goal = s2.accept_new_goal().unwrap();
        let x = goal.get("x").and_then(Value::as_f64).unwrap();
        let typed = GotoGoal::decode(&goal.to_bytes()).unwrap();
        seen2.lock().unwrap().push((x, typed));
        let mut fb = a2.new_feedback();
        fb.set("distance", Value::F64(0.5)).unwrap();
        s2.publish_feedback(fb).unwrap();
        // a result of another type is refused, and changes nothing
        assert!(matches!(
            s2.set_succeeded(Some(a2.new_goal()), "no"),
            Err(ActionError::WrongType(_))
        ));
        let mut r = a2.new_result();
        r.set("x", Value::F64(x)).unwrap();
        s2.set_succeeded(Some(r), "reached").unwrap();
    });
    let client = ActionClient::with_type(action.clone(), "/c", clock.clone());
    bus.attach_client(&client);
    let sc = SimpleActionClient::new(client);
    bus.pump();
    let fbs = Arc::new(std::sync::Mutex::new(Vec::new()));
    let f2 = fbs.clone();
    let goal = message_from_args(action.schema().goal(), &["x=2".into(), "y=1".into()]).unwrap();
    sc.send_goal(
        goal,
        None,
        None,
        Some(Box::new(move |f: &DynMessage| {
            f2.lock()
                .unwrap()
                .push(GotoFeedback::decode(&f.to_bytes()).unwrap())
        })),
    );
    bus.pump();
    assert_eq!(sc.state(), StatusCode::Succeeded);
    assert_eq!(sc.goal_status_text(), "reached");
    let r = GotoResult::decode(&sc.result().unwrap().to_bytes()).unwrap();
    assert_eq!(r.x, 2.0);
    assert_eq!(fbs.lock().unwrap()[0].distance, 0.5);
    assert_eq!(
        seen.lock().unwrap()[0].1,
        GotoGoal {
            x: 2.0,
            y: 1.0,
            tolerance: 0.0
        }
    );
}

/// Over ROS 1 (a fake master, loopback): a runtime-typed server on one node, a
/// compiled-in client on another; TCPROS accepts the connections only if the md5sums
/// agree, and the goal, feedback and result cross as bytes.
#[test]
fn over_ros1_a_runtime_server_and_a_compiled_in_client_agree() {
    use skipper_actionlib::ros1::{ActionClientBinding, ActionServerBinding};
    use skipper_ros1_wire::testing::FakeMaster;
    use skipper_ros1_wire::{Node, NodeConfig};
    let m = FakeMaster::start().unwrap();
    let node = |name: &str| {
        let mut c = NodeConfig::from_env(name);
        c.master_uri = m.uri.clone();
        c.advertise_host = "127.0.0.1".into();
        Node::new(c).unwrap()
    };
    let (sn, cn) = (node("/dyn_server"), node("/typed_client"));
    let action = DynAction(
        TypeLoader::builtin_only()
            .add_action("skipper_msgs/Goto", GOTO)
            .unwrap(),
    );
    let a = ActionServer::with_type(
        action.clone(),
        ServerConfig::default(),
        Arc::new(SystemClock),
    );
    let _sb = ActionServerBinding::new(&sn, "/robot/goto", &a).unwrap();
    let server = SimpleActionServer::with_execute_callback(a, move |s, goal: DynMessage| {
        let mut fb = action.new_feedback();
        fb.set(
            "distance",
            Value::F64(goal.get("x").and_then(Value::as_f64).unwrap_or(0.0)),
        )
        .map_err(|e| e.to_string())?;
        s.publish_feedback(fb).map_err(|e| e.to_string())?;
        let mut r = action.new_result();
        r.set("yaw", Value::F64(0.25)).map_err(|e| e.to_string())?;
        s.set_succeeded(Some(r), "reached")
            .map_err(|e| e.to_string())
    });
    server.start();
    let client = ActionClient::<Goto>::new(cn.name(), Arc::new(SystemClock));
    let _cb = ActionClientBinding::new(&cn, "/robot/goto", &client).unwrap();
    let c = SimpleActionClient::new(client);
    assert!(c.wait_for_server(Some(std::time::Duration::from_secs(10))));
    c.send_goal(
        GotoGoal {
            x: 3.0,
            y: 1.0,
            tolerance: 0.1,
        },
        None,
        None,
        None,
    );
    assert!(c.wait_for_result(Some(std::time::Duration::from_secs(10))));
    assert_eq!(c.state(), StatusCode::Succeeded);
    assert_eq!(
        c.result(),
        Some(GotoResult {
            x: 0.0,
            y: 0.0,
            yaw: 0.25
        })
    );
    assert_eq!(
        sn.stats().refused.load(std::sync::atomic::Ordering::SeqCst),
        0
    );
    server.shutdown();
}
