//! Errors that carry the exit status of the command-line contract: 0 when a run ended as
//! planned, 1 when the controller failed or aborted, 2 for bad input, 3 when a mission
//! did not complete within its default mission timeout, 130 when interrupted.

use std::fmt;

/// Exit status for bad input (a file that does not load or check, a bad flag value).
pub const BAD_INPUT: u8 = 2;
/// Exit status when the controller failed or aborted.
pub const FAILED: u8 = 1;
/// Exit status when a mission did not complete within its default mission timeout
/// (outcome `timeout`).
pub const TIMEOUT: u8 = 3;
/// Exit status when the run was interrupted (Ctrl-C), as shells report SIGINT.
pub const INTERRUPTED: u8 = 130;

/// How a failure's message is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// a sentence: shown after `error: `
    Sentence,
    /// diagnostics already rendered (`file:line:col: error: ...`, the line, a caret):
    /// shown as they are
    Diagnostics,
}

/// A command failed; the message is for the user, the code for the shell.
#[derive(Debug)]
pub struct Failure {
    /// exit status
    pub code: u8,
    /// what to tell the user (already formatted, may span lines)
    pub message: String,
    /// how to show it
    pub shown: Shown,
}

impl Failure {
    /// Bad input: exit status 2.
    pub fn bad_input(message: impl Into<String>) -> Self {
        Self {
            code: BAD_INPUT,
            message: message.into(),
            shown: Shown::Sentence,
        }
    }
    /// Bad input whose message is rendered diagnostics: exit status 2.
    pub fn diagnostics(text: impl Into<String>) -> Self {
        Self {
            shown: Shown::Diagnostics,
            ..Self::bad_input(text)
        }
    }
    /// A failure of the run: exit status 1.
    pub fn failed(message: impl Into<String>) -> Self {
        Self {
            code: FAILED,
            message: message.into(),
            shown: Shown::Sentence,
        }
    }
    /// What to print on stderr.
    pub fn text(&self) -> String {
        let msg = self.message.trim_end();
        match self.shown {
            Shown::Diagnostics => msg.to_string(),
            Shown::Sentence => format!("error: {msg}"),
        }
    }
}

impl From<skipper_mission::MissionError> for Failure {
    /// A mission that does not check shows its diagnostics; one that cannot be read says so.
    fn from(e: skipper_mission::MissionError) -> Self {
        match e {
            skipper_mission::MissionError::Invalid(_) => Failure::diagnostics(e.to_string()),
            skipper_mission::MissionError::Io { .. } => Failure::bad_input(e.to_string()),
        }
    }
}

impl From<skipper_sim::WorldErrors> for Failure {
    /// A world that does not parse shows its diagnostics; one that cannot be read says so.
    fn from(e: skipper_sim::WorldErrors) -> Self {
        match e.0.first() {
            // one error, the file's: `error: ` is the failure's own prefix
            Some(io @ skipper_sim::WorldError::Io { .. }) => Failure::bad_input(io.to_string()),
            _ => Failure::diagnostics(e.to_string()),
        }
    }
}

#[cfg(feature = "dashboard")]
impl From<skipper_dashboard::Error> for Failure {
    /// An address the dashboard may not or cannot listen on is bad input; no token, a failure.
    fn from(e: skipper_dashboard::Error) -> Self {
        match e {
            skipper_dashboard::Error::Token(_) => Failure::failed(e.to_string()),
            _ => Failure::bad_input(e.to_string()),
        }
    }
}

/// A part this build left out (a cargo feature of the skipper crate, on by default),
/// asked for: bad input, with how to get it.
pub fn left_out(feature: &str, what: &str) -> Failure {
    Failure::bad_input(format!(
        "this skipper was built without {what}: build it with the cargo feature `{feature}` \
         (on by default), e.g. `cargo build --release -p skipper --features {feature}`"
    ))
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::failed(format!("{e:#}"))
    }
}
