//! A controller's goal kinds (`skipper_core::goals`) served as ROS 2 actions: each kind
//! is the action its type names, made at run time from its fields
//! ([`crate::dynamic::KindAction`]), and a [`KindTarget`] sends its goals through the
//! robot's [`GoalPort`] and follows them by their updates. Goals, feedback and results
//! cross as the goal layer's records, so the transport knows no engine and no kind: a
//! kind added to a controller is served with no change here.

use crate::action::{GoalTarget, Progress};
use crate::dynamic::{conform, DynMsg, GoalPart, KindAction};
use skipper_core::goals::{Ending, GoalKind, GoalPort, GoalState, Record};
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

    fn result<P: crate::dynamic::Part>(&self, r: Option<&Record>, how: Ending) -> DynMsg<P> {
        let schema = P::schema(self.kind);
        DynMsg::new(match r {
            Some(r) => conform(r, schema),
            None => self.kind.ending_result(how),
        })
    }
}

impl GoalTarget<KindAction> for KindTarget {
    fn start(&mut self, goal: &DynMsg<GoalPart>) -> Result<u64, String> {
        self.seq = 0;
        self.port
            .send(self.kind.name, goal.record().clone())
            .map_err(|e| e.to_string())
    }
    fn poll(&mut self, id: u64) -> Progress<KindAction> {
        let Some(u) = self.port.update(id) else {
            let r = self.result(None, Ending::RunEnded);
            return Progress::Aborted(r, "the goal was forgotten".into());
        };
        let r = u.result.as_ref();
        match u.state {
            GoalState::Pending => Progress::Pending,
            GoalState::Active if u.seq != self.seq && u.feedback.is_some() => {
                self.seq = u.seq;
                let f = u.feedback.as_ref().map(|f| conform(f, self.kind.feedback));
                Progress::Active(f.map(DynMsg::new))
            }
            GoalState::Active => Progress::Active(None),
            GoalState::Succeeded => Progress::Succeeded(self.result(r, Ending::Refused)),
            GoalState::Canceled => Progress::Canceled(self.result(r, Ending::Canceled)),
            GoalState::Aborted => Progress::Aborted(self.result(r, Ending::Refused), u.text),
            GoalState::Preempted => Progress::Aborted(self.result(r, Ending::Preempted), u.text),
        }
    }
    fn cancel(&mut self, id: u64) {
        self.port.cancel(id);
    }
}

/// The kinds of `port` as actions, each with its name on the robot (`NS/<kind>`);
/// a kind whose names are not a ROS 2 interface's is `Err` with the reason.
pub fn actions(
    port: &dyn GoalPort,
    ns: &str,
) -> Vec<(String, &'static GoalKind, Result<KindAction, String>)> {
    port.kinds()
        .into_iter()
        .map(|k| (format!("{ns}/{}", k.name), k, KindAction::of(k)))
        .collect()
}

/// The goto kind of a robot (type `skipper_msgs/Goto`), if its controller takes goto
/// goals: what `goal_pose` and nav2's `navigate_to_pose` send.
pub fn goto_kind(port: &dyn GoalPort) -> Option<&'static GoalKind> {
    port.kinds()
        .into_iter()
        .find(|k| k.type_name == "skipper_msgs/Goto")
}
