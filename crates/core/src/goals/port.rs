//! The transports' side of goals: a [`GoalPort`] is one robot's goals seen from any
//! thread. Every transport (in process, ROS 1, ROS 2, the dashboard) sends goals, cancels
//! them and watches their updates through it, whatever controller serves them.

use super::desk::SendError;
use super::kind::GoalKind;
use super::record::Record;
use super::status::{GoalId, GoalUpdate};
use std::time::Duration;

/// One robot's goals, shared between threads.
pub trait GoalPort: Send + Sync {
    /// The name of the robot.
    fn robot(&self) -> &str;

    /// The goal kinds its controller offers.
    fn kinds(&self) -> Vec<&'static GoalKind>;

    /// Send a goal of kind `kind`; it preempts the kind's goal before it. A goal that
    /// cannot run still gets an id, and its update says why it was aborted.
    fn send(&self, kind: &str, goal: Record) -> Result<GoalId, SendError>;

    /// Cancel goal `id` (a queued goal at once, a running one at the next cycle).
    fn cancel(&self, id: GoalId);

    /// Cancel whatever goal of kind `kind` is queued or runs.
    fn cancel_current(&self, kind: &str);

    /// The latest of goal `id` (`None` once it is too old to be kept).
    fn update(&self, id: GoalId) -> Option<GoalUpdate>;

    /// The newest goal of kind `kind`.
    fn latest(&self, kind: &str) -> Option<GoalUpdate>;

    /// Wait up to `timeout` for goal `id` to change after `seq` (its update's `seq`);
    /// returns the latest either way.
    fn wait(&self, id: GoalId, seq: u64, timeout: Duration) -> Option<GoalUpdate>;
}

/// The kind named `name` among `kinds`.
pub fn find_kind(kinds: &[&'static GoalKind], name: &str) -> Option<&'static GoalKind> {
    kinds.iter().copied().find(|k| k.name == name)
}
