//! Skipper's action clients against other servers (scripts/ros/ runs it against rospy's
//! SimpleActionServer and ActionServer, scripts/ros/py_servers.py): the SimpleActionClient
//! and the raw ActionClient through the reference's scenarios. Prints one line per check;
//! exits 1 if any fails.
//!
//! Usage: `reference_client [NAMESPACE]` (default `/py`; ROS_MASTER_URI as usual).

use skipper_actionlib::msg::test_actions::*;
use skipper_actionlib::ros1::{ActionClientBinding, Node, NodeConfig};
use skipper_actionlib::time::RosDuration;
use skipper_actionlib::*;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use StatusCode as S;

struct Checks {
    passed: u32,
    failed: u32,
}

impl Checks {
    fn check(&mut self, name: &str, ok: bool, detail: impl std::fmt::Debug) {
        if ok {
            self.passed += 1;
            println!("ok   {name}");
        } else {
            self.failed += 1;
            println!("FAIL {name} {detail:?}");
        }
    }
}

const WAIT: Option<Duration> = Some(Duration::from_secs(10));

fn main() {
    let ns = std::env::args().nth(1).unwrap_or_else(|| "/py".into());
    let node = match Node::new(NodeConfig::from_env("/skipper_reference_client")) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let mut c = Checks {
        passed: 0,
        failed: 0,
    };

    // simple client against rospy's SimpleActionServer (execute callback)
    let ac = ActionClient::<Test>::new(node.name(), clock.clone());
    let _b1 = ActionClientBinding::new(&node, &format!("{ns}/simple"), &ac).ok();
    let sc = SimpleActionClient::new(ac.clone());
    c.check("wait_for_server simple", sc.wait_for_server(WAIT), ());
    let done = Arc::new(Mutex::new(None));
    let d2 = done.clone();
    sc.send_goal(
        TestGoal { goal: 1 },
        Some(Box::new(move |st, r| *d2.lock().unwrap() = Some((st, r)))),
        None,
        None,
    );
    c.check("goal 1 ends", sc.wait_for_result(WAIT), ());
    c.check(
        "goal 1 SUCCEEDED with text",
        sc.state() == S::Succeeded && sc.goal_status_text() == "The ref server has succeeded",
        (sc.state(), sc.goal_status_text()),
    );
    let got = done.lock().unwrap().clone();
    c.check(
        "done callback with the result",
        got == Some((S::Succeeded, Some(TestResult { result: 1 }))),
        got,
    );
    sc.send_goal(TestGoal { goal: 2 }, None, None, None);
    sc.wait_for_result(WAIT);
    c.check(
        "goal 2 ABORTED with text",
        sc.state() == S::Aborted && sc.goal_status_text() == "The ref server has aborted",
        (sc.state(), sc.goal_status_text()),
    );
    let fb = Arc::new(Mutex::new(Vec::new()));
    let f2 = fb.clone();
    sc.send_goal(
        TestGoal { goal: 9 },
        None,
        None,
        Some(Box::new(move |f: &TestFeedback| {
            f2.lock().unwrap().push(f.feedback)
        })),
    );
    sc.wait_for_result(WAIT);
    let got = fb.lock().unwrap().clone();
    c.check(
        "goal 9 feedback then SUCCEEDED",
        sc.state() == S::Succeeded && got == [9],
        (sc.state(), got),
    );
    let st = sc.send_goal_and_wait(
        TestGoal { goal: 4 },
        Duration::from_secs(2),
        Duration::from_secs(5),
    );
    c.check(
        "send_goal_and_wait(4, 2 s, 5 s) PREEMPTED",
        st == S::Preempted,
        st,
    );
    // preemption by a newer goal: the old one ends PREEMPTED, the new one runs
    let old = ac.send_goal(TestGoal { goal: 4 }, None, None);
    std::thread::sleep(Duration::from_millis(500));
    let new = ac.send_goal(TestGoal { goal: 1 }, None, None);
    for _ in 0..1000 {
        if old.comm_state() == CommState::Done && new.comm_state() == CommState::Done {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    c.check(
        "newer goal preempts: old PREEMPTED, new SUCCEEDED",
        old.terminal_state() == S::Preempted && new.terminal_state() == S::Succeeded,
        (old.terminal_state(), new.terminal_state()),
    );
    sc.cancel_all_goals();

    // TestRequest mock server
    let ac = ActionClient::<TestRequest>::new(node.name(), clock.clone());
    let _b2 = ActionClientBinding::new(&node, &format!("{ns}/request"), &ac).ok();
    let rc = SimpleActionClient::new(ac);
    c.check("wait_for_server request", rc.wait_for_server(WAIT), ());
    let req = |status: i32, delay: f64, ignore: bool| TestRequestGoal {
        terminate_status: status,
        the_result: 42,
        ignore_cancel: ignore,
        delay_terminate: RosDuration {
            secs: delay as i32,
            nsecs: ((delay.fract()) * 1e9) as i32,
        },
        ..Default::default()
    };
    let mut run = |name: &str,
                   g: TestRequestGoal,
                   cancel_after: Option<f64>,
                   want: S,
                   want_result: Option<i32>| {
        rc.send_goal(g, None, None, None);
        if let Some(s) = cancel_after {
            std::thread::sleep(Duration::from_secs_f64(s));
            rc.cancel_goal();
        }
        let ended = rc.wait_for_result(WAIT);
        let got = rc.result().map(|r| r.the_result);
        c.check(
            name,
            ended && rc.state() == want && (want_result.is_none() || got == want_result),
            (rc.state(), got),
        );
    };
    run(
        "just_succeed",
        req(TestRequestGoal::TERMINATE_SUCCESS, 0.0, false),
        None,
        S::Succeeded,
        Some(42),
    );
    run(
        "just_abort",
        req(TestRequestGoal::TERMINATE_ABORTED, 0.0, false),
        None,
        S::Aborted,
        Some(42),
    );
    run(
        "just_preempt",
        req(TestRequestGoal::TERMINATE_SUCCESS, 1000.0, false),
        Some(1.0),
        S::Preempted,
        Some(42),
    );
    run(
        "drop -> ABORTED",
        req(TestRequestGoal::TERMINATE_DROP, 0.0, false),
        None,
        S::Aborted,
        Some(0),
    );
    run(
        "exception -> ABORTED",
        req(TestRequestGoal::TERMINATE_EXCEPTION, 0.0, false),
        None,
        S::Aborted,
        Some(0),
    );
    run(
        "ignore_cancel_and_succeed",
        req(TestRequestGoal::TERMINATE_SUCCESS, 2.0, true),
        Some(1.0),
        S::Succeeded,
        Some(42),
    );
    run(
        "lose -> LOST",
        req(TestRequestGoal::TERMINATE_LOSE, 0.0, false),
        None,
        S::Lost,
        None,
    );

    // rospy's multi-goal ActionServer with the raw ActionClient
    let ac = ActionClient::<Test>::new(node.name(), clock);
    let _b3 = ActionClientBinding::new(&node, &format!("{ns}/multi"), &ac).ok();
    c.check("wait_for_server multi", ac.wait_for_server(WAIT), ());
    let wait_done = |h: &ClientGoalHandle<Test>| {
        for _ in 0..1000 {
            if h.comm_state() == CommState::Done {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    let hs: Vec<_> = [1, 2, 3]
        .iter()
        .map(|&g| ac.send_goal(TestGoal { goal: g }, None, None))
        .collect();
    hs.iter().for_each(wait_done);
    let got: Vec<S> = hs.iter().map(|h| h.terminal_state()).collect();
    c.check(
        "multi: 1 SUCCEEDED, 2 ABORTED, 3 REJECTED",
        got == [S::Succeeded, S::Aborted, S::Rejected],
        got,
    );
    let kept: Vec<_> = (0..2)
        .map(|_| ac.send_goal(TestGoal { goal: 4 }, None, None))
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    c.check(
        "multi: kept goals ACTIVE",
        kept.iter().all(|h| h.comm_state() == CommState::Active),
        kept.iter().map(|h| h.comm_state()).collect::<Vec<_>>(),
    );
    let five = ac.send_goal(TestGoal { goal: 5 }, None, None);
    wait_done(&five);
    kept.iter().for_each(wait_done);
    c.check(
        "multi: 5 succeeds the kept goals",
        kept.iter().all(|h| h.terminal_state() == S::Succeeded),
        (),
    );
    let one = ac.send_goal(TestGoal { goal: 4 }, None, None);
    std::thread::sleep(Duration::from_millis(300));
    one.cancel();
    std::thread::sleep(Duration::from_millis(300));
    c.check(
        "multi: a cancel the server ignores leaves PREEMPTING",
        one.comm_state() == CommState::Preempting && one.goal_status() == S::Preempting,
        (one.comm_state(), one.goal_status()),
    );
    let five = ac.send_goal(TestGoal { goal: 5 }, None, None);
    wait_done(&five);
    wait_done(&one);
    c.check(
        "multi: PREEMPTING then SUCCEEDED",
        one.terminal_state() == S::Succeeded,
        one.terminal_state(),
    );

    println!("{} passed, {} failed", c.passed, c.failed);
    std::process::exit(if c.failed == 0 { 0 } else { 1 });
}
