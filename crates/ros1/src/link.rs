//! The run's ROS 1 node: joining the master, and binding the run's robots to it.

use crate::goals::GoalServer;
use crate::topics::PoseTopics;
use crate::velocity::subscribe_cmd_vel;
use skipper_actionlib::ros1::node::Subscriber;
use skipper_actionlib::ros1::{Node, NodeConfig, RosError};
use skipper_core::goals::GoalPort;
use skipper_core::names::ros_name;
use skipper_core::runner::CycleView;
use skipper_core::velocity::VelocityInbox;
use skipper_core::{Observer, RunReport, World};
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

/// One robot of the run, as the transport binds it.
pub struct Robot {
    /// its index in the world
    pub index: usize,
    /// where its goals go
    pub goals: Arc<dyn GoalPort>,
    /// where its velocity commands go
    pub velocity: VelocityInbox,
}

/// The run's ROS node.
pub struct RosLink {
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
        Ok(Self { node })
    }

    /// The node.
    pub fn node(&self) -> &Node {
        &self.node
    }

    /// Bind the robots of `world`: for each, a server per goal kind its controller
    /// declares, `cmd_vel`, and pose topics. The observer returned publishes the topics
    /// every cycle and shuts the servers down when the run ends.
    pub fn serve(
        &self,
        world: &dyn World,
        robots: Vec<Robot>,
    ) -> Result<Box<dyn Observer>, LinkError> {
        let origin = world.geo_origin().unwrap_or((0.0, 0.0));
        let mut bound = Vec::new();
        for r in robots {
            let Some(v) = world.vehicle(r.index) else {
                continue;
            };
            // relative: the node's namespace (__ns:=, ROS_NAMESPACE) puts the robots in it
            let ns = ros_name(&v.info().name);
            let servers = r
                .goals
                .kinds()
                .into_iter()
                .map(|k| GoalServer::host(&self.node, &ns, k, r.goals.clone()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(LinkError::Ros)?;
            bound.push(BoundRobot {
                index: r.index,
                servers,
                _cmd_vel: subscribe_cmd_vel(&self.node, &ns, r.velocity)?,
                topics: PoseTopics::advertise(&self.node, &ns, v.info().kind, origin)?,
            });
        }
        Ok(Box::new(RobotsOnRos { robots: bound }))
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
    topics: PoseTopics,
}

/// Publishes the robots' topics every cycle; shuts their servers down at the end.
struct RobotsOnRos {
    robots: Vec<BoundRobot>,
}

impl Observer for RobotsOnRos {
    fn on_cycle(&mut self, view: &CycleView<'_>) {
        for r in &mut self.robots {
            if let Some(s) = view.signals.get(r.index) {
                r.topics.publish(s);
            }
        }
    }

    fn on_end(&mut self, _world: &dyn World, _report: &RunReport) {
        for r in &self.robots {
            for s in &r.servers {
                s.shutdown();
            }
        }
    }
}
