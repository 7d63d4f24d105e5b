//! `skipper run --ros`: the run as a ROS 1 node. For each ground robot it hosts the
//! SimpleActionServer `/<robot>/goto` (`skipper_msgs/Goto`), publishes `/<robot>/pose`
//! (geometry_msgs/PoseStamped) and `/<robot>/odom` (nav_msgs/Odometry) every cycle, and
//! obeys `/<robot>/cmd_vel` (geometry_msgs/Twist); a robot driven by an XABSL agent also
//! hosts `/<robot>/run_option` ([`run_option`]), an AUV flying a mission
//! `/<vehicle>/run_mission` ([`run_mission`]).
//!
//! Goals drive the robot through the run's goal runner ([`GoalRunner`]): a newer goal
//! preempts the running one without stopping the robot, a cancel stops it. A velocity
//! command overrides every controller while fresh; when it goes silent for
//! [`CMD_VEL_TIMEOUT`] the robot stops once and the goal runner (or the run's controller)
//! drives again.

pub mod run_mission;
pub mod run_option;

use crate::controllers::goal::{GoalHandle, GoalStatus as RunnerStatus};
use crate::controllers::mission_goal::MissionHandle;
use crate::controllers::option::OptionHandle;
use crate::exit::Failure;
use skipper_actionlib::msg::common::{
    Header, Odometry, Point, Pose, PoseStamped, Quaternion, Twist,
};
use skipper_actionlib::msg::skipper_msgs::{
    Goto, GotoFeedback, GotoGoal, GotoResult, RunMission, RunOption,
};
use skipper_actionlib::ros1::action::{server_config_from_params, subscribe};
use skipper_actionlib::ros1::node::Subscriber;
use skipper_actionlib::ros1::{ActionServerBinding, Node, NodeConfig, TypedPublisher};
use skipper_actionlib::{ActionServer, Clock, SimpleActionServer, SystemClock};
use skipper_core::{
    Controller, ControllerError, Cycle, Drive, SignalId, Signals, Status, VehicleInfo,
};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a velocity command holds before the robot stops.
pub const CMD_VEL_TIMEOUT: Duration = Duration::from_millis(500);
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
        let err = |e: skipper_actionlib::ros1::RosError| Failure::failed(format!("ROS: {e}"));
        let running = Arc::new(AtomicBool::new(true));
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        let goto_ns = format!("{ns}/goto");
        let a = ActionServer::<Goto>::new(server_config_from_params(&self.node, &goto_ns), clock);
        let binding = ActionServerBinding::new(&self.node, &goto_ns, &a).map_err(err)?;
        let (h, r) = (goals.clone(), running.clone());
        let goto = SimpleActionServer::with_execute_callback(
            a,
            move |s: &SimpleActionServer<Goto>, g: GotoGoal| execute_goto(s, &g, &h, &r),
        );
        goto.start();
        let run_option = match options {
            Some(h) => {
                let ns = format!("{ns}/run_option");
                let a = ActionServer::<RunOption>::new(
                    server_config_from_params(&self.node, &ns),
                    Arc::new(SystemClock),
                );
                let binding = ActionServerBinding::new(&self.node, &ns, &a).map_err(err)?;
                Some((run_option::serve(a, h, running.clone()), binding))
            }
            None => None,
        };
        let cmd: Arc<Mutex<Option<(Twist, Instant)>>> = Arc::default();
        let c2 = cmd.clone();
        let cmd_sub = subscribe::<Twist>(&self.node, &format!("{ns}/cmd_vel"), move |t, _| {
            if let Ok(mut g) = c2.lock() {
                *g = Some((t, Instant::now()));
            }
        })
        .map_err(err)?;
        Ok(Box::new(RosRobot {
            inner,
            topics: PoseTopics::advertise(&self.node, &ns).map_err(err)?,
            cmd,
            cmd_active: false,
            _cmd_sub: cmd_sub,
            goto,
            _binding: binding,
            run_option,
            running,
            ids: None,
        }))
    }

    /// Wrap an AUV's mission runner with its run_mission server, and publish its
    /// `pose` and `odom` in the frame of the worksite whose origin (latitude, longitude)
    /// is `origin`.
    pub fn auv(
        &self,
        vehicle: &str,
        missions: MissionHandle,
        inner: Box<dyn Controller>,
        origin: (f64, f64),
    ) -> Result<Box<dyn Controller>, Failure> {
        let base = format!("/{}", ros_name(vehicle));
        let ns = format!("{base}/run_mission");
        let err = |e: skipper_actionlib::ros1::RosError| Failure::failed(format!("ROS: {e}"));
        let running = Arc::new(AtomicBool::new(true));
        let a = ActionServer::<RunMission>::new(
            server_config_from_params(&self.node, &ns),
            Arc::new(SystemClock),
        );
        let binding = ActionServerBinding::new(&self.node, &ns, &a).map_err(err)?;
        Ok(Box::new(RosAuv {
            inner,
            run_mission: run_mission::serve(a, missions, running.clone()),
            _binding: binding,
            running,
            topics: PoseTopics::advertise(&self.node, &base).map_err(err)?,
            origin,
            ids: None,
        }))
    }

    /// Unregister and close every connection.
    pub fn shutdown(self) {
        self.node.shutdown();
    }
}

/// Where our goal stands in the goal runner (the latest status, or the history when a
/// newer goal from another source replaced it).
fn runner_status(h: &GoalHandle, id: u64) -> Option<RunnerStatus> {
    match h.status() {
        Some(s) if s.id() == id => Some(s),
        _ => h
            .statuses_since(0)
            .0
            .into_iter()
            .rev()
            .find(|s| s.id() == id),
    }
}

fn execute_goto(
    s: &SimpleActionServer<Goto>,
    g: &GotoGoal,
    h: &GoalHandle,
    running: &AtomicBool,
) -> Result<(), String> {
    let e = |e: skipper_actionlib::ActionError| e.to_string();
    if !(g.x.is_finite() && g.y.is_finite() && g.tolerance.is_finite()) {
        return s
            .set_aborted(None, "x, y and tolerance must be finite numbers")
            .map_err(e);
    }
    let id = h.goto(g.x, g.y, g.tolerance);
    let mut last = f64::NAN;
    loop {
        if !running.load(Ordering::SeqCst) {
            h.cancel();
            return s.set_aborted(None, "the run ended").map_err(e);
        }
        if s.is_preempt_requested() {
            if s.is_new_goal_available() {
                // the newer goal takes over the goal runner; the robot keeps moving
                return s
                    .set_preempted(None, "preempted by a newer goal")
                    .map_err(e);
            }
            h.cancel();
            for _ in 0..100 {
                if matches!(runner_status(h, id), Some(st) if st.is_terminal()) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            return s
                .set_preempted(None, "canceled; the robot stopped")
                .map_err(e);
        }
        match runner_status(h, id) {
            Some(RunnerStatus::Active { distance, .. }) => {
                if distance != last {
                    last = distance;
                    s.publish_feedback(GotoFeedback { distance }).map_err(e)?;
                }
            }
            Some(RunnerStatus::Succeeded { x, y, yaw, .. }) => {
                return s
                    .set_succeeded(Some(GotoResult { x, y, yaw }), "reached")
                    .map_err(e);
            }
            Some(RunnerStatus::Canceled { .. }) => {
                return s
                    .set_preempted(None, "canceled; the robot stopped")
                    .map_err(e);
            }
            Some(RunnerStatus::Preempted { .. }) => {
                return s
                    .set_aborted(None, "replaced by a goal from another source")
                    .map_err(e);
            }
            Some(RunnerStatus::Aborted { reason, .. }) => {
                return s.set_aborted(None, &reason).map_err(e)
            }
            Some(RunnerStatus::Pending { .. }) | None => {}
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A robot's controller with its ROS topics.
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

struct RosRobot {
    inner: Box<dyn Controller>,
    topics: PoseTopics,
    cmd: Arc<Mutex<Option<(Twist, Instant)>>>,
    cmd_active: bool,
    _cmd_sub: Subscriber,
    goto: SimpleActionServer<Goto>,
    _binding: ActionServerBinding,
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
        let cmd = self.cmd.lock().ok().and_then(|g| g.clone());
        match cmd {
            Some((t, at)) if at.elapsed() < CMD_VEL_TIMEOUT => {
                c.actuation.drive = Some(Drive::velocity(t.linear.x, t.angular.z));
                self.cmd_active = true;
            }
            _ if self.cmd_active => {
                // the velocity commands went silent: stop once, then hand back
                c.actuation.drive = Some(Drive::Stop);
                self.cmd_active = false;
            }
            _ => {}
        }
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
        self.goto.shutdown();
        if let Some((s, _)) = &self.run_option {
            s.shutdown();
        }
        self.inner.finish();
    }
}

/// An AUV's mission with its run_mission server.
struct RosAuv {
    inner: Box<dyn Controller>,
    run_mission: SimpleActionServer<RunMission>,
    _binding: ActionServerBinding,
    running: Arc<AtomicBool>,
    topics: PoseTopics,
    /// the worksite's origin (latitude, longitude): x east and y north of it, in metres
    origin: (f64, f64),
    ids: Option<[Option<SignalId>; 7]>,
}

impl RosAuv {
    /// `/<auv>/pose` and `/<auv>/odom` from the navigation signals, in the worksite's
    /// frame (`world`: x east, y north, z up, so z is minus the depth).
    fn publish(&mut self, s: &Signals) {
        let ids = *self.ids.get_or_insert_with(|| {
            [
                "LATITUDE",
                "LONGITUDE",
                "DEPTH",
                "PLATFORM_YAW_ANGLE",
                "PLATFORM_PITCH_ANGLE",
                "PLATFORM_ROLL_ANGLE",
                "PLATFORM_SPEED_WRT_SEA_WATER",
            ]
            .map(|n| s.id(n))
        });
        let get = |i: usize| ids[i].and_then(|id| s.f64(id));
        let (Some(lat), Some(lon), Some(depth), Some(heading)) = (get(0), get(1), get(2), get(3))
        else {
            return;
        };
        let (x, y) =
            skipper_mission::behaviors::local_offset(self.origin.0, self.origin.1, lat, lon);
        let q = skipper_core::Pose3 {
            x,
            y,
            z: -depth,
            roll: get(5).unwrap_or(0.0),
            pitch: get(4).unwrap_or(0.0),
            // compass heading (clockwise from north) to yaw (counter-clockwise from east)
            yaw: skipper_mission::executive::compass_to_math(heading),
        }
        .quaternion();
        let pose = Pose {
            position: Point { x, y, z: -depth },
            orientation: Quaternion {
                x: q[0],
                y: q[1],
                z: q[2],
                w: q[3],
            },
        };
        self.topics
            .publish("world", pose, get(6).unwrap_or(0.0), 0.0);
    }
}

impl Controller for RosAuv {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
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
        self.run_mission.shutdown();
        self.inner.finish();
    }
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
