//! Skipper's run report: one self-contained HTML file with SVG plots, read from a run
//! log ([`skipper_runlog`]) as a stream, so that a report on a fleet's long run needs
//! about as much memory as one on a short run.
//!
//! - [`digest`]: what the report keeps of a log, collected message by message;
//! - [`decimate`]: time series kept at what a plot draws;
//! - [`series`]: which signals it reads, waypoints and envelopes from states and events;
//! - [`lanes`]: the behavior timeline's lanes, read generically from `/controller` and
//!   `/events`;
//! - [`fleet`]: a fleet's median and spread over time, and its worst robots;
//! - [`plots`]: the SVG plots (`plotters`);
//! - [`tables`]: the summary, robots and events tables;
//! - [`page`]: the page, laid out for one robot, a few, or a fleet;
//! - [`world_map`]: a world's picture before any run (`skipper world check --svg`);
//! - this module: [`write()`] reads a log and writes its report, [`Error`] says why it
//!   could not.

pub mod decimate;
pub mod digest;
pub mod fleet;
pub mod lanes;
pub mod page;
pub mod plots;
pub mod series;
pub mod tables;
pub mod world_map;

pub use digest::Digest;
pub use page::render;
pub use tables::{robot_rows, RobotRow};

use std::path::{Path, PathBuf};

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The run log could not be read.
    #[error(transparent)]
    Read(#[from] skipper_runlog::Error),
    /// The report could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// where it was to go
        path: PathBuf,
        /// why
        source: std::io::Error,
    },
}

/// A report written.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// where
    pub path: PathBuf,
    /// why the log ended early, if it did (the report shows what it has)
    pub truncated: Option<String>,
}

/// The default report path: the log's path with `.html`.
pub fn default_output(log: &Path) -> PathBuf {
    log.with_extension("html")
}

/// Read the run log at `log` and write its report to `out` (default: beside the log).
pub fn write(log: &Path, out: Option<&Path>) -> Result<Written, Error> {
    let d = open(log)?;
    let html = render(&d);
    let path = out.map_or_else(|| default_output(log), Path::to_path_buf);
    std::fs::write(&path, html).map_err(|source| Error::Write {
        path: path.clone(),
        source,
    })?;
    Ok(Written {
        path,
        truncated: d.truncated,
    })
}

/// Read a run log as a stream, keeping what the report draws.
pub fn open(path: &Path) -> Result<Digest, skipper_runlog::Error> {
    Digest::open(path)
}

/// The HTML-escaped text.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(
            esc("<a href='x'>&</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"
        );
    }
}
