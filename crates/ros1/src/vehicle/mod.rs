//! ROS 1 robots as vehicles (`skipper run --vehicle ros1:/NAMESPACE`): any engine drives
//! a robot that publishes `odom` and `scan` and listens on `cmd_vel`, through Skipper's
//! own ROS 1 node (skipper-ros1-wire; the master from `ROS_MASTER_URI`).
//!
//! The node `/skipper_driver` (listening on 127.0.0.1 unless told otherwise, as
//! `skipper run --ros` does) subscribes each robot's `NS/odom` (nav_msgs/Odometry),
//! `NS/scan` (sensor_msgs/LaserScan), the `sensor_msgs/Range` topics the master lists
//! under `NS/sonar*` and `NS/range*`, `NS/battery_state` and `NS/battery`
//! (sensor_msgs/BatteryState), `/tf_static` and `/tf` (and `NS/tf_static`, `NS/tf`), and
//! `/clock` when the robot runs on simulated time (`use_sim_time`, or the parameter
//! `/use_sim_time` set, as ROS 1 simulators do); it publishes `NS/cmd_vel`
//! (geometry_msgs/Twist). The rest — signals, vocabulary, safety bounds, watchdog — is
//! `skipper_core::vehicle::remote`'s.

pub mod inputs;

use crate::link::{node_config, LinkError};
use skipper_core::vehicle::remote::{
    self, Bounds, CommandOut, DriveParams, Expected, Link, RemoteConfig, RemoteWorld, RobotClock,
};
use skipper_ros1_wire::msg::common::{Twist, Vector3};
use skipper_ros1_wire::msg::sensor::{BatteryState, Clock, LaserScan, Range, TfMessage};
use skipper_ros1_wire::node::Subscriber;
use skipper_ros1_wire::topics::{subscribe, TypedPublisher};
use skipper_ros1_wire::xmlrpc::Value;
use skipper_ros1_wire::{Message, Node};
use std::net::IpAddr;
use std::sync::Arc;

/// The node name of the robots' driver.
pub const NODE_NAME: &str = "/skipper_driver";

/// One ROS 1 robot to drive.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotSpec {
    /// its namespace: `/bot` (topics `/bot/odom`, ...) or `/` (`/odom`, ...)
    pub namespace: String,
    /// its name in the run
    pub name: String,
    /// how drive commands become velocities
    pub drive: DriveParams,
    /// the safety bounds
    pub bounds: Bounds,
}

/// How to reach the robots.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// the master's URI (empty: `ROS_MASTER_URI`, default http://127.0.0.1:11311)
    pub master: String,
    /// the address the node listens on (127.0.0.1 unless given)
    pub host: Option<IpAddr>,
    /// the robots' time is `/clock` (also when the master's `/use_sim_time` is true)
    pub use_sim_time: bool,
}

/// A robot as it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// its name in the run
    pub name: String,
    /// one line: what it has and how it is driven
    pub summary: String,
}

/// A robot's `cmd_vel` (geometry_msgs/Twist).
struct CmdVel(TypedPublisher<Twist>);

impl CommandOut for CmdVel {
    fn send(&mut self, forward: f64, turn: f64) {
        self.0.publish(&Twist {
            linear: Vector3 {
                x: forward,
                y: 0.0,
                z: 0.0,
            },
            angular: Vector3 {
                x: 0.0,
                y: 0.0,
                z: turn,
            },
        });
    }
}

/// What the world keeps alive: the node and its subscriptions; the node unregisters
/// and closes its connections when the world goes.
struct Transport {
    node: Node,
    _subs: Vec<Subscriber>,
}

impl Drop for Transport {
    fn drop(&mut self) {
        self.node.shutdown();
    }
}

fn prefix(ns: &str) -> String {
    ns.trim_end_matches('/').to_string()
}

/// The topics the master has publishers of, with their types.
fn published(node: &Node) -> Vec<(String, String)> {
    let Ok(v) = node.call_master("getPublishedTopics", vec![Value::Str(String::new())]) else {
        return Vec::new();
    };
    v.as_array()
        .unwrap_or(&[])
        .iter()
        .filter_map(|p| {
            let a = p.as_array()?;
            Some((
                a.first()?.as_str()?.to_string(),
                a.get(1)?.as_str()?.to_string(),
            ))
        })
        .collect()
}

/// The `sensor_msgs/Range` topics among `topics` under `ns` (`NS/sonar`, `NS/sonar_3`,
/// `NS/range_front`, `NS/sonar/left`), sorted.
pub fn range_topics(topics: &[(String, String)], ns: &str) -> Vec<String> {
    let head = format!("{ns}/");
    let mut v: Vec<String> = topics
        .iter()
        .filter(|(_, ty)| ty == Range::type_name())
        .filter_map(|(t, _)| {
            let rest = t.strip_prefix(&head)?;
            let sensor = match rest.split_once('/') {
                None => rest.starts_with("sonar") || rest.starts_with("range"),
                Some((dir, leaf)) => {
                    !leaf.contains('/') && (dir.starts_with("sonar") || dir.starts_with("range"))
                }
            };
            sensor.then(|| t.clone())
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn ros(e: skipper_ros1_wire::RosError) -> LinkError {
    LinkError::Ros(e.to_string())
}

/// Join the master, wait for `robots` to appear and find what each has; the world of
/// them, and one line per robot saying what was found.
pub fn connect(
    robots: &[RobotSpec],
    options: &Options,
) -> Result<(RemoteWorld, Vec<Found>), LinkError> {
    let mut config = node_config(NODE_NAME, options.host)?;
    // the driver's names are the robots' own: no namespace or remaps of the command line
    config.namespace = String::new();
    config.remaps.clear();
    config.private_params.clear();
    if !options.master.is_empty() {
        config.master_uri = options.master.clone();
    }
    let node = Node::new(config).map_err(|e| LinkError::Ros(format!("cannot join ROS: {e}")))?;
    let sim =
        options.use_sim_time || matches!(node.get_param("/use_sim_time"), Some(Value::Bool(true)));
    let clock = Arc::new(RobotClock::new(sim));
    let mut subs = Vec::new();
    let mut links = Vec::new();
    let mut pubs = Vec::new();
    for r in robots {
        let ns = prefix(&r.namespace);
        let cmd = TypedPublisher::<Twist>::advertise(&node, &format!("{ns}/cmd_vel"), false)
            .map_err(ros)?;
        let link = Link::new(&ns, r.bounds, clock.clone(), Box::new(CmdVel(cmd)));
        let l = link.clone();
        subs.push(
            subscribe(
                &node,
                &format!("{ns}/odom"),
                move |m: skipper_ros1_wire::msg::common::Odometry, _| inputs::odometry(&l, &m),
            )
            .map_err(ros)?,
        );
        let l = link.clone();
        subs.push(
            subscribe(&node, &format!("{ns}/scan"), move |m: LaserScan, _| {
                inputs::scan(&l, &m)
            })
            .map_err(ros)?,
        );
        for topic in ["battery_state", "battery"] {
            let l = link.clone();
            subs.push(
                subscribe(
                    &node,
                    &format!("{ns}/{topic}"),
                    move |m: BatteryState, _| inputs::battery(&l, &m),
                )
                .map_err(ros)?,
            );
        }
        if !ns.is_empty() {
            for topic in ["tf_static", "tf"] {
                let l = link.clone();
                subs.push(
                    subscribe(&node, &format!("{ns}/{topic}"), move |m: TfMessage, _| {
                        inputs::transforms(&l, &m)
                    })
                    .map_err(ros)?,
                );
            }
        }
        links.push(link);
        pubs.push(ns);
    }
    for topic in ["/tf_static", "/tf"] {
        let all = links.clone();
        subs.push(
            subscribe(&node, topic, move |m: TfMessage, _| {
                for l in &all {
                    inputs::transforms(l, &m);
                }
            })
            .map_err(ros)?,
        );
    }
    if sim {
        let c = clock.clone();
        subs.push(
            subscribe(&node, "/clock", move |m: Clock, _| inputs::clock(&c, &m)).map_err(ros)?,
        );
    }
    let mut ranges: Vec<Vec<String>> = vec![Vec::new(); robots.len()];
    let mut failed = None;
    let mut last_query: Option<std::time::Instant> = None;
    let mut expected = vec![Expected::default(); robots.len()];
    let awaited = remote::await_robots(&links, || {
        // the master is asked a few times a second, not at every look
        if last_query.is_some_and(|t| t.elapsed() < std::time::Duration::from_millis(200)) {
            return expected.clone();
        }
        last_query = Some(std::time::Instant::now());
        let topics = published(&node);
        let has = |t: &str| topics.iter().any(|(n, _)| n == t);
        for (((ns, link), subscribed), e) in
            pubs.iter().zip(&links).zip(&mut ranges).zip(&mut expected)
        {
            for topic in range_topics(&topics, ns) {
                if subscribed.contains(&topic) || failed.is_some() {
                    continue;
                }
                let (l, t) = (link.clone(), topic.clone());
                match subscribe(&node, &topic, move |m: Range, _| inputs::range(&l, &t, &m)) {
                    Ok(s) => {
                        subs.push(s);
                        subscribed.push(topic);
                    }
                    Err(err) => failed = Some(ros(err)),
                }
            }
            *e = Expected {
                scan: has(&format!("{ns}/scan")),
                battery: has(&format!("{ns}/battery_state")) || has(&format!("{ns}/battery")),
                range_topics: subscribed.len(),
            };
        }
        expected.clone()
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let equipment = awaited
        .map_err(|why| LinkError::Ros(format!("{why} (ROS master {})", node.master_uri())))?;
    let found = robots
        .iter()
        .zip(&pubs)
        .zip(&equipment)
        .map(|((r, ns), e)| Found {
            name: r.name.clone(),
            summary: summary(ns, e),
        })
        .collect();
    let configs = robots
        .iter()
        .map(|r| RemoteConfig {
            name: r.name.clone(),
            model: "ros1".into(),
            drive: r.drive,
        })
        .collect();
    let vehicles = remote::robots(links, configs, equipment);
    let transport = Transport { node, _subs: subs };
    Ok((
        RemoteWorld::new(vehicles, clock, "ros1", Box::new(transport)),
        found,
    ))
}

/// One line on what a robot has: `/bot: odom, scan 360 beams from -180.0° by 1.00°
/// (laser 0.10 m ahead), 2 range sensors, battery; cmd_vel Twist`.
pub fn summary(ns: &str, e: &remote::Equipment) -> String {
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
    format!("{ns}: {}; cmd_vel Twist", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_topics_are_found_under_the_namespace() {
        let t = |n: &str, ty: &str| (n.to_string(), ty.to_string());
        let topics = [
            t("/bot/sonar", "sensor_msgs/Range"),
            t("/bot/sonar/left", "sensor_msgs/Range"),
            t("/bot/range_front", "sensor_msgs/Range"),
            t("/bot/sonar/a/b", "sensor_msgs/Range"),
            t("/bot/scan", "sensor_msgs/LaserScan"),
            t("/other/sonar", "sensor_msgs/Range"),
        ];
        assert_eq!(
            range_topics(&topics, "/bot"),
            ["/bot/range_front", "/bot/sonar", "/bot/sonar/left"]
        );
        assert!(range_topics(&topics, "").is_empty());
    }
}
