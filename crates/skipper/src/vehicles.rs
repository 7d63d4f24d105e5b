//! Choosing the world and vehicles of a run: the built-in simulator (a world file, a
//! `.map`, or the default empty room), or a real robot.

use crate::commands::session::WorldArgs;
use crate::exit::Failure;
use skipper_core::{VehicleKind, World};
use skipper_p2os::client::{DriverOptions, LinkSpec, P2osVehicle, P2osWorld};
use skipper_sim::{load_world, GroundWorld, WorldSpec};
use std::path::Path;
use std::str::FromStr;

/// Where the vehicles come from (`--vehicle`).
#[derive(Debug, Clone, PartialEq)]
pub enum VehicleChoice {
    /// The built-in simulator.
    Sim,
    /// A robot that speaks P2OS over TCP.
    P2osTcp(String),
    /// A robot that speaks P2OS on a serial port.
    P2osSerial(String),
}

impl FromStr for VehicleChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "sim" {
            Ok(VehicleChoice::Sim)
        } else if let Some(addr) = s.strip_prefix("p2os://") {
            if addr.is_empty() {
                Err("expected p2os://HOST:PORT, e.g. p2os://127.0.0.1:8101".into())
            } else {
                Ok(VehicleChoice::P2osTcp(addr.to_string()))
            }
        } else if s.starts_with('/') {
            Ok(VehicleChoice::P2osSerial(s.to_string()))
        } else {
            Err(format!("unknown vehicle `{s}`: expected `sim`, `p2os://HOST:PORT` or a serial device such as /dev/ttyS0"))
        }
    }
}

/// `--model [ROBOT=]MODEL`: the model of every simulated robot, or of the one named.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelChoice {
    /// The robot it is for (`None`: every robot).
    pub robot: Option<String>,
    /// A model name (`p3dx`, `splinter`, ...).
    pub model: String,
}

impl FromStr for ModelChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (robot, model) = match s.split_once('=') {
            Some((r, m)) => (Some(r.to_string()), m),
            None => (None, s),
        };
        if skipper_sim::ground::models::motion_model(model).is_none() {
            let expected = skipper_sim::ground::models::expected();
            return Err(format!("unknown model `{model}`; {expected}"));
        }
        Ok(Self {
            robot,
            model: model.to_string(),
        })
    }
}

/// Give the robots of `spec` the models the command line asks for, in order (a later
/// choice wins); a robot name the world does not have is bad input.
pub fn apply_models(spec: &mut WorldSpec, models: &[ModelChoice]) -> Result<(), Failure> {
    for m in models {
        let mut found = false;
        for r in &mut spec.robots {
            if m.robot.as_deref().is_none_or(|n| n == r.name) {
                r.model = m.model.clone();
                found = true;
            }
        }
        if let (Some(name), false) = (&m.robot, found) {
            let names: Vec<_> = spec.robots.iter().map(|r| r.name.as_str()).collect();
            return Err(Failure::bad_input(format!(
                "--model {name}={}: the world has no robot `{name}` (it has {})",
                m.model,
                names.join(", ")
            )));
        }
    }
    Ok(())
}

/// Load the world description: a world file or `.map`, or the default empty room.
pub fn load_spec(world: Option<&Path>) -> Result<WorldSpec, Failure> {
    match world {
        None => Ok(WorldSpec::empty_room()),
        Some(p) => load_world(p).map_err(Failure::from),
    }
}

/// Build the simulated ground world, with exactly `robots` robots if given.
pub fn ground_world(
    world: Option<&Path>,
    robots: Option<usize>,
    seed: u64,
) -> Result<GroundWorld, Failure> {
    ground_world_with_models(world, robots, 0, seed, &[])
}

/// [`ground_world`] with at least `at_least` robots when `robots` does not say, and the
/// robots' models as `--model` says.
fn ground_world_with_models(
    world: Option<&Path>,
    robots: Option<usize>,
    at_least: usize,
    seed: u64,
    models: &[ModelChoice],
) -> Result<GroundWorld, Failure> {
    let mut spec = load_spec(world)?;
    if robots == Some(0) {
        return Err(Failure::bad_input("--robots must be at least 1"));
    }
    let n = robots.or((spec.robots.len() < at_least).then_some(at_least));
    if let Some(n) = n {
        spec = populate_to(spec, n)?;
    }
    apply_models(&mut spec, models)?;
    GroundWorld::new(&spec, seed).map_err(Failure::from)
}

/// `spec` with exactly `n` robots.
fn populate_to(spec: WorldSpec, n: usize) -> Result<WorldSpec, Failure> {
    skipper_sim::ground::with_robots(spec, n)
        .map_err(|e| Failure::bad_input(format!("cannot place {n} robots: {e}")))
}

/// Connect to a P2OS robot (the first connection must succeed; the driver reconnects
/// after later drops).
fn p2os(spec: LinkSpec) -> Result<Box<dyn World>, Failure> {
    let v = P2osVehicle::connect(spec.clone(), DriverOptions::default())
        .map_err(|e| Failure::failed(format!("cannot connect to the robot at {spec}: {e}")))?;
    Ok(Box::new(P2osWorld::new(v)))
}

/// Build the vehicles of a run as `--world`, `--vehicle`, `--robots`, `--seed` and
/// `--model` say, with at least `at_least` robots in a simulated world when `--robots`
/// does not say.
pub fn build(w: &WorldArgs, at_least: usize) -> Result<Box<dyn World>, Failure> {
    if !matches!(w.vehicle, VehicleChoice::Sim)
        && (w.world.is_some() || w.robots.is_some() || !w.models.is_empty())
    {
        eprintln!(
            "warning: --world, --robots and --model are for the simulator; a P2OS robot is what it is"
        );
    }
    match &w.vehicle {
        VehicleChoice::Sim => Ok(Box::new(ground_world_with_models(
            w.world.as_deref(),
            w.robots,
            at_least,
            w.seed,
            &w.models,
        )?)),
        VehicleChoice::P2osTcp(addr) => p2os(LinkSpec::Tcp(addr.clone())),
        VehicleChoice::P2osSerial(path) => p2os(LinkSpec::Serial {
            path: path.clone(),
            baud: 9600,
        }),
    }
}

/// The cycle rate a world's vehicles run at by default: 10 Hz for ground robots, 5 Hz for
/// the AUV (the first vehicle's kind decides).
pub fn default_rate(world: &dyn World) -> f64 {
    match world.vehicle(0).map(|v| v.info().kind) {
        Some(VehicleKind::Auv) => 5.0,
        _ => 10.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vehicle_choices_parse() {
        assert_eq!("sim".parse(), Ok(VehicleChoice::Sim));
        assert_eq!(
            "p2os://127.0.0.1:8101".parse(),
            Ok(VehicleChoice::P2osTcp("127.0.0.1:8101".into()))
        );
        assert_eq!(
            "/dev/ttyS0".parse(),
            Ok(VehicleChoice::P2osSerial("/dev/ttyS0".into()))
        );
        assert!("robot"
            .parse::<VehicleChoice>()
            .unwrap_err()
            .contains("unknown vehicle"));
    }
}
