//! A robot's goal kinds as actionlib servers: `NS/<kind>` of the action type the kind
//! names (`skipper_msgs/Goto`), made at run time from the kind's fields, hosted as a
//! SimpleActionServer whose goals go through the robot's [`GoalPort`].
//!
//! The wire follows the SimpleActionServer spec on top of the goal layer's policy:
//! - a goal that cannot run: ABORTED at once with the reason (a simple action server
//!   cannot reject);
//! - feedback: each new feedback the controller reports;
//! - done: SUCCEEDED or ABORTED with the controller's result and text;
//! - a newer goal of this server: PREEMPTED, "preempted by a newer goal" (the newer goal
//!   takes over without stopping the robot);
//! - a cancel: the goal is cancelled in the goal layer (the controller stops as its goals
//!   stop, at the robot's next cycle), then PREEMPTED with the controller's text;
//! - replaced by a goal from another source (the dashboard): ABORTED;
//! - the end of the run: ABORTED, "the run ended".
//!
//! A ground robot's goto kind is also served as `NS/move_base`
//! (`move_base_msgs/MoveBase`, as navigation clients send it): the goal's
//! `target_pose` position is the goto's target; its frame must be the robot's odometry
//! frame (`odom`, `NS/odom`, or empty) or `map` (Skipper has no localization: `map` is
//! the odometry frame); the result is empty; the feedback (`base_position`) is the
//! robot's latest pose on `NS/pose` (in its odometry frame), sent with each new feedback
//! of the goto (each cycle the robot gets nearer).

use crate::topics::LatestPose;
use skipper_actionlib::ros1::action::server_config_from_params;
use skipper_actionlib::ros1::ActionServerBinding;
use skipper_actionlib::{ActionServer, DynAction, DynMessage, SimpleActionServer, SystemClock};
use skipper_core::goals::{Ending, GoalId, GoalKind, GoalPort, GoalState, GoalUpdate, Record};
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::msg::json::{from_json, to_json};
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::Node;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

/// How long the server waits at most between two looks at a preempt request.
const POLL: Duration = Duration::from_millis(10);

/// The `.action` text of a kind: goal, result and feedback fields.
pub fn action_text(kind: &GoalKind) -> String {
    let mut t = String::new();
    for (i, part) in [kind.goal, kind.result, kind.feedback].iter().enumerate() {
        if i > 0 {
            t.push_str("---\n");
        }
        for f in part.iter() {
            let _ = writeln!(t, "{} {}", f.ty.ros_name(), f.name);
        }
    }
    t
}

/// The action type of a kind, registered with the process's type loader.
pub fn action_type(kind: &GoalKind) -> Result<DynAction, String> {
    TypeLoader::global()
        .add_action(kind.type_name, &action_text(kind))
        .map(DynAction)
        .map_err(|e| e.to_string())
}

/// How goals and results look on the wire.
#[derive(Debug, Clone)]
enum Wire {
    /// The kind's own action type: its fields, by name.
    Kind,
    /// `move_base_msgs/MoveBase` for a goto kind; the frames a target may be in, and the
    /// robot's latest pose for the feedback.
    MoveBase(Vec<String>, LatestPose),
}

/// The action type of `move_base` (compiled in, `move_base_msgs/MoveBase`).
pub const MOVE_BASE: &str = "move_base_msgs/MoveBase";

/// One kind's server, kept alive while the run goes on.
pub struct GoalServer {
    server: SimpleActionServer<DynAction>,
    _binding: ActionServerBinding,
}

impl GoalServer {
    /// Host `NS/<kind>` on `node` for the goals of `port`; the server is started.
    pub fn host(
        node: &Node,
        ns: &str,
        kind: &'static GoalKind,
        port: Arc<dyn GoalPort>,
    ) -> Result<Self, String> {
        let name = format!("{ns}/{}", kind.name);
        Self::host_as(node, &name, action_type(kind)?, Wire::Kind, kind, port)
    }

    /// Host `NS/move_base` for `kind`, a goto (`x`, `y` fields), when the robot has one,
    /// its feedback reporting `pose`: `None` if `kind` is not a goto.
    pub fn host_move_base(
        node: &Node,
        ns: &str,
        kind: &'static GoalKind,
        port: Arc<dyn GoalPort>,
        pose: LatestPose,
    ) -> Option<Result<Self, String>> {
        if kind.type_name != "skipper_msgs/Goto" {
            return None;
        }
        let action = match TypeLoader::global().action(MOVE_BASE) {
            Ok(a) => DynAction(a),
            Err(e) => return Some(Err(e.to_string())),
        };
        let frames = ["", "odom", "map"]
            .iter()
            .map(|f| f.to_string())
            .chain([format!("{ns}/odom")])
            .chain(node.resolve(&format!("{ns}/odom")).ok())
            .collect();
        let name = format!("{ns}/move_base");
        Some(Self::host_as(
            node,
            &name,
            action,
            Wire::MoveBase(frames, pose),
            kind,
            port,
        ))
    }

    fn host_as(
        node: &Node,
        name: &str,
        action: DynAction,
        wire: Wire,
        kind: &'static GoalKind,
        port: Arc<dyn GoalPort>,
    ) -> Result<Self, String> {
        let a = ActionServer::with_type(
            action.clone(),
            server_config_from_params(node, name),
            Arc::new(SystemClock),
        );
        let binding = ActionServerBinding::new(node, name, &a).map_err(|e| e.to_string())?;
        let server = serve_as(a, action, wire, kind, port);
        Ok(Self {
            server,
            _binding: binding,
        })
    }

    /// Stop serving.
    pub fn shutdown(&self) {
        self.server.shutdown();
    }
}

/// Serve `kind`'s goals of `port` on `server` (already bound to a transport); started.
pub fn serve(
    server: ActionServer<DynAction>,
    action: DynAction,
    kind: &'static GoalKind,
    port: Arc<dyn GoalPort>,
) -> SimpleActionServer<DynAction> {
    serve_as(server, action, Wire::Kind, kind, port)
}

fn serve_as(
    server: ActionServer<DynAction>,
    action: DynAction,
    wire: Wire,
    kind: &'static GoalKind,
    port: Arc<dyn GoalPort>,
) -> SimpleActionServer<DynAction> {
    let s = SimpleActionServer::with_execute_callback(
        server,
        move |s: &SimpleActionServer<DynAction>, goal: DynMessage| {
            Execution {
                s,
                action: &action,
                wire: &wire,
                kind,
                port: &*port,
            }
            .run(&goal)
        },
    );
    s.start();
    s
}

/// A result (or feedback) record as the action's message.
fn message(action: &DynAction, r: &Record, result: bool) -> Result<DynMessage, String> {
    let part = if result {
        action.schema().result()
    } else {
        action.schema().feedback()
    };
    from_json(part, &r.to_json()).map_err(|e| e.to_string())
}

/// `move_base`'s feedback: the robot's latest pose as `base_position`.
fn base_position(action: &DynAction, pose: &LatestPose) -> Result<Option<DynMessage>, String> {
    let Some((stamp, p)) = pose.get() else {
        return Ok(None);
    };
    let (at, q) = (&p.position, &p.orientation);
    let j = serde_json::json!({"base_position": {
        "header": {"stamp": {"secs": stamp.secs, "nsecs": stamp.nsecs}, "frame_id": pose.frame},
        "pose": {
            "position": {"x": at.x, "y": at.y, "z": at.z},
            "orientation": {"x": q.x, "y": q.y, "z": q.z, "w": q.w},
        },
    }});
    from_json(action.schema().feedback(), &j)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// One goal, from the wire to the goal layer and back.
struct Execution<'a> {
    s: &'a SimpleActionServer<DynAction>,
    action: &'a DynAction,
    wire: &'a Wire,
    kind: &'static GoalKind,
    port: &'a dyn GoalPort,
}

impl Execution<'_> {
    /// The goal layer's record of a goal from the wire.
    fn record(&self, goal: &DynMessage) -> Result<Record, String> {
        let Wire::MoveBase(frames, _) = self.wire else {
            return Record::from_json(self.kind.goal, &to_json(goal)).map_err(|e| e.to_string());
        };
        let f = |p: &str| goal.path(p).and_then(Value::as_f64).unwrap_or(0.0);
        let frame = goal
            .path("target_pose.header.frame_id")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !frames.iter().any(|k| k == frame) {
            return Err(format!(
                "move_base: a target in frame `{frame}` (this robot takes targets in {})",
                frames[1..].join(", ")
            ));
        }
        Ok(Record::defaults(self.kind.goal)
            .with("x", f("target_pose.pose.position.x"))
            .with("y", f("target_pose.pose.position.y")))
    }

    fn run(&self, goal: &DynMessage) -> Result<(), String> {
        let id = match self
            .record(goal)
            .and_then(|r| self.port.send(self.kind.name, r).map_err(|e| e.to_string()))
        {
            Ok(id) => id,
            Err(why) => return self.end_as(Ending::Refused, &why),
        };
        let mut seq = 0;
        let mut sent: Option<Record> = None;
        loop {
            if self.s.is_preempt_requested() {
                return self.preempted(id);
            }
            let Some(u) = self.port.wait(id, seq, POLL) else {
                return self.end_as(Ending::RunEnded, "the goal is no longer known");
            };
            seq = u.seq;
            self.feed_back(&u, &mut sent)?;
            if u.state.is_terminal() {
                return self.finish(&u);
            }
        }
    }

    /// Publish the update's feedback if it is new.
    fn feed_back(&self, u: &GoalUpdate, sent: &mut Option<Record>) -> Result<(), String> {
        let Some(f) = &u.feedback else { return Ok(()) };
        if sent.as_ref() == Some(f) {
            return Ok(());
        }
        let m = match self.wire {
            Wire::Kind => message(self.action, f, false)?,
            Wire::MoveBase(_, pose) => {
                // before the robot's first pose there is nothing to report
                let Some(m) = base_position(self.action, pose)? else {
                    return Ok(());
                };
                m
            }
        };
        self.s.publish_feedback(m).map_err(|e| e.to_string())?;
        *sent = Some(f.clone());
        Ok(())
    }

    fn result(&self, r: Option<&Record>, how: Ending) -> Result<DynMessage, String> {
        if matches!(self.wire, Wire::MoveBase(..)) {
            return Ok(DynMessage::new(self.action.schema().result().clone()));
        }
        match r {
            Some(r) => message(self.action, r, true),
            None => message(self.action, &self.kind.ending_result(how), true),
        }
    }

    /// End on the wire as the goal ended in the goal layer.
    fn finish(&self, u: &GoalUpdate) -> Result<(), String> {
        let e = |e: skipper_actionlib::ActionError| e.to_string();
        let r = |how| self.result(u.result.as_ref(), how);
        match u.state {
            GoalState::Succeeded => self
                .s
                .set_succeeded(Some(r(Ending::Refused)?), &u.text)
                .map_err(e),
            GoalState::Aborted => self
                .s
                .set_aborted(Some(r(Ending::Refused)?), &u.text)
                .map_err(e),
            GoalState::Canceled => self
                .s
                .set_preempted(Some(r(Ending::Canceled)?), &u.text)
                .map_err(e),
            GoalState::Preempted => self
                .s
                .set_aborted(
                    Some(r(Ending::Preempted)?),
                    "replaced by a goal from another source",
                )
                .map_err(e),
            GoalState::Pending | GoalState::Active => Ok(()),
        }
    }

    /// A preempt request: a newer goal of this server takes over; a cancel stops the
    /// goal in the goal layer first.
    fn preempted(&self, id: GoalId) -> Result<(), String> {
        if self.s.is_new_goal_available() {
            return self.end_as(Ending::Preempted, "preempted by a newer goal");
        }
        // the goal is over on the wire only once it is over in the goal layer (the
        // robot's next cycle stops it; the end of the run ends it too)
        self.port.cancel(id);
        let mut u = self.port.update(id);
        while let Some(now) = u.as_ref().filter(|u| !u.state.is_terminal()) {
            u = self.port.wait(id, now.seq, Duration::from_secs(1));
        }
        let (result, text) = match &u {
            Some(u) if u.state == GoalState::Canceled => (u.result.as_ref(), u.text.as_str()),
            _ => (None, "canceled"),
        };
        let r = self.result(result, Ending::Canceled)?;
        self.s
            .set_preempted(Some(r), text)
            .map_err(|e| e.to_string())
    }

    /// End on the wire with the kind's result for `how`.
    fn end_as(&self, how: Ending, text: &str) -> Result<(), String> {
        let r = self.result(None, how)?;
        let e = |e: skipper_actionlib::ActionError| e.to_string();
        match how {
            Ending::Preempted | Ending::Canceled => self.s.set_preempted(Some(r), text).map_err(e),
            Ending::Refused | Ending::RunEnded => self.s.set_aborted(Some(r), text).map_err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::goals::{Field, FieldType};

    static KIND: GoalKind = GoalKind {
        name: "goto",
        type_name: "skipper_msgs/Goto",
        doc: "",
        goal: &[
            Field::new("x", FieldType::Float, ""),
            Field::new("y", FieldType::Float, ""),
            Field::new("tolerance", FieldType::Float, ""),
        ],
        result: &[
            Field::new("x", FieldType::Float, ""),
            Field::new("y", FieldType::Float, ""),
            Field::new("yaw", FieldType::Float, ""),
        ],
        feedback: &[Field::new("distance", FieldType::Float, "")],
        ended: GoalKind::no_result,
    };

    #[test]
    fn a_kind_is_the_action_skipper_msgs_ships() {
        assert_eq!(
            action_text(&KIND),
            "float64 x\nfloat64 y\nfloat64 tolerance\n---\nfloat64 x\nfloat64 y\nfloat64 yaw\n---\nfloat64 distance\n"
        );
        let a = action_type(&KIND).unwrap();
        use skipper_ros1_wire::msg::skipper_msgs::GotoGoal;
        use skipper_ros1_wire::msg::Message;
        assert_eq!(a.schema().goal().md5sum(), GotoGoal::md5sum());
    }
}
