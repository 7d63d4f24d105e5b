//! The goal round trip (send, accept, one feedback, succeed, result) in process.
//!
//! Compared with: rospy's SimpleActionServer under the Python SimpleActionClient on ROS 1
//! loopback (published figures of rospy's actionlib: 1.86 ms p50 round trip,
//! 1.46 ms server CPU per goal). The ROS 1 loopback comparison itself is
//! `scripts/ros/bench.py` (a Python client against Skipper's server and rospy's).

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "common/roundtrip.rs"]
mod common;

fn roundtrip(c: &mut Criterion) {
    let mut rt = common::RoundTrip::new();
    c.bench_function(
        "inproc goal round trip (send, accept, feedback, succeed, result)",
        |b| b.iter(|| rt.once()),
    );
}

criterion_group!(benches, roundtrip);
criterion_main!(benches);
