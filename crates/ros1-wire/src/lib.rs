//! `skipper-ros1-wire`: ROS 1 on the wire, written for Skipper with no ROS libraries:
//!
//! - [`msg`]: ROS 1 messages (the binary serialisation, md5sums and definitions), for
//!   compiled-in types and for types known only at run time (schemas from `.msg` /
//!   `.srv` / `.action` text or the package path), to and from JSON and rostopic's YAML;
//! - [`time`]: ROS time and durations;
//! - [`node`]: a node with the slave API, publishers, subscribers, services and
//!   parameters; [`topics`]: typed and run-time-typed publishing and subscribing on it;
//! - [`xmlrpc`] (to the master and between nodes) and [`tcpros`] (the data connections);
//! - [`names`]: ROS names, remapping and the process's `__name:=` / `__ns:=` arguments;
//! - [`service`]: service clients and servers; [`rosout`]: logging to `/rosout`;
//! - [`python`]: numbers as Python prints them, as rospy's and rclpy's tools do.
//!
//! `rostopic`, `rosnode`, `rosservice`, rospy and roscpp talk to it. The actionlib state
//! machines that use it are `skipper-actionlib`'s. It depends on no other Skipper crate.

#[cfg(feature = "arbitrary")]
#[doc(hidden)]
pub mod fuzz_frames;
pub mod msg;
pub mod names;
pub mod node;
pub mod python;
pub mod rosout;
pub mod service;
pub mod tcpros;
#[doc(hidden)]
pub mod testing;
pub mod time;
pub mod topics;
pub mod xmlrpc;

pub use msg::dynamic::DynMessage;
pub use msg::Message;
pub use node::{Node, NodeConfig, RosError};
pub use topics::{DynPublisher, TypedPublisher};

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
