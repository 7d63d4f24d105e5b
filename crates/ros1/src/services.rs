//! The run's ROS services: per robot `NS/estop` and `NS/reset` (`std_srvs/Trigger`), and
//! the node's `add_two_ints` (`skipper_msgs/AddTwoInts`, the request and response of
//! rospy_tutorials' AddTwoInts, so its md5sum is theirs), the reference service of the
//! interop tests.
//!
//! `std_srvs/Trigger` rather than `Empty`: the answer says whether it worked and what
//! happened (`success`, `message`), which `rosservice call` prints; an Empty answer says
//! nothing, and a reset that cannot release (the estop of every robot is engaged, from
//! the dashboard) could not say so.
//!
//! `estop` engages the robot's own estop ([`RunControl::set_estop_for`]) and cancels its
//! goals; the answer comes once a cycle has run with the robot's drive at `Estop`, and
//! names that cycle and its time: from the next cycle on the robot's odometry is at rest.
//! If no cycle runs within [`ESTOP_WAIT`] (a paused run) the answer says it is engaged
//! and will act in the next cycle. `reset` releases the robot's own estop.

use crate::link::LinkError;
use skipper_actionlib::DynMessage;
use skipper_core::actuation::Drive;
use skipper_core::goals::GoalPort;
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunControl};
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::msg::schema::SrvSchema;
use skipper_ros1_wire::service::{advertise_dyn, ServiceServer};
use skipper_ros1_wire::Node;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// `std_srvs/Trigger`, as Debian's ros-std-srvs ships it.
pub const TRIGGER: &str = "---\nbool success   # indicate successful run of triggered service\nstring message # informational, e.g. for error messages\n";
/// `skipper_msgs/AddTwoInts` (interfaces/ros1/skipper_msgs/srv/AddTwoInts.srv).
pub const ADD_TWO_INTS: &str = "int64 a\nint64 b\n---\nint64 sum\n";
/// How long an `estop` call waits for the cycle that applies it.
pub const ESTOP_WAIT: Duration = Duration::from_secs(5);

/// What the services' observer saw last: the cycle, its time, which robots were estopped.
#[derive(Default)]
struct Seen {
    cycle: u64,
    now: Duration,
    estopped: Vec<bool>,
}

#[derive(Default)]
struct Watch {
    seen: Mutex<Seen>,
    changed: Condvar,
}

impl Watch {
    fn lock(&self) -> MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// Wait for a cycle after `after` in which robot `i` was estopped: its number and time.
    fn wait_estopped(&self, i: usize, after: u64, timeout: Duration) -> Option<(u64, Duration)> {
        let end = Instant::now() + timeout;
        let mut seen = self.lock();
        loop {
            if seen.cycle > after && seen.estopped.get(i).copied().unwrap_or(false) {
                return Some((seen.cycle, seen.now));
            }
            let left = end.checked_duration_since(Instant::now())?;
            seen = match self.changed.wait_timeout(seen, left) {
                Ok((g, _)) => g,
                Err(p) => p.into_inner().0,
            };
        }
    }
}

/// The services of a run; as an observer it sees which robots each cycle estopped.
pub struct Services {
    _servers: Vec<ServiceServer>,
    watch: Arc<Watch>,
}

impl Observer for Services {
    fn on_cycle(&mut self, view: &CycleView<'_>) {
        let mut seen = self.watch.lock();
        seen.cycle = view.cycle;
        seen.now = view.now;
        seen.estopped.clear();
        seen.estopped
            .extend(view.actuation.iter().map(|a| a.drive == Some(Drive::Estop)));
        drop(seen);
        self.watch.changed.notify_all();
    }
}

fn schemas() -> Result<(Arc<SrvSchema>, Arc<SrvSchema>), LinkError> {
    let l = TypeLoader::builtin_only();
    let bad = |e: skipper_ros1_wire::msg::schema::SchemaError| LinkError::Ros(e.to_string());
    Ok((
        l.add_srv("std_srvs/Trigger", TRIGGER).map_err(bad)?,
        l.add_srv("skipper_msgs/AddTwoInts", ADD_TWO_INTS)
            .map_err(bad)?,
    ))
}

fn trigger_answer(srv: &SrvSchema, success: bool, message: String) -> Result<DynMessage, String> {
    let mut r = DynMessage::new(srv.response().clone());
    r.set("success", Value::Bool(success))
        .map_err(|e| e.to_string())?;
    r.set("message", Value::String(message))
        .map_err(|e| e.to_string())?;
    Ok(r)
}

/// One robot the services act on: its index, namespace and goal port.
pub struct ServedRobot {
    /// its index in the world
    pub index: usize,
    /// its namespace (`robot1`, relative to the node's)
    pub ns: String,
    /// where its goals are
    pub goals: Arc<dyn GoalPort>,
}

/// Offer `NS/estop` and `NS/reset` for each robot and the node's `add_two_ints`.
pub fn serve(
    node: &Node,
    robots: Vec<ServedRobot>,
    control: Arc<RunControl>,
) -> Result<Services, LinkError> {
    let (trigger, add) = schemas()?;
    let watch = Arc::new(Watch::default());
    let ros = |e| LinkError::Ros(format!("cannot offer a service: {e}"));
    let mut servers = vec![advertise_dyn(
        node,
        &node.resolve("add_two_ints").map_err(ros)?,
        &add,
        add_two_ints(add.clone()),
    )
    .map_err(ros)?];
    for r in robots {
        let name = node.resolve(&format!("{}/estop", r.ns)).map_err(ros)?;
        let handler = estop(&trigger, &control, &watch, &r, name.clone());
        servers.push(advertise_dyn(node, &name, &trigger, handler).map_err(ros)?);
        let name = node.resolve(&format!("{}/reset", r.ns)).map_err(ros)?;
        let handler = reset(&trigger, &control, r.index, name.clone());
        servers.push(advertise_dyn(node, &name, &trigger, handler).map_err(ros)?);
    }
    Ok(Services {
        _servers: servers,
        watch,
    })
}

type Handler = Box<
    dyn Fn(DynMessage, &skipper_ros1_wire::service::CallHeader) -> Result<DynMessage, String>
        + Send
        + Sync,
>;

fn add_two_ints(srv: Arc<SrvSchema>) -> Handler {
    Box::new(move |q, _| {
        let get = |f: &str| q.get(f).and_then(Value::as_int).unwrap_or(0);
        let sum = i64::try_from(get("a") + get("b"))
            .map_err(|_| format!("{} + {} does not fit in an int64", get("a"), get("b")))?;
        let mut r = DynMessage::new(srv.response().clone());
        r.set("sum", Value::I64(sum)).map_err(|e| e.to_string())?;
        Ok(r)
    })
}

fn estop(
    srv: &Arc<SrvSchema>,
    control: &Arc<RunControl>,
    watch: &Arc<Watch>,
    robot: &ServedRobot,
    name: String,
) -> Handler {
    let (srv, control, watch, goals, i) = (
        srv.clone(),
        control.clone(),
        watch.clone(),
        robot.goals.clone(),
        robot.index,
    );
    Box::new(move |_, h| {
        let who = h.get("callerid").unwrap_or("?");
        if !control.set_estop_for(i, true) {
            let text = "a robot's own estop exists for the first 64 robots only";
            return trigger_answer(&srv, false, text.into());
        }
        let after = watch.lock().cycle;
        for k in goals.kinds() {
            goals.cancel_current(k.name);
        }
        tracing::warn!("{name}: estop engaged by {who}");
        let robot = goals.robot().to_string();
        let message = match watch.wait_estopped(i, after, ESTOP_WAIT) {
            Some((cycle, now)) => format!(
                "{robot}: estop engaged; stopped in cycle {cycle} (t={:.3} s), its goals cancelled",
                now.as_secs_f64()
            ),
            None => format!(
                "{robot}: estop engaged; it acts in the run's next cycle (none ran in {} s: paused?)",
                ESTOP_WAIT.as_secs()
            ),
        };
        trigger_answer(&srv, true, message)
    })
}

fn reset(srv: &Arc<SrvSchema>, control: &Arc<RunControl>, i: usize, name: String) -> Handler {
    let (srv, control) = (srv.clone(), control.clone());
    Box::new(move |_, h| {
        let was = control.estop_for(i);
        control.set_estop_for(i, false);
        if control.estop() {
            return trigger_answer(
                &srv,
                false,
                "the estop of every robot is engaged (the dashboard's): release it there".into(),
            );
        }
        tracing::warn!(
            "{name}: estop released by {}",
            h.get("callerid").unwrap_or("?")
        );
        let message = if was {
            "estop released"
        } else {
            "no estop was engaged"
        };
        trigger_answer(&srv, true, message.into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The md5sums of Debian's std_srvs/Trigger class and of rospy_tutorials' AddTwoInts
    /// (genpy's class of the shipped skipper_msgs/AddTwoInts.srv prints the same).
    #[test]
    fn the_services_have_the_md5sums_of_ros() {
        let (trigger, add) = schemas().unwrap();
        assert_eq!(trigger.md5sum(), "937c9679a518e3a18d831e57125ea522");
        assert_eq!(add.md5sum(), "6a2e34150c00229791cc89ff309fff21");
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../interfaces/ros1/skipper_msgs"
        );
        let shipped = std::fs::read_to_string(format!("{dir}/srv/AddTwoInts.srv")).unwrap();
        let l = TypeLoader::builtin_only();
        let s = l.add_srv("skipper_msgs/AddTwoInts", &shipped).unwrap();
        assert_eq!(s.md5sum(), add.md5sum());
    }
}
