//! `skipper report`: an HTML report with plots from a run log.

use crate::exit::Failure;
use clap::Args;
use std::path::{Path, PathBuf};

/// Options of `skipper report`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # writes runs/wander-20261130T033607Z.html
  skipper report runs/wander-20261130T033607Z.mcap
  skipper report office.mcap -o office-report.html

The report has the track on the world map (walls, goals and waypoints with their
capture circles), speed and heading over time, the depth and altitude profile of
AUVs, a timeline of the behaviors' states and events, and summary tables. It is
one HTML file with inline SVG: open it in any browser.

Exit status: 0 when the report was written, 1 when it could not be written, 2
when the log cannot be read.")]
pub struct ReportArgs {
    /// The run log (MCAP) to report on.
    pub log: PathBuf,
    /// Where to write the report (default: beside the log, with the extension .html).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The default report path: the log's path with `.html`.
pub fn default_output(log: &Path) -> PathBuf {
    log.with_extension("html")
}

/// Write the report; returns the exit status.
pub fn run(args: ReportArgs) -> Result<u8, Failure> {
    let rec = crate::report::open(&args.log).map_err(|e| Failure::bad_input(format!("{e:#}")))?;
    let html = crate::report::render(&rec);
    let out = args.output.unwrap_or_else(|| default_output(&args.log));
    std::fs::write(&out, html)
        .map_err(|e| Failure::failed(format!("cannot write {}: {e}", out.display())))?;
    if let Some(why) = &rec.truncated {
        eprintln!(
            "warning: {} ends early ({why}); the report shows what it has",
            args.log.display()
        );
    }
    crate::outln!("report written to {}", out.display());
    Ok(0)
}
