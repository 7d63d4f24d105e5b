//! `skipper world`: check a world file or map, and say what is in it.

use crate::exit::Failure;
use crate::vehicles;
use clap::{Args, Subcommand};
use skipper_sim::spec::PlaceSpec;
use skipper_sim::WorldSpec;
use std::path::{Path, PathBuf};

/// `skipper world ...`
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  skipper world check examples/worlds/office.world
  skipper world check examples/worlds/lab.map")]
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
  skipper world check examples/worlds/lab.map
  # and see it: walls, goals, landmarks, each robot and where it faces
  skipper world check examples/worlds/office.world --svg office.svg

Exit status: 0 when the world loads, 2 when it does not (every error is listed
with file:line:col).")]
    Check {
        /// The world file or map.
        file: PathBuf,
        /// Also draw the world to this SVG file.
        #[arg(long, value_name = "PATH.svg")]
        svg: Option<PathBuf>,
    },
}

/// Run it; returns the exit status.
pub fn run(args: WorldArgs) -> Result<u8, Failure> {
    match args.command {
        WorldCommand::Check { file, svg } => {
            let spec = vehicles::load_spec(Some(&file))?;
            let world = skipper_sim::GroundWorld::new(&spec, 0).map_err(Failure::from)?;
            summarise(&file, &spec, world.walls().len());
            if let Some(path) = svg {
                let picture = skipper_report::world_map::world_svg(&spec)
                    .map_err(|e| Failure::failed(format!("cannot draw {}: {e}", file.display())))?;
                std::fs::write(&path, picture).map_err(|e| {
                    Failure::failed(format!("cannot write {}: {e}", path.display()))
                })?;
                crate::outln!("  picture    {}", path.display());
            }
            Ok(0)
        }
    }
}

/// What a world holds, a line each.
fn summarise(file: &Path, spec: &WorldSpec, walls: usize) {
    let (lo, hi) = spec.bounds();
    let names = |places: &[PlaceSpec]| match places.len() {
        0 => "none".to_string(),
        _ => places
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    };
    crate::outln!("{}: world `{}` is fine", file.display(), spec.name);
    crate::outln!(
        "  extent     ({:.2}, {:.2}) to ({:.2}, {:.2}) m",
        lo.x,
        lo.y,
        hi.x,
        hi.y
    );
    crate::outln!("  walls      {walls}");
    crate::outln!("  objects    {}", spec.objects.len());
    crate::outln!("  goals      {}", names(&spec.goals));
    crate::outln!("  landmarks  {}", names(&spec.landmarks));
    for r in &spec.robots {
        crate::outln!(
            "  robot      {} ({}) at ({:.2}, {:.2}) facing {:.0} deg",
            r.name,
            r.model,
            r.pose.x,
            r.pose.y,
            r.pose.yaw.to_degrees()
        );
    }
}
