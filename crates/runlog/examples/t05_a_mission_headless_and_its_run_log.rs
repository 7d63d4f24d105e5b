//! Tutorial 5: fly a Tethys mission headless and read its run log.
//!
//! A mission script is loaded (sandboxed Lua, checked), an LRAUV-like AUV is put in a
//! worksite, and the mission executive drives it in simulated time, hours in a blink.
//! The run log (MCAP with JSON messages: `/signals`, `/events`, `/controller`, `/pose`,
//! `/summary`) is written by an observer and read back with `skipper_runlog::reader`, as
//! the report and the replay do (Foxglove and Python's `mcap` read it too).
//!
//! Run it: `cargo run -p skipper-runlog --example t05_a_mission_headless_and_its_run_log`

use skipper_core::{RunConfig, Runner, World};
use skipper_mission::{load_str, MissionController};
use skipper_runlog::reader::Recording;
use skipper_runlog::RunLog;
use skipper_sim::{AuvSite, AuvWorld};
use std::sync::Arc;
use std::time::Duration;

/// Dive to 20 m, hold it for ten minutes, then come up.
const MISSION: &str = r#"
NAME = "Dip"
STACK = {
    WITHIN = Units.HOUR(1);
    { COMMAND = Guidance.Pitch,
      Guidance.Pitch.DEPTH:SET(Units.METER(20)),
      Guidance.Pitch.SPEED:SET(Units.METER_PER_SECOND, 1) };
    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.MINUTE(10)) };
}
"#;

/// Fly it; what the log says: (deepest depth seen, how the run ended, transitions).
pub fn run(log: &std::path::Path) -> (f64, String, usize) {
    let mission = Arc::new(load_str(MISSION, "dip.lua").expect("the mission checks"));
    let world = AuvWorld::new(AuvSite::default(), 0);
    let origin = world.geo_origin().expect("a worksite is on the globe");
    let controller = MissionController::new(mission).with_origin(origin.0, origin.1);
    let mut runner = Runner::new(
        Box::new(world),
        RunConfig {
            period: Duration::from_millis(200),
            ..Default::default()
        },
    );
    runner.set_controller(0, Box::new(controller));
    let (observer, _status) = RunLog::create(log).expect("the log");
    runner.add_observer(Box::new(observer));
    let report = runner.run();
    println!(
        "{} after {:.0} s simulated, {:?} wall",
        report.outcome.as_str(),
        report.sim_time.as_secs_f64(),
        report.wall_time
    );

    // read it back: every DEPTH datum, the events, the summary
    let depth = skipper_core::vocabulary::auv::DEPTH.name;
    let rec = Recording::open(log, &|name: &str| name == depth).expect("the log reads");
    let deepest = rec.robots[0].signals.get(depth).map_or(0.0, |v| {
        v.iter().filter_map(|(_, d)| d.as_f64()).fold(0.0, f64::max)
    });
    let transitions = rec.events.iter().filter(|e| e.kind == "transition").count();
    let outcome = rec.summary.as_ref().map_or(String::new(), |s| {
        s["outcome"].as_str().unwrap_or("").to_string()
    });
    println!(
        "deepest {deepest:.1} m, {transitions} item transitions, topics {:?}",
        rec.counts.keys().collect::<Vec<_>>()
    );
    (deepest, outcome, transitions)
}

fn main() {
    let log = std::env::temp_dir().join("skipper-tutorial-dip.mcap");
    run(&log);
    println!("the log: {}", log.display());
}

#[test]
fn the_mission_dives_and_finishes_and_its_log_says_so() {
    let dir = tempfile::tempdir().expect("a directory");
    let (deepest, outcome, transitions) = run(&dir.path().join("dip.mcap"));
    assert!((19.0..21.0).contains(&deepest), "{deepest}");
    assert_eq!(outcome, "finished");
    assert!(transitions >= 2, "{transitions}");
}
