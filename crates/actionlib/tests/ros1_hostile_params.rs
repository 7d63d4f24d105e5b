//! Parameters a hostile or careless peer put on the master (found by
//! fuzzing): an `actionlib_status_frequency` of 1e-300 Hz or a `status_list_timeout` of 1e300 s are
//! clamped with a warning, and the server comes up and serves; nothing panics.

use skipper_actionlib::ros1::action::server_config_from_params;
use skipper_actionlib::ros1::ActionServerBinding;
use skipper_actionlib::{ActionServer, SystemClock};
use skipper_ros1_wire::msg::test_actions::Test;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::xmlrpc::Value;
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::Arc;
use std::time::Duration;

fn node(m: &FakeMaster, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = m.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

/// A server bound on a node of `m`, with its settings read from `m`'s parameters.
fn bind(m: &FakeMaster) -> (Node, ActionServer<Test>, ActionServerBinding) {
    let node = node(m, "/srv");
    let a = ActionServer::<Test>::new(
        server_config_from_params(&node, "/act"),
        Arc::new(SystemClock),
    );
    let b = ActionServerBinding::new(&node, "/act", &a).unwrap();
    (node, a, b)
}

#[test]
fn a_status_frequency_of_1e_minus_300_hz_is_clamped() {
    let m = FakeMaster::start().unwrap();
    m.set_param("/actionlib_status_frequency", Value::Double(1e-300));
    let (_node, a, binding) = bind(&m);
    assert_eq!(a.config().status_frequency, 1e-300);
    // the status timer sleeps for the clamped period and wakes when the binding drops
    drop(binding);
}

#[test]
fn a_status_list_timeout_of_1e300_s_is_clamped() {
    // the longest a peer's seconds are taken as: skipper_ros1_wire::time::MAX_PEER_SECS
    let longest = Duration::from_secs(10_000_000);
    for (t, expected) in [
        (1e300, longest),
        (f64::INFINITY, longest),
        (-5.0, Duration::ZERO),
        (2.5, Duration::from_millis(2500)),
    ] {
        let m = FakeMaster::start().unwrap();
        m.set_param("/act/status_list_timeout", Value::Double(t));
        let (_node, a, _binding) = bind(&m);
        assert_eq!(a.config().status_list_timeout, expected, "{t}");
    }
}
