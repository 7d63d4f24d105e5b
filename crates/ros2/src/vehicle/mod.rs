//! ROS 2 robots as vehicles (`skipper run --vehicle ros2:/NAMESPACE`): any engine drives
//! a robot that publishes `odom` and `scan` and listens on `cmd_vel` — a TurtleBot, a
//! Clearpath base, a robot in Gazebo, Isaac Sim or Webots, or another Skipper.
//!
//! One node (`/skipper_driver`, on `ROS_DOMAIN_ID`, discovering peers on this machine
//! unless told otherwise, as `skipper run --ros2` does) subscribes each robot's
//! `NS/odom` (nav_msgs/Odometry), `NS/scan` (sensor_msgs/LaserScan), the
//! `sensor_msgs/Range` topics under `NS/sonar*` and `NS/range*`, `NS/battery_state` and
//! `NS/battery` (sensor_msgs/BatteryState), `/tf_static` and `/tf` (and `NS/tf_static`,
//! `NS/tf`) for where the sensors sit, and `/clock` with `use_sim_time`; it publishes
//! `NS/cmd_vel` as geometry_msgs/Twist, or TwistStamped when the robot's reader takes
//! that. Sensor topics are read best effort (which matches reliable and best-effort
//! publishers alike), `/tf_static` reliable and transient local.
//!
//! [`connect`] waits for the robots to appear and finds what each has (beam count and
//! angles, the laser's and range sensors' places from the transforms); the rest — the
//! signals, the vocabulary, the safety bounds, the watchdog — is
//! `skipper_core::vehicle::remote`'s.
//!
//! - [`inputs`]: the messages into the robot's link, with their bounds;
//! - [`command`]: the `cmd_vel` writer;
//! - [`graph`]: what DDS discovery says about the robot's topics.

pub mod command;
pub mod graph;
pub mod inputs;

use crate::cdr::{Bounded, Dropped};
use crate::error::Ros2Error;
use crate::io::{Handler, Inbox, IoLoop};
use crate::msg::geometry::{Odometry, TfMessage};
use crate::msg::sensor::{BatteryState, LaserScan, Range};
use crate::msg::std::Clock;
use crate::msg::RosType;
use crate::node::{Discovery, Logger, NodeConfig, Ros2Node};
use command::CmdVel;
use graph::Graph;
use ros2_client::dds::rustdds::{DomainParticipant, TopicDescription};
use ros2_client::qos::{Durability, History, Reliability};
use ros2_client::{Message, MessageTypeName, Name, ParameterValue, QosProfile};
use skipper_core::vehicle::remote::{
    self, Bounds, CommandOut, DriveParams, Expected, Link, RemoteConfig, RemoteWorld, RobotClock,
};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The node name of the robots' driver.
pub const NODE_NAME: &str = "skipper_driver";

/// One ROS 2 robot to drive.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotSpec {
    /// its namespace: `/bot` (topics `/bot/odom`, ...) or `/` (`/odom`, ...)
    pub namespace: String,
    /// its name in the run
    pub name: String,
    /// `cmd_vel` as TwistStamped (`Some(true)`), Twist (`Some(false)`), or as the robot's
    /// reader takes it (`None`; Twist when it has none yet)
    pub stamped: Option<bool>,
    /// how drive commands become velocities
    pub drive: DriveParams,
    /// the safety bounds
    pub bounds: Bounds,
}

/// How to reach the robots.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// where peers are discovered (this machine only unless `--ros2-host` says)
    pub discovery: Discovery,
    /// the robots' time is `/clock` (a simulator's), not the wall clock
    pub use_sim_time: bool,
}

/// A robot as it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// its name in the run
    pub name: String,
    /// its namespace
    pub namespace: String,
    /// one line: what it has and how it is driven
    pub summary: String,
}

/// Sensor data: best effort (matches every publisher), the last 10.
fn sensor_qos() -> QosProfile {
    QosProfile::subscription_default()
        .reliability(Reliability::BestEffort)
        .durability(Durability::Volatile)
        .history(History::KeepLast { depth: 10 })
}

/// `/tf_static`: reliable and transient local, so that every broadcaster's latched
/// message arrives; deep enough to hold one from each of many broadcasters.
fn tf_static_qos() -> QosProfile {
    QosProfile::subscription_default()
        .reliability(Reliability::Reliable {
            when_full: ros2_client::qos::WhenFull::DEFAULT,
        })
        .durability(Durability::TransientLocal)
        .history(History::KeepLast { depth: 100 })
}

/// Range sensors: best effort, deep (a ring of them publishes one message each, all at
/// once, on one topic).
fn range_qos() -> QosProfile {
    sensor_qos().history(History::KeepLast { depth: 100 })
}

/// `/tf`: best effort, deep (a tf2 broadcaster sends many at once).
fn tf_qos() -> QosProfile {
    sensor_qos().history(History::KeepLast { depth: 100 })
}

/// The topic prefix of namespace `ns`: `/bot` for `/bot` and `/bot/`, empty for `/`.
fn prefix(ns: &str) -> String {
    ns.trim_end_matches('/').to_string()
}

/// Subscriptions being made, and what goes wrong making them.
struct Subscriber<'a> {
    node: &'a mut Ros2Node,
    handlers: Vec<Box<dyn Handler>>,
    dropped: Arc<Dropped>,
    log: Logger,
}

impl Subscriber<'_> {
    fn add<T: Message + RosType + Bounded + Send + 'static>(
        &mut self,
        topic: &str,
        qos: QosProfile,
        on: impl FnMut(T) + Send + 'static,
    ) -> Result<(), Ros2Error> {
        let sub = self.node.subscription::<T>(topic, qos)?;
        let h = Inbox::new(topic, sub, self.dropped.clone(), Some(self.log.clone()), on);
        self.handlers.push(Box::new(h));
        Ok(())
    }

    /// Deliver what arrived (before the reading thread runs).
    fn pump(&mut self) {
        for h in &mut self.handlers {
            h.ready();
        }
    }
}

/// The DDS participant of `node`.
fn participant(node: &mut Ros2Node) -> Result<DomainParticipant, Ros2Error> {
    let name = Name::parse("/parameter_events")
        .map_err(|e| Ros2Error::Config(format!("ROS 2 name: {e}")))?;
    let t = node
        .inner()
        .create_topic(
            &name,
            MessageTypeName::new("rcl_interfaces", "ParameterEvent"),
            &crate::qos::default(),
        )
        .map_err(|e| Ros2Error::create("the node's DDS participant", e))?;
    t.participant()
        .ok_or_else(|| Ros2Error::create("the node's DDS participant", "gone"))
}

/// Where a robot's commands go: the `cmd_vel` writer, made once the robot's reader type
/// is known.
#[derive(Clone, Default)]
struct Slot(Arc<Mutex<Option<CmdVel>>>);

impl CommandOut for Slot {
    fn send(&mut self, forward: f64, turn: f64) {
        if let Some(c) = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            c.send(forward, turn);
        }
    }
    fn flush(&mut self, within: Duration) {
        if let Some(c) = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            c.flush(within);
        }
    }
}

/// Join the domain, wait for `robots` to appear and find what each has; the world of
/// them, and one line per robot saying what was found.
pub fn connect(
    robots: &[RobotSpec],
    options: &Options,
) -> Result<(RemoteWorld, Vec<Found>), Ros2Error> {
    let domain = std::env::var("ROS_DOMAIN_ID").ok();
    let args = crate::args::RosArgs::parse(&["--ros-args"], domain.as_deref())?;
    let mut node = Ros2Node::start(NodeConfig {
        name: NODE_NAME.into(),
        namespace: "/".into(),
        args,
        discovery: options.discovery.clone(),
        parameters: vec![(
            "use_sim_time".into(),
            ParameterValue::Boolean(options.use_sim_time),
        )],
        on_set: None,
    })?;
    if let Some(w) = options.discovery.warning(&node.fully_qualified_name()) {
        eprintln!("{w}");
    }
    let participant = participant(&mut node)?;
    let clock = Arc::new(RobotClock::new(options.use_sim_time));
    let log = node.logger();
    let mut s = Subscriber {
        node: &mut node,
        handlers: Vec::new(),
        dropped: Arc::new(Dropped::default()),
        log,
    };
    let mut links = Vec::new();
    let mut slots = Vec::new();
    for r in robots {
        let ns = prefix(&r.namespace);
        crate::names::check_name(&format!("{ns}/odom")).map_err(|why| {
            Ros2Error::Config(format!(
                "ros2:{}: not a ROS 2 namespace: {why}",
                r.namespace
            ))
        })?;
        let slot = Slot::default();
        let link = Link::new(
            if ns.is_empty() { "" } else { &ns },
            r.bounds,
            clock.clone(),
            Box::new(slot.clone()),
        );
        let l = link.clone();
        s.add(&format!("{ns}/odom"), sensor_qos(), move |m: Odometry| {
            inputs::odometry(&l, &m)
        })?;
        let l = link.clone();
        s.add(&format!("{ns}/scan"), sensor_qos(), move |m: LaserScan| {
            inputs::scan(&l, &m)
        })?;
        for topic in ["battery_state", "battery"] {
            let l = link.clone();
            s.add(
                &format!("{ns}/{topic}"),
                sensor_qos(),
                move |m: BatteryState| inputs::battery(&l, &m),
            )?;
        }
        if !ns.is_empty() {
            let l = link.clone();
            s.add(
                &format!("{ns}/tf_static"),
                tf_static_qos(),
                move |m: TfMessage| inputs::transforms(&l, &m),
            )?;
            let l = link.clone();
            s.add(&format!("{ns}/tf"), tf_qos(), move |m: TfMessage| {
                inputs::transforms(&l, &m)
            })?;
        }
        links.push(link);
        slots.push(slot);
    }
    let all = links.clone();
    s.add("/tf_static", tf_static_qos(), move |m: TfMessage| {
        for l in &all {
            inputs::transforms(l, &m);
        }
    })?;
    let all = links.clone();
    s.add("/tf", tf_qos(), move |m: TfMessage| {
        for l in &all {
            inputs::transforms(l, &m);
        }
    })?;
    if options.use_sim_time {
        let c = clock.clone();
        s.add("/clock", sensor_qos(), move |m: Clock| {
            inputs::clock(&c, &m)
        })?;
    }
    // range topics are subscribed as discovery finds them, while the robots are awaited
    let mut ranges: Vec<Vec<String>> = vec![Vec::new(); robots.len()];
    let mut failed: Option<Ros2Error> = None;
    let awaited = remote::await_robots(&links, || {
        let g = Graph::of(&participant);
        let mut expected = Vec::new();
        for ((r, link), subscribed) in robots.iter().zip(&links).zip(&mut ranges) {
            let ns = prefix(&r.namespace);
            for topic in g.range_topics(&ns) {
                if subscribed.contains(&topic) || failed.is_some() {
                    continue;
                }
                let (l, t) = (link.clone(), topic.clone());
                match s.add(&topic, range_qos(), move |m: Range| {
                    inputs::range(&l, &t, &m)
                }) {
                    Ok(()) => subscribed.push(topic),
                    Err(e) => failed = Some(e),
                }
            }
            expected.push(Expected {
                scan: g.has_publisher(&format!("{ns}/scan")),
                battery: g.has_publisher(&format!("{ns}/battery_state"))
                    || g.has_publisher(&format!("{ns}/battery")),
                range_topics: subscribed.len(),
            });
        }
        s.pump();
        expected
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let equipment = awaited.map_err(|why| {
        Ros2Error::Failed(format!(
            "{why} (ROS 2 domain {}, discovering {})",
            s.node.domain_id(),
            match &options.discovery {
                Discovery::Localhost => "on this machine only; --ros2-host widens it".into(),
                d => format!("{d:?}"),
            }
        ))
    })?;
    let g = Graph::of(&participant);
    let mut found = Vec::new();
    for ((r, slot), e) in robots.iter().zip(&slots).zip(&equipment) {
        let ns = prefix(&r.namespace);
        let topic = format!("{ns}/cmd_vel");
        let stamped = r.stamped.or(g.takes_stamped(&topic)).unwrap_or(false);
        let cmd = CmdVel::advertise(s.node, &topic, stamped, clock.clone())?;
        *slot.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(cmd);
        found.push(Found {
            name: r.name.clone(),
            namespace: r.namespace.clone(),
            summary: summary(&ns, e, stamped),
        });
    }
    let handlers = std::mem::take(&mut s.handlers);
    let io = IoLoop::start(handlers)?;
    let configs = robots
        .iter()
        .map(|r| RemoteConfig {
            name: r.name.clone(),
            model: "ros2".into(),
            drive: r.drive,
        })
        .collect();
    let vehicles = remote::robots(links, configs, equipment);
    Ok((
        RemoteWorld::new(vehicles, clock, "ros2", Box::new((io, node))),
        found,
    ))
}

/// One line on what a robot has: `/bot: odom, scan 360 beams from -180.0° by 1.00°
/// (laser 0.10 m ahead), 2 range sensors, battery; cmd_vel Twist`.
pub fn summary(ns: &str, e: &remote::Equipment, stamped: bool) -> String {
    let ns = if ns.is_empty() { "/" } else { ns };
    let mut parts = vec!["odom".to_string()];
    if let Some((n, g)) = e.laser {
        parts.push(format!(
            "scan {n} beams from {:.1}° by {:.2}° (laser {:.2} m ahead)",
            g.angle_min.to_degrees(),
            g.angle_increment.to_degrees(),
            g.x
        ));
    }
    if !e.sonars.is_empty() {
        parts.push(format!("{} range sensors", e.sonars.len()));
    }
    if e.battery {
        parts.push("battery".into());
    }
    format!(
        "{ns}: {}; cmd_vel {}",
        parts.join(", "),
        if stamped { "TwistStamped" } else { "Twist" }
    )
}
