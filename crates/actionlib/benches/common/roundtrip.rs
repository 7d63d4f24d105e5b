//! The in-process goal round trip that `benches/goal_roundtrip.rs` (wall time, criterion)
//! and `examples/roundtrip_cpu.rs` (on-CPU time) measure: a SimpleActionServer with a
//! goal callback that accepts, publishes one feedback and succeeds, and an ActionClient,
//! on the in-process bus with a manual clock.

use skipper_actionlib::transport::inproc::InProcBus;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::test_actions::{Test, TestFeedback, TestGoal, TestResult};
use std::sync::Arc;

/// The server, the client and the bus between them.
pub struct RoundTrip {
    manual: Arc<ManualClock>,
    bus: InProcBus<Test>,
    _server: SimpleActionServer<Test>,
    client: ActionClient<Test>,
    n: i32,
}

impl RoundTrip {
    pub fn new() -> Self {
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
        Self {
            manual,
            bus,
            _server: server,
            client,
            n: 0,
        }
    }

    /// One goal (send, accept, one feedback, succeed, result), a simulated second after
    /// the last: with the default 5 s status_list_timeout the status list holds the last
    /// five finished goals, as a server sees at that goal rate.
    pub fn once(&mut self) {
        self.n += 1;
        self.manual.advance(std::time::Duration::from_secs(1));
        let h = self.client.send_goal(TestGoal { goal: self.n }, None, None);
        self.bus.pump();
        assert_eq!(h.comm_state(), CommState::Done);
    }
}
