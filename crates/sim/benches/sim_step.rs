//! Simulator steps per second, compared with Stage ("Massively multi-robot simulation in
//! Stage", 2008: about 1000x real time for one simple robot, about real time for 1000).
//!
//! One step is one 100 ms cycle of the office world: physics for every robot (with
//! contacts) and all of its sensing. A step of 1 ms is therefore 100x real time.
//! Robots drive and turn at different rates, so they meet walls and each other.
//! Sonar arrays fire one transducer every 40 ms each, as the P3 firmware does; the
//! `-all` variants fire all 16 every cycle.
//!
//! `world_extent/step` compares one robot's cycle in a 1 km × 1 km box (a grid of 10^6
//! cells) with the same cycle in the 25 m room: a cycle's cost should not grow with the
//! world's extent.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use skipper_core::{Actuation, Drive, Events, World};
use skipper_sim::ground::populate;
use skipper_sim::{load_world, parse_world, GroundWorld};
use std::path::Path;
use std::time::Duration;

fn office(n: usize, laser: bool, all_sonars: bool) -> GroundWorld {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds/office.world");
    let mut spec = load_world(&path).expect("office world");
    populate(&mut spec, n).expect("room for the robots");
    for r in &mut spec.robots {
        r.laser = laser;
    }
    if all_sonars {
        spec.settings.sonar_period = 0.0;
    }
    let mut w = GroundWorld::new(&spec, 1).expect("valid");
    let mut events = Events::new();
    for i in 0..n {
        let k = i as f64;
        let a = Actuation {
            drive: Some(Drive::velocity(
                0.3 + 0.05 * (k % 5.0),
                0.1 * (k % 7.0 - 3.0),
            )),
            ..Default::default()
        };
        w.vehicle_mut(i)
            .unwrap()
            .act(Duration::ZERO, &a, &mut events);
    }
    w
}

/// Time `w`'s 100 ms cycles, one after another, as benchmark `id` of `g`.
fn cycles(g: &mut BenchmarkGroup<'_, WallTime>, id: BenchmarkId, mut w: GroundWorld) {
    let mut events = Events::new();
    let dt = Duration::from_millis(100);
    let mut now = Duration::ZERO;
    g.bench_function(id, |b| {
        b.iter(|| {
            events.clear();
            w.advance(now, dt, &mut events);
            now += dt;
        })
    });
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("vs_stage/office_step");
    g.sample_size(20);
    // "sonar": the arrays fire in turn as on the robot (2.5 of 8 per array per cycle);
    // "sonar-all": every transducer every cycle, 6.4x the pings of the real robot
    for &(label, laser, all) in &[
        ("sonar", false, false),
        ("sonar+laser", true, false),
        ("sonar-all", false, true),
        ("sonar-all+laser", true, true),
    ] {
        for &n in &[1usize, 100, 1000] {
            g.throughput(Throughput::Elements(n as u64));
            cycles(&mut g, BenchmarkId::new(label, n), office(n, laser, all));
        }
    }
    g.finish();
}

/// One robot driving in a box `side` metres wide.
fn boxed(side: f64) -> GroundWorld {
    let text = format!("world box\nbox 0 0 {side} {side}\nrobot r 0 0 0\n");
    let spec = parse_world(&text, "box.world", None).expect("a box world");
    let mut w = GroundWorld::new(&spec, 1).expect("valid");
    let a = Actuation {
        drive: Some(Drive::velocity(0.4, 0.2)),
        ..Default::default()
    };
    w.vehicle_mut(0)
        .unwrap()
        .act(Duration::ZERO, &a, &mut Events::new());
    w
}

fn extent(c: &mut Criterion) {
    let mut g = c.benchmark_group("world_extent/step");
    g.sample_size(20);
    for side in [25.0, 1000.0] {
        cycles(&mut g, BenchmarkId::new("box_m", side), boxed(side));
    }
    g.finish();
}

criterion_group!(benches, bench, extent);
criterion_main!(benches);
