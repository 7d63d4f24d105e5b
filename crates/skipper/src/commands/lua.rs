//! `skipper lua SCRIPT.lua [ARGS]`: run a ROS 1 node script written against torch-ros's
//! `ros` Lua API (skipper-torch-ros). Wiring only: the master, the limits, Ctrl-C / SIGTERM
//! as a stop request, and the exit status from how the script ended.

use crate::exit::{Failure, INTERRUPTED};
use clap::Args;
use skipper_torch_ros::{run_file, Options, Outcome, ScriptError, Stop};
use std::path::PathBuf;
use std::time::Duration;

/// Run a ROS 1 node script written for torch-ros (`require 'ros'`).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # an action server that drives robot1 of `skipper run --ros`
  skipper lua examples/lua/04_goto_server.lua
  # the master given, not from ROS_MASTER_URI
  skipper lua --ros http://127.0.0.1:11311/ examples/lua/02_talker_listener.lua
  # ROS arguments, as roscpp reads them
  skipper lua examples/lua/02_talker_listener.lua chatter:=/news __name:=talker2
  # messages only, no master needed; end it after 10^8 Lua instructions
  skipper lua --instructions 100000000 examples/lua/01_messages.lua

Exit status: what the script returns or passes to os.exit (0 when it just ends),
1 when it raises an error (printed with its Lua traceback) or runs over --memory
or --instructions (printed with the line it was on), 2 when it does not load,
128 + the signal when Ctrl-C or SIGTERM stopped it. After a stop request
ros.ok() is false and every wait ends; a script still running after --grace
seconds is interrupted. Either way the goals its action servers had not finished
are ended (aborted) before the node leaves the master.")]
pub struct LuaArgs {
    /// The ROS master (default: ROS_MASTER_URI, else http://127.0.0.1:11311/).
    #[arg(long, value_name = "URI")]
    pub ros: Option<String>,
    /// Memory the script's Lua state may hold, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub memory: usize,
    /// Lua instructions the script may run in all (default: no limit).
    #[arg(long, value_name = "N")]
    pub instructions: Option<u64>,
    /// Seconds a script may go on after Ctrl-C / SIGTERM before it is interrupted.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub grace: f64,
    /// The script.
    pub script: PathBuf,
    /// Arguments for the script (its `arg` table and `...`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

/// Run the script; its exit status.
pub fn run(a: LuaArgs) -> Result<u8, Failure> {
    if !(0.0..=3600.0).contains(&a.grace) {
        return Err(Failure::bad_input(format!(
            "--grace {}: expected 0 to 3600 seconds",
            a.grace
        )));
    }
    let memory = a
        .memory
        .checked_mul(1 << 20)
        .filter(|m| *m >= 1 << 20)
        .ok_or_else(|| {
            Failure::bad_input(format!("--memory {}: expected 1 or more MiB", a.memory))
        })?;
    let options = Options {
        master_uri: a.ros,
        memory_limit: memory,
        grace: Duration::from_secs_f64(a.grace),
        instruction_limit: a.instructions,
    };
    let stop = Stop::new();
    let s2 = stop.clone();
    crate::shutdown::on_stop(move || s2.request());
    match run_file(&a.script, &a.args, &options, &stop) {
        Ok(Outcome::Finished(code)) => Ok(code),
        Ok(Outcome::Stopped) => Ok(INTERRUPTED),
        Err(ScriptError::Load(m)) => Err(Failure::bad_input(m)),
        Err(ScriptError::Syntax(m)) => Err(Failure::diagnostics(m)),
        Err(e) => Err(Failure::failed(e.to_string())),
    }
}
