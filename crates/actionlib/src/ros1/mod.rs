//! The ROS 1 transport, written for this crate (no ROS libraries): XML-RPC to the master
//! and between nodes ([`xmlrpc`]), TCPROS ([`tcpros`]), a node with the slave API
//! ([`node`]), and the bindings that put an [`ActionServer`](crate::ActionServer) or an
//! [`ActionClient`](crate::ActionClient) on a node's topics ([`action`]), and services
//! ([`service`]).
//! It depends on no other Skipper crate.

pub mod action;
#[cfg(feature = "arbitrary")]
#[doc(hidden)]
pub mod fuzz_frames;
pub mod names;
pub mod node;
pub mod rosout;
pub mod service;
pub mod tcpros;
#[doc(hidden)]
pub mod testing;
pub mod xmlrpc;

pub use action::{ActionClientBinding, ActionServerBinding, DynPublisher, TypedPublisher};
pub use node::{Node, NodeConfig, RosError};

/// Feed bytes from a peer to every decoder of the transport: the first byte picks one (a
/// message type, a TCPROS header, a TCPROS frame, an XML-RPC call or response). For the
/// fuzz target and its corpus replay; returns whether the input decoded. A status list
/// also goes through the reader of a server's serialised list, which must agree with the
/// message decoder (it panics if not: a finding for the fuzzer).
#[doc(hidden)]
pub fn fuzz_input(data: &[u8]) -> bool {
    use crate::msg::actionlib_msgs::{
        ActionGoal, ActionResult, GoalId, GoalStatusArray, StatusList,
    };
    use crate::msg::common::{Header, Odometry, PoseStamped, Twist};
    use crate::msg::skipper_msgs::{GotoGoal, GotoResult, RunMissionGoal, RunOptionGoal};
    use crate::msg::test_actions::TestRequestGoal;
    use crate::msg::Message;
    let Some((&which, rest)) = data.split_first() else {
        return false;
    };
    match which % 10 {
        0 => {
            // a server's serialised status list (a count, then the entries) reads exactly
            // as the message it is the tail of
            let mut decoded = GoalStatusArray::decode(rest).is_ok();
            if let Some((count, entries)) = rest.split_first_chunk::<4>() {
                let header = Header::default();
                let mut body = Vec::new();
                header.encode(&mut body);
                body.extend_from_slice(rest);
                let as_message = GoalStatusArray::decode(&body);
                let mut as_list = GoalStatusArray::default();
                let list = StatusList::new(&header, u32::from_le_bytes(*count), entries)
                    .decode_into(&mut as_list);
                assert_eq!(as_message.is_ok(), list.is_ok(), "status list vs message");
                if let Ok(m) = as_message {
                    assert_eq!(m.status_list, as_list.status_list, "status list vs message");
                    decoded = true;
                }
            }
            decoded
        }
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
