//! The spec's mission end to end in simulated time: loading, the executive and the
//! simulated AUV at 5 Hz until the mission completes (about 2 h 40 min of simulated time),
//! without and with the MCAP run log. Compared with published figures of other simulators:
//! Stage runs one simple robot about 1000x faster than real time. Targets: 100 000x real
//! time without and with the run log (the summary line divides). Both run in one
//! process under the same load: docs/missions.md gives the figures and the load.

use criterion::{criterion_group, criterion_main, Criterion};
use skipper::controllers::mission;
use skipper_core::{RunConfig, RunOutcome, Runner};
use skipper_mission::MissionController;
use skipper_runlog::RunLog;
use std::path::Path;
use std::time::{Duration, Instant};

fn fly(log: Option<&Path>) -> Duration {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/missions/test_mission.lua");
    let m = mission::load(&path).unwrap();
    let world = mission::world(&m, None, 0).unwrap();
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            period: Duration::from_millis(200),
            ..RunConfig::default()
        },
    );
    r.set_controller(0, Box::new(MissionController::new(m)));
    if let Some(p) = log {
        let (l, _) = RunLog::create(p).unwrap();
        r.add_observer(Box::new(l));
    }
    let report = r.run();
    assert_eq!(report.outcome, RunOutcome::Finished);
    report.sim_time
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("run.mcap");
    let mut g = c.benchmark_group("spec_mission_end_to_end");
    g.sample_size(10);
    for (name, with_log) in [("no_log", false), ("with_run_log", true)] {
        // one timed flight for the speed-up factor
        let t = Instant::now();
        let sim = fly(with_log.then_some(log.as_path()));
        let wall = t.elapsed();
        eprintln!(
            "{name}: {:.0} s simulated in {:.1} ms = {:.0}x real time",
            sim.as_secs_f64(),
            wall.as_secs_f64() * 1e3,
            sim.as_secs_f64() / wall.as_secs_f64()
        );
        g.bench_function(name, |b| b.iter(|| fly(with_log.then_some(log.as_path()))));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
