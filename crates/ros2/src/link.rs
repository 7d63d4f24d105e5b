//! `skipper run --ros2`: the run's ROS 2 node and its robots. [`Ros2Link::start`] joins
//! the domain (with the run's parameters); [`Ros2Link::serve`] binds the robots — every
//! goal kind their controllers declare as an action of a type made from the kind
//! ([`crate::goals`]), a ground robot's goto also as nav2's `navigate_to_pose`
//! ([`crate::nav2`]), `cmd_vel` and `goal_pose` into their goal port and velocity inbox,
//! their topics ([`crate::robot`]) — and returns the observer that publishes every cycle
//! and ends the node's reading thread (aborting running goals) when the run ends.

use crate::action::{ActionType, GoalServer, GoalTarget};
use crate::args::{ParamValue, RosArgs};
use crate::cdr::Dropped;
use crate::error::Ros2Error;
use crate::goals::{actions, goto_kind, KindTarget};
use crate::io::{Handler, Inbox, IoLoop, ServerHandler};
use crate::msg::geometry::{PoseStamped, Twist, TwistStamped};
use crate::msg::std::Time;
use crate::nav2::{LatestPose, Navigate, NavigateToPose, PoseFix};
use crate::node::{Discovery, Logger, NodeConfig, Ros2Node};
use crate::qos;
use crate::robot::{AuvTopics, GroundTopics, SharedTopics};
use crate::sample::{AuvReader, GroundReader};
use ros2_client::ParameterValue;
use skipper_core::goals::{GoalPort, Record};
use skipper_core::runner::CycleView;
use skipper_core::velocity::{VelocityCommand, VelocityInbox};
use skipper_core::{Observer, RunControl, VehicleKind, World};
use skipper_goals::ros_name;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The node name of `skipper run --ros2` (`--ros-args -r __node:=` changes it).
pub const NODE_NAME: &str = "skipper";
/// The largest `speed` parameter accepted.
const MAX_SPEED: f64 = 100.0;

/// A robot to serve.
pub struct Robot {
    /// its index in the world
    pub index: usize,
    /// its goals
    pub goals: Arc<dyn GoalPort>,
    /// where its velocity commands go
    pub velocity: VelocityInbox,
}

/// The run's ROS 2 node.
pub struct Ros2Link {
    node: Ros2Node,
    stamped: bool,
    log: Logger,
    dropped: Arc<Dropped>,
    handlers: Vec<Box<dyn Handler>>,
}

impl Ros2Link {
    /// Join the domain (`ROS_DOMAIN_ID`; `ros_args` are the `--ros-args` that followed on
    /// the command line), discovering peers on this machine unless `host` says otherwise
    /// (a warning is printed then); `robots` are the robots' names, `rate` and `control`
    /// the run's.
    pub fn start(
        ros_args: &[String],
        host: Option<IpAddr>,
        robots: &[String],
        rate: f64,
        control: Arc<RunControl>,
    ) -> Result<Self, Ros2Error> {
        let argv: Vec<&str> = std::iter::once("--ros-args")
            .chain(ros_args.iter().map(String::as_str))
            .collect();
        let domain = std::env::var("ROS_DOMAIN_ID").ok();
        let args = RosArgs::parse(&argv, domain.as_deref())?;
        let discovery = Discovery::from_host(host)?;
        let stamped = matches!(
            args.param_value("stamped_cmd_vel"),
            Some(ParamValue::Bool(true))
        );
        let names: Vec<String> = robots.iter().map(|r| ros_name(r)).collect();
        // the node sets its declared parameters once while it is made: those pass
        let started = Arc::new(AtomicBool::new(false));
        let s2 = started.clone();
        let c2 = control.clone();
        let on_set = move |name: &str, v: &ParameterValue| match (name, v) {
            _ if !s2.load(Ordering::SeqCst) => Ok(()),
            ("speed", ParameterValue::Double(s))
                if s.is_finite() && *s > 0.0 && *s <= MAX_SPEED =>
            {
                c2.set_speed(*s);
                Ok(())
            }
            ("speed", _) => Err(format!("speed is a factor above 0 and at most {MAX_SPEED}")),
            ("use_sim_time", _) => Ok(()),
            (n, _) => Err(format!("{n} is read-only")),
        };
        let node = Ros2Node::start(NodeConfig {
            name: NODE_NAME.into(),
            namespace: "/".into(),
            args,
            discovery: discovery.clone(),
            parameters: vec![
                ("robots".into(), ParameterValue::StringArray(names)),
                ("rate".into(), ParameterValue::Double(rate)),
                ("speed".into(), ParameterValue::Double(control.speed())),
                ("stamped_cmd_vel".into(), ParameterValue::Boolean(stamped)),
            ],
            on_set: Some(Box::new(on_set)),
        })?;
        started.store(true, Ordering::SeqCst);
        let fq = node.fully_qualified_name();
        if let Some(w) = discovery.warning(&fq) {
            eprintln!("{w}");
        }
        eprintln!("ROS 2: node {fq} on domain {}", node.domain_id());
        let log = node.logger();
        Ok(Self {
            node,
            stamped,
            log,
            dropped: Arc::new(Dropped::default()),
            handlers: Vec::new(),
        })
    }

    fn inbox<
        T: ros2_client::Message + crate::msg::RosType + crate::cdr::Bounded + Send + 'static,
    >(
        &mut self,
        topic: &str,
        on: impl FnMut(T) + Send + 'static,
    ) -> Result<(), Ros2Error> {
        let sub = self.node.subscription::<T>(topic, qos::default())?;
        let h = Inbox::new(topic, sub, self.dropped.clone(), Some(self.log.clone()), on);
        self.handlers.push(Box::new(h));
        Ok(())
    }

    fn cmd_vel(&mut self, ns: &str, inbox: VelocityInbox) -> Result<(), Ros2Error> {
        let topic = format!("{ns}/cmd_vel");
        let put = move |t: &Twist| {
            let v = VelocityCommand {
                forward: t.linear.x,
                turn_rate: t.angular.z,
                climb: t.linear.z,
            };
            inbox.put(v, Instant::now())
        };
        if self.stamped {
            self.inbox(&topic, move |t: TwistStamped| put(&t.twist))
        } else {
            self.inbox(&topic, move |t: Twist| put(&t))
        }
    }

    /// `NS/goal_pose` (what rviz2's goal tool publishes): a `goto` to its position.
    fn goal_pose(&mut self, ns: &str, port: Arc<dyn GoalPort>) -> Result<(), Ros2Error> {
        let Some(kind) = goto_kind(&*port) else {
            return Ok(());
        };
        let log = self.log.clone();
        self.inbox(&format!("{ns}/goal_pose"), move |p: PoseStamped| {
            let goal = Record::defaults(kind.goal)
                .with("x", p.pose.position.x)
                .with("y", p.pose.position.y);
            if let Err(e) = port.send(kind.name, goal) {
                log.warn(&format!("goal_pose: {e}"));
            }
        })
    }

    /// Bind `robots` of `world`; each ground robot's laser and sonars are published as
    /// its vehicle describes them.
    pub fn serve(
        mut self,
        world: &dyn World,
        robots: Vec<Robot>,
    ) -> Result<Box<dyn Observer>, Ros2Error> {
        let origin = world.geo_origin().unwrap_or((0.0, 0.0));
        let mut shared = SharedTopics::advertise(&mut self.node)?;
        let mut bound = Vec::new();
        for r in robots {
            let Some(v) = world.vehicle(r.index) else {
                continue;
            };
            let ns = ros_name(&v.info().name);
            for (name, kind, action) in actions(&*r.goals, &ns) {
                match action {
                    Ok(a) => {
                        self.log.info(&format!(
                            "{}: action {} (type hash {})",
                            self.node.resolve(&name),
                            a.type_name(),
                            a.hashes().action
                        ));
                        let target = KindTarget::new(r.goals.clone(), kind);
                        self.serve_action(&name, a, target)?;
                    }
                    Err(why) => self.log.warn(&format!("{name}: not served: {why}")),
                }
            }
            self.goal_pose(&ns, r.goals.clone())?;
            self.cmd_vel(&ns, r.velocity.clone())?;
            let topics = match v.info().kind {
                VehicleKind::Ground => {
                    let t = GroundTopics::advertise(&mut self.node, &ns, &ns, v.sensors())?;
                    shared.add_static(t.static_transforms());
                    let pose = LatestPose::default();
                    if let Some(goto) = goto_kind(&*r.goals) {
                        let nav = Navigate::new(r.goals.clone(), goto, &ns, pose.clone());
                        self.serve_action(&format!("{ns}/navigate_to_pose"), NavigateToPose, nav)?;
                    }
                    Published::Ground(Box::new(t), None, pose)
                }
                VehicleKind::Auv => Published::Auv(
                    Box::new(AuvTopics::advertise(&mut self.node, &ns, &ns)?),
                    None,
                    origin,
                ),
            };
            bound.push((r.index, topics));
        }
        let io = IoLoop::start(std::mem::take(&mut self.handlers))?;
        self.log.info(&format!("serving {} robots", bound.len()));
        // every robot's topics and actions exist now: a client started after this line
        // finds them all
        let n = bound.len();
        eprintln!("ROS 2: serving {n} robot{}", if n == 1 { "" } else { "s" });
        Ok(Box::new(Ros2Observer {
            io: Some(io),
            robots: bound,
            shared,
            dropped: self.dropped,
            _node: self.node,
        }))
    }
}

impl Ros2Link {
    /// Serve action `ty` on `name` for `target`.
    fn serve_action<A: ActionType>(
        &mut self,
        name: &str,
        ty: A,
        target: impl GoalTarget<A> + 'static,
    ) -> Result<(), Ros2Error> {
        let server = self.node.action_server(name, &ty)?;
        self.handlers.push(Box::new(ServerHandler::new(
            GoalServer::new(ty, server, Box::new(target)).answer_after_discovery(self.node.peers()),
            self.dropped.clone(),
            Some(self.log.clone()),
        )));
        Ok(())
    }
}

/// What a robot publishes, its signals bound at the first cycle; a ground robot's
/// latest pose for `navigate_to_pose`'s feedback.
enum Published {
    Ground(Box<GroundTopics>, Option<GroundReader>, LatestPose),
    Auv(Box<AuvTopics>, Option<AuvReader>, (f64, f64)),
}

/// Publishes the robots' topics, `/tf` and `/clock` after every cycle.
struct Ros2Observer {
    io: Option<IoLoop>,
    robots: Vec<(usize, Published)>,
    shared: SharedTopics,
    dropped: Arc<Dropped>,
    _node: Ros2Node,
}

impl Observer for Ros2Observer {
    fn on_cycle(&mut self, v: &CycleView<'_>) {
        for (i, r) in &mut self.robots {
            let Some(s) = v.signals.get(*i) else { continue };
            let tf = match r {
                Published::Ground(t, ids, pose) => ids
                    .get_or_insert_with(|| GroundReader::bind(s))
                    .read(s, v.now)
                    .map(|sample| {
                        pose.set(PoseFix {
                            stamp: Time::from_duration(sample.stamp),
                            x: sample.x,
                            y: sample.y,
                            yaw: sample.yaw,
                            speed: sample.linear,
                        });
                        t.publish(&sample)
                    }),
                Published::Auv(t, ids, origin) => ids
                    .get_or_insert_with(|| AuvReader::bind(s, *origin))
                    .read(s, v.now)
                    .map(|sample| t.publish(&sample)),
            };
            if let Some(tf) = tf {
                self.shared.push_tf(tf);
            }
        }
        self.shared.end_cycle(v.now);
        if let Some(io) = &self.io {
            io.notify();
        }
    }
    fn on_end(&mut self, _world: &dyn World, _report: &skipper_core::RunReport) {
        if let Some(io) = self.io.take() {
            io.stop();
        }
        let (malformed, bounds) = self.dropped.counts();
        if malformed + bounds > 0 {
            eprintln!("ROS 2: dropped {malformed} malformed and {bounds} out-of-bounds messages");
        }
    }
}
