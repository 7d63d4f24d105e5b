//! The parameters an action's ROS 1 binding reads, as ros/actionlib reads them: the
//! publisher and subscriber queue sizes (`actionlib_{server,client}_{pub,sub}_queue_size`
//! in the node's namespace; a negative value is the default) and the server's reply
//! pacing (private `<ns>/goal_reply_delay` and `<ns>/feedback_result_gap`, seconds,
//! clamped to `ReplyPacing::MAX`).

use skipper_actionlib::ros1::action::{ActionQueues, ReplyPacing};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::xmlrpc::Value;
use skipper_ros1_wire::{Node, NodeConfig};
use std::time::Duration;

fn node(m: &FakeMaster, name: &str, ns: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = m.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    c.namespace = ns.into();
    Node::new(c).unwrap()
}

#[test]
fn queue_sizes_default_as_rospys() {
    let m = FakeMaster::start().unwrap();
    let n = node(&m, "/srv", "");
    let server = ActionQueues::server(&n);
    let client = ActionQueues::client(&n);
    assert_eq!((server.publish, server.subscribe), (50, None));
    assert_eq!((client.publish, client.subscribe), (10, None));
}

#[test]
fn queue_sizes_are_read_in_the_nodes_namespace() {
    let m = FakeMaster::start().unwrap();
    m.set_param("/fleet/actionlib_server_pub_queue_size", Value::Int(3));
    m.set_param("/fleet/actionlib_server_sub_queue_size", Value::Int(2));
    m.set_param("/fleet/actionlib_client_pub_queue_size", Value::Int(-1));
    m.set_param("/fleet/actionlib_client_sub_queue_size", Value::Int(7));
    // outside the namespace: not read
    m.set_param("/actionlib_server_pub_queue_size", Value::Int(99));
    let n = node(&m, "srv", "/fleet");
    let server = ActionQueues::server(&n);
    let client = ActionQueues::client(&n);
    assert_eq!((server.publish, server.subscribe), (3, Some(2)));
    assert_eq!(
        (client.publish, client.subscribe),
        (10, Some(7)),
        "negative: default"
    );
}

#[test]
fn reply_pacing_defaults_to_200_and_100_microseconds() {
    let m = FakeMaster::start().unwrap();
    let n = node(&m, "/srv", "");
    let p = ReplyPacing::from_params(&n, "/act");
    assert_eq!(p, ReplyPacing::default());
    assert_eq!(p.goal_reply_delay, Duration::from_micros(200));
    assert_eq!(p.feedback_result_gap, Duration::from_micros(100));
}

#[test]
fn reply_pacing_is_read_from_private_parameters_and_clamped() {
    let m = FakeMaster::start().unwrap();
    m.set_param("/act/goal_reply_delay", Value::Double(0.0005));
    m.set_param("/act/feedback_result_gap", Value::Double(0.0));
    let n = node(&m, "/srv", "");
    let p = ReplyPacing::from_params(&n, "/act");
    assert_eq!(p.goal_reply_delay, Duration::from_micros(500));
    assert_eq!(p.feedback_result_gap, Duration::ZERO);
    m.set_param("/act/goal_reply_delay", Value::Double(1e300));
    m.set_param("/act/feedback_result_gap", Value::Double(-1.0));
    let p = ReplyPacing::from_params(&n, "/act");
    assert_eq!(p.goal_reply_delay, ReplyPacing::MAX);
    assert_eq!(p.feedback_result_gap, Duration::ZERO);
}
