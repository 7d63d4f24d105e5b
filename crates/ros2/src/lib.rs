//! Skipper's ROS 2 transport: a pure-Rust ROS 2 node (ros2-client on RustDDS, no
//! system libraries) that interoperates with rclpy and rmw_fastrtps_cpp.
//!
//! - [`args`]: `ROS_DOMAIN_ID` and `--ros-args` (node name, namespace, remaps, `-p`);
//! - [`names`]: ROS 2's rules for names, checked before ros2-client sees them;
//! - [`node`]: the node (localhost-only discovery by default, `/rosout`, parameters);
//! - [`qos`]: rclpy's default QoS profiles;
//! - [`msg`]: the messages, as CDR-encodable structs;
//! - [`cdr`]: bounded decoding of everything a node receives (fuzzed);
//! - [`action`]: goals as ROS 2 actions under the SimpleActionServer policy;
//! - [`dynamic`]: a goal kind's action, its types made at run time from its fields;
//! - [`typedesc`]: ROS 2 type descriptions and their RIHS01 hashes (with [`sha256`]);
//! - [`interfaces`]: the interface packages of goal kinds (`skipper interfaces --ros2`);
//! - [`nav2`]: nav2's `NavigateToPose` on a robot's goto goals;
//! - [`client`]: an action client; [`send`]: `skipper action send --ros2` (one goal
//!   from command-line arguments, reported as YAML);
//! - [`io`]: the reading thread (subscriptions and action services);
//! - [`goals`]: a controller's goal kinds as actions, through its goal port;
//! - [`link`]: `skipper run --ros2`'s node and robots; [`transport`]: the same as a
//!   [`skipper_goals::Transport`] of a run;
//! - [`robot`]: a robot's topics (odom, pose, scan, sonar, battery, tf, the AUV's);
//!   and `/clock` in simulated time;
//! - [`reply`]: action answers held until the client's reader is discovered;
//! - [`sample`]: a robot's cycle, read from its signals by the vocabulary;
//! - [`outlet`]: where published messages go (DDS publishers, or a test's recorder);
//! - [`yaml`]: messages as `ros2 topic echo` prints them.
//!
//! This crate depends on nothing of Skipper's but `skipper-core`, `skipper-goals` (the
//! transport seam) and `skipper-ros1-wire` (for the goal definitions `send` reads
//! arguments with): a binding fills
//! [`action::GoalTarget`] for a controller's goal kinds and [`sample`]'s samples from a
//! vehicle's signals.

pub mod action;
pub mod args;
pub mod cdr;
pub mod client;
pub mod dynamic;
pub mod error;
pub mod goals;
pub mod interfaces;
pub mod io;
pub mod link;
pub mod msg;
pub mod names;
pub mod nav2;
pub mod node;
pub mod outlet;
pub mod qos;
pub mod reply;
pub mod robot;
pub mod sample;
pub mod send;
pub mod sha256;
pub mod transport;
pub mod typedesc;
pub mod vehicle;
pub mod yaml;

pub use error::Ros2Error;
pub use ros2_client::ParameterValue;
pub use transport::Ros2Transport;
