//! The subcommands, one module each.

pub mod action;
pub mod interfaces;
pub mod link;
pub mod lsp;
pub mod lua;
pub mod mission;
pub mod replay;
pub mod report;
pub mod run;
pub mod session;
pub mod sim;
pub mod world;
pub mod xabsl;
