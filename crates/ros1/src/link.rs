//! The run's ROS 1 node: joining the master, and binding the run's robots to it.

use crate::frames::{Frames, Shared, TimeSource};
use crate::goals::GoalServer;
use crate::navigation::subscribe_simple_goal;
use crate::sensors::{AuvSensors, GroundSensors};
use crate::services;
use crate::topics::PoseTopics;
use crate::velocity::subscribe_cmd_vel;
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunControl, RunReport, VehicleKind, World};
use skipper_goals::{ros_name, Endpoint};
use skipper_ros1_wire::node::Subscriber;
use skipper_ros1_wire::{rosout, Node, NodeConfig, RosError};
use std::net::IpAddr;
use std::sync::Arc;

/// The node name of a run.
pub const NODE_NAME: &str = "/skipper";

/// Why the node could not join or serve.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// Bad settings (a master URI that is not one, an address without a name).
    #[error("{0}")]
    Settings(String),
    /// The ROS graph refused (no master, a port taken).
    #[error("ROS: {0}")]
    Ros(String),
}

impl From<RosError> for LinkError {
    fn from(e: RosError) -> Self {
        LinkError::Ros(e.to_string())
    }
}

/// The configuration of a node Skipper starts: it listens on 127.0.0.1 unless `host`
/// says otherwise, and then a warning is printed. A node listening on every address
/// (`0.0.0.0`, `::`) needs `ROS_IP` or `ROS_HOSTNAME` for the address its peers reach
/// it by.
pub fn node_config(name: &str, host: Option<IpAddr>) -> Result<NodeConfig, LinkError> {
    let mut config = NodeConfig::from_env(name);
    let Some(host) = host else {
        return Ok(config);
    };
    if host.is_loopback() {
        config.bind = host;
        if std::env::var_os("ROS_HOSTNAME").is_none() && std::env::var_os("ROS_IP").is_none() {
            config.advertise_host = host.to_string();
        }
        return Ok(config);
    }
    let named = ["ROS_HOSTNAME", "ROS_IP"]
        .iter()
        .any(|k| std::env::var(k).is_ok_and(|v| !v.is_empty()));
    if host.is_unspecified() && !named {
        return Err(LinkError::Settings(format!(
            "--ros-host {host} listens on every address: set ROS_IP (or ROS_HOSTNAME) to the address other machines reach this one by"
        )));
    }
    if !named {
        config.advertise_host = host.to_string();
    }
    config.bind = host;
    eprintln!(
        "warning: the ROS node {name} listens on {host}, not only 127.0.0.1: other machines can send goals to the robots and drive them (ROS 1 has no authentication)"
    );
    Ok(config)
}

/// The run's ROS node; while it lives, the process's log lines go to its `/rosout`.
pub struct RosLink {
    // dropped before the node: what is queued for /rosout is published first
    _rosout: Option<rosout::RosoutGuard>,
    node: Node,
}

impl RosLink {
    /// Register with the master: `master` is a URI, or empty for `ROS_MASTER_URI` (default
    /// http://127.0.0.1:11311). The node listens on 127.0.0.1, or on `host` (see
    /// [`node_config`]).
    pub fn connect(master: &str, host: Option<IpAddr>) -> Result<Self, LinkError> {
        let mut config = node_config(NODE_NAME, host)?;
        if !master.is_empty() {
            if !master.starts_with("http://") {
                return Err(LinkError::Settings(format!(
                    "--ros takes a master URI such as http://127.0.0.1:11311, not `{master}`"
                )));
            }
            config.master_uri = master.to_string();
        }
        let node = Node::new(config).map_err(|e| match e {
            // a bad name, namespace or remap on the command line is bad input
            RosError::BadName(m) => LinkError::Settings(m),
            e => LinkError::Ros(format!("cannot join ROS: {e}")),
        })?;
        eprintln!(
            "ROS: node {} on {} (master {})",
            node.name(),
            node.uri(),
            node.master_uri()
        );
        let rosout = rosout::attach(&node)
            .map_err(|e| eprintln!("warning: no /rosout: {e}"))
            .ok();
        Ok(Self {
            _rosout: rosout,
            node,
        })
    }

    /// The node.
    pub fn node(&self) -> &Node {
        &self.node
    }

    /// [`RosLink::serve_with`] in simulated time.
    pub fn serve(
        &self,
        world: &dyn World,
        robots: Vec<Endpoint>,
    ) -> Result<Box<dyn Observer>, LinkError> {
        self.serve_with(world, robots, TimeSource::Simulated)
    }

    /// Bind the robots of `world`: for each, a server per goal kind its controller
    /// declares, `cmd_vel`, its pose, odometry and sensor topics (a ground robot's laser
    /// and sonars as its vehicle describes them), its frames on `/tf`; and `/clock` when
    /// `time` is simulated. The observer returned publishes every cycle and shuts the
    /// servers down when the run ends.
    pub fn serve_with(
        &self,
        world: &dyn World,
        robots: Vec<Endpoint>,
        time: TimeSource,
    ) -> Result<Box<dyn Observer>, LinkError> {
        let origin = world.geo_origin().unwrap_or((0.0, 0.0));
        let mut shared = Shared::advertise(&self.node, time)?;
        let mut bound = Vec::new();
        for r in robots {
            let Some(v) = world.vehicle(r.robot) else {
                continue;
            };
            // relative: the node's namespace (__ns:=, ROS_NAMESPACE) puts the robots in it
            let ns = ros_name(&v.info().name);
            let kinds = r.goals.kinds();
            let mut servers = kinds
                .iter()
                .map(|k| GoalServer::host(&self.node, &ns, k, r.goals.clone()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(LinkError::Ros)?;
            let kind = v.info().kind;
            let goto = kinds
                .iter()
                .copied()
                .filter(|_| kind == VehicleKind::Ground)
                .find(|k| k.type_name == "skipper_msgs/Goto");
            let frames = match kind {
                VehicleKind::Ground => Frames::ground(&ns),
                VehicleKind::Auv => Frames::auv(&ns),
            };
            let topics = PoseTopics::advertise(&self.node, &ns, kind, frames.clone(), origin)?;
            let mut simple_goal = None;
            if let Some(k) = goto {
                let pose = topics.latest();
                let port = r.goals.clone();
                if let Some(s) = GoalServer::host_move_base(&self.node, &ns, k, port, pose) {
                    servers.push(s.map_err(LinkError::Ros)?);
                }
                simple_goal = Some(subscribe_simple_goal(&self.node, &ns, k, r.goals.clone())?);
            }
            let sensors = match kind {
                VehicleKind::Ground => {
                    let g = GroundSensors::advertise(&self.node, &ns, frames.clone(), v.sensors())?;
                    shared.add_static(g.static_transforms());
                    Sensors::Ground(Box::new(g))
                }
                VehicleKind::Auv => Sensors::Auv(Box::new(AuvSensors::advertise(
                    &self.node,
                    &ns,
                    frames.clone(),
                )?)),
            };
            bound.push(BoundRobot {
                index: r.robot,
                servers,
                _cmd_vel: subscribe_cmd_vel(&self.node, &ns, r.velocity)?,
                _simple_goal: simple_goal,
                topics,
                sensors,
            });
        }
        shared.publish_static();
        Ok(Box::new(RobotsOnRos {
            robots: bound,
            shared,
        }))
    }

    /// Offer the run's services ([`crate::services`]): `NS/estop` and `NS/reset` of each
    /// robot, on `control`'s per-robot estop, and `add_two_ints`. The observer returned
    /// must be added to the run (it sees the cycles an estop waits for); dropping it
    /// withdraws the services.
    pub fn serve_services(
        &self,
        world: &dyn World,
        robots: &[Endpoint],
        control: Arc<RunControl>,
    ) -> Result<Box<dyn Observer>, LinkError> {
        let served = robots
            .iter()
            .filter_map(|r| {
                world.vehicle(r.robot).map(|v| services::ServedRobot {
                    index: r.robot,
                    ns: ros_name(&v.info().name),
                    goals: r.goals.clone(),
                })
            })
            .collect();
        Ok(Box::new(services::serve(&self.node, served, control)?))
    }

    /// Unregister and close every connection.
    pub fn shutdown(self) {
        self.node.shutdown();
    }
}

struct BoundRobot {
    index: usize,
    servers: Vec<GoalServer>,
    _cmd_vel: Subscriber,
    _simple_goal: Option<Subscriber>,
    topics: PoseTopics,
    sensors: Sensors,
}

/// A robot's sensor topics, by its vehicle kind.
enum Sensors {
    Ground(Box<GroundSensors>),
    Auv(Box<AuvSensors>),
}

/// Publishes the robots' topics, `/tf` and `/clock` every cycle; shuts their servers
/// down at the end.
struct RobotsOnRos {
    robots: Vec<BoundRobot>,
    shared: Shared,
}

impl Observer for RobotsOnRos {
    fn on_cycle(&mut self, view: &CycleView<'_>) {
        let stamp = self.shared.time().stamp(view.now);
        for r in &mut self.robots {
            let Some(s) = view.signals.get(r.index) else {
                continue;
            };
            if let Some(tf) = r.topics.publish(s, stamp) {
                self.shared.push_tf(tf);
            }
            match &mut r.sensors {
                Sensors::Ground(g) => g.publish(s, stamp),
                Sensors::Auv(a) => a.publish(s, view.now, stamp),
            }
        }
        self.shared.end_cycle(view.now);
    }

    fn on_end(&mut self, _world: &dyn World, _report: &RunReport) {
        for r in &self.robots {
            for s in &r.servers {
                s.shutdown();
            }
        }
    }
}
