//! Choosing the controller of a run from the command line: nothing (the built-in
//! wander-and-avoid demo), a mission (`*.lua`), an XABSL agent (`*.xabsl`) or Soar agents;
//! and the world each needs ([`ControllerChoice::setup`]).

pub mod mission;

use crate::exit::Failure;
use crate::vehicles::{self, VehicleChoice};
use skipper_core::demo::Wander;
use skipper_core::{Controller, Observer, World};
use std::path::{Path, PathBuf};

/// The controllers of a run: (vehicle index, controller).
pub type Assignments = Vec<(usize, Box<dyn Controller>)>;

/// Where the vehicles of a run come from (the options of `skipper run` that say so).
#[derive(Debug, Clone)]
pub struct WorldOptions<'a> {
    /// `--vehicle`
    pub vehicle: &'a VehicleChoice,
    /// `--world`
    pub world: Option<&'a Path>,
    /// `--robots`
    pub robots: Option<usize>,
    /// `--seed`
    pub seed: u64,
    /// `--mission-timeout`: a mission without a WITHIN ends after this long
    pub mission_timeout: Option<std::time::Duration>,
    /// `--model`: the simulated robots' models
    pub models: &'a [crate::vehicles::ModelChoice],
}

/// A run's world and controllers, as a controller choice makes them.
pub struct Setup {
    /// the world
    pub world: Box<dyn World>,
    /// its controllers
    pub controllers: Assignments,
    /// the cycle rate when `--rate` does not say (Hz)
    pub rate: f64,
    /// observers the controllers need (a Soar agent's speech)
    pub observers: Vec<Box<dyn Observer>>,
}

/// What drives the vehicles.
#[derive(Debug, Clone, PartialEq)]
pub enum ControllerChoice {
    /// The built-in wander-and-avoid demo.
    Wander,
    /// A Tethys/LRAUV mission script.
    Mission(PathBuf),
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
            ControllerChoice::Soar(agents) => agents.first().map(|p| stem(p)).unwrap_or_default(),
        }
    }

    /// With `--soar` agents: the Soar choice (a CONTROLLER file as well is an error).
    pub fn with_soar(self, agents: &[PathBuf]) -> Result<Self, Failure> {
        if agents.is_empty() {
            return Ok(self);
        }
        if self != ControllerChoice::Wander {
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

    /// The world this choice runs in and its controllers: a mission flies the AUV of its
    /// worksite, the others drive the vehicles `--vehicle` says (as many robots as Soar
    /// agents at least).
    pub fn setup(&self, o: &WorldOptions<'_>) -> Result<Setup, Failure> {
        if let ControllerChoice::Mission(p) = self {
            return mission::setup(p, o);
        }
        if o.mission_timeout.is_some() {
            eprintln!("warning: --mission-timeout is for missions (*.lua); this run has none");
        }
        let mut world =
            vehicles::build_with_models(o.vehicle, o.world, o.robots, o.seed, o.models)?;
        // several Soar agents need as many robots
        let needed = self.robots_needed();
        if world.len() < needed && o.robots.is_none() {
            world =
                vehicles::build_with_models(o.vehicle, o.world, Some(needed), o.seed, o.models)?;
        }
        let controllers = self.build(&*world, o.seed)?;
        let soar = matches!(self, ControllerChoice::Soar(_));
        let mut observers: Vec<Box<dyn Observer>> = Vec::new();
        if soar {
            // send-message to `say`: espeak-ng when installed, off the cycle
            observers.push(Box::new(skipper_sps::speech::SpeechObserver::new(
                skipper_sps::speech::Speaker::new(),
            )));
        }
        // Soar agents run one decision cycle per 50 ms (20 Hz)
        let rate = if soar {
            20.0
        } else {
            vehicles::default_rate(&*world)
        };
        Ok(Setup {
            world,
            controllers,
            rate,
            observers,
        })
    }

    /// Build one controller per vehicle of `world`.
    pub fn build(&self, world: &dyn World, seed: u64) -> Result<Assignments, Failure> {
        match self {
            ControllerChoice::Wander => Ok((0..world.len())
                .map(|i| (i, Box::new(Wander::new()) as Box<dyn Controller>))
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
                        Box::new(mission::controller(m, world)) as Box<dyn Controller>,
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

/// The XABSL controllers of `build_xabsl`, unboxed.
pub fn xabsl_controllers(
    p: &Path,
    world: &dyn World,
) -> Result<Vec<(usize, skipper_xabsl::robot::XabslController)>, Failure> {
    let mut v = Vec::new();
    let bus = skipper_xabsl::robot::TeamBus::new(world.len());
    for i in 0..world.len() {
        let kind = world
            .vehicle(i)
            .map_or(skipper_core::VehicleKind::Ground, |v| v.info().kind);
        let vocabulary = skipper_core::vocabulary::of_kind(kind);
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
