//! Goals: what a controller may offer besides driving on its own — goal kinds it accepts
//! (`goto`, `run_option`, `run_mission`, ...), each with typed goal, feedback and result,
//! and the single-goal policy of the SimpleActionServer spec applied in one place.
//!
//! - [`kind`]: goal kinds and their fields; [`record`]: the values of a goal, feedback or
//!   result;
//! - [`server`]: the controller's side, the [`Goals`] capability;
//! - [`desk`]: the policy (one active goal per kind, newer preempts, cancel stops);
//! - [`port`]: the transports' side, a [`GoalPort`] per robot;
//! - [`status`]: where a goal stands.
//!
//! No transport lives here: the goal mailbox and the goal runner are in skipper-goals,
//! the wire protocols in their own crates.

pub mod desk;
pub mod kind;
pub mod port;
pub mod record;
pub mod server;
pub mod status;

pub use desk::{Command, GoalDesk, SendError};
pub use kind::{Ending, Field, FieldType, GoalKind, Schema};
pub use port::GoalPort;
pub use record::{FieldValue, Record, RecordError};
pub use server::{AcceptAll, GoalCheck, GoalReport, GoalStart, Goals, Outcome, Payload};
pub use status::{GoalId, GoalState, GoalUpdate};
