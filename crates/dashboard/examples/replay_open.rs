//! What `skipper replay LOG` does before it serves the page, without a browser: read the
//! run log as a stream and index it ([`Replay::open`]), then make the frames at the start,
//! the middle and the end of the run, as the page's time slider asks for them. Measure
//! its time and memory with
//!
//! `/usr/bin/time -v target/release/examples/replay_open LOG`
//!
//! (build it with `cargo build --release -p skipper-dashboard --example replay_open`).

use skipper_dashboard::replay::Replay;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: replay_open LOG.mcap");
        return ExitCode::from(2);
    };
    let replay = match Replay::open(&path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e:#}");
            return ExitCode::from(2);
        }
    };
    let run = replay.run();
    let end = run.end_t;
    println!(
        "{}: {} robots, {end:.1} s",
        path.display(),
        run.robots.len()
    );
    for t in [0.0, end / 2.0, end] {
        let m = replay.moment_at(t);
        println!("frame at {t:.1} s: {} robots", m.robots.len());
    }
    ExitCode::SUCCESS
}
