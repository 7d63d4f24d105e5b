//! `skipper-torch-ros`: torch-ros's `ros` Lua API on Skipper's ROS 1 stack.
//!
//! torch-ros (github Xamla/torch-ros) is the ROS 1 client of the Torch7 world: Lua
//! scripts `require 'ros'`, make a node handle, publish, subscribe, call and offer
//! services, and serve or send actionlib goals with the spec's `SimpleActionServer`.
//! This crate gives such scripts the same API on an embedded Lua 5.4 (mlua, vendored),
//! with no Torch, LuaJIT or roscpp: messages of any type are read from their `.msg` /
//! `.srv` / `.action` definitions at run time, and every protocol rule (the goal state
//! machines, the SimpleActionServer policy, the client's CommState table, TCPROS and
//! XML-RPC) is skipper-actionlib's Rust. Lua only holds the script's data and callbacks.
//!
//! Callbacks run when the script spins, as in torch-ros: what arrives on ROS threads
//! (messages, service calls, goals, cancels, status lists, results, feedback) waits in a
//! callback queue ([`queue`]) until `ros.spinOnce()` (or `spin`, a queue's
//! `callAvailable`, a client's wait) runs it on the script's thread; an actionlib message
//! is handed to its state machine there, in arrival order, and the script's callbacks
//! run right after, in the order the state machine raised them.
//!
//! A script runs with limits ([`runtime`]): a memory limit; a stop request (Ctrl-C,
//! SIGTERM) makes `ros.ok()` false and ends every wait at once, and a script that does
//! not end by itself within a grace period is interrupted wherever it is. Whatever ends
//! the script, every goal its servers had not finished is ended (aborted, or rejected if
//! never accepted) before the node leaves the master, so no client waits on a goal
//! nobody works on.
//!
//! ```no_run
//! use skipper_torch_ros::{run_file, Options, Stop};
//! let stop = Stop::new(); // hand a clone to the signal handler: stop.request()
//! let outcome = run_file("server.lua".as_ref(), &[], &Options::default(), &stop);
//! ```

mod client;
mod clock;
mod console;
mod diag;
#[doc(hidden)]
pub mod fuzzing;
mod message;
mod node;
pub mod queue;
mod rosout;
pub mod runtime;
mod server;
mod services;
mod time;
mod topics;

pub use runtime::{run_file, run_source, Options, Outcome, ScriptError, Stop};
