//! `skipper mission`: check a Tethys mission before launch.

use crate::exit::Failure;
use clap::{Args, Subcommand};
use skipper_mission::model::Body;
use std::path::PathBuf;

/// `skipper mission ...`
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  skipper mission check examples/missions/test_mission.lua
  # check, then fly it on the simulated AUV
  skipper mission check examples/missions/surface_and_report.lua &&
      skipper run examples/missions/surface_and_report.lua")]
pub struct MissionArgs {
    #[command(subcommand)]
    pub command: MissionCommand,
}

/// What to do with a mission.
#[derive(Debug, Subcommand)]
pub enum MissionCommand {
    /// Load a mission in the sandbox and run every check before launch (unknown behaviors
    /// and settings, unit dimensions, REPEAT, WITHIN, clauses, IDs, guards on the top level).
    #[command(after_help = "Examples:
  skipper mission check examples/missions/test_mission.lua
  # check, then fly it on the simulated AUV
  skipper mission check examples/missions/surface_and_report.lua &&
      skipper run examples/missions/surface_and_report.lua

The workSite.cfg beside the mission (if any) is read as the mission's `workSite`
table, the Control.cfg beside it (if any) as the vehicle configuration `Control`
(default speeds `DefaultSpeed.<Behavior>`, `MissionTimeout`). Warnings include
items that can never move the vehicle (a speed of 0 wherever it comes from).

Exit status: 0 when the mission loads (warnings are printed), 2 when it does not
(every error is listed with file:line:col).")]
    Check {
        /// The mission script (*.lua).
        file: PathBuf,
    },
}

/// Run it; returns the exit status.
pub fn run(args: MissionArgs) -> Result<u8, Failure> {
    match args.command {
        MissionCommand::Check { file } => {
            let m = crate::controllers::mission::load(&file)?;
            let (mut behaviors, mut commands, mut stacks) = (0usize, 0usize, 0usize);
            for it in &m.items {
                match &it.body {
                    Body::Stack { .. } => stacks += 1,
                    Body::Leaf(l) if l.command => commands += 1,
                    Body::Leaf(_) => behaviors += 1,
                }
            }
            crate::outln!("{}: mission `{}` is fine", file.display(), m.name);
            crate::outln!(
                "  items      {} ({behaviors} behaviors, {commands} commands, {} substacks)",
                m.items.len(),
                stacks.saturating_sub(1)
            );
            let exec = skipper_mission::Executive::new(m.clone());
            let limit = match (exec.timeout(), m.items.first().and_then(|r| r.within)) {
                (Some(t), _) => format!(
                    "{} (the default mission timeout; MissionTimeout in Control.cfg changes it)",
                    crate::summary::human_duration(t)
                ),
                (None, Some(w)) => {
                    format!("{} (the STACK's WITHIN)", crate::summary::human_duration(w))
                }
                (None, None) => "none".into(),
            };
            crate::outln!("  time limit {limit}");
            let warnings = m.warnings.iter().filter(|w| !w.is_error()).count();
            crate::outln!("  warnings   {warnings}");
            Ok(0)
        }
    }
}
