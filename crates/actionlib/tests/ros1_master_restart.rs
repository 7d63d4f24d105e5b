//! A master that is killed and started again on the same port (the fake master, which
//! like a real one knows nothing of what the one before knew): a node registers its
//! publications, subscriptions and services with the new one, so a node that starts
//! after the restart finds them: it receives what the first publishes, is received by
//! its subscription, and calls its service.

use skipper_actionlib::DynMessage;
use skipper_ros1_wire::msg::actionlib_msgs::GoalId;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::service::{advertise_dyn, DynServiceClient};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::topics::subscribe;
use skipper_ros1_wire::{Node, NodeConfig, TypedPublisher};
use std::sync::atomic::Ordering;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

fn node(uri: &str, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = uri.to_string();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

fn wait_for(what: &str, cond: impl Fn() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn id(s: &str) -> GoalId {
    GoalId {
        id: s.into(),
        ..GoalId::default()
    }
}

#[test]
fn after_a_master_restart_the_node_registers_everything_again() {
    let first = FakeMaster::start().unwrap();
    let uri = first.uri.clone();
    let a = node(&uri, "/survivor");
    let out = TypedPublisher::<GoalId>::advertise(&a, "/out", false).unwrap();
    let (tx, heard) = channel();
    let _sub = subscribe::<GoalId>(&a, "/in", move |m, _| {
        let _ = tx.send(m.id);
    })
    .unwrap();
    let srv = TypeLoader::builtin_only()
        .add_srv("test_srvs/Echo", "string text\n---\nstring text\n")
        .unwrap();
    let s2 = srv.clone();
    let _service = advertise_dyn(&a, "/echo", &srv, move |q, _| {
        let mut r = DynMessage::new(s2.response().clone());
        r.set(
            "text",
            q.get("text").cloned().unwrap_or(Value::String("".into())),
        )
        .map_err(|e| e.to_string())?;
        Ok(r)
    })
    .unwrap();
    assert_eq!(first.publishers("/out"), [a.uri().to_string()]);

    // the master goes away and a new one comes up where it was
    let port = first.stop();
    let second = FakeMaster::start_on(port).unwrap();
    assert!(second.publishers("/out").is_empty() && second.service("/echo").is_none());
    // the count goes up once the node has registered everything (after the master saw it)
    wait_for(
        "the node registered /out, /in and /echo again, and counted it",
        || {
            second.publishers("/out") == [a.uri().to_string()]
                && second.service("/echo").is_some()
                && a.stats().reregistrations.load(Ordering::Relaxed) >= 1
        },
    );

    // a node that knows only the new master finds all three
    let b = node(&uri, "/newcomer");
    let (tx2, got) = channel();
    let _sub_b = subscribe::<GoalId>(&b, "/out", move |m, _| {
        let _ = tx2.send(m.id);
    })
    .unwrap();
    wait_for("the newcomer's subscription is connected", || {
        !out.raw().subscribers().is_empty()
    });
    out.publish(&id("to the newcomer"));
    assert_eq!(
        got.recv_timeout(Duration::from_secs(20)).unwrap(),
        "to the newcomer"
    );

    let back = TypedPublisher::<GoalId>::advertise(&b, "/in", false).unwrap();
    wait_for(
        "the survivor's subscription connected to the newcomer",
        || !back.raw().subscribers().is_empty(),
    );
    back.publish(&id("to the survivor"));
    assert_eq!(
        heard.recv_timeout(Duration::from_secs(20)).unwrap(),
        "to the survivor"
    );

    let client = DynServiceClient::new(&b, "/echo", &srv, false).unwrap();
    let mut q = DynMessage::new(srv.request().clone());
    q.set("text", Value::String("still here".into())).unwrap();
    let r = client.call(&q).unwrap();
    assert_eq!(r.get("text"), Some(&Value::String("still here".into())));
}
