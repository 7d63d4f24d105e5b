//! `skipper-actionlib`: ROS actionlib for Skipper.
//!
//! Goals reach a robot the way ROS actionlib sends them: a goal, feedback, a result,
//! preemption by newer goals and cancels. The crate has three layers:
//!
//! - state machines with no transport and an injected [`Clock`](time::Clock): the
//!   server goal handle ([`server::goal_handle`], rules G-1..G-9 of the reference), the
//!   multi-goal [`ActionServer`] (A-1..A-10), the [`SimpleActionServer`] (S-1..S-11, the
//!   spec's API, callbacks, polling and an execute-callback mode), the [`ActionClient`]
//!   with the CommState table and LOST detection (C-1..C-6) and the
//!   [`SimpleActionClient`] (C-7..C-10);
//! - typed ROS messages ([`msg`]): serialisation, md5sums and definitions;
//! - transports: [`transport::inproc`] (same process) and [`ros1`] (a ROS 1 node:
//!   XML-RPC master/slave API and TCPROS, so `rostopic`, `rosnode` and Python actionlib
//!   clients and servers talk to it).

pub mod client;
pub mod error;
pub mod msg;
pub mod ros1;
pub mod server;
mod sync;
pub mod time;
pub mod transport;

pub use client::action_client::{ActionClient, ClientGoalHandle};
pub use client::comm_state::CommState;
pub use client::simple::{SimpleActionClient, SimpleGoalState};
pub use error::ActionError;
pub use msg::actionlib_msgs::{Action, GoalId, GoalStatus, GoalStatusArray, StatusCode};
pub use msg::Message;
pub use server::action_server::{ActionServer, ServerConfig};
pub use server::goal_handle::ServerGoalHandle;
pub use server::simple::SimpleActionServer;
pub use time::{Clock, ManualClock, SystemClock, Time};
