//! The `skipper` command: the command line, choosing and wiring the parts (the library
//! crates of this workspace), terminal output. The binary (`main.rs`) only parses the
//! command line and calls in here.
//!
//! - [`commands`]: one module per subcommand;
//! - [`controllers`]: choosing the controller of a run (the built-in wander-and-avoid
//!   demo, missions, XABSL agents, Soar agents), its rate and its controllers;
//! - [`vehicles`]: choosing and building the world and vehicles of a run;
//! - [`transports`]: the transports a run serves its robots on (dashboard, ROS 1, ROS 2);
//! - [`progress`] and [`summary`]: what a person sees on the terminal; [`mod@out`]: standard
//!   output that a closed pipe does not turn into a panic;
//! - [`exit`]: errors that carry the exit status of the command-line contract;
//! - [`shutdown`]: the one SIGINT/SIGTERM/SIGHUP path of every long-running command.

pub mod commands;
pub mod controllers;
pub mod exit;
#[doc(hidden)]
pub mod fuzzing;
pub mod out;
pub mod progress;
pub mod shutdown;
pub mod summary;
pub mod transports;
pub mod vehicles;
