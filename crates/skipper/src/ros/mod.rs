//! `skipper run --ros`: the run as a ROS 1 node. Each ground robot and the AUV host the
//! SimpleActionServer `/<vehicle>/goto` (`skipper_msgs/Goto`, [`goto`]), publish
//! `/<vehicle>/pose` (geometry_msgs/PoseStamped) and `/<vehicle>/odom` (nav_msgs/Odometry)
//! every cycle, and obey `/<vehicle>/cmd_vel` (geometry_msgs/Twist, [`cmd_vel`]); a robot
//! driven by an XABSL agent also hosts `/<robot>/run_option` ([`run_option`]), the AUV
//! flying a mission `/<auv>/run_mission` ([`run_mission`]).
//!
//! Goals drive the vehicle through the run's goal runner
//! ([`crate::controllers::goal::GoalRunner`]; the AUV's steers with
//! [`crate::controllers::auv_pilot::AuvPilot`]): the run's controller (the AUV's mission)
//! is held while a goal runs and drives again when it ends; a newer goal preempts the
//! running one without stopping the vehicle, a cancel stops it. A velocity command
//! overrides every controller while fresh; when it goes silent for [`CMD_VEL_TIMEOUT`]
//! the vehicle stops once and the goal runner (or the run's controller) drives again.

pub mod cmd_vel;
pub mod goto;
pub mod run_mission;
pub mod run_option;

pub use cmd_vel::CMD_VEL_TIMEOUT;

use crate::controllers::auv_pilot::{AuvLimits, AuvNav, AuvVelocity};
use crate::controllers::goal::GoalHandle;
use crate::controllers::mission_goal::MissionHandle;
use crate::controllers::option::OptionHandle;
use crate::exit::Failure;
use cmd_vel::{CmdVelBox, GroundVelocity, VelocityMap, VelocityOverride};
use skipper_actionlib::msg::common::{
    Header, Odometry, Point, Pose, PoseStamped, Quaternion, Twist,
};
use skipper_actionlib::msg::skipper_msgs::{Goto, RunMission, RunOption};
use skipper_actionlib::ros1::action::{server_config_from_params, subscribe};
use skipper_actionlib::ros1::node::Subscriber;
use skipper_actionlib::ros1::{ActionServerBinding, Node, NodeConfig, RosError, TypedPublisher};
use skipper_actionlib::{ActionServer, Clock, SimpleActionServer, SystemClock};
use skipper_core::{Controller, ControllerError, Cycle, SignalId, Signals, Status, VehicleInfo};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The node name of `skipper run --ros`.
pub const NODE_NAME: &str = "/skipper";

/// The run's ROS node.
pub struct RosLink {
    node: Node,
}

/// A ROS name for a robot: letters, digits and `_`, starting with a letter.
pub fn ros_name(robot: &str) -> String {
    let mut s: String = robot
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !s.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        s.insert(0, 'r');
    }
    s
}

impl RosLink {
    /// Register with the master: `master` is a URI, or empty for `ROS_MASTER_URI` (default
    /// http://127.0.0.1:11311). The node listens on 127.0.0.1, or on `host` (see
    /// [`node_config`]).
    pub fn connect(master: &str, host: Option<IpAddr>) -> Result<Self, Failure> {
        let mut config = node_config(NODE_NAME, host)?;
        if !master.is_empty() {
            if !master.starts_with("http://") {
                return Err(Failure::bad_input(format!(
                    "--ros takes a master URI such as http://127.0.0.1:11311, not `{master}`"
                )));
            }
            config.master_uri = master.to_string();
        }
        let node =
            Node::new(config).map_err(|e| Failure::failed(format!("cannot join ROS: {e}")))?;
        eprintln!(
            "ROS: node {} on {} (master {})",
            node.name(),
            node.uri(),
            node.master_uri()
        );
        Ok(Self { node })
    }

    /// A vehicle's `goto` server on `NS/goto` for `goals`.
    fn goto(
        &self,
        ns: &str,
        goals: GoalHandle,
        running: Arc<AtomicBool>,
    ) -> Result<(SimpleActionServer<Goto>, ActionServerBinding), RosError> {
        let name = format!("{ns}/goto");
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        let a = ActionServer::<Goto>::new(server_config_from_params(&self.node, &name), clock);
        let binding = ActionServerBinding::new(&self.node, &name, &a)?;
        Ok((goto::serve(a, goals, running), binding))
    }

    /// `NS/cmd_vel`: wrap `inner` so that fresh commands override it, obeyed as `map`
    /// says.
    fn cmd_vel(
        &self,
        ns: &str,
        inner: Box<dyn Controller>,
        map: Box<dyn VelocityMap>,
    ) -> Result<(VelocityOverride, Subscriber), RosError> {
        let commands = CmdVelBox::default();
        let c2 = commands.clone();
        let sub = subscribe::<Twist>(&self.node, &format!("{ns}/cmd_vel"), move |t, _| {
            c2.put(t, Instant::now())
        })?;
        Ok((VelocityOverride::new(inner, commands, map), sub))
    }

    /// Wrap a robot's controller (its goal runner) with the robot's ROS topics, its goto
    /// server, and with `options` (an XABSL agent's) its run_option server.
    pub fn robot(
        &self,
        robot: &str,
        goals: GoalHandle,
        options: Option<OptionHandle>,
        inner: Box<dyn Controller>,
    ) -> Result<Box<dyn Controller>, Failure> {
        let ns = format!("/{}", ros_name(robot));
        let running = Arc::new(AtomicBool::new(true));
        let goto = self.goto(&ns, goals, running.clone()).map_err(ros_err)?;
        let run_option = match options {
            Some(h) => {
                let ns = format!("{ns}/run_option");
                let a = ActionServer::<RunOption>::new(
                    server_config_from_params(&self.node, &ns),
                    Arc::new(SystemClock),
                );
                let binding = ActionServerBinding::new(&self.node, &ns, &a).map_err(ros_err)?;
                Some((run_option::serve(a, h, running.clone()), binding))
            }
            None => None,
        };
        let (inner, cmd_sub) = self
            .cmd_vel(&ns, inner, Box::new(GroundVelocity))
            .map_err(ros_err)?;
        Ok(Box::new(RosRobot {
            inner,
            topics: PoseTopics::advertise(&self.node, &ns).map_err(ros_err)?,
            _cmd_sub: cmd_sub,
            goto,
            run_option,
            running,
            ids: None,
        }))
    }

    /// Wrap an AUV's controller (its goal runner, steering with
    /// [`crate::controllers::auv_pilot::AuvPilot`], over its mission runner) with its
    /// goto and run_mission servers and its `cmd_vel`, and publish its `pose` and `odom`
    /// in the frame of the worksite whose origin (latitude, longitude) is `origin`.
    pub fn auv(
        &self,
        vehicle: &str,
        missions: MissionHandle,
        goals: GoalHandle,
        inner: Box<dyn Controller>,
        origin: (f64, f64),
        limits: AuvLimits,
    ) -> Result<Box<dyn Controller>, Failure> {
        let base = format!("/{}", ros_name(vehicle));
        let ns = format!("{base}/run_mission");
        let running = Arc::new(AtomicBool::new(true));
        let a = ActionServer::<RunMission>::new(
            server_config_from_params(&self.node, &ns),
            Arc::new(SystemClock),
        );
        let binding = ActionServerBinding::new(&self.node, &ns, &a).map_err(ros_err)?;
        let goto = self.goto(&base, goals, running.clone()).map_err(ros_err)?;
        let velocity = AuvVelocity::new(origin, limits);
        let (inner, cmd_sub) = self
            .cmd_vel(&base, inner, Box::new(velocity))
            .map_err(ros_err)?;
        Ok(Box::new(RosAuv {
            inner,
            run_mission: (run_mission::serve(a, missions, running.clone()), binding),
            goto,
            _cmd_sub: cmd_sub,
            running,
            topics: PoseTopics::advertise(&self.node, &base).map_err(ros_err)?,
            nav: AuvNav::new(origin),
        }))
    }

    /// Unregister and close every connection.
    pub fn shutdown(self) {
        self.node.shutdown();
    }
}

/// A vehicle's `pose` (`geometry_msgs/PoseStamped`) and `odom` (`nav_msgs/Odometry`,
/// child frame `base_link`) publishers, reusing their messages.
struct PoseTopics {
    pose: TypedPublisher<PoseStamped>,
    odom: TypedPublisher<Odometry>,
    seq: u32,
    pose_msg: PoseStamped,
    odom_msg: Odometry,
}

impl PoseTopics {
    /// Advertise `NS/pose` and `NS/odom`.
    fn advertise(node: &Node, ns: &str) -> Result<Self, skipper_actionlib::ros1::RosError> {
        Ok(Self {
            pose: TypedPublisher::advertise(node, &format!("{ns}/pose"), false)?,
            odom: TypedPublisher::advertise(node, &format!("{ns}/odom"), false)?,
            seq: 0,
            pose_msg: PoseStamped::default(),
            odom_msg: Odometry::default(),
        })
    }

    /// Publish `pose` in `frame`, with the vehicle's forward speed and turn rate.
    fn publish(&mut self, frame: &str, pose: Pose, speed: f64, turn_rate: f64) {
        self.seq = self.seq.wrapping_add(1);
        let header = Header {
            seq: self.seq,
            stamp: SystemClock.now(),
            frame_id: frame.into(),
        };
        self.pose_msg.header = header.clone();
        self.pose_msg.pose = pose.clone();
        self.pose.publish(&self.pose_msg);
        self.odom_msg.header = header;
        self.odom_msg.child_frame_id = "base_link".into();
        self.odom_msg.pose.pose = pose;
        self.odom_msg.twist.twist.linear.x = speed;
        self.odom_msg.twist.twist.angular.z = turn_rate;
        self.odom.publish(&self.odom_msg);
    }
}

/// A robot's controller with its ROS topics and servers.
struct RosRobot {
    /// the goal runner, overridden by `cmd_vel`
    inner: VelocityOverride,
    topics: PoseTopics,
    _cmd_sub: Subscriber,
    goto: (SimpleActionServer<Goto>, ActionServerBinding),
    run_option: Option<(SimpleActionServer<RunOption>, ActionServerBinding)>,
    running: Arc<AtomicBool>,
    ids: Option<[Option<SignalId>; 5]>,
}

impl RosRobot {
    fn publish(&mut self, s: &Signals) {
        let Some(ids) = self.ids else { return };
        let get = |i: usize| ids[i].and_then(|id| s.f64(id));
        let (Some(x), Some(y), Some(yaw)) = (get(0), get(1), get(2)) else {
            return;
        };
        let pose = Pose {
            position: Point { x, y, z: 0.0 },
            orientation: Quaternion::from_yaw(yaw),
        };
        self.topics
            .publish("odom", pose, get(3).unwrap_or(0.0), get(4).unwrap_or(0.0));
    }
}

impl Controller for RosRobot {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.ids = Some(
            [
                "pose.x",
                "pose.y",
                "pose.yaw",
                "velocity.linear",
                "velocity.angular",
            ]
            .map(|n| s.id(n)),
        );
        self.inner.start(vehicle, s)
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let st = self.inner.step(c)?;
        self.publish(c.signals);
        Ok(st)
    }
    fn state(&self) -> Option<serde_json::Value> {
        self.inner.state()
    }
    fn state_version(&self) -> Option<u64> {
        self.inner.state_version()
    }
    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        self.inner.summary(out);
    }
    fn finish(&mut self) {
        self.running.store(false, Ordering::SeqCst);
        self.goto.0.shutdown();
        if let Some((s, _)) = &self.run_option {
            s.shutdown();
        }
        self.inner.finish();
    }
}

/// An AUV's goal runner and mission with its goto and run_mission servers, its
/// `cmd_vel` and its pose topics.
struct RosAuv {
    /// the goal runner over the mission runner, overridden by `cmd_vel`
    inner: VelocityOverride,
    run_mission: (SimpleActionServer<RunMission>, ActionServerBinding),
    goto: (SimpleActionServer<Goto>, ActionServerBinding),
    _cmd_sub: Subscriber,
    running: Arc<AtomicBool>,
    topics: PoseTopics,
    nav: AuvNav,
}

impl RosAuv {
    /// `/<auv>/pose` and `/<auv>/odom` from the navigation signals, in the worksite's
    /// frame (`world`: x east, y north, z up, so z is minus the depth).
    fn publish(&mut self, s: &Signals) {
        let Some(n) = self.nav.read(s) else { return };
        let q = skipper_core::Pose3 {
            x: n.x,
            y: n.y,
            z: -n.depth,
            roll: n.roll,
            pitch: n.pitch,
            yaw: n.yaw,
        }
        .quaternion();
        let pose = Pose {
            position: Point {
                x: n.x,
                y: n.y,
                z: -n.depth,
            },
            orientation: Quaternion {
                x: q[0],
                y: q[1],
                z: q[2],
                w: q[3],
            },
        };
        self.topics.publish("world", pose, n.speed, 0.0);
    }
}

impl Controller for RosAuv {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.nav.bind(s);
        self.inner.start(vehicle, s)
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let st = self.inner.step(c)?;
        self.publish(c.signals);
        Ok(st)
    }
    fn state(&self) -> Option<serde_json::Value> {
        self.inner.state()
    }
    fn state_version(&self) -> Option<u64> {
        self.inner.state_version()
    }
    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        self.inner.summary(out);
    }
    fn finish(&mut self) {
        self.running.store(false, Ordering::SeqCst);
        self.goto.0.shutdown();
        self.run_mission.0.shutdown();
        self.inner.finish();
    }
}

fn ros_err(e: RosError) -> Failure {
    Failure::failed(format!("ROS: {e}"))
}

/// The configuration of a node Skipper starts: it listens on 127.0.0.1 unless `host`
/// says otherwise, and then a warning is printed. A node listening on every address
/// (`0.0.0.0`, `::`) needs `ROS_IP` or `ROS_HOSTNAME` for the address its peers reach
/// it by.
pub fn node_config(name: &str, host: Option<IpAddr>) -> Result<NodeConfig, Failure> {
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
        return Err(Failure::bad_input(format!(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robot_names_become_ros_names() {
        assert_eq!(ros_name("robot1"), "robot1");
        assert_eq!(ros_name("pioneer-2 a"), "pioneer_2_a");
        assert_eq!(ros_name("3dx"), "r3dx");
        assert_eq!(ros_name(""), "r");
    }
}
