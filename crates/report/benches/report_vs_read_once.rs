//! A report, measured against reading its run log once (every chunk decompressed and
//! every message visited without decoding it, `read_once`): reading what the report keeps
//! (`digest`) and that plus drawing the page (`report`). The log is 20 robots in a box for
//! 60 s of simulated time, each turning and driving with its laser on (about 6 MB).
//!
//! `SKIPPER_BENCH_LOG=/tmp/fleet.mcap cargo bench -p skipper-report --bench
//! report_vs_read_once` measures a log of your own instead.

use criterion::{criterion_group, criterion_main, Criterion};
use skipper_core::{Controller, ControllerError, Cycle, Drive, RunConfig, Runner, Status};
use skipper_report::Digest;
use skipper_runlog::{stream, RunLog};
use skipper_sim::world_file::parse_world;
use skipper_sim::GroundWorld;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Drives forward while turning, a different circle per robot.
struct Circle(f64);

impl Controller for Circle {
    fn name(&self) -> &str {
        "circle"
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        c.actuation.drive = Some(Drive::velocity(0.4, self.0));
        if c.cycle % 50 == 0 {
            c.events.push(
                c.now,
                "turn",
                serde_json::json!({"rate": self.0, "x": 1.23456789}),
            );
        }
        Ok(Status::Running)
    }
    fn state(&self) -> Option<serde_json::Value> {
        Some(serde_json::json!({"state": "circling"}))
    }
}

/// A run of 20 robots for 60 s, logged in `dir`.
fn generated(dir: &Path) -> PathBuf {
    let mut text = String::from("world bench\nset laser_range 8\nbox 0 0 40 40\n");
    for k in 0..20 {
        let (x, y) = (f64::from(k % 5) * 7.0 - 14.0, f64::from(k / 5) * 7.0 - 10.0);
        text.push_str(&format!("robot r{k} {x} {y} 0 laser=yes\n"));
    }
    let spec = parse_world(&text, "bench.world", None).expect("the world");
    let world = GroundWorld::new(&spec, 0).expect("the world");
    let path = dir.join("bench.mcap");
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            until: Some(Duration::from_secs(60)),
            ..RunConfig::default()
        },
    );
    for k in 0..20 {
        r.set_controller(k, Box::new(Circle(0.2 + 0.02 * k as f64)));
    }
    let (log, _) = RunLog::create(&path).expect("the log");
    r.add_observer(Box::new(log));
    r.run();
    path
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a directory");
    let path = std::env::var_os("SKIPPER_BENCH_LOG")
        .map(PathBuf::from)
        .unwrap_or_else(|| generated(dir.path()));
    let mut g = c.benchmark_group("report");
    g.sample_size(10);
    g.bench_function("read_once", |b| {
        b.iter(|| stream::read_once(&path).expect("it reads"))
    });
    g.bench_function("digest", |b| {
        b.iter(|| Digest::open(&path).expect("it reads"))
    });
    g.bench_function("report", |b| {
        b.iter(|| skipper_report::render(&Digest::open(&path).expect("it reads")).len())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
