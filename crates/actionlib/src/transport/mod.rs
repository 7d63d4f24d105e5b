//! What a transport provides to the state machines: a sink for each side's outgoing
//! messages. The transports are [`inproc`] (same process, queued, deterministic) and
//! [`crate::ros1`] (ROS 1 over XML-RPC + TCPROS).

pub mod inproc;

use skipper_ros1_wire::msg::actionlib_msgs::{
    Action, ActionFeedback, ActionGoal, ActionResult, GoalId, StatusList,
};

/// Where an action server's messages go (`<ns>/status`, `<ns>/result`, `<ns>/feedback`).
/// Implementations must not block on peers and must not call back into the server (the
/// ROS 1 binding paces its replies with sleeps of at most
/// [`ReplyPacing::MAX`](crate::ros1::action::ReplyPacing::MAX)).
pub trait ServerSink<A: Action>: Send + Sync {
    /// The status list (latched). The server keeps its entries serialised and updates
    /// them in place for the next publication, so it lends them.
    fn publish_status(&self, list: &StatusList<'_>);
    /// A goal's result.
    fn publish_result(&self, msg: ActionResult<A::Result>);
    /// A goal's feedback.
    fn publish_feedback(&self, msg: ActionFeedback<A::Feedback>);
}

/// Where an action client's messages go (`<ns>/goal`, `<ns>/cancel`).
/// Implementations must not block and must not call back into the client.
pub trait ClientSink<A: Action>: Send + Sync {
    /// A goal.
    fn publish_goal(&self, msg: ActionGoal<A::Goal>);
    /// A cancel request.
    fn publish_cancel(&self, msg: GoalId);
    /// Whether the server known by caller id `server` is connected both ways: our goal
    /// and cancel reach it, its result and feedback reach us (rule C-9).
    fn server_connected(&self, _server: &str) -> bool {
        true
    }
}
