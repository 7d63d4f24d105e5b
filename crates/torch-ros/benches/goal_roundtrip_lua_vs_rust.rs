//! The goal round trip over ROS 1 on loopback (send, accept, one feedback, succeed,
//! result), side by side in one run: the same Rust SimpleActionClient against a
//! SimpleActionServer written in Lua (torch-ros's API, on skipper-torch-ros) and against the
//! same server written in Rust (skipper-actionlib). Both servers run in this process on
//! one fake master; what differs is the Lua layer (callback queue, spinning, message
//! conversion). Compared with: Skipper's Rust server (here) and rospy's (scripts/ros/
//! bench.sh, which runs the Lua server under the Python client too).

use criterion::{criterion_group, criterion_main, Criterion};
use skipper_actionlib::ros1::action::server_config_from_params;
use skipper_actionlib::ros1::{ActionClientBinding, ActionServerBinding};
use skipper_actionlib::*;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::{Node, NodeConfig};
use skipper_torch_ros::{run_source, Options, Stop};
use std::sync::Arc;
use std::time::Duration;

/// The Lua server: scripts/ros/lua_bench_server.lua, which bench.sh runs under rospy's client.
const LUA_SERVER: &str = include_str!("../../../scripts/ros/lua_bench_server.lua");

fn node(m: &FakeMaster, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = m.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

/// A client of `ns` on `n`, connected.
fn client(n: &Node, ns: &str) -> (SimpleActionClient<DynAction>, ActionClientBinding) {
    let a = DynAction::load("actionlib/Test").unwrap();
    let ac = ActionClient::with_type(a, n.name(), Arc::new(SystemClock));
    let b = ActionClientBinding::new(n, ns, &ac).unwrap();
    let c = SimpleActionClient::new(ac);
    assert!(
        c.wait_for_server(Some(Duration::from_secs(30))),
        "{ns} is not up"
    );
    (c, b)
}

/// The Rust server: the same goal callback as the Lua one.
fn rust_server(n: &Node) -> (SimpleActionServer<DynAction>, ActionServerBinding) {
    let a = DynAction::load("actionlib/Test").unwrap();
    let ns = "/rust_server";
    let server = ActionServer::with_type(
        a.clone(),
        server_config_from_params(n, ns),
        Arc::new(SystemClock),
    );
    let b = ActionServerBinding::new(n, ns, &server).unwrap();
    let simple = SimpleActionServer::new(server);
    let s2 = simple.clone();
    simple.register_goal_callback(move || {
        if let Ok(g) = s2.accept_new_goal() {
            let v = g.get("goal").cloned().unwrap_or(Value::I32(0));
            let mut f = a.new_feedback();
            let _ = f.set("feedback", v.clone());
            let _ = s2.publish_feedback(f);
            let mut r = a.new_result();
            let _ = r.set("result", v);
            let _ = s2.set_succeeded(Some(r), "");
        }
    });
    simple.start();
    (simple, b)
}

fn once(c: &SimpleActionClient<DynAction>, a: &DynAction) {
    let mut g = a.new_goal();
    g.set("goal", Value::I32(7)).unwrap();
    c.send_goal(g, None, None, None);
    assert!(c.wait_for_result(Some(Duration::from_secs(30))));
}

fn roundtrip(c: &mut Criterion) {
    let m = FakeMaster::start().unwrap();
    let stop = Stop::new();
    let (s2, uri) = (stop.clone(), m.uri.clone());
    let lua = std::thread::spawn(move || {
        let o = Options {
            master_uri: Some(uri),
            ..Options::default()
        };
        run_source(
            "lua_bench_server.lua",
            LUA_SERVER.as_bytes(),
            &["/lua_server".to_string()],
            &o,
            &s2,
        )
    });
    let n = node(&m, "/bench_client");
    let _rust = rust_server(&n);
    let a = DynAction::load("actionlib/Test").unwrap();
    let (lua_client, _b1) = client(&n, "/lua_server");
    let (rust_client, _b2) = client(&n, "/rust_server");
    let mut g = c.benchmark_group("goal round trip over ROS 1 loopback");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function("Lua SimpleActionServer (skipper-torch-ros)", |b| {
        b.iter(|| once(&lua_client, &a))
    });
    g.bench_function("Rust SimpleActionServer (skipper-actionlib)", |b| {
        b.iter(|| once(&rust_client, &a))
    });
    g.finish();
    stop.request();
    let _ = lua.join();
}

criterion_group!(benches, roundtrip);
criterion_main!(benches);
