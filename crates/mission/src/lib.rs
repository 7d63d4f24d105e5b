//! Tethys/LRAUV missions for Skipper.
//!
//! - [`load`]: run a mission script once in a sandboxed Lua 5.4 and check it, giving an
//!   immutable [`Mission`] (rules 8, 41, 42 of the reference);
//! - [`executive`]: the priority-stack executive (rules 1-40), one [`executive::Executive::tick`]
//!   per cycle, with every item's state and the transitions;
//! - [`behaviors`]: the behavior and command library and the arbitration of their requests;
//! - [`controller`]: the executive as a Skipper [`skipper_core::Controller`];
//! - [`goals`]: missions as goals (`run_mission`).
//!
//! The tick loop is pure Rust and allocates nothing in steady state.

pub mod behaviors;
pub mod build;
pub mod clause;
pub mod config;
pub mod controller;
pub mod error;
pub mod executive;
pub mod goals;
pub mod library;
mod lua;
pub mod model;
pub mod speed;
pub mod uri;

pub use build::{default_control, default_work_site, load, load_file, load_str, LoadOptions};
pub use config::{parse_config, ConfigTable, ConfigValue};
pub use controller::MissionController;
pub use error::{Diagnostic, MissionError, Severity};
pub use executive::{Executive, ItemState, MissionStatus};
pub use goals::{MissionGoalStatus, RUN_MISSION};
pub use lua::Limits;
pub use model::Mission;
