//! Choosing the world and vehicles of a run: the built-in simulator (a world file, a
//! `.map`, or the default empty room), or real robots: a P2OS robot, or robots driven
//! over ROS 2 or ROS 1 topics (`[NAME=]ros2:/NAMESPACE[,OPTION...]`, `ros1:` the same;
//! see docs/robots.md).

use crate::commands::session::WorldArgs;
use crate::exit::Failure;
use skipper_core::vehicle::remote::RobotAddress;
use skipper_core::{VehicleKind, World};
use skipper_p2os::client::{DriverOptions, LinkSpec, P2osVehicle, P2osWorld};
use skipper_sim::{load_world, GroundWorld, WorldSpec};
use std::net::IpAddr;
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
    /// A robot driven over ROS 2 topics.
    Ros2(RobotAddress),
    /// A robot driven over ROS 1 topics.
    Ros1(RobotAddress),
}

impl VehicleChoice {
    /// A real robot, whose time is the wall clock's (or, with `use_sim_time`, its
    /// simulator's `/clock`): every choice but the built-in simulator.
    pub fn is_real(&self) -> bool {
        !matches!(self, VehicleChoice::Sim)
    }

    /// A robot whose time is its own simulator's `/clock` (`use_sim_time`): the run
    /// follows that clock rather than the wall clock.
    pub fn follows_robot_clock(&self) -> bool {
        matches!(self, VehicleChoice::Ros2(r) | VehicleChoice::Ros1(r) if r.use_sim_time)
    }
}

impl FromStr for VehicleChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // NAME=ros2:/NS names the robot
        let (name, spec) = match s.split_once('=') {
            Some((n, rest)) if rest.starts_with("ros2:") || rest.starts_with("ros1:") => {
                (Some(n), rest)
            }
            _ => (None, s),
        };
        if let Some(rest) = spec.strip_prefix("ros2:") {
            Ok(VehicleChoice::Ros2(RobotAddress::parse(
                "ros2", name, rest,
            )?))
        } else if let Some(rest) = spec.strip_prefix("ros1:") {
            Ok(VehicleChoice::Ros1(RobotAddress::parse(
                "ros1", name, rest,
            )?))
        } else if s == "sim" {
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
            Err(format!("unknown vehicle `{s}`: expected `sim`, `p2os://HOST:PORT`, a serial device such as /dev/ttyS0, `ros2:/NAMESPACE` or `ros1:/NAMESPACE`"))
        }
    }
}

pub use skipper_sim::ground::models::ModelChoice;

/// Give the robots of `spec` the models `--model` asks for (a later choice wins).
pub fn apply_models(spec: &mut WorldSpec, models: &[ModelChoice]) -> Result<(), Failure> {
    skipper_sim::ground::models::apply(spec, models).map_err(Failure::bad_input)
}

/// Load the world description: a world file or `.map`, or the default empty room.
pub fn load_spec(world: Option<&Path>) -> Result<WorldSpec, Failure> {
    match world {
        None => Ok(WorldSpec::empty_room()),
        Some(p) => load_world(p).map_err(Failure::from),
    }
}

/// Build the simulated ground world, with exactly `robots` robots if given, without
/// noise if `exact`.
pub fn ground_world(
    world: Option<&Path>,
    robots: Option<usize>,
    seed: u64,
    exact: bool,
) -> Result<GroundWorld, Failure> {
    ground_world_with_models(world, robots, 0, seed, &[], exact)
}

/// [`ground_world`] with at least `at_least` robots when `robots` does not say, the
/// robots' models as `--model` says, and no noise if `exact` (`--exact`).
pub fn ground_world_with_models(
    world: Option<&Path>,
    robots: Option<usize>,
    at_least: usize,
    seed: u64,
    models: &[ModelChoice],
    exact: bool,
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
    if exact {
        spec.settings.exact();
    }
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

/// Where ROS robots are looked for: the addresses `--ros2-host` and `--ros-host` give
/// (default: this machine only).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Reach {
    /// `--ros2-host`: DDS discovery also on this address's network
    pub ros2_host: Option<IpAddr>,
    /// `--ros-host`: the ROS 1 node listens on this address
    pub ros1_host: Option<IpAddr>,
}

/// Build the vehicles of a run as `--world`, `--vehicle`, `--robots`, `--seed` and
/// `--model` say, with at least `at_least` robots in a simulated world when `--robots`
/// does not say; ROS robots are reached as `reach` says.
pub fn build(w: &WorldArgs, at_least: usize, reach: &Reach) -> Result<Box<dyn World>, Failure> {
    build_with(w, &w.vehicles, at_least, reach)
}

/// [`build`] for the vehicles `choices` (several `--vehicle`: a fleet of ROS robots of
/// one kind, one robot each), reaching ROS robots as `reach` says.
pub fn build_with(
    w: &WorldArgs,
    choices: &[VehicleChoice],
    at_least: usize,
    reach: &Reach,
) -> Result<Box<dyn World>, Failure> {
    let first = choices.first().cloned().unwrap_or(VehicleChoice::Sim);
    if first.is_real() && (w.world.is_some() || w.robots.is_some() || !w.models.is_empty()) {
        eprintln!(
            "warning: --world, --robots and --model are for the simulator; a real robot is what it is"
        );
    }
    let ros2: Vec<&RobotAddress> = choices
        .iter()
        .filter_map(|c| match c {
            VehicleChoice::Ros2(r) => Some(r),
            _ => None,
        })
        .collect();
    let ros1: Vec<&RobotAddress> = choices
        .iter()
        .filter_map(|c| match c {
            VehicleChoice::Ros1(r) => Some(r),
            _ => None,
        })
        .collect();
    if choices.len() > 1 && ros2.len() != choices.len() && ros1.len() != choices.len() {
        return Err(Failure::bad_input(
            "several --vehicle make a fleet of ROS robots of one kind (all ros2: or all ros1:); the simulator and P2OS robots are one --vehicle each",
        ));
    }
    if !ros2.is_empty() {
        return ros::ros2(&ros2, reach.ros2_host);
    }
    if !ros1.is_empty() {
        return ros::ros1(&ros1, reach.ros1_host);
    }
    match &first {
        VehicleChoice::Sim => Ok(Box::new(ground_world_with_models(
            w.world.as_deref(),
            w.robots,
            at_least,
            w.seed,
            &w.models,
            w.exact,
        )?)),
        VehicleChoice::P2osTcp(addr) => p2os(LinkSpec::Tcp(addr.clone())),
        VehicleChoice::P2osSerial(path) => p2os(LinkSpec::Serial {
            path: path.clone(),
            baud: 9600,
        }),
        VehicleChoice::Ros2(_) | VehicleChoice::Ros1(_) => {
            Err(Failure::bad_input("no vehicle to build"))
        }
    }
}

/// Building ROS robots' worlds.
mod ros {
    use super::RobotAddress;
    use crate::exit::Failure;
    use skipper_core::World;
    use std::net::IpAddr;

    /// Names and namespaces unique, one clock for all: whether it is the robots'.
    fn check(robots: &[&RobotAddress]) -> Result<bool, Failure> {
        RobotAddress::fleet_clock(robots).map_err(Failure::bad_input)
    }

    #[cfg(feature = "ros2")]
    pub fn ros2(robots: &[&RobotAddress], host: Option<IpAddr>) -> Result<Box<dyn World>, Failure> {
        use skipper_ros2::vehicle::{connect, Options, RobotSpec};
        use skipper_ros2::Ros2Error;
        let use_sim_time = check(robots)?;
        let discovery = skipper_ros2::node::Discovery::from_host(host)
            .map_err(|e| Failure::bad_input(e.to_string()))?;
        let specs: Vec<RobotSpec> = robots
            .iter()
            .map(|r| RobotSpec {
                namespace: r.namespace.clone(),
                name: r.name.clone(),
                stamped: r.stamped,
                drive: r.drive,
                bounds: r.bounds,
            })
            .collect();
        let options = Options {
            discovery,
            use_sim_time,
        };
        let (world, found) = connect(&specs, &options).map_err(|e| match e {
            Ros2Error::Config(m) => Failure::bad_input(m),
            e => Failure::failed(format!("cannot drive the ROS 2 robots: {e}")),
        })?;
        for f in found {
            eprintln!("ROS 2: {} is the robot at {}", f.name, f.summary);
        }
        Ok(Box::new(world))
    }

    #[cfg(not(feature = "ros2"))]
    pub fn ros2(
        robots: &[&RobotAddress],
        _host: Option<IpAddr>,
    ) -> Result<Box<dyn World>, Failure> {
        check(robots)?;
        Err(Failure::bad_input(
            "this skipper was built without ROS 2 (cargo feature `ros2` of the skipper crate, on by default)",
        ))
    }

    pub fn ros1(robots: &[&RobotAddress], host: Option<IpAddr>) -> Result<Box<dyn World>, Failure> {
        use skipper_ros1::vehicle::{connect, Options, RobotSpec};
        use skipper_ros1::LinkError;
        let use_sim_time = check(robots)?;
        if let Some(r) = robots.iter().find(|r| r.stamped == Some(true)) {
            return Err(Failure::bad_input(format!(
                "ros1:{}: `stamped`: a ROS 1 robot's cmd_vel is geometry_msgs/Twist",
                r.namespace
            )));
        }
        let specs: Vec<RobotSpec> = robots
            .iter()
            .map(|r| RobotSpec {
                namespace: r.namespace.clone(),
                name: r.name.clone(),
                drive: r.drive,
                bounds: r.bounds,
            })
            .collect();
        let options = Options {
            master: String::new(),
            host,
            use_sim_time,
        };
        let (world, found) = connect(&specs, &options).map_err(|e| match e {
            LinkError::Settings(m) => Failure::bad_input(m),
            LinkError::Ros(m) => Failure::failed(format!("cannot drive the ROS 1 robots: {m}")),
        })?;
        for f in found {
            eprintln!("ROS: {} is the robot at {}", f.name, f.summary);
        }
        Ok(Box::new(world))
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
        match "alpha=ros1:/bot,twist".parse() {
            Ok(VehicleChoice::Ros1(r)) => {
                assert_eq!((r.name.as_str(), r.stamped), ("alpha", Some(false)))
            }
            other => panic!("{other:?}"),
        }
        assert!("=ros2:/bot"
            .parse::<VehicleChoice>()
            .unwrap_err()
            .contains("an empty robot name"));
        assert!(!VehicleChoice::Sim.is_real());
    }
}
