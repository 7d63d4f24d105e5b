//! XABSL for Skipper: read the behavior files RoboCup teams wrote, check them, compile
//! them, run them with the reference engine's semantics, and document them.
//!
//! - [`lexer`], [`parser`], [`ast`]: the C-like XABSL language, doc comments kept;
//! - [`loader`]: an agents file and what it includes;
//! - [`check`], [`model`]: names resolved, expressions typed, every error reported with
//!   `file:line:col`, the line and a caret ([`diag`]);
//! - [`ic`]: the reference compiler's intermediate code, token for token;
//! - [`engine`]: the executable form and the reference engine's cycle;
//! - [`trace`]: offline runs from JSON lines, as the golden traces;
//! - [`doc`]: HTML documentation with state machine and decision tree diagrams, and
//!   Graphviz;
//! - [`robot`]: a [`skipper_core::Controller`] that binds an agent to a robot's signals
//!   and actuation.
//!
//! ```
//! use skipper_xabsl::{compile, loader::MemLoader};
//! let mut files = MemLoader::new();
//! files.add("agents.xabsl", "include \"o.xabsl\";\nagent a(\"A\", o);\n");
//! files.add("o.xabsl", "option o { initial target state s { action { } } }");
//! let c = compile("agents.xabsl", &files);
//! assert!(!c.diagnostics.has_errors());
//! let ic = skipper_xabsl::ic::write(&c.program);
//! assert!(ic.ends_with("1\r\na o\r\n"));
//! ```

pub mod ast;
pub mod check;
pub mod define;
pub mod diag;
pub mod doc;
pub mod engine;
#[doc(hidden)]
pub mod fuzzing;
pub mod ic;
pub mod lexer;
pub mod loader;
pub mod model;
pub mod parser;
pub mod robot;
pub mod source;
pub mod trace;

use std::path::Path;

pub use diag::{Diagnostic, Diagnostics, Severity};
pub use model::Program;

/// The result of reading and checking an agents file and its includes.
#[derive(Debug, Clone)]
pub struct Compilation {
    /// the program (complete only without errors)
    pub program: Program,
    /// every error and warning
    pub diagnostics: Diagnostics,
}

impl Compilation {
    /// Render every error, then every warning.
    pub fn render(&self) -> String {
        self.diagnostics.render(&self.program.sources)
    }
}

/// Errors of this crate's library calls.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The files do not compile; the text holds every rendered diagnostic.
    #[error("{0}")]
    Compile(String),
    /// The engine cannot be built or bound.
    #[error("{0}")]
    Engine(String),
    /// Reading or writing a file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Read `entry` and everything it includes through `files`, and check it.
pub fn compile(entry: impl AsRef<Path>, files: &dyn loader::FileLoader) -> Compilation {
    let loaded = loader::load(entry.as_ref(), files);
    let (program, diagnostics) = check::check(loaded);
    Compilation {
        program,
        diagnostics,
    }
}

/// Read `entry` and everything it includes from the file system, and check it.
pub fn compile_path(entry: impl AsRef<Path>) -> Compilation {
    compile(entry, &loader::FsLoader)
}
