//! Actions on a ROS 1 node ([`skipper_ros1_wire`]): an [`ActionServer`](crate::ActionServer)
//! or an [`ActionClient`](crate::ActionClient) bound to a node's topics ([`action`]), so
//! rospy's and roscpp's actionlib clients and servers talk to them.

pub mod action;

pub use action::{ActionClientBinding, ActionServerBinding};
