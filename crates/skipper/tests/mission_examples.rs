//! The small example missions of `examples/missions/`, flown on the simulated AUV.

use skipper::controllers::mission;
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunConfig, RunOutcome, RunReport, Runner, Value};
use skipper_mission::MissionController;
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

#[derive(Default, Debug)]
struct Log {
    min_offshore: f64,
    max_depth: f64,
    min_depth_after_dive: f64,
    dived: bool,
    temperatures: u64,
    transitions: Vec<String>,
}

struct Rec(Rc<RefCell<Log>>);

impl Observer for Rec {
    fn on_cycle(&mut self, v: &CycleView<'_>) {
        let mut l = self.0.borrow_mut();
        let s = &v.signals[0];
        let get = |n: &str| s.get_named(n).and_then(Value::as_f64).unwrap_or(f64::NAN);
        l.min_offshore = l.min_offshore.min(get("DISTANCE_OFFSHORE"));
        let d = get("DEPTH");
        l.max_depth = l.max_depth.max(d);
        if d > 10.0 {
            l.dived = true;
        }
        if l.dived {
            l.min_depth_after_dive = l.min_depth_after_dive.min(d);
        }
        let t = s.id("SEA_WATER_TEMPERATURE").unwrap();
        if s.updated_at(t) == Some(v.now) {
            l.temperatures += 1;
        }
        for e in v.events {
            if e.kind == "transition" {
                l.transitions.push(format!(
                    "{}:{}",
                    e.data["item"].as_str().unwrap(),
                    e.data["to"].as_str().unwrap()
                ));
            }
        }
    }
}

fn fly(name: &str) -> (RunReport, Log) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/missions")
        .join(name);
    let m = mission::load(&path).unwrap();
    let world = mission::world(&m, None, 0).unwrap();
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            period: Duration::from_millis(200),
            until: Some(Duration::from_secs(6 * 3600)),
            ..RunConfig::default()
        },
    );
    r.set_controller(0, Box::new(MissionController::new(m)));
    let log = Rc::new(RefCell::new(Log {
        min_offshore: f64::INFINITY,
        min_depth_after_dive: f64::INFINITY,
        ..Log::default()
    }));
    r.add_observer(Box::new(Rec(log.clone())));
    let report = r.run();
    let l = std::mem::take(&mut *log.borrow_mut());
    (report, l)
}

#[test]
fn surface_and_report_dives_surfaces_and_reports() {
    let (report, l) = fly("surface_and_report.lua");
    assert_eq!(report.outcome, RunOutcome::Finished, "{report:?}");
    assert!(l.max_depth > 25.0 && l.max_depth <= 100.0, "{l:?}");
    for t in [
        "Report/1:completed",
        "Report/2:completed",
        "Report:completed",
    ] {
        assert!(
            l.transitions.iter().any(|x| x == t),
            "{t}: {:?}",
            l.transitions
        );
    }
    assert_eq!(report.extra["surfacings"], 1);
    assert!(report.extra["gps_fixes"].as_u64().unwrap() >= 1);
    assert!(report.extra["comms_sessions"].as_u64().unwrap() >= 1);
}

#[test]
fn circle_profile_yo_yos_between_its_bounds_until_its_time_limit() {
    let (report, l) = fly("circle_profile.lua");
    assert_eq!(report.outcome, RunOutcome::Finished);
    assert_eq!(report.extra["mission"], "timed_out");
    assert!(
        (report.sim_time.as_secs_f64() - 2400.0).abs() < 1.0,
        "{:?}",
        report.sim_time
    );
    assert!(l.max_depth > 50.0 && l.max_depth < 66.0, "{l:?}");
    assert!(l.min_depth_after_dive < 8.0, "{l:?}");
    assert!(l.temperatures > 1000, "{l:?}");
}

#[test]
fn offshore_guard_keeps_the_vehicle_offshore_and_gives_up_the_waypoint() {
    let (report, l) = fly("offshore_guard.lua");
    assert_eq!(report.outcome, RunOutcome::Finished, "{report:?}");
    assert!(l.min_offshore >= 950.0, "{l:?}");
    assert!(
        l.min_offshore < 1300.0,
        "it did get close to the line: {l:?}"
    );
    assert!(
        l.transitions.iter().any(|x| x == "Transit/2:timed_out"),
        "{:?}",
        l.transitions
    );
    assert_eq!(report.extra["waypoints_reached"], 0);
    assert_eq!(report.extra["surfacings"], 1, "then it surfaced");
}
