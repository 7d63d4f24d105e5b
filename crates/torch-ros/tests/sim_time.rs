//! Simulated time: with `/use_sim_time` true, a script's `ros.Time.now()` is what the
//! test's `/clock` says, and `Duration:sleep()`, a client's `waitForServer(timeout)` and
//! `Rate:sleep()` end by that clock. The test holds the clock still for a second of wall
//! time inside each wait (longer than the wait itself), then moves it past the wait's
//! end: the script reports how much simulated time each wait took (tests/scripts/
//! sim_time.lua), which a wait by the wall clock would get wrong.

mod common;
use common::*;
use skipper_actionlib::Time;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::msg::sensor::Clock;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::topics::subscribe_dyn;
use skipper_ros1_wire::xmlrpc::Value as Xml;
use skipper_ros1_wire::TypedPublisher;
use skipper_torch_ros::Outcome;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[test]
fn now_sleeps_and_timeouts_follow_clock() {
    let m = FakeMaster::start().unwrap();
    m.set_param("/use_sim_time", Xml::Bool(true));
    let n = node(&m, "/rust_clock");
    let string = TypeLoader::global().message("std_msgs/String").unwrap();
    let heard: Arc<Mutex<Vec<String>>> = Arc::default();
    let h2 = heard.clone();
    let _sub = subscribe_dyn(&n, "/lua_state", &string, move |m, _| {
        let text = m.get("data").and_then(Value::as_str).unwrap_or("");
        h2.lock().unwrap().push(text.to_string());
    })
    .unwrap();
    // /clock, published every 10 ms at the time the test sets (in tenths of a second),
    // moving a tenth a tick while `creep` is set
    let tenths = Arc::new(AtomicU64::new(1000));
    let creep = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let clock: TypedPublisher<Clock> = TypedPublisher::advertise(&n, "/clock", false).unwrap();
    let (t2, c2, d2) = (tenths.clone(), creep.clone(), done.clone());
    let ticker = std::thread::spawn(move || {
        while !d2.load(Ordering::SeqCst) {
            if c2.load(Ordering::SeqCst) {
                t2.fetch_add(1, Ordering::SeqCst);
            }
            let t = t2.load(Ordering::SeqCst);
            clock.publish(&Clock {
                clock: Time::from_nanos(t * 100_000_000),
            });
            std::thread::sleep(Duration::from_millis(10));
        }
    });
    let script = Script::start(&m.uri, "sim_time.lua", &[]);
    let said = |what: &str| {
        wait_until(what, || {
            heard.lock().unwrap().iter().any(|s| s.starts_with(what))
        });
        let all = heard.lock().unwrap();
        all.iter().find(|s| s.starts_with(what)).unwrap().clone()
    };
    // a wait has begun: hold the clock a fifth of a second on for longer than the wait
    // lasts, then let it creep until the wait's report comes; the simulated seconds the
    // wait took, as the script measured them
    let waited = |begun: &str, report: &str| -> f64 {
        said(begun);
        creep.store(false, Ordering::SeqCst);
        tenths.fetch_add(2, Ordering::SeqCst);
        std::thread::sleep(Duration::from_secs(1));
        creep.store(true, Ordering::SeqCst);
        let r = said(report);
        r.split(' ').nth(1).unwrap().parse().unwrap()
    };
    let slept = waited("sleeping", "slept");
    assert_eq!(
        said("sleeping"),
        "sleeping 100.0",
        "ros.Time.now() is /clock's"
    );
    assert!(
        slept >= 0.5,
        "Duration(0.5):sleep() took {slept} s of /clock"
    );
    let w = waited("waiting", "waited");
    assert!(w >= 0.5, "waitForServer(0.5) took {w} s of /clock");
    assert!(said("waited").ends_with(" false"), "no server was found");
    let cycle = waited("rate", "cycle");
    assert!(cycle >= 0.5, "Rate(2):sleep() took {cycle} s of /clock");
    assert_eq!(script.join(), Ok(Outcome::Finished(0)));
    done.store(true, Ordering::SeqCst);
    ticker.join().unwrap();
}
