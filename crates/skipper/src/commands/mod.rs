//! The subcommands, one module each.

pub mod run;
pub mod world;
