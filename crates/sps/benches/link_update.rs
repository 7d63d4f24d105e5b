//! One link update: output processing plus input diff, with 10 waypoints, 5 ranges and
//! 10 received messages (the target: 5 µs or less, no allocation). The
//! vehicle's part (writing 183 signals) happens between timed sections and is not counted.
//!
//! There is no row for the SPS reference (Java, behind SML) in the performance anchors;
//! the nearest anchor is a two-thread channel round trip (about 3 µs), the floor of any
//! bridge exchange, which a link update should stay well below.
//!
//! Before criterion's groups, `main` prints the distribution of single updates (min,
//! p10, median, p90, mean over 100 000 cycles, each timed alone). On a busy machine
//! criterion's mean includes the time the thread spent descheduled inside timed
//! sections (a 2-core machine at load 17 shows means 5-10x the median); the median of
//! single updates is what one update costs.

use criterion::{criterion_group, Criterion};
use skipper_core::{Actuation, SignalId, Signals};
use skipper_sps::wire::encode_input;
use skipper_sps::{Command, Link, LinkConfig, Param, PostOffice, Step, Update};
use std::hint::black_box;
use std::time::{Duration, Instant};

struct Bench {
    signals: Signals,
    ids: Vec<SignalId>,
    link: Link,
    now: Duration,
    cycle: u64,
    update: Update,
    actuation: Actuation,
    line: Vec<u8>,
}

fn setup() -> Bench {
    let mut signals = Signals::new();
    let mut ids = vec![
        signals.declare("pose.x", None),
        signals.declare("pose.y", None),
        signals.declare("pose.yaw", None),
    ];
    for k in 0..180 {
        ids.push(signals.declare(&format!("laser.{k}"), None));
    }
    let post = PostOffice::new();
    let mut link = Link::new(LinkConfig::new("robot1")).with_post_office(post.clone());
    signals.begin_cycle();
    for id in &ids {
        signals.set_f64(*id, 1.0, Duration::ZERO);
    }
    link.start(&signals, Duration::ZERO).unwrap();
    let mut step = Step::default();
    for k in 0..10 {
        step.commands.push(Command {
            tt: k,
            name: "add-waypoint".into(),
            attrs: vec![
                ("id".into(), Param::Int(k)),
                ("x".into(), Param::Float(k as f64)),
                ("y".into(), Param::Float(2.0)),
            ],
        });
        post.tell("robot1", None, "a message of five words")
            .unwrap();
    }
    let mut b = Bench {
        signals,
        ids,
        link,
        now: Duration::ZERO,
        cycle: 0,
        update: Update::default(),
        actuation: Actuation::default(),
        line: Vec::with_capacity(1 << 16),
    };
    b.cycle(&step);
    b.cycle(&Step::default());
    b
}

impl Bench {
    fn cycle(&mut self, step: &Step) {
        self.sense();
        self.update(step);
    }

    /// What the vehicle does before the link's turn (not timed).
    fn sense(&mut self) {
        self.cycle += 1;
        self.now += Duration::from_millis(50);
        self.signals.begin_cycle();
        let c = self.cycle as f64;
        for (k, id) in self.ids.iter().enumerate() {
            let v = match k {
                0 => 0.01 * c,
                1 => 0.005 * c,
                2 => (0.01 * c).sin(),
                _ => 1.0 + ((k as f64 + c) * 0.1).sin().abs(),
            };
            self.signals.set_f64(*id, v, self.now);
        }
    }

    /// The link update: output processing, input update, diff, JSON line.
    fn update(&mut self, step: &Step) {
        self.actuation.clear();
        self.link.cycle(
            step,
            &self.signals,
            self.now,
            self.cycle,
            &mut self.actuation,
        );
        self.link.take(&mut self.update);
        encode_input(
            &mut self.line,
            self.cycle,
            &self.update.statuses,
            &self.update.diff,
        );
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("link_update");
    let mut b = setup();
    let empty = Step::default();
    g.bench_function("steady_state_10wp_5ranges_10msgs", |bn| {
        bn.iter_custom(|n| {
            let mut total = Duration::ZERO;
            for _ in 0..n {
                b.sense();
                let t = Instant::now();
                b.update(black_box(&empty));
                total += t.elapsed();
                black_box(b.line.len());
            }
            total
        })
    });
    let mut b = setup();
    let mut step = Step::default();
    let mut tt = 1000;
    g.bench_function("with_one_set_velocity_command", |bn| {
        bn.iter_custom(|n| {
            let mut total = Duration::ZERO;
            for _ in 0..n {
                tt += 1;
                step.removed.clear();
                step.removed.push(tt - 1);
                step.commands.clear();
                step.commands.push(Command {
                    tt,
                    name: "set-velocity".into(),
                    attrs: vec![
                        ("linear-velocity".into(), Param::Float(0.5)),
                        ("angular-velocity".into(), Param::Float(10.0)),
                    ],
                });
                b.sense();
                let t = Instant::now();
                b.update(black_box(&step));
                total += t.elapsed();
                black_box(b.line.len());
            }
            total
        })
    });
    g.finish();
}

/// Time single updates and print their distribution.
fn latency() {
    let mut b = setup();
    let empty = Step::default();
    let n = 100_000;
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        b.sense();
        let t = Instant::now();
        b.update(black_box(&empty));
        times.push(t.elapsed());
        black_box(b.line.len());
    }
    times.sort_unstable();
    let at = |q: f64| times.get(((n - 1) as f64 * q) as usize).copied();
    let mean = times.iter().sum::<Duration>() / n as u32;
    println!(
        "link_update/single_updates_10wp_5ranges_10msgs: min {:?} p10 {:?} median {:?} p90 {:?} mean {mean:?} ({} WME updates and {} bytes per cycle)",
        at(0.0).unwrap_or_default(),
        at(0.1).unwrap_or_default(),
        at(0.5).unwrap_or_default(),
        at(0.9).unwrap_or_default(),
        b.update.diff.updates.len(),
        b.line.len(),
    );
}

criterion_group!(benches, bench);

fn main() {
    latency();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
