//! The numbered tutorials of examples/lua run as they are: 1 (messages, no master), 2
//! (talker and listener in one node) and 3 (a SimpleActionServer and a
//! SimpleActionClient in one script) against the fake master; each ends with status 0
//! only when it did what it says. Tutorial 4 (a robot behavior) runs against
//! `skipper run --ros` in scripts/ros.

mod common;
use common::*;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_torch_ros::Outcome;
use std::path::Path;

fn tutorial(master: &str, name: &str, args: &[&str]) -> Script {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/lua")
        .join(name);
    let src = std::fs::read(&path).unwrap();
    Script::source(master, &path.display().to_string(), src, args)
}

#[test]
fn tutorial_1_messages() {
    let t = tutorial("http://127.0.0.1:9/", "01_messages.lua", &[]);
    assert_eq!(t.join(), Ok(Outcome::Finished(0)));
}

#[test]
fn tutorial_2_talker_listener() {
    let m = FakeMaster::start().unwrap();
    let t = tutorial(&m.uri, "02_talker_listener.lua", &["3"]);
    assert_eq!(t.join(), Ok(Outcome::Finished(0)));
}

#[test]
fn tutorial_3_action_server_and_client() {
    let m = FakeMaster::start().unwrap();
    let t = tutorial(&m.uri, "03_action_server_client.lua", &["4"]);
    assert_eq!(t.join(), Ok(Outcome::Finished(0)));
}
