//! `/rosout` over the fake master: with the tracing layer installed and a node attached,
//! a log line arrives at a subscriber of `/rosout` as `rosgraph_msgs/Log` with the node's
//! name, the level, the text and fields, the file and line; nothing is sent once the
//! guard is dropped.

use skipper_ros1_wire::msg::sensor::Log;
use skipper_ros1_wire::rosout;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::topics::subscribe;
use skipper_ros1_wire::{Node, NodeConfig};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};
use tracing_subscriber::prelude::*;

fn node(m: &FakeMaster, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = m.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

#[test]
fn log_lines_reach_rosout_with_level_name_text_and_place() {
    tracing_subscriber::registry()
        .with(rosout::layer())
        .with(tracing_subscriber::filter::LevelFilter::INFO)
        .init();
    let m = FakeMaster::start().unwrap();
    let skipper = node(&m, "/skipper");
    let listener = node(&m, "/listener");
    // before a node is attached, nothing is queued
    tracing::warn!("lost");
    let guard = rosout::attach(&skipper).unwrap();
    let (tx, rx) = channel();
    let _sub = subscribe::<Log>(&listener, "/rosout", move |m, _| {
        let _ = tx.send(m);
    })
    .unwrap();
    let end = Instant::now() + Duration::from_secs(20);
    while guard.subscribers().is_empty() {
        assert!(Instant::now() < end, "the listener never connected");
        std::thread::sleep(Duration::from_millis(5));
    }
    let line = line!() + 1;
    tracing::warn!(robot = "robot1", "estop pressed on {}", "robot1");
    tracing::debug!("below the filter");
    tracing::error!("second");
    let first = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(first.level, rosout::WARN);
    assert_eq!(first.name, "/skipper");
    assert_eq!(first.msg, "estop pressed on robot1 robot=robot1");
    assert!(first.file.ends_with("ros1_rosout.rs"), "{}", first.file);
    assert_eq!(first.line, line);
    assert_eq!(first.function, "ros1_rosout");
    assert_eq!(first.header.seq, 1);
    assert!(first.header.stamp.secs > 0);
    let second = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(
        (second.level, second.msg.as_str()),
        (rosout::ERROR, "second")
    );
    assert_eq!(second.header.seq, 2);
    drop(guard);
    tracing::error!("after the guard");
    assert_eq!(
        rx.recv_timeout(Duration::from_millis(300)).err(),
        Some(RecvTimeoutError::Timeout),
        "a line after the guard was dropped was published"
    );
    assert_eq!(rosout::dropped(), 0);
}
