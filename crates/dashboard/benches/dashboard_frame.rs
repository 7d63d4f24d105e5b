//! What the live dashboard costs the run: 100 robots in the office for 10 cycles, with no
//! dashboard, and with a dashboard that makes a frame every cycle for one connected
//! browser. The difference over 10 is the cost of one frame of 100 robots (their poses,
//! sonar and laser rays, controller states). pMarineViewer, the peer, draws from MOOS
//! mail at its own rate; Skipper makes frames at most every 50 ms, so a frame's cost is
//! paid at most 20 times a second of wall-clock time, whatever the speed of the run.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use skipper_core::{RunConfig, Runner};
use skipper_dashboard::live::{attach, LiveOptions};
use skipper_goals::BindOptions;
use skipper_goals::Wander;
use std::path::Path;
use std::time::Duration;

const ROBOTS: usize = 100;

fn runner(
    dashboard: bool,
) -> (
    Runner,
    Option<tokio::sync::mpsc::Receiver<std::sync::Arc<str>>>,
) {
    let office = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds/office.world");
    let world = office_fleet(&office, 1);
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            until: Some(Duration::from_secs(1)),
            ..RunConfig::default()
        },
    );
    let mut goals = Vec::new();
    for i in 0..ROBOTS {
        let options = BindOptions {
            goto: true,
            velocity: false,
        };
        let b = skipper_goals::bind(r.world(), i, Some(Box::new(Wander::new())), options);
        r.set_controller(i, b.controller);
        goals.push(Some(
            b.goals as std::sync::Arc<dyn skipper_core::goals::GoalPort>,
        ));
    }
    if !dashboard {
        return (r, None);
    }
    let state = attach(
        &mut r,
        goals,
        Duration::from_millis(100),
        LiveOptions {
            min_interval: Duration::ZERO,
            cost_factor: 0,
        },
    );
    // a browser that is connected (its queue takes 4 frames, the rest are dropped: the
    // frames are made all the same)
    let rx = state.hub().subscribe();
    (r, Some(rx))
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("dashboard_100_robots_10_cycles");
    g.sample_size(20);
    for (name, dash) in [("no_dashboard", false), ("frame_every_cycle", true)] {
        g.bench_function(name, |b| {
            b.iter_batched(
                || runner(dash),
                |(mut r, rx)| {
                    let report = r.run();
                    drop(rx);
                    report
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

/// The office with `ROBOTS` robots.
fn office_fleet(path: &Path, seed: u64) -> skipper_sim::GroundWorld {
    let spec = skipper_sim::load_world(path).expect("the office loads");
    let spec = skipper_sim::ground::with_robots(spec, ROBOTS).expect("robots fit");
    skipper_sim::GroundWorld::new(&spec, seed).expect("the world builds")
}
