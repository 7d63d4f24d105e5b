//! `skipper report`: an HTML report with plots from a run log.

use crate::exit::Failure;
use clap::Args;
use std::path::PathBuf;

/// Options of `skipper report`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # a run's log, then its report beside it (office.html), or elsewhere
  skipper run --world examples/worlds/office.world --until 10m --log office.mcap
  skipper report office.mcap
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

/// Write the report; returns the exit status.
pub fn run(args: ReportArgs) -> Result<u8, Failure> {
    use skipper_report::Error;
    let written =
        skipper_report::write(&args.log, args.output.as_deref()).map_err(|e| match e {
            Error::Read(_) => Failure::bad_input(e.to_string()),
            Error::Write { .. } => Failure::failed(e.to_string()),
        })?;
    if let Some(why) = &written.truncated {
        eprintln!(
            "warning: {} ends early ({why}); the report shows what it has",
            args.log.display()
        );
    }
    crate::outln!("report written to {}", written.path.display());
    Ok(0)
}
