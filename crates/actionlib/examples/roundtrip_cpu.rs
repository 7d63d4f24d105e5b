//! The in-process goal round trip of `benches/goal_roundtrip.rs` (send, accept, one
//! feedback, succeed, result), measured in on-CPU time of the thread
//! (`/proc/thread-self/schedstat`) rather than wall time: on a machine shared with
//! builds, wall time counts the time the thread waited for a core. Seven rounds of
//! 200,000 goals; prints each round's microseconds per goal and the best.
//!
//! Usage: `cargo run --release -p skipper-actionlib --example roundtrip_cpu`

use skipper_actionlib::msg::test_actions::{Test, TestFeedback, TestGoal, TestResult};
use skipper_actionlib::transport::inproc::InProcBus;
use skipper_actionlib::*;
use std::sync::Arc;
/// Seconds this thread has run on a core (wall time where schedstat is missing).
fn cpu(start: std::time::Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns * 1e-9)
}
fn main() {
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
    let start = std::time::Instant::now();
    let mut n = 0;
    let mut best = f64::MAX;
    for _round in 0..7 {
        let c0 = cpu(start);
        for _ in 0..200_000 {
            n += 1;
            manual.advance(std::time::Duration::from_secs(1));
            let h = client.send_goal(TestGoal { goal: n }, None, None);
            bus.pump();
            assert_eq!(h.comm_state(), CommState::Done);
        }
        let per = (cpu(start) - c0) / 200_000.0 * 1e6;
        best = best.min(per);
        print!("{per:.3} ");
    }
    println!("\nbest CPU per round trip: {best:.3} us");
}
