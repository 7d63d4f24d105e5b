//! A controller's goal kinds (`skipper_core::goals`) served as ROS 2 actions: a
//! [`KindTarget`] sends goals of one kind through the robot's [`GoalPort`] and follows
//! them by its updates. Goals, feedback and results cross as records converted field by
//! field (by name) to and from the action's messages, so the transport knows no engine;
//! a kind is served when the interface package has its action (`skipper_msgs/<type>`:
//! Goto, RunOption, RunMission), see [`serve_kind`].

use crate::action::{ActionType, GoalTarget, Goto, Progress, RunMission, RunOption};
use serde::de::DeserializeOwned;
use serde::Serialize;
use skipper_core::goals::{GoalKind, GoalPort, GoalState, Record};
use std::sync::Arc;

/// Goals of one kind on one robot.
pub struct KindTarget {
    port: Arc<dyn GoalPort>,
    kind: &'static GoalKind,
    seq: u64,
}

impl KindTarget {
    /// Goals of `kind` through `port`.
    pub fn new(port: Arc<dyn GoalPort>, kind: &'static GoalKind) -> Self {
        Self { port, kind, seq: 0 }
    }
}

fn to_msg<T: DeserializeOwned + Default>(r: Option<&Record>) -> T {
    r.and_then(|r| serde_json::from_value(r.to_json()).ok())
        .unwrap_or_default()
}

impl<A: ActionType> GoalTarget<A> for KindTarget
where
    A::Goal: Serialize,
    A::Feedback: DeserializeOwned + Default,
{
    fn start(&mut self, goal: &A::Goal) -> Result<u64, String> {
        let json = serde_json::to_value(goal).map_err(|e| e.to_string())?;
        let record = Record::from_json(self.kind.goal, &json).map_err(|e| e.to_string())?;
        self.seq = 0;
        self.port
            .send(self.kind.name, record)
            .map_err(|e| e.to_string())
    }
    fn poll(&mut self, id: u64) -> Progress<A> {
        let Some(u) = self.port.update(id) else {
            return Progress::Aborted(A::Result::default(), "the goal was forgotten".into());
        };
        let result = || to_msg::<A::Result>(u.result.as_ref());
        match u.state {
            GoalState::Pending => Progress::Pending,
            GoalState::Active if u.seq != self.seq && u.feedback.is_some() => {
                self.seq = u.seq;
                Progress::Active(Some(to_msg(u.feedback.as_ref())))
            }
            GoalState::Active => Progress::Active(None),
            GoalState::Succeeded => Progress::Succeeded(result()),
            GoalState::Canceled => Progress::Canceled(result()),
            GoalState::Aborted | GoalState::Preempted => {
                Progress::Aborted(result(), u.text.clone())
            }
        }
    }
    fn cancel(&mut self, id: u64) {
        self.port.cancel(id);
    }
}

/// What a robot's node does with a goal kind: serve it as action `A` (made by
/// `serve::<A>`), or say why it cannot.
pub trait KindServer {
    /// Serve `kind` on `name` as action `A`.
    fn serve<A: ActionType>(
        &mut self,
        name: &str,
        target: KindTarget,
    ) -> Result<(), crate::Ros2Error>
    where
        A::Goal: Serialize,
        A::Feedback: DeserializeOwned + Default;
}

/// The action of the interface package a kind's type names (`skipper_msgs/Goto`:
/// `Goto`), if it is one of the package's.
pub fn interface_action(kind: &GoalKind) -> Option<&'static str> {
    let a = kind.type_name.strip_prefix("skipper_msgs/")?;
    ["Goto", "RunOption", "RunMission"]
        .into_iter()
        .find(|&k| k == a)
}

/// Serve `kind` of `port` on `name` with the interface package's action of its type;
/// `Ok(false)` if the package has no action of that type.
pub fn serve_kind(
    server: &mut impl KindServer,
    name: &str,
    port: Arc<dyn GoalPort>,
    kind: &'static GoalKind,
) -> Result<bool, crate::Ros2Error> {
    let t = KindTarget::new(port, kind);
    match interface_action(kind) {
        Some("Goto") => server.serve::<Goto>(name, t)?,
        Some("RunOption") => server.serve::<RunOption>(name, t)?,
        Some("RunMission") => server.serve::<RunMission>(name, t)?,
        _ => return Ok(false),
    }
    Ok(true)
}
