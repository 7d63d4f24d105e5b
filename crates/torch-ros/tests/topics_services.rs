//! Talker/listener and services both ways between a Lua script (tests/scripts/chat.lua)
//! and a Rust node over ROS 1 and the fake master: messages each way with the
//! publisher's name in the header, publisher/subscriber counts, a Lua service called by
//! Rust (an answer, a handler returning false, a Lua error in the handler reaching the
//! caller with file:line) and a Rust service called from Lua (an answer, a failure).

mod common;
use common::*;
use skipper_actionlib::DynMessage;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::service::{advertise_dyn, DynServiceClient, ServiceError};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::topics::subscribe_dyn;
use skipper_ros1_wire::DynPublisher;
use skipper_torch_ros::Outcome;
use std::sync::{Arc, Mutex};

#[test]
fn talker_listener_and_services_both_ways() {
    let m = FakeMaster::start().unwrap();
    let n = node(&m, "/rust_chat");
    let add = TypeLoader::global()
        .add_srv("test_lua/AddTwoInts", "int64 a\nint64 b\n---\nint64 sum")
        .unwrap();
    let a2 = add.clone();
    let _mul = advertise_dyn(&n, "/rust_mul", &add, move |req, _| {
        let a = req.get("a").and_then(Value::as_int).unwrap_or(0) as i64;
        let b = req.get("b").and_then(Value::as_int).unwrap_or(0) as i64;
        if a < 0 {
            return Err("negative factors are refused".into());
        }
        let mut r = DynMessage::new(a2.response().clone());
        r.set("sum", Value::I64(a * b)).map_err(|e| e.to_string())?;
        Ok(r)
    })
    .unwrap();
    let string = TypeLoader::global().message("std_msgs/String").unwrap();
    let heard: Arc<Mutex<Vec<String>>> = Arc::default();
    let h2 = heard.clone();
    let _sub = subscribe_dyn(&n, "/from_lua", &string, move |m, from| {
        assert_eq!(from, "/lua_chat");
        h2.lock()
            .unwrap()
            .push(m.get("data").and_then(Value::as_str).unwrap_or("").into());
    })
    .unwrap();
    let pubr = DynPublisher::advertise(&n, "/from_rust", &string, false).unwrap();
    let say = |s: &str| {
        let mut msg = DynMessage::new(string.clone());
        msg.set("data", Value::String(s.into())).unwrap();
        pubr.publish(&msg).unwrap();
    };

    let script = Script::start(&m.uri, "chat.lua", &[]);
    wait_until("the Lua listener", || {
        pubr.raw().subscribers() == ["/lua_chat"]
    });
    say("ping");
    let lua_add = DynServiceClient::new(&n, "/lua_add", &add, false).unwrap();
    wait_until("/lua_add", || lua_add.raw().exists());
    let call = |a: i64, b: i64| {
        let mut q = DynMessage::new(add.request().clone());
        q.set("a", Value::I64(a)).unwrap();
        q.set("b", Value::I64(b)).unwrap();
        lua_add.call(&q)
    };
    assert_eq!(call(2, 3).unwrap().get("sum"), Some(&Value::I64(5)));
    assert_eq!(
        call(-1, 3),
        Err(ServiceError::Failed(
            "/lua_add".into(),
            "the handler of /lua_add returned false".into()
        ))
    );
    match call(99, 1) {
        Err(ServiceError::Failed(_, why)) => {
            assert!(why.contains("chat.lua:20: 99 is not added"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    wait_until("three Lua messages", || heard.lock().unwrap().len() >= 3);
    assert_eq!(
        heard.lock().unwrap()[..3],
        ["hello 1", "hello 2", "hello 3"]
    );
    say("stop");
    assert_eq!(script.join(), Ok(Outcome::Finished(0)));
}
