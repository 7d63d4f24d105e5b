//! ROS 1 serialisation against byte vectors produced by rospy (genpy) on Debian, decode
//! errors, and property tests (round trips; arbitrary bytes never panic).

use proptest::prelude::*;
use skipper_ros1_wire::msg::actionlib_msgs::{ActionGoal, GoalId, GoalStatus, GoalStatusArray};
use skipper_ros1_wire::msg::common::{Header, Odometry, PoseStamped, Twist, Vector3};
use skipper_ros1_wire::msg::skipper_msgs::GotoGoal;
use skipper_ros1_wire::msg::test_actions::{TestGoal, TestRequestGoal};
use skipper_ros1_wire::msg::{DecodeError, Message};
use skipper_ros1_wire::time::{RosDuration, Time};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn an_empty_status_array_is_20_bytes() {
    assert_eq!(GoalStatusArray::default().to_bytes(), vec![0u8; 20]);
}

#[test]
fn bytes_match_rospy() {
    let g = ActionGoal {
        header: Header {
            seq: 7,
            stamp: Time::new(1, 2),
            frame_id: "f".into(),
        },
        goal_id: GoalId {
            stamp: Time::new(3, 4),
            id: "id-1".into(),
        },
        goal: TestGoal { goal: -5 },
    };
    let want = hex("070000000100000002000000010000006603000000040000000400000069642d31fbffffff");
    assert_eq!(g.to_bytes(), want);
    assert_eq!(ActionGoal::<TestGoal>::decode(&want).unwrap(), g);

    let a = GoalStatusArray {
        header: Header {
            seq: 1,
            stamp: Time::new(10, 20),
            frame_id: String::new(),
        },
        status_list: vec![GoalStatus {
            goal_id: GoalId {
                stamp: Time::new(5, 6),
                id: "x".into(),
            },
            status: 3,
            text: "ok".into(),
        }],
    };
    let want =
        hex("010000000a0000001400000000000000010000000500000006000000010000007803020000006f6b");
    assert_eq!(a.to_bytes(), want);
    assert_eq!(GoalStatusArray::decode(&want).unwrap(), a);

    let r = TestRequestGoal {
        terminate_status: 1,
        ignore_cancel: true,
        result_text: "hé".into(),
        the_result: 42,
        is_simple_client: false,
        delay_accept: RosDuration {
            secs: 1,
            nsecs: 500,
        },
        delay_terminate: RosDuration { secs: -2, nsecs: 0 },
        pause_status: RosDuration::default(),
    };
    let want =
        hex("01000000010300000068c3a92a0000000001000000f4010000feffffff000000000000000000000000");
    assert_eq!(r.to_bytes(), want);
    assert_eq!(TestRequestGoal::decode(&want).unwrap(), r);

    let t = Twist {
        linear: Vector3 {
            x: 0.5,
            ..Default::default()
        },
        angular: Vector3 {
            z: -1.25,
            ..Default::default()
        },
    };
    let want = hex("000000000000e03f0000000000000000000000000000000000000000000000000000000000000000000000000000f4bf");
    assert_eq!(t.to_bytes(), want);
    assert_eq!(Twist::decode(&want).unwrap(), t);
}

#[test]
fn type_names_of_wrapped_messages() {
    assert_eq!(
        ActionGoal::<TestGoal>::type_name(),
        "actionlib/TestActionGoal"
    );
    assert_eq!(
        ActionGoal::<TestGoal>::md5sum(),
        "348369c5b403676156094e8c159720bf"
    );
    assert_eq!(
        ActionGoal::<GotoGoal>::type_name(),
        "skipper_msgs/GotoActionGoal"
    );
    assert!(Odometry::definition().contains("MSG: geometry_msgs/PoseWithCovariance"));
    assert_eq!(PoseStamped::md5sum(), "d3812c3cbc69362b77dc0b19b345f8f5");
}

#[test]
fn bad_bytes_get_clear_errors() {
    let good = GoalStatusArray {
        status_list: vec![GoalStatus {
            text: "hello".into(),
            ..Default::default()
        }],
        ..Default::default()
    }
    .to_bytes();
    // truncated anywhere
    for n in 0..good.len() {
        assert!(GoalStatusArray::decode(&good[..n]).is_err(), "{n} bytes");
    }
    // trailing bytes
    let mut long = good.clone();
    long.push(0);
    assert_eq!(
        GoalStatusArray::decode(&long),
        Err(DecodeError::Trailing(1))
    );
    // an absurd array count
    let mut huge = vec![0u8; 16];
    huge.extend_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        GoalStatusArray::decode(&huge),
        Err(DecodeError::BadLength { .. })
    ));
    // a string that is not UTF-8
    let bad = [1u8, 0, 0, 0, 0xff];
    assert!(matches!(
        skipper_ros1_wire::msg::common::StringMsg::decode(&bad),
        Err(DecodeError::NotUtf8(4))
    ));
}

proptest! {
    #[test]
    fn round_trip(seq in any::<u32>(), secs in any::<u32>(), nsecs in any::<u32>(), id in ".{0,40}", text in ".{0,40}", status in any::<u8>(), n in 0usize..5) {
        let a = GoalStatusArray {
            header: Header { seq, stamp: Time { secs, nsecs }, frame_id: id.clone() },
            status_list: (0..n).map(|i| GoalStatus {
                goal_id: GoalId { stamp: Time { secs: secs ^ i as u32, nsecs }, id: id.clone() },
                status,
                text: text.clone(),
            }).collect(),
        };
        prop_assert_eq!(GoalStatusArray::decode(&a.to_bytes()).unwrap(), a);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = GoalStatusArray::decode(&bytes);
        let _ = ActionGoal::<TestRequestGoal>::decode(&bytes);
        let _ = Odometry::decode(&bytes);
    }
}
