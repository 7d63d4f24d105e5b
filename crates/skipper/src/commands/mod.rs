//! The subcommands, one module each.

pub mod action;
pub mod interfaces;
pub mod link;
#[cfg(feature = "lsp")]
pub mod lsp;
#[cfg(feature = "torch-ros")]
pub mod lua;
pub mod mission;
#[cfg(feature = "dashboard")]
pub mod replay;
pub mod report;
pub mod run;
pub mod session;
pub mod sim;
pub mod world;
pub mod xabsl;
