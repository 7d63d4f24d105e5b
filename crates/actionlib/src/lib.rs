//! `skipper-actionlib`: ROS actionlib for Skipper.
//!
//! Goals reach a robot the way ROS actionlib sends them: a goal, feedback, a result,
//! preemption by newer goals and cancels. The crate has two layers, on the ROS 1
//! messages and node of [`skipper_ros1_wire`]:
//!
//! - state machines with no transport and an injected [`Clock`]: the
//!   server goal handle ([`server::goal_handle`], rules G-1..G-9 of the reference), the
//!   multi-goal [`ActionServer`] (A-1..A-10), the [`SimpleActionServer`] (S-1..S-11, the
//!   spec's API, callbacks, polling and an execute-callback mode), the [`ActionClient`]
//!   with the CommState table and LOST detection (C-1..C-6) and the
//!   [`SimpleActionClient`] (C-7..C-10);
//! - transports: [`transport::inproc`] (same process) and [`ros1`] (the bindings of a
//!   server or client to a ROS 1 node's topics, so rospy's and roscpp's actionlib
//!   clients and servers talk to them).
//!
//! Every server, client and binding is generic over an [`Action`] value: a compiled-in
//! action (`Goto`, a zero-sized struct) or a [`DynAction`] made at run time.
//!
//! ```
//! use skipper_ros1_wire::msg::dynamic::Value;
//! use skipper_ros1_wire::msg::loader::TypeLoader;
//! use skipper_actionlib::transport::inproc::InProcBus;
//! use skipper_actionlib::{ActionServer, DynAction, ServerConfig, SimpleActionServer, SystemClock};
//! use std::sync::Arc;
//!
//! // an action type from its .action text (or TypeLoader::global().action("pkg/Name"))
//! let schema = TypeLoader::global()
//!     .add_action("my_msgs/Dock", "string station\n---\nbool docked\n---\nfloat64 distance")
//!     .unwrap();
//! let dock = DynAction(schema);
//! let server = ActionServer::with_type(dock.clone(), ServerConfig::default(), Arc::new(SystemClock));
//! let bus = InProcBus::new(); // or ros1::ActionServerBinding::new(&node, "/robot1/dock", &server)
//! bus.attach_server(&server);
//! let simple = SimpleActionServer::with_execute_callback(server, move |s, goal| {
//!     let station = goal.get("station").and_then(Value::as_str).unwrap_or("").to_string();
//!     let mut result = dock.new_result();
//!     result.set("docked", Value::Bool(!station.is_empty())).map_err(|e| e.to_string())?;
//!     s.set_succeeded(Some(result), "docked").map_err(|e| e.to_string())
//! });
//! simple.start();
//! simple.shutdown();
//! ```

pub mod client;
pub mod error;
pub mod ros1;
pub mod server;
mod sync;
pub mod transport;

pub use client::action_client::{ActionClient, ClientGoalHandle};
pub use client::comm_state::CommState;
pub use client::simple::{SimpleActionClient, SimpleGoalState};
pub use error::ActionError;
pub use server::action_server::{ActionServer, ServerConfig};
pub use server::goal_handle::ServerGoalHandle;
pub use server::simple::SimpleActionServer;
pub use skipper_ros1_wire::msg::actionlib_msgs::{
    Action, DynAction, GoalId, GoalStatus, GoalStatusArray, StatusCode,
};
pub use skipper_ros1_wire::msg::dynamic::DynMessage;
pub use skipper_ros1_wire::msg::Message;
pub use skipper_ros1_wire::time::{Clock, ManualClock, SystemClock, Time};
