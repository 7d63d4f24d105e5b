//! The goal round trip (send, accept, one feedback, succeed, result) in process.
//!
//! Compared with: rospy's SimpleActionServer under the Python SimpleActionClient on ROS 1
//! loopback (performance-anchors.md, "actionlib in Python": 1.86 ms p50 round trip,
//! 1.46 ms server CPU per goal). The ROS 1 loopback comparison itself is
//! `scripts/ros/bench.py` (a Python client against Skipper's server and rospy's).

use criterion::{criterion_group, criterion_main, Criterion};
use skipper_actionlib::msg::test_actions::{Test, TestFeedback, TestGoal, TestResult};
use skipper_actionlib::transport::inproc::InProcBus;
use skipper_actionlib::*;
use std::sync::Arc;

fn roundtrip(c: &mut Criterion) {
    // One goal per simulated second: with the default 5 s status_list_timeout the status
    // list holds the last five finished goals, as a server sees at that goal rate.
    let manual = Arc::new(ManualClock::at_secs(100.0));
    let clock: Arc<dyn Clock> = manual.clone();
    let bus = InProcBus::<Test>::new();
    let a = ActionServer::new(ServerConfig::default(), clock.clone());
    bus.attach_server(&a);
    let server = SimpleActionServer::new(a);
    let s2 = server.clone();
    server.register_goal_callback(move || {
        if let Ok(g) = s2.accept_new_goal() {
            let _ = s2.publish_feedback(TestFeedback { feedback: g.goal });
            let _ = s2.set_succeeded(Some(TestResult { result: g.goal }), "");
        }
    });
    server.start();
    let client = ActionClient::<Test>::new("/bench", clock);
    bus.attach_client(&client);
    bus.pump();
    let mut n = 0;
    c.bench_function(
        "inproc goal round trip (send, accept, feedback, succeed, result)",
        |b| {
            b.iter(|| {
                n += 1;
                manual.advance(std::time::Duration::from_secs(1));
                let h = client.send_goal(TestGoal { goal: n }, None, None);
                bus.pump();
                assert_eq!(h.comm_state(), CommState::Done);
            })
        },
    );
}

criterion_group!(benches, roundtrip);
criterion_main!(benches);
