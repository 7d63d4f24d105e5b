//! The Splinter Soar (SPS) input-link/output-link, for Soar agents written against the
//! SPS robot environment.
//!
//! - [`tree`]: the input-link as a tree of WMEs, with a deterministic per-cycle diff;
//! - [`input`]: the input-link's layout and its update from a vehicle's signals
//!   (configuration, time, self with pose, waypoints and received-messages, ranges);
//! - [`output`]: output-link commands, their statuses, and the drive command;
//! - [`params`]: parameter validation; [`waypoints`] and [`messages`]: what commands
//!   keep, and the post office between agents of one world;
//! - [`link`]: one agent's link, tying these together in the reference's order;
//! - [`wire`]: the JSON wire form a bridge or an external agent speaks;
//! - [`controller`]: the link as a [`skipper_core::Controller`], over any [`Port`];
//! - [`server`]: the link served over TCP to external agents (`skipper link serve`);
//! - [`bridge`]: the launcher of the Soar bridge (`bridges/soar`), a [`Port`] to a real
//!   Soar kernel in a Python process of its own;
//! - [`speech`]: what robots `say` (a Soar agent's `send-message` to `say`), spoken with
//!   espeak-ng off the cycle.
//!
//! The semantics follow the rules of the SPS reference environment
//! (I1–I8, O1–O18, G1–G3); where this crate chooses, its docs say so (`docs/soar.md`).
//! The crate never depends on a vehicle: it reads the ground robot's declared signals
//! (`skipper_core::vocabulary::ground`: the pose, the laser) and writes actuation.

pub mod bridge;
pub mod controller;
mod error;
pub mod input;
pub mod link;
pub mod messages;
pub mod output;
pub mod params;
pub mod server;
pub mod speech;
pub mod tree;
pub mod waypoints;
pub mod wire;

pub use bridge::{BridgeError, BridgePort};
pub use controller::{LinkController, Port, Received};
pub use error::LinkError;
pub use link::{Link, LinkConfig, Update};
pub use messages::PostOffice;
pub use output::{CommandStatus, Kind, StatusUpdate};
pub use wire::{AgentMessage, Command, IdTableExt, Param, Step};
