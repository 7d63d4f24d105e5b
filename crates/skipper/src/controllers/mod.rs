//! Choosing the controller of a run from the command line: nothing (the built-in
//! wander-and-avoid demo), a mission (`*.lua`), an XABSL agent (`*.xabsl`) or Soar agents.

pub mod goal;
pub mod mission;
pub mod wander;

use crate::exit::Failure;
use skipper_core::{Controller, World};
use std::path::{Path, PathBuf};

/// The controllers of a run: (vehicle index, controller).
pub type Assignments = Vec<(usize, Box<dyn Controller>)>;

/// What drives the vehicles.
#[derive(Debug, Clone, PartialEq)]
pub enum ControllerChoice {
    /// The built-in wander-and-avoid demo.
    Wander,
    /// A Tethys/LRAUV mission script.
    Mission(PathBuf),
    /// An XABSL agent.
    Xabsl(PathBuf),
}

impl ControllerChoice {
    /// Read the CONTROLLER argument: none or `wander` for the demo, otherwise a file whose
    /// extension says what it is.
    pub fn parse(arg: Option<&Path>) -> Result<Self, Failure> {
        let Some(p) = arg else {
            return Ok(ControllerChoice::Wander);
        };
        if p.as_os_str() == "wander" {
            return Ok(ControllerChoice::Wander);
        }
        match p.extension().and_then(|e| e.to_str()) {
            Some("lua") => Ok(ControllerChoice::Mission(p.to_path_buf())),
            Some("xabsl") => Ok(ControllerChoice::Xabsl(p.to_path_buf())),
            _ => Err(Failure::bad_input(format!(
                "don't know how to run `{}`: expected a mission (*.lua), an XABSL agent (*.xabsl), `--soar AGENT.soar`, or nothing for the wander demo",
                p.display()
            ))),
        }
    }

    /// A short name for the run log's file name.
    pub fn name(&self) -> String {
        let stem = |p: &Path| {
            p.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        match self {
            ControllerChoice::Wander => "wander".into(),
            ControllerChoice::Mission(p) | ControllerChoice::Xabsl(p) => stem(p),
        }
    }

    /// Build one controller per vehicle of `world`.
    pub fn build(&self, world: &dyn World) -> Result<Assignments, Failure> {
        match self {
            ControllerChoice::Wander => Ok((0..world.len())
                .map(|i| (i, Box::new(wander::Wander::new()) as Box<dyn Controller>))
                .collect()),
            ControllerChoice::Mission(p) => {
                let m = mission::load(p)?;
                let auv = (0..world.len()).find(|&i| {
                    world
                        .vehicle(i)
                        .is_some_and(|v| v.info().kind == skipper_core::VehicleKind::Auv)
                });
                match auv {
                    Some(i) => Ok(vec![(
                        i,
                        Box::new(skipper_mission::MissionController::new(m)) as Box<dyn Controller>,
                    )]),
                    None => Err(Failure::bad_input(format!(
                        "{}: a mission needs an AUV, and this world has none",
                        p.display()
                    ))),
                }
            }
            ControllerChoice::Xabsl(p) => Err(Failure::bad_input(format!(
                "{}: XABSL agents are not supported by this build yet (issue #6)",
                p.display()
            ))),
        }
    }
}
