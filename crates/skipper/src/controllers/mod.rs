//! Choosing the controller of a run from the command line: nothing (the built-in
//! wander-and-avoid demo), a mission (`*.lua`), an XABSL agent (`*.xabsl`) or Soar agents;
//! how many robots each needs, its cycle rate, and its controllers for a world.

pub mod mission;

use crate::exit::Failure;
use crate::vehicles;
use skipper_core::{Controller, Observer, World};
use skipper_goals::Wander;
use skipper_mission::Mission;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The controllers of a run: (vehicle index, controller).
pub type Assignments = Vec<(usize, Box<dyn Controller>)>;

/// The controllers of a run and the observers they need (a Soar agent's speech).
pub struct Controllers {
    /// (vehicle index, controller)
    pub assignments: Assignments,
    /// observers the controllers need
    pub observers: Vec<Box<dyn Observer>>,
}

/// What drives the vehicles.
#[derive(Debug, Clone)]
pub enum ControllerChoice {
    /// The built-in wander-and-avoid demo.
    Wander,
    /// A Tethys/LRAUV mission script, loaded and checked.
    Mission(PathBuf, Arc<Mission>),
    /// An XABSL agent.
    Xabsl(PathBuf),
    /// Soar agents (one per robot, in order), through the bridge.
    Soar(Vec<PathBuf>),
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
            Some("lua") => Ok(ControllerChoice::Mission(p.to_path_buf(), mission::load(p)?)),
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
            ControllerChoice::Mission(p, _) | ControllerChoice::Xabsl(p) => stem(p),
            ControllerChoice::Soar(agents) => agents.first().map(|p| stem(p)).unwrap_or_default(),
        }
    }

    /// With `--soar` agents: the Soar choice (a CONTROLLER file as well is an error).
    pub fn with_soar(self, agents: &[PathBuf]) -> Result<Self, Failure> {
        if agents.is_empty() {
            return Ok(self);
        }
        if !matches!(self, ControllerChoice::Wander) {
            return Err(Failure::bad_input(
                "give either a CONTROLLER file or --soar agents, not both",
            ));
        }
        for a in agents {
            if !a.is_file() {
                return Err(Failure::bad_input(format!(
                    "{}: no such Soar agent file",
                    a.display()
                )));
            }
        }
        Ok(ControllerChoice::Soar(agents.to_vec()))
    }

    /// How many robots the choice needs at least.
    pub fn robots_needed(&self) -> usize {
        match self {
            ControllerChoice::Soar(a) => a.len(),
            _ => 1,
        }
    }

    /// The cycle rate when `--rate` does not say (Hz): a Soar agent runs one decision
    /// cycle per 50 ms (20 Hz); otherwise the vehicles' own rate (10 Hz for ground
    /// robots, 5 Hz for the AUV).
    pub fn rate(&self, world: &dyn World) -> f64 {
        match self {
            ControllerChoice::Soar(_) => 20.0,
            _ => vehicles::default_rate(world),
        }
    }

    /// Build one controller per vehicle of `world` (a mission: one for its AUV), and the
    /// observers they need.
    pub fn controllers(
        &self,
        world: &dyn World,
        seed: u64,
        mission_timeout: Option<std::time::Duration>,
    ) -> Result<Controllers, Failure> {
        if mission_timeout.is_some() && !matches!(self, ControllerChoice::Mission(..)) {
            eprintln!("warning: --mission-timeout is for missions (*.lua); this run has none");
        }
        let mut observers: Vec<Box<dyn Observer>> = Vec::new();
        if let ControllerChoice::Soar(_) = self {
            // send-message to `say`: espeak-ng when installed, off the cycle
            observers.push(Box::new(skipper_sps::speech::SpeechObserver::new(
                skipper_sps::speech::Speaker::new(),
            )));
        }
        let assignments = match self {
            ControllerChoice::Mission(_, m) => {
                let mut c = mission::controller(m.clone(), world);
                if let Some(t) = mission_timeout {
                    c = c.with_timeout(t.as_secs_f64());
                }
                vec![(0, Box::new(c) as Box<dyn Controller>)]
            }
            _ => self.build(world, seed)?,
        };
        Ok(Controllers {
            assignments,
            observers,
        })
    }

    /// Build one controller per vehicle of `world`.
    pub fn build(&self, world: &dyn World, seed: u64) -> Result<Assignments, Failure> {
        match self {
            ControllerChoice::Wander => Ok((0..world.len())
                .filter_map(|i| Some((i, world.vehicle(i)?.sensors())))
                .map(|(i, sensors)| {
                    (
                        i,
                        Box::new(Wander::for_sensors(&sensors)) as Box<dyn Controller>,
                    )
                })
                .collect()),
            ControllerChoice::Mission(p, m) => {
                let auv = (0..world.len()).find(|&i| {
                    world
                        .vehicle(i)
                        .is_some_and(|v| v.info().kind == skipper_core::VehicleKind::Auv)
                });
                match auv {
                    Some(i) => Ok(vec![(
                        i,
                        Box::new(mission::controller(m.clone(), world)) as Box<dyn Controller>,
                    )]),
                    None => Err(Failure::bad_input(format!(
                        "{}: a mission needs an AUV, and this world has none",
                        p.display()
                    ))),
                }
            }
            ControllerChoice::Xabsl(p) => build_xabsl(p, world),
            ControllerChoice::Soar(agents) => build_soar(agents, world, seed),
        }
    }
}

/// One XABSL controller per robot, each with its own engine (the agents file and its
/// binding file, `AGENTS.binding` beside it, are read once per robot); the robots are a
/// team, exchanging team messages for cooperative states.
fn build_xabsl(p: &Path, world: &dyn World) -> Result<Assignments, Failure> {
    Ok(xabsl_controllers(p, world)?
        .into_iter()
        .map(|(i, c)| (i, Box::new(c) as Box<dyn Controller>))
        .collect())
}

/// The XABSL controllers of `build_xabsl`, unboxed; each agent's names are checked
/// against the signals its own vehicle has.
pub fn xabsl_controllers(
    p: &Path,
    world: &dyn World,
) -> Result<Vec<(usize, skipper_xabsl::robot::XabslController)>, Failure> {
    let mut v = Vec::new();
    let bus = skipper_xabsl::robot::TeamBus::new(world.len());
    for i in 0..world.len() {
        // the signals this vehicle really has: a ROS robot without sonars has no sonar.N
        let vocabulary = world.vehicle(i).map_or_else(
            || skipper_core::vocabulary::of_kind(skipper_core::VehicleKind::Ground),
            |v| v.vocabulary(),
        );
        match skipper_xabsl::robot::load_controller_for(p, &vocabulary) {
            Ok(mut c) => {
                c.join_team(bus.clone(), i);
                v.push((i, c))
            }
            Err(skipper_xabsl::Error::Compile(text)) => return Err(Failure::diagnostics(text)),
            Err(e) => return Err(Failure::bad_input(format!("{}: {e}", p.display()))),
        }
    }
    Ok(v)
}

/// One link controller per Soar agent, on robots 0, 1, ...; the agents share a post
/// office, so they can message each other by robot name.
fn build_soar(agents: &[PathBuf], world: &dyn World, seed: u64) -> Result<Assignments, Failure> {
    use skipper_sps::{Link, LinkConfig, LinkController, PostOffice};
    if agents.len() > world.len() {
        return Err(Failure::bad_input(format!(
            "{} Soar agents but only {} robots in the world",
            agents.len(),
            world.len()
        )));
    }
    let python = skipper_sps::bridge::bridge_python().map_err(bridge_failure)?;
    let post = PostOffice::new();
    let names: Vec<String> = (0..agents.len())
        .map(|i| {
            world
                .vehicle(i)
                .map(|v| v.info().name.clone())
                .unwrap_or_else(|| format!("robot{}", i + 1))
        })
        .collect();
    for n in &names {
        post.register(n);
    }
    let mut out: Assignments = Vec::new();
    for (i, (agent, name)) in agents.iter().zip(&names).enumerate() {
        let port =
            skipper_sps::BridgePort::spawn(&python, agent, name, seed).map_err(bridge_failure)?;
        let link = Link::new(LinkConfig::new(name.clone())).with_post_office(post.clone());
        let stem = agent
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((
            i,
            Box::new(LinkController::new(format!("soar:{stem}"), link, port)),
        ));
    }
    Ok(out)
}

/// A Soar bridge that does not start: an agent that does not load or a bridge not
/// installed is bad input, the rest a failure.
fn bridge_failure(e: skipper_sps::BridgeError) -> Failure {
    if e.is_bad_input() {
        Failure::bad_input(e.to_string())
    } else {
        Failure::failed(e.to_string())
    }
}
