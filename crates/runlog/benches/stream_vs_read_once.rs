//! Reading a run log as a stream, measured against reading the file once: every chunk
//! decompressed and every message visited without decoding it (`read_once`), against
//! decoding every message (`decode_every_message`) and against the reader that keeps
//! everything in memory (`recording`). The log is 20 robots in a box for 60 s of
//! simulated time, each turning and driving with its laser on (about 6 MB).
//!
//! `SKIPPER_BENCH_LOG=/tmp/fleet.mcap cargo bench -p skipper-runlog --bench
//! stream_vs_read_once -- read_once decode` measures a log of your own instead (the
//! recording is left out for it: it holds the whole log in memory).

use criterion::{criterion_group, criterion_main, Criterion};
use skipper_core::{Controller, ControllerError, Cycle, Drive, RunConfig, Runner, Status};
use skipper_runlog::message;
use skipper_runlog::stream::{self, Raw, Visit};
use skipper_runlog::{Recording, RunLog};
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
        Ok(Status::Running)
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

/// Decodes every message (all signals kept).
#[derive(Default)]
struct Decode(u64);

impl Visit for Decode {
    fn message(&mut self, m: Raw<'_>) {
        if message::decode(m.topic, m.data, &|_| true).is_some() {
            self.0 += 1;
        }
    }
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a directory");
    let own = std::env::var_os("SKIPPER_BENCH_LOG").map(PathBuf::from);
    let path = own.clone().unwrap_or_else(|| generated(dir.path()));
    let mut g = c.benchmark_group("run_log");
    g.sample_size(10);
    g.bench_function("read_once", |b| {
        b.iter(|| stream::read_once(&path).expect("it reads"))
    });
    g.bench_function("decode_every_message", |b| {
        b.iter(|| {
            let mut d = Decode::default();
            stream::read_file(&path, &mut d).expect("it reads");
            d.0
        })
    });
    if own.is_none() {
        g.bench_function("recording", |b| {
            b.iter(|| Recording::open(&path, &|_| true).expect("it reads"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
