//! The spec's example mission, verbatim, flown on the simulated AUV to completion with the
//! reference's invariants checked every cycle (§4.3): depth never beyond 300 m, altitude
//! never below 20 m, offshore distance within 1-50 km, no RepeatOps output while SurfOps
//! runs, GPS age bounded, the four waypoints visited twice.

use skipper::controllers::mission;
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunConfig, RunOutcome, Runner, Value};
use skipper_mission::MissionController;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

#[derive(Default, Debug)]
struct Seen {
    max_depth: f64,
    min_altitude: f64,
    min_offshore: f64,
    max_offshore: f64,
    max_fix_age: f64,
    surfops_cycles: u64,
    repeatops_output_during_surfops: u64,
    completed: BTreeMap<String, u32>,
    preempted_repeatops: u64,
    cycles: u64,
}

struct Check(Rc<RefCell<Seen>>);

impl Observer for Check {
    fn on_cycle(&mut self, v: &CycleView<'_>) {
        let mut s = self.0.borrow_mut();
        s.cycles += 1;
        let sig = &v.signals[0];
        let get = |n: &str| sig.get_named(n).and_then(Value::as_f64);
        let depth = get("DEPTH").unwrap();
        s.max_depth = s.max_depth.max(depth);
        if let Some(a) = get("HEIGHT_ABOVE_SEA_FLOOR") {
            s.min_altitude = s.min_altitude.min(a);
        }
        let off = get("DISTANCE_OFFSHORE").unwrap();
        s.min_offshore = s.min_offshore.min(off);
        s.max_offshore = s.max_offshore.max(off);
        let fix = sig.id("PLATFORM_LOCATION_FIX").unwrap();
        let age = sig
            .elapsed(fix, v.now)
            .map_or(f64::INFINITY, |d| d.as_secs_f64());
        s.max_fix_age = s.max_fix_age.max(age);
        let state = v.controllers[0].as_ref().unwrap().state().unwrap();
        let items = state["items"].as_array().unwrap();
        let st = |id: &str| {
            items
                .iter()
                .find(|i| i["id"] == id)
                .map(|i| i["state"].as_str().unwrap().to_string())
                .unwrap()
        };
        if st("NeedSatFix/SurfOps") == "active" {
            s.surfops_cycles += 1;
            for ch in ["horizontal", "vertical", "speed", "buoyancy"] {
                if state["channels"][ch]
                    .as_str()
                    .is_some_and(|w| w.starts_with("RepeatOps"))
                {
                    s.repeatops_output_during_surfops += 1;
                }
            }
            if st("RepeatOps") == "preempted" {
                s.preempted_repeatops += 1;
            }
        }
        for e in v.events {
            if e.kind == "transition" && e.data["to"] == "completed" {
                *s.completed
                    .entry(e.data["item"].as_str().unwrap().to_string())
                    .or_default() += 1;
            }
        }
    }
}

fn spec_mission() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/missions/test_mission.lua")
}

fn fly(seed: u64) -> (skipper_core::RunReport, Seen) {
    let m = mission::load(&spec_mission()).unwrap();
    let world = mission::world(&m, None, seed).unwrap();
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            period: Duration::from_millis(200),
            until: Some(Duration::from_secs(12 * 3600)),
            ..RunConfig::default()
        },
    );
    r.set_controller(0, Box::new(MissionController::new(m)));
    let seen = Rc::new(RefCell::new(Seen {
        min_altitude: f64::INFINITY,
        min_offshore: f64::INFINITY,
        ..Seen::default()
    }));
    r.add_observer(Box::new(Check(seen.clone())));
    let report = r.run();
    let s = std::mem::take(&mut *seen.borrow_mut());
    (report, s)
}

#[test]
fn the_spec_mission_completes_with_every_invariant_holding() {
    let (report, s) = fly(0);
    assert_eq!(report.outcome, RunOutcome::Finished, "{report:?}");
    let x = &report.extra;
    assert!(s.max_depth <= 300.0, "{s:?}");
    assert!(s.max_depth > 150.0, "it yo-yos deep: {s:?}");
    assert!(s.min_altitude >= 20.0, "{s:?}");
    assert!(x["min_altitude_m"].as_f64().unwrap() >= 20.0, "{x:?}");
    assert!(
        s.min_offshore >= 1000.0 && s.max_offshore <= 50_000.0,
        "{s:?}"
    );
    assert_eq!(s.repeatops_output_during_surfops, 0, "{s:?}");
    assert!(
        s.surfops_cycles > 0 && s.preempted_repeatops == s.surfops_cycles,
        "{s:?}"
    );
    // GPS age: at most 2 h + ascent + a fix
    assert!(s.max_fix_age <= 2.0 * 3600.0 + 1800.0, "{s:?}");
    // the four waypoints, twice each
    for wp in ["RepeatOps/4", "RepeatOps/5", "RepeatOps/6", "RepeatOps/7"] {
        assert_eq!(s.completed.get(wp), Some(&2), "{wp}: {:?}", s.completed);
    }
    assert_eq!(s.completed.get("RepeatOps"), Some(&1));
    assert_eq!(x["waypoints_reached"], 8);
    let surfacings = x["surfacings"].as_u64().unwrap();
    assert!(surfacings >= 1, "{x:?}");
    assert_eq!(
        s.completed.get("NeedSatFix").copied().unwrap_or(0) as u64,
        surfacings
    );
    assert!(x["gps_fixes"].as_u64().unwrap() >= surfacings);
    assert!(x["comms_sessions"].as_u64().unwrap() >= surfacings);
}

#[test]
fn the_same_seed_flies_the_same_mission() {
    let (a, _) = fly(3);
    let (b, _) = fly(3);
    assert_eq!(a.summary_json(false), b.summary_json(false));
}
