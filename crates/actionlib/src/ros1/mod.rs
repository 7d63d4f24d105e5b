//! The ROS 1 transport, written for this crate (no ROS libraries): XML-RPC to the master
//! and between nodes ([`xmlrpc`]), TCPROS ([`tcpros`]), a node with the slave API
//! ([`node`]), and the bindings that put an [`ActionServer`](crate::ActionServer) or an
//! [`ActionClient`](crate::ActionClient) on a node's topics ([`action`]).
//! It depends on no other Skipper crate.

pub mod action;
pub mod node;
pub mod tcpros;
#[doc(hidden)]
pub mod testing;
pub mod xmlrpc;

pub use action::{ActionClientBinding, ActionServerBinding, TypedPublisher};
pub use node::{Node, NodeConfig, RosError};
