//! The server side: the goal state machine, the multi-goal ActionServer and the
//! SimpleActionServer.

pub mod action_server;
pub mod goal_handle;
pub mod simple;
