//! Run a torch-ros Lua script with the library alone, as `skipper lua SCRIPT [ARGS]` runs
//! it (the ROS arguments taken from the command line, the master from `ROS_MASTER_URI`,
//! the exit status from the script), without the rest of the `skipper` binary:
//! `scripts/ros/bench.sh` times the Lua server with it when `LUA_BIN` names it, which
//! needs only this crate built in release mode.
//!
//! `cargo run --release -p skipper-torch-ros --example run_script -- server.lua /ns`

use skipper_torch_ros::{run_file, Options, Outcome, Stop};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = skipper_ros1_wire::names::take_process_args()
        .into_iter()
        .skip(1)
        .filter_map(|a| a.into_string().ok())
        .collect();
    let Some((script, rest)) = args.split_first() else {
        eprintln!("usage: run_script SCRIPT.lua [ARGS]");
        return ExitCode::from(2);
    };
    // Ctrl-C / SIGINT stops the script as `skipper lua` does (a background job of a
    // script would otherwise ignore it)
    let stop = Stop::new();
    let s2 = stop.clone();
    if let Err(e) = ctrlc::set_handler(move || s2.request()) {
        eprintln!("cannot handle Ctrl-C: {e}");
    }
    match run_file(script.as_ref(), rest, &Options::default(), &stop) {
        Ok(Outcome::Finished(code)) => ExitCode::from(code),
        Ok(Outcome::Stopped) => ExitCode::from(130),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
