//! Read a run log once and do nothing with its messages ([`stream::read_once`]): every
//! chunk decompressed, every message visited. The yardstick that `skipper report` and
//! `skipper replay` are measured against:
//!
//! `/usr/bin/time -v target/release/examples/read_once LOG`
//!
//! (build it with `cargo build --release -p skipper-runlog --example read_once`).

use skipper_runlog::stream;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: read_once LOG.mcap");
        return ExitCode::from(2);
    };
    match stream::read_once(&path) {
        Ok((outcome, bytes)) => {
            println!(
                "{}: {} messages, {bytes} bytes of messages",
                path.display(),
                outcome.messages
            );
            if let Some(why) = outcome.truncated {
                println!("ends early: {why}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
