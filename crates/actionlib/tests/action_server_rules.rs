//! The ActionServer's bookkeeping, rules A-1..A-10, and the goal handle's publishing
//! rules G-6..G-9, against a recording sink and a manual clock.

mod common;
use common::*;
use skipper_actionlib::server::action_server::{generate_goal_id, STALE_GOAL_TEXT};
use skipper_actionlib::*;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use StatusCode as S;

fn collect(
    s: &ActionServer<skipper_ros1_wire::msg::test_actions::Test>,
) -> Arc<Mutex<Vec<ServerGoalHandle<skipper_ros1_wire::msg::test_actions::Test>>>> {
    let got = Arc::new(Mutex::new(Vec::new()));
    let g = got.clone();
    s.register_goal_callback(move |h| g.lock().unwrap().push(h));
    got
}

#[test]
fn a2_nothing_before_start_and_start_publishes_status() {
    let (s, _c, rec) = server();
    let got = collect(&s);
    s.handle_goal(goal("a", t(90), 1));
    s.handle_cancel(cancel("", Time::ZERO));
    assert!(rec.take().is_empty());
    assert!(got.lock().unwrap().is_empty());
    s.start();
    assert_eq!(rec.take(), vec![Out::Status(vec![])]);
}

#[test]
fn a3_duplicate_goals_are_ignored_and_a_goal_cancelled_before_it_came_is_recalled() {
    let (s, _c, rec) = server();
    let got = collect(&s);
    s.start();
    s.handle_goal(goal("a", t(90), 1));
    s.handle_goal(goal("a", t(90), 1));
    assert_eq!(got.lock().unwrap().len(), 1, "the user callback runs once");
    // A-7 then A-3: the cancel arrives first
    rec.take();
    s.handle_cancel(cancel("b", Time::ZERO));
    assert_eq!(
        rec.take(),
        vec![],
        "a placeholder changes no state, publishes nothing"
    );
    assert!(s
        .status_list()
        .iter()
        .any(|x| x.goal_id.id == "b" && x.status == S::Recalling as u8 && x.text.is_empty()));
    s.handle_goal(goal("b", t(95), 2));
    assert_eq!(
        got.lock().unwrap().len(),
        1,
        "no callback for the recalled goal"
    );
    assert_eq!(
        rec.results(),
        vec![("b".into(), S::Recalled, String::new(), 0)]
    );
}

#[test]
fn a4_generated_ids_and_stamps() {
    let (s, c, _rec) = server();
    let got = collect(&s);
    s.start();
    c.set(Time::new(123, 456));
    s.handle_goal(goal("", Time::ZERO, 1));
    let h = got.lock().unwrap()[0].clone();
    assert_eq!(h.stamp(), Time::new(123, 456), "zero stamp -> now");
    let parts: Vec<&str> = h.id().rsplitn(3, '-').collect();
    assert_eq!(parts[0], "123.456");
    assert!(parts[1].parse::<u64>().is_ok());
    assert_eq!(parts[2], "/srv");
    // the counter is process-wide and increasing, and ids are unique across threads
    let a = generate_goal_id("/n", Time::new(1, 2));
    let b = generate_goal_id("/n", Time::new(1, 2));
    assert_ne!(a, b);
    let ids: Vec<String> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..8)
            .map(|_| {
                sc.spawn(|| {
                    (0..500)
                        .map(|_| generate_goal_id("/n", Time::ZERO))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut u = ids.clone();
    u.sort();
    u.dedup();
    assert_eq!(u.len(), ids.len());
}

#[test]
fn a5_a_goal_stamped_at_or_before_the_last_cancel_is_recalled_at_once() {
    let (s, _c, rec) = server();
    let got = collect(&s);
    s.start();
    s.handle_cancel(cancel("", t(95)));
    assert_eq!(s.last_cancel(), t(95));
    s.handle_goal(goal("old", t(95), 1));
    s.handle_goal(goal("new", t(96), 1));
    assert_eq!(got.lock().unwrap().len(), 1);
    assert_eq!(got.lock().unwrap()[0].id(), "new");
    assert_eq!(
        rec.results(),
        vec![("old".into(), S::Recalled, STALE_GOAL_TEXT.into(), 0)]
    );
}

#[test]
fn a6_cancel_all_by_id_and_by_stamp_inclusive() {
    let (s, _c, _rec) = server();
    let got = collect(&s);
    let cancelled = Arc::new(Mutex::new(Vec::<String>::new()));
    let cc = cancelled.clone();
    s.register_cancel_callback(move |h| cc.lock().unwrap().push(h.id().to_string()));
    s.start();
    for (i, id) in ["g1", "g2", "g3", "g4"].iter().enumerate() {
        s.handle_goal(goal(id, t(90 + i as u32), 0));
    }
    let hs = got.lock().unwrap().clone();
    hs[0].set_accepted("").unwrap();
    // by stamp, inclusive: g1 (90) and g2 (91)
    s.handle_cancel(cancel("", t(91)));
    assert_eq!(hs[0].status(), Some(S::Preempting));
    assert_eq!(hs[1].status(), Some(S::Recalling));
    assert_eq!(hs[2].status(), Some(S::Pending));
    // id OR stamp: g4 by id, nothing new by stamp 80
    s.handle_cancel(cancel("g4", t(80)));
    assert_eq!(hs[3].status(), Some(S::Recalling));
    assert_eq!(
        s.last_cancel(),
        t(91),
        "A-8: the last cancel only moves forward"
    );
    // all: only g3 changes; the cancel callback ran once per changed goal (G-7)
    s.handle_cancel(cancel("", Time::ZERO));
    assert_eq!(hs[2].status(), Some(S::Recalling));
    assert_eq!(*cancelled.lock().unwrap(), ["g1", "g2", "g4", "g3"]);
}

#[test]
fn a9_finished_goals_leave_the_status_list_after_the_timeout_live_ones_never() {
    let (s, c, rec) = server();
    let got = collect(&s);
    s.start();
    s.handle_goal(goal("done", t(90), 0));
    s.handle_goal(goal("live", t(91), 0));
    let hs = got.lock().unwrap().clone();
    hs[0].set_accepted("").unwrap();
    hs[0].set_succeeded(None, "ok").unwrap();
    c.advance(Duration::from_secs(5));
    s.publish_status();
    assert_eq!(
        rec.last_status().len(),
        2,
        "still there at exactly the timeout"
    );
    c.advance(Duration::from_millis(1));
    s.publish_status();
    assert_eq!(
        rec.last_status(),
        vec![("live".to_string(), S::Pending, String::new())]
    );
    c.advance(Duration::from_secs(3600));
    s.publish_status();
    assert_eq!(rec.last_status().len(), 1);
    // a placeholder ages out too (A-7, as in Python)
    s.handle_cancel(cancel("ghost", Time::ZERO));
    assert_eq!(s.status_list().len(), 2);
    c.advance(Duration::from_secs(6));
    assert_eq!(s.status_list().len(), 1);
}

#[test]
fn g6_a_terminal_transition_publishes_one_result_then_the_status() {
    let (s, _c, rec) = server();
    let got = collect(&s);
    s.start();
    s.handle_goal(goal("a", t(90), 0));
    let h = got.lock().unwrap()[0].clone();
    rec.take();
    h.set_accepted("go").unwrap();
    assert_eq!(
        rec.take(),
        vec![Out::Status(vec![("a".into(), S::Active, "go".into())])]
    );
    h.publish_feedback(skipper_ros1_wire::msg::test_actions::TestFeedback { feedback: 7 })
        .unwrap();
    h.set_succeeded(
        Some(skipper_ros1_wire::msg::test_actions::TestResult { result: 42 }),
        "fine",
    )
    .unwrap();
    assert_eq!(
        rec.take(),
        vec![
            Out::Feedback("a".into(), S::Active, 7),
            Out::Result("a".into(), S::Succeeded, "fine".into(), 42),
            Out::Status(vec![("a".into(), S::Succeeded, "fine".into())]),
        ]
    );
    // G-9: invalid transitions change nothing and publish nothing
    assert!(matches!(
        h.set_aborted(None, "x"),
        Err(ActionError::InvalidTransition {
            from: S::Succeeded,
            ..
        })
    ));
    assert!(h.set_accepted("x").is_err());
    assert_eq!(rec.take(), vec![]);
    assert_eq!(h.status(), Some(S::Succeeded));
    // G-8: feedback in any state
    h.publish_feedback(Default::default()).unwrap();
    assert_eq!(rec.take(), vec![Out::Feedback("a".into(), S::Succeeded, 0)]);
}

#[test]
fn g5_a_goal_asked_to_cancel_may_still_succeed_or_be_rejected_from_recalling() {
    let (s, _c, rec) = server();
    let got = collect(&s);
    s.start();
    s.handle_goal(goal("a", t(90), 0));
    s.handle_goal(goal("b", t(91), 0));
    let hs = got.lock().unwrap().clone();
    hs[0].set_accepted("").unwrap();
    s.handle_cancel(cancel("", Time::ZERO));
    hs[0].set_succeeded(None, "").unwrap();
    hs[1].set_rejected(None, "no").unwrap();
    let r = rec.results();
    assert_eq!(r[0].1, S::Succeeded);
    assert_eq!(r[1].1, S::Rejected);
    // G-2: accepting a recalling goal makes it PREEMPTING
    s.handle_goal(goal("c", t(92), 0));
    s.handle_cancel(cancel("c", Time::ZERO));
    let c = got.lock().unwrap()[2].clone();
    c.set_accepted("").unwrap();
    assert_eq!(c.status(), Some(S::Preempting));
}

#[test]
fn a_server_that_goes_away_ends_every_unfinished_goal() {
    let (s, _c, rec) = server();
    let got = collect(&s);
    s.start();
    for (id, g) in [
        ("active", 1),
        ("preempting", 2),
        ("pending", 3),
        ("done", 4),
    ] {
        s.handle_goal(goal(id, t(90), g));
    }
    s.handle_cancel(cancel("recalling", Time::ZERO)); // a placeholder: RECALLING
    let handles = got.lock().unwrap().clone();
    for h in &handles[..2] {
        h.set_accepted("").unwrap();
    }
    handles[3].set_accepted("").unwrap();
    handles[3].set_succeeded(None, "ok").unwrap();
    s.handle_cancel(cancel("preempting", Time::ZERO));
    rec.take();
    assert_eq!(s.end_unfinished("the node shut down"), 4);
    let mut ended = rec.results();
    ended.sort_by(|a, b| a.0.cmp(&b.0));
    let why = "the node shut down".to_string();
    assert_eq!(
        ended,
        vec![
            ("active".into(), S::Aborted, why.clone(), 0),
            ("pending".into(), S::Rejected, why.clone(), 0),
            ("preempting".into(), S::Aborted, why.clone(), 0),
            ("recalling".into(), S::Recalled, why, 0),
        ]
    );
    assert_eq!(s.end_unfinished("again"), 0, "nothing is left to end");
}

#[test]
fn the_transitions_of_a_goal_callback_go_out_as_one_status_list_after_it() {
    use skipper_ros1_wire::msg::test_actions::{TestFeedback, TestResult};
    let (s, _c, rec) = server();
    // a quick goal: accepted, one feedback and succeeded inside the goal callback
    s.register_goal_callback(|h| {
        h.set_accepted("go").unwrap();
        h.publish_feedback(TestFeedback { feedback: 7 }).unwrap();
        h.set_succeeded(Some(TestResult { result: 42 }), "fine")
            .unwrap();
    });
    s.start();
    rec.take();
    s.handle_goal(goal("a", t(90), 0));
    assert_eq!(
        rec.take(),
        vec![
            Out::Feedback("a".into(), S::Active, 7),
            Out::Result("a".into(), S::Succeeded, "fine".into(), 42),
            Out::Status(vec![("a".into(), S::Succeeded, "fine".into())]),
        ]
    );
    // a callback that only accepts: one list, after it
    s.register_goal_callback(|h| h.set_accepted("go").unwrap());
    s.handle_goal(goal("b", t(91), 0));
    assert_eq!(
        rec.take(),
        vec![Out::Status(vec![
            ("a".into(), S::Succeeded, "fine".into()),
            ("b".into(), S::Active, "go".into()),
        ])]
    );
    // one that changes nothing publishes nothing
    s.register_goal_callback(|_| {});
    s.handle_goal(goal("c", t(92), 0));
    assert_eq!(rec.take(), vec![]);
}

#[test]
fn a_transition_on_another_thread_during_a_goal_callback_is_published_at_once() {
    // a simple server accepts on its execute thread while the goal callback may still run:
    // that accept is published then, not held for the callback (the reference server's
    // TERMINATE_LOSE forgets the goal right after accepting it, and a client that never
    // saw it ACTIVE could not tell it was lost)
    let (s, _c, rec) = server();
    let (seen_tx, seen_rx) = std::sync::mpsc::channel();
    let rec2 = rec.clone();
    s.register_goal_callback(move |h| {
        let rec = rec2.clone();
        let other = std::thread::spawn(move || {
            h.set_accepted("go").unwrap();
            rec.take()
        });
        // still inside the callback: what the other thread's accept published
        seen_tx.send(other.join().unwrap()).unwrap();
    });
    s.start();
    rec.take();
    s.handle_goal(goal("a", t(90), 0));
    assert_eq!(
        seen_rx.recv().unwrap(),
        vec![Out::Status(vec![("a".into(), S::Active, "go".into())])]
    );
    assert_eq!(rec.take(), vec![], "nothing more after the callback");
}
