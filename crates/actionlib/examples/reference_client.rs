//! Skipper's action clients against other servers (scripts/ros/ runs it against rospy's
//! SimpleActionServer and ActionServer, scripts/ros/py_servers.py): the SimpleActionClient
//! and the raw ActionClient through the reference's scenarios. Prints one line per check;
//! exits 1 if any fails.
//!
//! Usage: `reference_client [NAMESPACE]` (default `/py`; ROS_MASTER_URI as usual).

use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::test_actions::*;
use skipper_ros1_wire::time::RosDuration;
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
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

/// How long any one state the protocol guarantees may take to come (a hang guard, not a
/// measure: nothing here is timed).
const DEADLINE: Duration = Duration::from_secs(30);
const WAIT: Option<Duration> = Some(DEADLINE);

/// Wait (up to [`DEADLINE`]) until `f` holds; whether it does at the end.
fn wait_until(mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + DEADLINE;
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    f()
}

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
    // feedback and result come on two connections 0.2 s apart, and a feedback read after
    // the result is dropped (the goal is done): the protocol guarantees the result and no
    // other feedback, not that this one comes first (the multi-goal server's feedback to
    // goals that stay active, below, is the one that must arrive)
    let got = fb.lock().unwrap().clone();
    c.check(
        "goal 9 SUCCEEDED, its feedback 9 if any",
        sc.state() == S::Succeeded && (got == [9] || got.is_empty()),
        (sc.state(), got),
    );
    // goal 4 ends only when preempted: send_goal_and_wait cancels it after 2 s; whether
    // the result comes within the 5 s it then waits is timing, the end state is not
    let st = sc.send_goal_and_wait(
        TestGoal { goal: 4 },
        Duration::from_secs(2),
        Duration::from_secs(5),
    );
    sc.wait_for_result(WAIT);
    c.check(
        "send_goal_and_wait(4, 2 s, 5 s) cancels: PREEMPTED",
        matches!(st, S::Preempted | S::Active | S::Pending) && sc.state() == S::Preempted,
        (st, sc.state()),
    );
    // preemption by a newer goal: the old one (running) ends PREEMPTED, the new one runs
    let old = ac.send_goal(TestGoal { goal: 4 }, None, None);
    wait_until(|| old.comm_state() == CommState::Active);
    let new = ac.send_goal(TestGoal { goal: 1 }, None, None);
    wait_until(|| old.comm_state() == CommState::Done && new.comm_state() == CommState::Done);
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
    let mut run =
        |name: &str, g: TestRequestGoal, cancel: bool, want: S, want_result: Option<i32>| {
            rc.send_goal(g, None, None, None);
            if cancel {
                // cancel the running goal (not one the server has yet to take)
                wait_until(|| rc.state() == S::Active);
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
        false,
        S::Succeeded,
        Some(42),
    );
    run(
        "just_abort",
        req(TestRequestGoal::TERMINATE_ABORTED, 0.0, false),
        false,
        S::Aborted,
        Some(42),
    );
    run(
        "just_preempt",
        req(TestRequestGoal::TERMINATE_SUCCESS, 1000.0, false),
        true,
        S::Preempted,
        Some(42),
    );
    run(
        "drop -> ABORTED",
        req(TestRequestGoal::TERMINATE_DROP, 0.0, false),
        false,
        S::Aborted,
        Some(0),
    );
    run(
        "exception -> ABORTED",
        req(TestRequestGoal::TERMINATE_EXCEPTION, 0.0, false),
        false,
        S::Aborted,
        Some(0),
    );
    run(
        "ignore_cancel_and_succeed",
        req(TestRequestGoal::TERMINATE_SUCCESS, 2.0, true),
        true,
        S::Succeeded,
        Some(42),
    );
    run(
        "lose -> LOST",
        req(TestRequestGoal::TERMINATE_LOSE, 0.0, false),
        false,
        S::Lost,
        None,
    );

    // rospy's multi-goal ActionServer with the raw ActionClient
    let ac = ActionClient::<Test>::new(node.name(), clock);
    let _b3 = ActionClientBinding::new(&node, &format!("{ns}/multi"), &ac).ok();
    c.check("wait_for_server multi", ac.wait_for_server(WAIT), ());
    let wait_done = |h: &ClientGoalHandle<Test>| {
        wait_until(|| h.comm_state() == CommState::Done);
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
    let feedback: Vec<Arc<Mutex<Vec<i32>>>> = (0..2).map(|_| Arc::default()).collect();
    let kept: Vec<_> = feedback
        .iter()
        .map(|f| {
            let f = f.clone();
            ac.send_goal(
                TestGoal { goal: 4 },
                None,
                Some(Box::new(
                    move |_: &ClientGoalHandle<Test>, m: &TestFeedback| {
                        f.lock().unwrap().push(m.feedback)
                    },
                )),
            )
        })
        .collect();
    wait_until(|| kept.iter().all(|h| h.comm_state() == CommState::Active));
    c.check(
        "multi: kept goals ACTIVE",
        kept.iter().all(|h| h.comm_state() == CommState::Active),
        kept.iter().map(|h| h.comm_state()).collect::<Vec<_>>(),
    );
    // goal 7: feedback n-i to each kept goal, which stays active: it must arrive
    let seven = ac.send_goal(TestGoal { goal: 7 }, None, None);
    wait_done(&seven);
    wait_until(|| feedback.iter().all(|f| !f.lock().unwrap().is_empty()));
    let got: Vec<Vec<i32>> = feedback.iter().map(|f| f.lock().unwrap().clone()).collect();
    c.check(
        "multi: goal 7 sends feedback n-i to the active goals",
        seven.terminal_state() == S::Succeeded && got == [vec![2], vec![1]],
        (seven.terminal_state(), got),
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
    wait_until(|| one.comm_state() == CommState::Active);
    one.cancel();
    // the server takes the cancel (PREEMPTING) and does nothing more until goal 5
    wait_until(|| one.comm_state() == CommState::Preempting && one.goal_status() == S::Preempting);
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
