//! The executive's cycle, compared with published figures of other behavior engines:
//! BehaviorTree.CPP native ticks about 130-160 ns per node visit
//! (a 206-node tree: ~33 µs per tick), bonsai-bt ~15-35 ns per node visit; the LRAUV runs
//! its executive at about 5 Hz. Target: 2 µs or less per cycle for the spec's mission.
//!
//! - `spec_mission_19_items`: the spec's example mission mid-run (RepeatOps yo-yoing toward
//!   a waypoint, envelopes active, altitude valid, NeedSatFix armed);
//! - `synthetic_200_items`: 200 items: envelopes, a WHEN surfacing substack, and 19
//!   substacks of which the WHILE-guarded ones run in parallel with the cursor's.

use criterion::{criterion_group, criterion_main, Criterion};
use skipper_core::{Signals, Value};
use skipper_mission::uri::CATALOG;
use skipper_mission::{load, Executive, LoadOptions};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

fn signals() -> Signals {
    let mut s = Signals::new();
    for u in CATALOG {
        s.declare(u.name, Some(u.unit));
    }
    let t = Duration::from_secs(600);
    let mut set = |n: &str, v: Value| {
        let id = s.id(n).unwrap();
        s.set(id, v, t);
    };
    set("DEPTH", Value::Float(120.0));
    set("HEIGHT_ABOVE_SEA_FLOOR", Value::Float(80.0));
    set("PLATFORM_PITCH_ANGLE", Value::Float(-0.3));
    set("PLATFORM_YAW_ANGLE", Value::Float(4.0));
    set("LATITUDE", Value::Float(36.801));
    set("LONGITUDE", Value::Float(-121.905));
    set("DISTANCE_OFFSHORE", Value::Float(6400.0));
    set(
        "DIRECTION_OFFSHORE",
        Value::Float(-std::f64::consts::FRAC_PI_2),
    );
    set(
        "PLATFORM_LOCATION_FIX",
        Value::Position {
            lat: 36.8,
            lon: -121.9,
        },
    );
    set("PLATFORM_COMMUNICATIONS", Value::Bool(true));
    s
}

fn synthetic() -> String {
    let mut s = String::from("NAME = 'synthetic'\nSTACK = {\n");
    s += "BEHAVIOR(Guidance.AltitudeEnvelope):SET(Guidance.AltitudeEnvelope.MIN_ALTITUDE, Units.METER, 20);\n";
    s += "BEHAVIOR(Guidance.OffshoreEnvelope):SET(Guidance.OffshoreEnvelope.MIN_OFFSHORE, Units.KILOMETER, 1);\n";
    s += "BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MAX_DEPTH, Units.METER, 300);\n";
    s += "BEHAVIOR(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_TEMPERATURE);\n";
    s += "{ WHEN = UniversalURI.PLATFORM_LOCATION_FIX:ELAPSED(Units.HOUR(2)); COMMAND(Guidance.GoToSurface);\n  { PREEMPTIVE = true; COMMAND(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.PLATFORM_LOCATION_FIX);\n    COMMAND(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.PLATFORM_COMMUNICATIONS); } };\n";
    for k in 0..19 {
        let guard = if k % 2 == 1 {
            format!("WHILE = UniversalURI.DEPTH:GT(Units.METER({k}));")
        } else {
            String::new()
        };
        s += &format!(
            "{{ {guard} REPEAT = 2;
  {{ WHILE = UniversalURI.DEPTH:GT(Units.FOOT(1));
    BEHAVIOR(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_SALINITY); }};
  BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MIN_DEPTH, Units.METER, 5);
  BEHAVIOR(Guidance.YoYo):SET(Guidance.YoYo.UP_SPEED, Units.METER_PER_SECOND, 1);
  COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.81, -121.9));
  COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.82, -121.9));
  COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.82, -121.91));
  COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.81, -121.91));
  COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.HOUR, 1); }};\n"
        );
    }
    s += "}\n";
    s
}

fn bench(c: &mut Criterion) {
    let spec = include_str!("../../../examples/missions/test_mission.lua");
    let mut g = c.benchmark_group("executive_cycle");
    for (name, src, items) in [
        ("spec_mission_19_items", spec.to_string(), 19),
        ("synthetic_200_items", synthetic(), 200),
    ] {
        let m = load(&src, name, &LoadOptions::default()).unwrap();
        assert_eq!(m.items.len(), items, "{name}");
        let mut exec = Executive::new(Arc::new(m));
        let sig = signals();
        let mut now = Duration::from_secs(600);
        // into the steady state: the stacks are running
        for _ in 0..10 {
            exec.tick(now, &sig);
            now += Duration::from_millis(200);
        }
        g.bench_function(name, |b| {
            b.iter(|| {
                now += Duration::from_millis(200);
                black_box(exec.tick(black_box(now), &sig))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
