//! `skipper world`: check a world file or map, and say what is in it.

use crate::exit::Failure;
use crate::vehicles;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `skipper world ...`
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  skipper world check examples/worlds/office.world
  skipper world check lab.map")]
pub struct WorldArgs {
    #[command(subcommand)]
    pub command: WorldCommand,
}

/// What to do with a world.
#[derive(Debug, Subcommand)]
pub enum WorldCommand {
    /// Check a world file (*.world) or a MobileSim/ARIA map (*.map) and summarise it.
    #[command(after_help = "Examples:
  skipper world check examples/worlds/office.world
  skipper world check lab.map

Exit status: 0 when the world loads, 2 when it does not (every error is listed
with file:line:col).")]
    Check {
        /// The world file or map.
        file: PathBuf,
    },
}

/// Run it; returns the exit status.
pub fn run(args: WorldArgs) -> Result<u8, Failure> {
    match args.command {
        WorldCommand::Check { file } => {
            let spec = vehicles::load_spec(Some(&file))?;
            let world = skipper_sim::GroundWorld::new(&spec, 0).map_err(Failure::from)?;
            let (lo, hi) = spec.bounds();
            println!("{}: world `{}` is fine", file.display(), spec.name);
            println!(
                "  extent     ({:.2}, {:.2}) to ({:.2}, {:.2}) m",
                lo.x, lo.y, hi.x, hi.y
            );
            println!("  walls      {}", world.walls().len());
            println!("  objects    {}", spec.objects.len());
            println!(
                "  goals      {}",
                spec.goals
                    .iter()
                    .map(|g| g.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            println!(
                "  landmarks  {}",
                spec.landmarks
                    .iter()
                    .map(|g| g.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for r in &spec.robots {
                println!(
                    "  robot      {} ({}) at ({:.2}, {:.2}) facing {:.0} deg",
                    r.name,
                    r.model,
                    r.pose.x,
                    r.pose.y,
                    r.pose.yaw.to_degrees()
                );
            }
            Ok(0)
        }
    }
}
