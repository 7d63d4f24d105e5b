//! Clients against servers over the in-process transport: the CommState table in use,
//! LOST detection, the SimpleActionClient, and the scenarios the reference observed on
//! real ROS (section 3.2 and 1.6 #8).

mod common;
use common::t;
use skipper_actionlib::server::action_server::STALE_GOAL_TEXT;
use skipper_actionlib::server::simple::REPLACED_TEXT;
use skipper_actionlib::transport::inproc::InProcBus;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::test_actions::{Test, TestFeedback, TestGoal, TestResult};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use CommState as C;
use StatusCode as S;

struct Rig {
    clock: Arc<ManualClock>,
    bus: InProcBus<Test>,
    server: SimpleActionServer<Test>,
    client: ActionClient<Test>,
}

fn rig() -> Rig {
    let clock = Arc::new(ManualClock::at(t(100)));
    let bus = InProcBus::<Test>::new();
    let a = ActionServer::new(
        ServerConfig {
            node_name: "/server".into(),
            ..Default::default()
        },
        clock.clone(),
    );
    bus.attach_server(&a);
    let server = SimpleActionServer::new(a);
    server.start();
    let client = ActionClient::new("/client", clock.clone());
    bus.attach_client(&client);
    bus.pump();
    Rig {
        clock,
        bus,
        server,
        client,
    }
}

type Seen = Arc<Mutex<Vec<CommState>>>;

impl Rig {
    /// The status timer fires: a received goal shows as PENDING only then.
    fn tick(&self) {
        self.server.action_server().publish_status();
        self.bus.pump();
    }
    fn send(&self, g: i32) -> (ClientGoalHandle<Test>, Seen) {
        let seen: Seen = Default::default();
        let s2 = seen.clone();
        let h = self.client.send_goal(
            TestGoal { goal: g },
            Some(Box::new(move |_, st| s2.lock().unwrap().push(st))),
            None,
        );
        self.clock.advance(Duration::from_millis(10));
        (h, seen)
    }
}

#[test]
fn the_client_identifies_the_server_by_the_status_caller_id() {
    let r = rig();
    assert_eq!(r.client.server_id().as_deref(), Some("/server"));
    assert!(r.client.wait_for_server(Some(Duration::from_millis(1))));
    // a client that attaches late gets the latched status
    let late = ActionClient::<Test>::new("/late", r.clock.clone());
    assert!(!late.is_server_connected());
    r.bus.attach_client(&late);
    r.bus.pump();
    assert!(late.is_server_connected());
}

#[test]
fn a_goal_runs_through_pending_active_waiting_for_result_done() {
    let r = rig();
    let fb = Arc::new(Mutex::new(Vec::new()));
    let f2 = fb.clone();
    let h = r.client.send_goal(
        TestGoal { goal: 1 },
        None,
        Some(Box::new(move |_, f: &TestFeedback| {
            f2.lock().unwrap().push(f.feedback)
        })),
    );
    assert_eq!(h.comm_state(), C::WaitingForGoalAck);
    r.bus.pump();
    assert_eq!(
        h.comm_state(),
        C::WaitingForGoalAck,
        "no status is published on receipt"
    );
    r.tick();
    assert_eq!(h.comm_state(), C::Pending);
    r.server.accept_new_goal().unwrap();
    r.server
        .publish_feedback(TestFeedback { feedback: 9 })
        .unwrap();
    r.bus.pump();
    assert_eq!(h.comm_state(), C::Active);
    r.server
        .set_succeeded(Some(TestResult { result: 42 }), "done")
        .unwrap();
    r.bus.pump();
    assert_eq!(h.comm_state(), C::Done);
    assert_eq!(h.terminal_state(), S::Succeeded);
    assert_eq!(h.goal_status_text(), "done");
    assert_eq!(h.result(), Some(TestResult { result: 42 }));
    assert_eq!(*fb.lock().unwrap(), [9]);
    // feedback after DONE is not delivered
    r.server
        .publish_feedback(TestFeedback { feedback: 10 })
        .unwrap();
    r.bus.pump();
    assert_eq!(*fb.lock().unwrap(), [9]);
}

/// Observed on real ROS: the old goal's client sees ACTIVE then PREEMPTED (never a
/// PREEMPTING status on the wire) and passes through PREEMPTING in its own CommState.
#[test]
fn preemption_by_a_newer_goal_never_shows_preempting_on_the_wire() {
    let r = rig();
    let statuses = Arc::new(Mutex::new(Vec::new()));
    let (old, seen_old) = r.send(1);
    r.bus.pump();
    r.tick();
    r.server.accept_new_goal().unwrap();
    r.bus.pump();
    let s2 = statuses.clone();
    let oh = old.clone();
    // record every status the old goal shows, per delivered message
    let (new, seen_new) = r.send(2);
    loop {
        let before = oh.goal_status();
        if s2.lock().unwrap().last() != Some(&before) {
            s2.lock().unwrap().push(before);
        }
        if !r.bus.pump_one() {
            break;
        }
    }
    r.server.accept_new_goal().unwrap();
    loop {
        let st = oh.goal_status();
        if s2.lock().unwrap().last() != Some(&st) {
            s2.lock().unwrap().push(st);
        }
        if !r.bus.pump_one() {
            break;
        }
    }
    let st = oh.goal_status();
    if statuses.lock().unwrap().last() != Some(&st) {
        statuses.lock().unwrap().push(st);
    }
    assert_eq!(*statuses.lock().unwrap(), [S::Active, S::Preempted]);
    assert_eq!(
        *seen_old.lock().unwrap(),
        [
            C::Pending,
            C::Active,
            C::Preempting,
            C::WaitingForResult,
            C::Done
        ]
    );
    assert_eq!(old.goal_status_text(), REPLACED_TEXT);
    r.server.set_succeeded(None, "").unwrap();
    r.bus.pump();
    assert_eq!(
        *seen_new.lock().unwrap(),
        [C::Pending, C::Active, C::WaitingForResult, C::Done]
    );
    assert_eq!(new.terminal_state(), S::Succeeded);
}

#[test]
fn a_bumped_queued_goal_is_recalled_with_the_reference_text() {
    let r = rig();
    let (_a, _) = r.send(1);
    r.bus.pump();
    r.server.accept_new_goal().unwrap();
    let (b, seen_b) = r.send(2);
    let (c, _) = r.send(3);
    r.bus.pump();
    assert_eq!(b.comm_state(), C::Done);
    assert_eq!(b.terminal_state(), S::Recalled);
    assert_eq!(
        b.goal_status_text(),
        "This goal was canceled because another goal was received by the simple action server"
    );
    assert_eq!(
        *seen_b.lock().unwrap(),
        [C::Pending, C::WaitingForResult, C::Done]
    );
    assert_eq!(c.comm_state(), C::Pending);
}

#[test]
fn cancel_all_shows_preempting_on_the_wire_then_preempted() {
    let r = rig();
    let (h, seen) = r.send(1);
    r.bus.pump();
    r.tick();
    r.server.accept_new_goal().unwrap();
    r.bus.pump();
    r.client.cancel_all_goals();
    r.bus.pump();
    assert_eq!(h.goal_status(), S::Preempting, "PREEMPTING on the wire");
    assert!(r.server.is_preempt_requested());
    r.server.set_preempted(None, "").unwrap();
    r.bus.pump();
    assert_eq!(h.terminal_state(), S::Preempted);
    assert_eq!(
        *seen.lock().unwrap(),
        [
            C::Pending,
            C::Active,
            C::Preempting,
            C::WaitingForResult,
            C::Done
        ]
    );
}

#[test]
fn a_stale_goal_is_recalled_at_once() {
    let r = rig();
    r.client.cancel_goals_at_and_before_time(r.clock.now());
    r.bus.pump();
    // the goal is stamped now, which is not after the last cancel
    let clock2 = Arc::new(ManualClock::at(t(95)));
    let c2 = ActionClient::<Test>::new("/c2", clock2);
    r.bus.attach_client(&c2);
    let h = c2.send_goal(TestGoal { goal: 1 }, None, None);
    r.bus.pump();
    assert_eq!(h.comm_state(), C::Done);
    assert_eq!(h.terminal_state(), S::Recalled);
    assert_eq!(h.goal_status_text(), STALE_GOAL_TEXT);
    assert!(!r.server.is_new_goal_available());
}

#[test]
fn lost_when_the_server_stops_listing_a_live_goal() {
    let r = rig();
    let (h, seen) = r.send(1);
    r.bus.pump();
    r.server.accept_new_goal().unwrap();
    r.bus.pump();
    // the server forgets the goal (like the reference's `lose` test)
    r.client
        .handle_status("/server", &GoalStatusArray::default());
    assert_eq!(h.comm_state(), C::Done);
    assert_eq!(h.goal_status(), S::Lost);
    assert_eq!(h.terminal_state(), S::Lost);
    assert_eq!(seen.lock().unwrap().last(), Some(&C::Done));
    // absence is tolerated while waiting for the ack or the result
    let (h2, _) = r.send(2);
    r.client
        .handle_status("/server", &GoalStatusArray::default());
    assert_eq!(h2.comm_state(), C::WaitingForGoalAck);
}

#[test]
fn cancel_of_one_goal_goes_through_waiting_for_cancel_ack() {
    let r = rig();
    let (h, seen) = r.send(1);
    r.bus.pump();
    r.tick();
    h.cancel();
    assert_eq!(h.comm_state(), C::WaitingForCancelAck);
    r.bus.pump();
    // cancelled while pending: RECALLING on the wire; accepting it makes it PREEMPTING
    assert_eq!(h.comm_state(), C::Recalling);
    r.server.accept_new_goal().unwrap();
    assert!(r.server.is_preempt_requested());
    r.server.set_preempted(None, "").unwrap();
    r.bus.pump();
    assert_eq!(
        *seen.lock().unwrap(),
        [
            C::Pending,
            C::WaitingForCancelAck,
            C::Recalling,
            C::Preempting,
            C::WaitingForResult,
            C::Done
        ]
    );
    // a cancel after DONE changes nothing (and a cancel with no goal does not crash)
    h.cancel();
    assert_eq!(h.comm_state(), C::Done);
    SimpleActionClient::new(r.client.clone()).cancel_goal();
}

#[test]
fn a_dropped_handle_is_no_longer_tracked() {
    let r = rig();
    let (h, seen) = r.send(1);
    drop(h);
    r.bus.pump();
    assert!(seen.lock().unwrap().is_empty());
}

/// The reference's scenario 2 (simple_client_test): an execute-callback server on its own
/// thread, a simple client, done callbacks, texts, send_goal_and_wait with a preempt.
#[test]
fn simple_client_against_an_execute_server() {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let bus = InProcBus::<Test>::new();
    let a = ActionServer::new(
        ServerConfig {
            node_name: "/reference_action".into(),
            ..Default::default()
        },
        clock.clone(),
    );
    bus.attach_server(&a);
    let server = SimpleActionServer::with_execute_callback(a, |s: &SimpleActionServer<Test>, g| {
        match g.goal {
            1 => s.set_succeeded(None, "The ref server has succeeded"),
            2 => s.set_aborted(None, "The ref server has aborted"),
            4 => {
                for _ in 0..10_000 {
                    if s.is_preempt_requested() {
                        return s.set_preempted(None, "").map_err(|e| e.to_string());
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                s.set_aborted(None, "")
            }
            _ => s.set_aborted(None, ""),
        }
        .map_err(|e| e.to_string())
    });
    server.start();
    let _pump = bus.spawn();
    let ac = ActionClient::new("/client", clock);
    bus.attach_client(&ac);
    let c = SimpleActionClient::new(ac);
    assert!(c.wait_for_server(Some(Duration::from_secs(10))));
    assert_eq!(c.state(), S::Lost, "no goal yet");

    let done = Arc::new(Mutex::new(None));
    let d2 = done.clone();
    let active = Arc::new(Mutex::new(false));
    let a2 = active.clone();
    c.send_goal(
        TestGoal { goal: 1 },
        Some(Box::new(move |st, _| *d2.lock().unwrap() = Some(st))),
        Some(Box::new(move || *a2.lock().unwrap() = true)),
        None,
    );
    assert!(c.wait_for_result(Some(Duration::from_secs(10))));
    assert_eq!(c.state(), S::Succeeded);
    assert_eq!(c.goal_status_text(), "The ref server has succeeded");
    assert_eq!(*done.lock().unwrap(), Some(S::Succeeded));
    assert!(*active.lock().unwrap());
    assert_eq!(c.simple_state(), SimpleGoalState::Done);

    c.send_goal(TestGoal { goal: 2 }, None, None, None);
    assert!(c.wait_for_result(Some(Duration::from_secs(10))));
    assert_eq!(c.state(), S::Aborted);
    assert_eq!(c.goal_status_text(), "The ref server has aborted");

    let st = c.send_goal_and_wait(
        TestGoal { goal: 4 },
        Duration::from_millis(200),
        Duration::from_secs(10),
    );
    assert_eq!(st, S::Preempted);
    c.cancel_all_goals();
    c.cancel_goals_at_and_before_time(Time::new(1, 0));
    server.shutdown();
}
