//! The SimpleActionServer's policy, rules S-1..S-11, against a recording sink.

mod common;
use common::*;
use skipper_actionlib::server::simple::{ACCEPTED_TEXT, NO_TERMINAL_TEXT, REPLACED_TEXT};
use skipper_actionlib::*;
use skipper_ros1_wire::msg::test_actions::{Test, TestFeedback, TestResult};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use StatusCode as S;

type Log = Arc<Mutex<Vec<&'static str>>>;

fn simple() -> (
    SimpleActionServer<Test>,
    ActionServer<Test>,
    Arc<Recorder>,
    Log,
) {
    let (s, _c, rec) = server();
    let ss = SimpleActionServer::new(s.clone());
    let log: Log = Default::default();
    let (l1, l2) = (log.clone(), log.clone());
    ss.register_goal_callback(move || l1.lock().unwrap().push("goal"));
    ss.register_preempt_callback(move || l2.lock().unwrap().push("preempt"));
    ss.start();
    rec.take();
    (ss, s, rec, log)
}

#[test]
fn s1_goals_stay_pending_until_accepted_and_s6_accept_makes_them_active() {
    let (ss, s, rec, log) = simple();
    assert!(!ss.is_new_goal_available());
    assert!(matches!(ss.accept_new_goal(), Err(ActionError::NoNewGoal)));
    s.handle_goal(goal("a", t(90), 5));
    assert_eq!(*log.lock().unwrap(), ["goal"]);
    assert!(ss.is_new_goal_available() && !ss.is_active());
    assert_eq!(s.status_list()[0].status, S::Pending as u8);
    assert_eq!(ss.accept_new_goal().unwrap().goal, 5);
    assert!(!ss.is_new_goal_available() && ss.is_active() && !ss.is_preempt_requested());
    assert_eq!(
        rec.last_status(),
        vec![("a".into(), S::Active, ACCEPTED_TEXT.into())]
    );
    // S-8: default result when none is given
    ss.set_succeeded(None, "").unwrap();
    assert_eq!(
        rec.results(),
        vec![("a".into(), S::Succeeded, String::new(), 0)]
    );
    assert!(!ss.is_active());
}

#[test]
fn s3_s9_a_newer_goal_preempts_without_preempting_on_the_wire() {
    let (ss, s, rec, log) = simple();
    s.handle_goal(goal("old", t(90), 1));
    ss.accept_new_goal().unwrap();
    s.handle_goal(goal("new", t(91), 2));
    // preempt callback first, goal callback second
    assert_eq!(*log.lock().unwrap(), ["goal", "preempt", "goal"]);
    assert!(ss.is_preempt_requested() && ss.is_new_goal_available());
    assert_eq!(
        s.status_list()[0].status,
        S::Active as u8,
        "S-9: still ACTIVE"
    );
    ss.accept_new_goal().unwrap();
    assert!(!ss.is_preempt_requested());
    assert_eq!(rec.wire_statuses("old"), [S::Active, S::Preempted]);
    assert_eq!(
        rec.results()[0],
        ("old".into(), S::Preempted, REPLACED_TEXT.into(), 0)
    );
    assert_eq!(ss.current_goal().unwrap().id(), "new");
}

#[test]
fn s3_a_queued_goal_bumped_by_a_newer_one_is_recalled() {
    let (ss, s, rec, _log) = simple();
    s.handle_goal(goal("run", t(90), 1));
    ss.accept_new_goal().unwrap();
    s.handle_goal(goal("q1", t(91), 2));
    s.handle_goal(goal("q2", t(92), 3));
    assert_eq!(
        rec.results(),
        vec![("q1".into(), S::Recalled, REPLACED_TEXT.into(), 0)]
    );
    assert_eq!(ss.accept_new_goal().unwrap().goal, 3);
}

#[test]
fn s2_s4_an_older_goal_is_recalled_equal_stamps_count_as_newer() {
    let (ss, s, rec, log) = simple();
    s.handle_goal(goal("a", t(90), 1));
    ss.accept_new_goal().unwrap();
    s.handle_goal(goal("older", t(89), 2));
    assert_eq!(
        rec.results(),
        vec![("older".into(), S::Recalled, REPLACED_TEXT.into(), 0)]
    );
    assert_eq!(
        *log.lock().unwrap(),
        ["goal"],
        "no callback for an older goal"
    );
    s.handle_goal(goal("same", t(90), 3));
    assert!(ss.is_new_goal_available());
}

#[test]
fn s5_cancel_of_current_fires_preempt_cancel_of_next_only_sets_a_flag() {
    let (ss, s, _rec, log) = simple();
    s.handle_goal(goal("a", t(90), 1));
    ss.accept_new_goal().unwrap();
    s.handle_cancel(cancel("a", Time::ZERO));
    assert!(ss.is_preempt_requested());
    assert_eq!(*log.lock().unwrap(), ["goal", "preempt"]);
    ss.set_preempted(Some(TestResult { result: 3 }), "stopped")
        .unwrap();
    assert_eq!(ss.current_goal().unwrap().status(), Some(S::Preempted));
    // a cancel for the next goal before it is accepted: no callback, flag after accept
    s.handle_goal(goal("b", t(91), 2));
    s.handle_cancel(cancel("b", Time::ZERO));
    assert_eq!(*log.lock().unwrap(), ["goal", "preempt", "goal"]);
    ss.accept_new_goal().unwrap();
    assert!(
        ss.is_preempt_requested(),
        "check isPreemptRequested after accepting"
    );
    assert_eq!(ss.current_goal().unwrap().status(), Some(S::Preempting));
    assert!(ss.is_active());
    // S-8: setAborted from PREEMPTING is allowed
    ss.set_aborted(None, "gave up").unwrap();
    assert!(!ss.is_active());
}

#[test]
fn s8_feedback_goes_to_the_current_goal() {
    let (ss, s, rec, _log) = simple();
    assert!(matches!(
        ss.publish_feedback(TestFeedback { feedback: 1 }),
        Err(ActionError::NoGoal)
    ));
    s.handle_goal(goal("a", t(90), 1));
    ss.accept_new_goal().unwrap();
    rec.take();
    ss.publish_feedback(TestFeedback { feedback: 9 }).unwrap();
    assert_eq!(rec.take(), vec![Out::Feedback("a".into(), S::Active, 9)]);
}

fn wait_until(f: impl Fn() -> bool) {
    for _ in 0..2000 {
        if f() {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("condition never became true");
}

#[test]
fn s10_execute_callback_mode() {
    let (s, _c, rec) = server();
    let ss = SimpleActionServer::with_execute_callback(
        s.clone(),
        |srv: &SimpleActionServer<Test>, g| match g.goal {
            1 => srv
                .set_succeeded(
                    Some(TestResult { result: 1 }),
                    "The ref server has succeeded",
                )
                .map_err(|e| e.to_string()),
            2 => Ok(()),
            3 => Err("it broke".into()),
            _ => {
                while !srv.is_preempt_requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                srv.set_preempted(None, "").map_err(|e| e.to_string())
            }
        },
    );
    // a goal callback is refused in this mode
    ss.register_goal_callback(|| panic!("must not be called"));
    ss.start();
    let done = |id: &str| {
        let r = rec.clone();
        let id = id.to_string();
        move || r.results().iter().any(|x| x.0 == id)
    };
    s.handle_goal(goal("g1", t(90), 1));
    wait_until(done("g1"));
    s.handle_goal(goal("g2", t(91), 2));
    wait_until(done("g2"));
    s.handle_goal(goal("g3", t(92), 3));
    wait_until(done("g3"));
    s.handle_goal(goal("g4", t(93), 4));
    wait_until(|| ss.is_active());
    s.handle_cancel(cancel("g4", Time::ZERO));
    wait_until(done("g4"));
    ss.shutdown();
    let r: Vec<(String, S, String)> = rec.results().into_iter().map(|x| (x.0, x.1, x.2)).collect();
    assert_eq!(
        r,
        vec![
            (
                "g1".into(),
                S::Succeeded,
                "The ref server has succeeded".into()
            ),
            ("g2".into(), S::Aborted, NO_TERMINAL_TEXT.into()),
            ("g3".into(), S::Aborted, "it broke".into()),
            ("g4".into(), S::Preempted, String::new()),
        ]
    );
    // after shutdown nothing is processed (S-11, A-2)
    s.handle_goal(goal("g5", t(94), 1));
    assert!(!s.status_list().iter().any(|x| x.goal_id.id == "g5"));
}
