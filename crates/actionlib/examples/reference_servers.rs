//! The reference test servers of ros/actionlib's own tests, written with
//! skipper-actionlib and served on a ROS 1 master (scripts/ros/ runs Python clients
//! against them):
//!
//! - `reference_simple_action` (actionlib/Test, SimpleActionServer with an execute
//!   callback): 1 succeeds ("The ref server has succeeded"), 2 aborts ("The ref server
//!   has aborted"), 3 aborts (a simple server cannot reject), 4 waits up to 10 s for a
//!   preempt (polling every 0.1 s) and ends PREEMPTED, 9 sends feedback 9 after 1 s and
//!   succeeds 1 s later; anything else aborts.
//! - `test_request_action` (actionlib/TestRequest): ends each goal as its fields ask
//!   (succeed, abort, reject -> abort, drop, exception, lose), after `delay_terminate`,
//!   honouring cancels unless `ignore_cancel`.
//! - `reference_action` (actionlib/Test, multi-goal ActionServer): 1 succeeds, 2 aborts,
//!   3 is rejected, 4 is kept active, 5 succeeds every kept goal, 6 aborts them, 7 sends
//!   each kept goal feedback n-i, 8 alternately succeeds/aborts them with results n-i.
//!
//! Usage: `reference_servers [NODE_NAME]` (ROS_MASTER_URI as usual); runs until Ctrl-C
//! (SIGINT) or until the master asks the node to shut down.

use skipper_actionlib::ros1::action::server_config_from_params;
use skipper_actionlib::ros1::ActionServerBinding;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::test_actions::*;
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn sleep_unless_preempted(s: &SimpleActionServer<impl Action>, d: Duration) -> bool {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if s.is_preempt_requested() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

fn dur(d: skipper_ros1_wire::time::RosDuration) -> Duration {
    let n = i64::from(d.secs) * 1_000_000_000 + i64::from(d.nsecs);
    Duration::from_nanos(n.max(0) as u64)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/skipper_reference".into());
    let node = Node::new(NodeConfig::from_env(&name))?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);

    // 1. reference_simple_action
    let ns = "/reference_simple_action";
    let a = ActionServer::<Test>::new(server_config_from_params(&node, ns), clock.clone());
    let _b1 = ActionServerBinding::new(&node, ns, &a)?;
    let simple = SimpleActionServer::with_execute_callback(
        a,
        |s: &SimpleActionServer<Test>, g: TestGoal| {
            let r = match g.goal {
                1 => s.set_succeeded(
                    Some(TestResult { result: 1 }),
                    "The ref server has succeeded",
                ),
                2 => s.set_aborted(None, "The ref server has aborted"),
                3 => s.set_aborted(None, "Simple server can't reject goals"),
                4 => {
                    for _ in 0..100 {
                        if s.is_preempt_requested() {
                            return s.set_preempted(None, "").map_err(|e| e.to_string());
                        }
                        std::thread::sleep(Duration::from_millis(100));
                    }
                    s.set_aborted(None, "")
                }
                9 => {
                    if sleep_unless_preempted(s, Duration::from_secs(1)) {
                        return s.set_preempted(None, "").map_err(|e| e.to_string());
                    }
                    let _ = s.publish_feedback(TestFeedback { feedback: 9 });
                    if sleep_unless_preempted(s, Duration::from_secs(1)) {
                        return s.set_preempted(None, "").map_err(|e| e.to_string());
                    }
                    s.set_succeeded(Some(TestResult { result: 9 }), "")
                }
                _ => s.set_aborted(None, ""),
            };
            r.map_err(|e| e.to_string())
        },
    );
    simple.start();

    // 2. test_request_action
    let ns = "/test_request_action";
    let a = ActionServer::<TestRequest>::new(server_config_from_params(&node, ns), clock.clone());
    let _b2 = ActionServerBinding::new(&node, ns, &a)?;
    let a2 = a.clone();
    let req = SimpleActionServer::with_execute_callback(
        a,
        move |s: &SimpleActionServer<TestRequest>, g: TestRequestGoal| {
            let result = TestRequestResult {
                the_result: g.the_result,
                is_simple_server: true,
            };
            let end = Instant::now() + dur(g.delay_terminate);
            while Instant::now() < end {
                std::thread::sleep(Duration::from_millis(20));
                if !g.ignore_cancel && s.is_preempt_requested() {
                    return s
                        .set_preempted(Some(result), &g.result_text)
                        .map_err(|e| e.to_string());
                }
            }
            match g.terminate_status {
                TestRequestGoal::TERMINATE_SUCCESS => s.set_succeeded(Some(result), &g.result_text),
                TestRequestGoal::TERMINATE_ABORTED => s.set_aborted(Some(result), &g.result_text),
                TestRequestGoal::TERMINATE_REJECTED => {
                    s.set_aborted(None, "Simple action server cannot reject goals")
                }
                TestRequestGoal::TERMINATE_DROP => Ok(()),
                TestRequestGoal::TERMINATE_EXCEPTION => {
                    return Err("Terminating by throwing an exception".into())
                }
                TestRequestGoal::TERMINATE_LOSE => {
                    if let Some(h) = s.current_goal() {
                        a2.forget_goal_for_testing(h.id());
                    }
                    Ok(())
                }
                other => s.set_aborted(None, &format!("Don't know how to terminate as {other}")),
            }
            .map_err(|e| e.to_string())
        },
    );
    req.start();

    // 3. reference_action (multi-goal)
    let ns = "/reference_action";
    let a = ActionServer::<Test>::new(server_config_from_params(&node, ns), clock);
    let _b3 = ActionServerBinding::new(&node, ns, &a)?;
    let saved: Arc<Mutex<Vec<ServerGoalHandle<Test>>>> = Arc::default();
    a.register_goal_callback(move |gh| {
        let mut saved = saved.lock().unwrap_or_else(|p| p.into_inner());
        let _ = match gh.goal().goal {
            1 => gh
                .set_accepted("")
                .and_then(|_| gh.set_succeeded(None, "The ref server has succeeded")),
            2 => gh
                .set_accepted("")
                .and_then(|_| gh.set_aborted(None, "The ref server has aborted")),
            3 => gh.set_rejected(None, "The ref server has rejected"),
            4 => {
                let r = gh.set_accepted("");
                saved.push(gh);
                r
            }
            5 | 6 => {
                let _ = gh.set_accepted("");
                for g in saved.drain(..) {
                    let _ = if gh.goal().goal == 5 {
                        g.set_succeeded(None, "")
                    } else {
                        g.set_aborted(None, "")
                    };
                }
                gh.set_succeeded(None, "")
            }
            7 => {
                let _ = gh.set_accepted("");
                let n = saved.len() as i32;
                for (i, g) in saved.iter().enumerate() {
                    let _ = g.publish_feedback(TestFeedback {
                        feedback: n - i as i32,
                    });
                }
                gh.set_succeeded(None, "")
            }
            8 => {
                let _ = gh.set_accepted("");
                let n = saved.len() as i32;
                for (i, g) in saved.drain(..).enumerate() {
                    let r = Some(TestResult {
                        result: n - i as i32,
                    });
                    let _ = if i % 2 == 0 {
                        g.set_succeeded(r, "The ref server has succeeded")
                    } else {
                        g.set_aborted(r, "The ref server has aborted")
                    };
                }
                gh.set_succeeded(None, "")
            }
            _ => Ok(()),
        };
    });
    a.start();

    // until Ctrl-C (SIGINT) or the master asks the node to shut down
    let interrupted = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = interrupted.clone();
    ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::SeqCst))?;
    println!("reference servers ready on {}", node.uri());
    loop {
        std::thread::sleep(Duration::from_millis(200));
        if node.shutdown_requested() || interrupted.load(std::sync::atomic::Ordering::SeqCst) {
            // unregister from the master (the servers' threads keep their publishers)
            node.shutdown();
            return Ok(());
        }
    }
}
