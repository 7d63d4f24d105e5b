//! The crate's error type.

use skipper_ros1_wire::msg::actionlib_msgs::StatusCode;

/// What went wrong in an action server or client.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ActionError {
    /// A goal handle was asked for a transition its state does not allow (rule G-9: the
    /// goal's state is unchanged and nothing is published).
    #[error("goal {goal}: cannot {action} a goal that is {from}")]
    InvalidTransition {
        /// goal id
        goal: String,
        /// the goal's state
        from: StatusCode,
        /// what was asked (`accept`, `succeed`, ...)
        action: &'static str,
    },
    /// The goal is no longer tracked (its status list entry timed out).
    #[error("goal {0} is not tracked any more")]
    NotTracked(String),
    /// acceptNewGoal without a new goal.
    #[error("there is no new goal to accept")]
    NoNewGoal,
    /// No current goal.
    #[error("there is no current goal")]
    NoGoal,
    /// A server that was not started or was shut down.
    #[error("the action server is not running")]
    NotRunning,
    /// A runtime message of another type than the action's.
    #[error("wrong message type: {0}")]
    WrongType(String),
    /// A transport failed.
    #[error("{0}")]
    Transport(String),
}
