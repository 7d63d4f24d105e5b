//! The server keeps its status list serialised and re-encodes only the entries that
//! change. Whatever happens to its goals — duplicates, placeholders, cancels by id,
//! stamp and all, transitions with texts of every length, goals ageing out of the list,
//! goals forgotten — every published list must decode to exactly the goals the server
//! tracks, in order, with their stamps, codes and texts.

use proptest::prelude::*;
use skipper_actionlib::transport::ServerSink;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::actionlib_msgs::{
    ActionFeedback, ActionGoal, ActionResult, GoalStatus, GoalStatusArray, StatusList,
};
use skipper_ros1_wire::msg::test_actions::{Test, TestFeedback, TestGoal, TestResult};
use skipper_ros1_wire::msg::Message;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Keeps the last published list, decoded, and its bytes as one message.
#[derive(Default)]
struct LastList(Mutex<Option<(GoalStatusArray, Vec<u8>)>>);

impl ServerSink<Test> for LastList {
    fn publish_status(&self, list: &StatusList<'_>) {
        let mut body = Vec::new();
        list.encode(&mut body);
        let decoded = list.to_array().expect("the server's status list decodes");
        *self.0.lock().unwrap() = Some((decoded, body));
    }
    fn publish_result(&self, _: ActionResult<TestResult>) {}
    fn publish_feedback(&self, _: ActionFeedback<TestFeedback>) {}
}

#[derive(Debug, Clone)]
enum Op {
    Goal {
        id: u8,
        stamp: u32,
    },
    Accept(usize),
    End {
        handle: usize,
        how: u8,
        text: String,
    },
    Cancel {
        id: Option<u8>,
        stamp: u32,
    },
    Advance(u64),
    Forget(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u8..8, 90u32..130).prop_map(|(id, stamp)| Op::Goal { id, stamp }),
        3 => (0usize..16).prop_map(Op::Accept),
        3 => (0usize..16, 0u8..4, "[a-z ]{0,40}").prop_map(|(handle, how, text)| Op::End { handle, how, text }),
        1 => (proptest::option::of(0u8..10), 0u32..130).prop_map(|(id, stamp)| Op::Cancel { id, stamp }),
        2 => (0u64..4000).prop_map(Op::Advance),
        1 => (0u8..8).prop_map(Op::Forget),
    ]
}

fn id(n: u8) -> String {
    // ids of different lengths, so re-encoding moves the entries after them
    format!("goal-{}", "x".repeat(usize::from(n)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn every_published_list_is_the_tracked_goals(ops in proptest::collection::vec(op(), 1..60)) {
        let clock = Arc::new(ManualClock::at(Time::new(100, 0)));
        let s = ActionServer::<Test>::new(ServerConfig::default(), clock.clone());
        let sink = Arc::new(LastList::default());
        s.connect(sink.clone());
        let handles = Arc::new(Mutex::new(Vec::new()));
        let h = handles.clone();
        s.register_goal_callback(move |g| h.lock().unwrap().push(g));
        s.start();
        for op in ops {
            let handle = |i: usize| {
                let hs = handles.lock().unwrap();
                (!hs.is_empty()).then(|| hs[i % hs.len()].clone())
            };
            match op {
                Op::Goal { id: n, stamp } => s.handle_goal(ActionGoal {
                    goal_id: GoalId { stamp: Time::new(stamp, 0), id: id(n) },
                    goal: TestGoal { goal: 1 },
                    ..Default::default()
                }),
                Op::Accept(i) => {
                    if let Some(g) = handle(i) {
                        let _ = g.set_accepted("accepted with a text of some length");
                    }
                }
                Op::End { handle: i, how, text } => {
                    if let Some(g) = handle(i) {
                        let _ = match how {
                            0 => g.set_succeeded(None, &text),
                            1 => g.set_aborted(None, &text),
                            2 => g.set_rejected(None, &text),
                            _ => g.set_canceled(None, &text),
                        };
                    }
                }
                Op::Cancel { id: n, stamp } => s.handle_cancel(GoalId {
                    stamp: if stamp < 90 { Time::ZERO } else { Time::new(stamp, 0) },
                    id: n.map(id).unwrap_or_default(),
                }),
                Op::Advance(ms) => clock.advance(Duration::from_millis(ms)),
                Op::Forget(n) => s.forget_goal_for_testing(&id(n)),
            }
            s.publish_status();
            let (published, body) = sink.0.lock().unwrap().clone().expect("published");
            let tracked: Vec<GoalStatus> = s.status_list();
            prop_assert_eq!(&published.status_list, &tracked);
            // the bytes are the message a ROS 1 peer decodes
            let direct = GoalStatusArray { header: published.header.clone(), status_list: tracked };
            prop_assert_eq!(body, direct.to_bytes());
        }
    }
}
