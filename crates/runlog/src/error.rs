//! What creating or reading a run log can fail with.

use std::path::{Path, PathBuf};

/// A run log that cannot be created or read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory could not be made, written or read.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        /// what was being done ("create the run log", "read")
        what: &'static str,
        /// the file or directory
        path: PathBuf,
        /// why
        source: std::io::Error,
    },
    /// The file is there but is not a run log Skipper can read.
    #[error("{} is not a Skipper run log: {source}", path.display())]
    NotARunLog {
        /// the file
        path: PathBuf,
        /// why
        source: Box<Error>,
    },
    /// The bytes do not start as an MCAP file does.
    #[error("not an MCAP file (it does not start with the MCAP magic bytes)")]
    NotMcap,
    /// Not one message could be read.
    #[error("no message could be read{}", .0.as_deref().map(|t| format!(": {t}")).unwrap_or_default())]
    NoMessages(Option<String>),
}

impl Error {
    /// An I/O failure while doing `what` to `path`.
    pub fn io(what: &'static str, path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            what,
            path: path.to_path_buf(),
            source,
        }
    }
}
