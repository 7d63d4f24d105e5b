//! `skipper-ros1`: Skipper's robots on ROS 1, over skipper-actionlib's ROS 1 node.
//!
//! Each robot, namespaced by its name (`/robot1`), gets:
//! - an actionlib SimpleActionServer for every goal kind its controller declares
//!   ([`goals`]): `/robot1/goto` (`skipper_msgs/Goto`), `/robot1/run_option`, ... with the
//!   action type made at run time from the kind's fields, so a new kind needs no code here;
//! - `cmd_vel` (`geometry_msgs/Twist`) into its velocity inbox ([`velocity`]);
//! - a ground robot's goto also as `move_base` (`move_base_msgs/MoveBase`, [`goals`]) and
//!   `move_base_simple/goal` ([`navigation`]), as navigation clients and rviz send them;
//! - `pose` (`geometry_msgs/PoseStamped`) and `odom` (`nav_msgs/Odometry`) every cycle,
//!   from the signals of its vehicle kind's vocabulary ([`topics`]);
//! - its sensors: `scan`, `sonar`, `battery`; an AUV's `depth`, `altitude`, `gps/fix`
//!   ([`sensors`]);
//! - its frames on `/tf` and `/tf_static` (`robot1/odom` -> `robot1/base_link` ->
//!   `robot1/laser`), and `/clock` in simulated time ([`frames`]);
//! - `estop` and `reset` (`std_srvs/Trigger`), and the node's `add_two_ints`
//!   ([`services`], [`RosLink::serve_services`]).
//!
//! While a [`RosLink`] lives, the process's log lines go to `/rosout`
//! (`skipper_ros1_wire::rosout`).
//!
//! [`RosLink`] is the run's node; [`RosLink::serve_with`] binds the robots (one
//! [`skipper_goals::Endpoint`] each) and returns the observer that publishes their topics
//! and shuts their servers down when the run ends. [`Ros1Transport`] is all of it as a
//! run's [`skipper_goals::Transport`].
//! Nothing here knows an engine or a vehicle: it binds what the goal layer declares.
//!
//! [`interfaces`] writes the catkin packages of the goal kinds (`skipper interfaces
//! --ros1`).
//!
//! [`vehicle`] goes the other way: a robot on ROS 1 as a Skipper vehicle
//! (`--vehicle ros1:/NAMESPACE`).

pub mod frames;
pub mod goals;
pub mod interfaces;
pub mod link;
pub mod navigation;
pub mod sensors;
pub mod services;
pub mod topics;
pub mod transport;
pub mod vehicle;
pub mod velocity;

pub use frames::TimeSource;
pub use link::{node_config, LinkError, RosLink, NODE_NAME};
pub use sensors::{LaserGeometry, SensorGeometry, SonarGeometry};
pub use skipper_goals::ros_name;
pub use transport::Ros1Transport;
