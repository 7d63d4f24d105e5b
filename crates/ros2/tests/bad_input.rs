//! Bad input over DDS is counted and dropped: a sample on `cmd_vel` that does not decode
//! as a Twist, and a TwistStamped whose frame is longer than the limit, never reach the
//! robot; a good Twist does. Runs in a network namespace of its own.

mod common;

use serde::Serialize;
use skipper_ros2::args::RosArgs;
use skipper_ros2::cdr::{Dropped, MAX_TEXT};
use skipper_ros2::io::{Inbox, IoLoop};
use skipper_ros2::msg::geometry::{Twist, TwistStamped, Vector3};
use skipper_ros2::msg::std::Header;
use skipper_ros2::msg::RosType;
use skipper_ros2::node::{Discovery, NodeConfig, Ros2Node};
use skipper_ros2::qos;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Two bytes that claim to be a geometry_msgs/Twist (48 bytes on the wire).
#[derive(Serialize, serde::Deserialize)]
struct Short(u16);
impl RosType for Short {
    const PACKAGE: &'static str = "geometry_msgs";
    const NAME: &'static str = "Twist";
}
impl ros2_client::Message for Short {}

fn node(name: &str) -> Ros2Node {
    Ros2Node::start(NodeConfig {
        name: name.into(),
        namespace: "/".into(),
        args: RosArgs::parse::<&str>(&[], None).unwrap(),
        discovery: Discovery::Localhost,
        parameters: Vec::new(),
        on_set: None,
    })
    .unwrap()
}

#[test]
fn malformed_and_oversized_messages_are_counted_and_dropped() {
    if !common::in_netns("malformed_and_oversized_messages_are_counted_and_dropped") {
        return;
    }
    let mut robot = node("robot");
    let dropped = Arc::new(Dropped::default());
    let (tx, rx) = mpsc::channel();
    let tx2 = tx.clone();
    let twist = robot
        .subscription::<Twist>("/robot1/cmd_vel", qos::default())
        .unwrap();
    let stamped = robot
        .subscription::<TwistStamped>("/robot1/cmd_vel_stamped", qos::default())
        .unwrap();
    let io = IoLoop::start(vec![
        Box::new(Inbox::new(
            "/robot1/cmd_vel",
            twist,
            dropped.clone(),
            None,
            move |t: Twist| {
                let _ = tx.send(t.linear.x);
            },
        )),
        Box::new(Inbox::new(
            "/robot1/cmd_vel_stamped",
            stamped,
            dropped.clone(),
            None,
            move |t: TwistStamped| {
                let _ = tx2.send(t.twist.linear.x);
            },
        )),
    ])
    .unwrap();

    let mut peer = node("peer");
    let bad = peer
        .publisher::<Short>("/robot1/cmd_vel", qos::default())
        .unwrap();
    let good = peer
        .publisher::<Twist>("/robot1/cmd_vel", qos::default())
        .unwrap();
    let long = peer
        .publisher::<TwistStamped>("/robot1/cmd_vel_stamped", qos::default())
        .unwrap();
    let oversized = TwistStamped {
        header: Header {
            frame_id: "x".repeat(MAX_TEXT + 1).into(),
            ..Header::default()
        },
        twist: Twist::default(),
    };
    let ok = Twist {
        linear: Vector3 {
            x: 0.25,
            y: 0.0,
            z: 0.0,
        },
        ..Twist::default()
    };
    // publish until discovery has matched and each kind has been seen once
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut received = Vec::new();
    loop {
        let (malformed, bounds) = dropped.counts();
        if malformed > 0 && bounds > 0 && !received.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not all samples arrived: {:?}",
            dropped.counts()
        );
        let _ = bad.publish(Short(7));
        let _ = good.publish(ok);
        let _ = long.publish(oversized.clone());
        while let Ok(x) = rx.recv_timeout(Duration::from_millis(100)) {
            received.push(x);
        }
    }
    io.stop();
    assert!(
        received.iter().all(|&x| x == 0.25),
        "only the good twist arrives: {received:?}"
    );
}

/// Names ros2-client does not take (it panicked building the parameter services' names
/// of a node in `/9bad` or `/a__b`) are configuration errors, before any DDS starts.
#[test]
fn names_ros2_client_would_panic_on_are_configuration_errors() {
    if !common::in_netns("names_ros2_client_would_panic_on_are_configuration_errors") {
        return;
    }
    for (name, namespace) in [
        ("skipper", "/9bad"),
        ("skipper", "/a__b"),
        ("a__b", "/"),
        ("bad-name", "/"),
        ("skipper", "/site/"),
    ] {
        let started = Ros2Node::start(NodeConfig {
            name: name.into(),
            namespace: namespace.into(),
            args: RosArgs::parse::<&str>(&[], None).unwrap(),
            discovery: Discovery::Localhost,
            parameters: Vec::new(),
            on_set: None,
        });
        match started {
            Err(skipper_ros2::Ros2Error::Config(why)) => {
                assert!(
                    why.contains(namespace.trim_end_matches('/')) || why.contains(name),
                    "{why}"
                )
            }
            Err(e) => panic!("{name} in {namespace}: {e}"),
            Ok(_) => panic!("{name} in {namespace} started a node"),
        }
    }
}

/// `--ros2-host` must name an address of this machine: DDS matched no interface for
/// another and stayed on loopback while Skipper warned that it was on the network.
#[test]
fn a_host_address_not_on_this_machine_is_a_configuration_error() {
    if !common::in_netns("a_host_address_not_on_this_machine_is_a_configuration_error") {
        return;
    }
    let added = std::process::Command::new("ip")
        .args(["addr", "add", "192.0.2.9/32", "dev", "lo"])
        .status()
        .expect("ip runs");
    assert!(added.success(), "ip addr add in the test's namespace");
    let ip = |s: &str| Some(s.parse::<std::net::IpAddr>().unwrap());
    match Discovery::from_host(ip("192.0.2.7")) {
        Err(skipper_ros2::Ros2Error::Config(why)) => {
            assert!(
                why.contains("192.0.2.7: not an address of this machine"),
                "{why}"
            )
        }
        other => panic!("192.0.2.7 gave {other:?}"),
    }
    assert!(matches!(
        Discovery::from_host(ip("192.0.2.9")),
        Ok(Discovery::Networks(a)) if a == [ip("192.0.2.9").unwrap()]
    ));
    assert!(matches!(
        Discovery::from_host(ip("127.0.0.1")),
        Ok(Discovery::Localhost)
    ));
    assert!(matches!(
        Discovery::from_host(ip("0.0.0.0")),
        Ok(Discovery::All)
    ));
    assert!(matches!(
        Discovery::from_host(None),
        Ok(Discovery::Localhost)
    ));
}
