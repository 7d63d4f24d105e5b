//! The in-process goal round trip of `benches/goal_roundtrip.rs` (send, accept, one
//! feedback, succeed, result), measured in on-CPU time of the thread
//! (`/proc/thread-self/schedstat`) rather than wall time: on a machine shared with
//! builds, wall time counts the time the thread waited for a core. Seven rounds of
//! 200,000 goals; prints each round's microseconds per goal and the best.
//!
//! Usage: `cargo run --release -p skipper-actionlib --example roundtrip_cpu`

#[path = "../benches/common/roundtrip.rs"]
mod common;

/// Seconds this thread has run on a core (wall time where schedstat is missing).
fn cpu(start: std::time::Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns * 1e-9)
}
fn main() {
    let mut rt = common::RoundTrip::new();
    let start = std::time::Instant::now();
    let mut best = f64::MAX;
    for _round in 0..7 {
        let c0 = cpu(start);
        for _ in 0..200_000 {
            rt.once();
        }
        let per = (cpu(start) - c0) / 200_000.0 * 1e6;
        best = best.min(per);
        print!("{per:.3} ");
    }
    println!("\nbest CPU per round trip: {best:.3} us");
}
