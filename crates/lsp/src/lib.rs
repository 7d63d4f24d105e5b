//! A language server for Skipper's behavior languages: XABSL agents (`.xabsl`) and
//! Tethys/LRAUV mission scripts (`.lua`), over the Language Server Protocol on stdio, as
//! `skipper lsp` runs it for an editor.
//!
//! - diagnostics as you type: the checker's messages and numbers (`X5552`, ...), for
//!   every file of the agent the edited file belongs to, and the mission loader's for a
//!   mission script;
//! - go to definition and find references for options, states, symbols, constants,
//!   enumerations and their elements, parameters and basic behaviors;
//! - hover: the declaration with its type, range and unit, and its doc comment;
//! - completion of symbols, constants, options, basic behaviors, the option's states
//!   and parameters, and enumeration elements;
//! - document symbols: agents, options with their states and parameters, namespaces with
//!   their declarations, as an outline.
//!
//! The protocol is `lsp-server` (rust-analyzer's synchronous scaffold: a connection over
//! stdio with channels, no async runtime; the checker is synchronous and re-checks an
//! agent of 100 options in a few milliseconds, so one thread serves an editor); the
//! message types are `lsp-types`. The logic is in [`Workspace`], usable without the
//! protocol (the benchmark drives it directly).

mod index;
mod mission;
mod outline;
pub mod server;
mod workspace;
mod xabsl;

pub use server::{serve, serve_stdio};
pub use workspace::{FileDiagnostics, Workspace};

/// Errors of the server.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The connection broke or a message could not be sent.
    #[error("language server connection: {0}")]
    Protocol(String),
    /// A message could not be read as JSON.
    #[error("language server message: {0}")]
    Json(#[from] serde_json::Error),
}
