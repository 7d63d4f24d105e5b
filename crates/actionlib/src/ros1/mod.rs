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

/// Feed bytes from a peer to every decoder of the transport: the first byte picks one (a
/// message type, a TCPROS header, a TCPROS frame, an XML-RPC call or response). For the
/// fuzz target and its corpus replay; returns whether the input decoded.
#[doc(hidden)]
pub fn fuzz_input(data: &[u8]) -> bool {
    use crate::msg::actionlib_msgs::{ActionGoal, ActionResult, GoalId, GoalStatusArray};
    use crate::msg::common::{Odometry, PoseStamped, Twist};
    use crate::msg::skipper_msgs::{GotoGoal, GotoResult, RunMissionGoal, RunOptionGoal};
    use crate::msg::test_actions::TestRequestGoal;
    use crate::msg::Message;
    let Some((&which, rest)) = data.split_first() else {
        return false;
    };
    match which % 10 {
        0 => GoalStatusArray::decode(rest).is_ok(),
        1 => ActionGoal::<TestRequestGoal>::decode(rest).is_ok(),
        2 => {
            ActionGoal::<GotoGoal>::decode(rest).is_ok()
                || ActionGoal::<RunOptionGoal>::decode(rest).is_ok()
                || ActionGoal::<RunMissionGoal>::decode(rest).is_ok()
        }
        3 => ActionResult::<GotoResult>::decode(rest).is_ok(),
        4 => GoalId::decode(rest).is_ok(),
        5 => {
            Odometry::decode(rest).is_ok()
                || PoseStamped::decode(rest).is_ok()
                || Twist::decode(rest).is_ok()
        }
        6 => tcpros::Header::decode(rest).is_ok(),
        7 => {
            let mut buf = Vec::new();
            tcpros::read_frame(&mut &rest[..], &mut buf).is_ok()
        }
        8 => std::str::from_utf8(rest).is_ok_and(|s| xmlrpc::parse_call(s).is_ok()),
        _ => std::str::from_utf8(rest).is_ok_and(|s| xmlrpc::parse_response(s).is_ok()),
    }
}
