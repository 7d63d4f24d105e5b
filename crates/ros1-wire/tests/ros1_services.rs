//! ROS 1 services end to end on loopback against the fake master: a service of a type
//! known at run time offered by one node and called by another (fresh and persistent
//! connections), a handler's error reaching the caller, a wrong md5sum and an unknown
//! service refused, the wire form of an answer (ok byte, length, body) and a probe.

use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::msg::loader::TypeLoader;
use skipper_ros1_wire::msg::schema::SrvSchema;
use skipper_ros1_wire::service::{advertise_dyn, DynServiceClient, ServiceClient, ServiceError};
use skipper_ros1_wire::tcpros::{self, Header};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::DynMessage;
use skipper_ros1_wire::{Node, NodeConfig};
use std::io::Read;
use std::net::TcpStream;
use std::sync::Arc;

fn node(m: &FakeMaster, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = m.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

fn add_two_ints() -> Arc<SrvSchema> {
    TypeLoader::builtin_only()
        .add_srv("test_srvs/AddTwoInts", "int64 a\nint64 b\n---\nint64 sum\n")
        .unwrap()
}

/// A server whose handler adds, and fails on a negative `a` with a text.
fn serve(n: &Node, srv: &Arc<SrvSchema>) -> skipper_ros1_wire::service::ServiceServer {
    let s = srv.clone();
    advertise_dyn(n, "/add", srv, move |req, h| {
        let a = req.get("a").and_then(Value::as_int).unwrap_or(0) as i64;
        let b = req.get("b").and_then(Value::as_int).unwrap_or(0) as i64;
        if a < 0 {
            return Err(format!(
                "{} sent a negative a",
                h.get("callerid").unwrap_or("?")
            ));
        }
        let mut r = DynMessage::new(s.response().clone());
        r.set("sum", Value::I64(a + b)).map_err(|e| e.to_string())?;
        Ok(r)
    })
    .unwrap()
}

fn request(srv: &Arc<SrvSchema>, a: i64, b: i64) -> DynMessage {
    let mut q = DynMessage::new(srv.request().clone());
    q.set("a", Value::I64(a)).unwrap();
    q.set("b", Value::I64(b)).unwrap();
    q
}

#[test]
fn calls_fresh_and_persistent_and_errors_reach_the_caller() {
    let m = FakeMaster::start().unwrap();
    let srv = add_two_ints();
    let server_node = node(&m, "/adder");
    let _server = serve(&server_node, &srv);
    let caller = node(&m, "/caller");
    for persistent in [false, true] {
        let c = DynServiceClient::new(&caller, "/add", &srv, persistent).unwrap();
        assert!(c.raw().exists());
        for (a, b) in [(2, 3), (40, 2)] {
            let r = c.call(&request(&srv, a, b)).unwrap();
            assert_eq!(
                r.get("sum"),
                Some(&Value::I64(a + b)),
                "persistent {persistent}"
            );
        }
        let e = c.call(&request(&srv, -1, 0)).unwrap_err();
        assert_eq!(
            e,
            ServiceError::Failed("/add".into(), "/caller sent a negative a".into())
        );
        // the connection is still good for the next call
        let r = c.call(&request(&srv, 1, 1)).unwrap();
        assert_eq!(r.get("sum"), Some(&Value::I64(2)));
    }
}

#[test]
fn wrong_md5sum_unknown_service_and_dropped_server_are_refused() {
    let m = FakeMaster::start().unwrap();
    let srv = add_two_ints();
    let server_node = node(&m, "/adder");
    let server = serve(&server_node, &srv);
    let caller = node(&m, "/caller");
    let wrong =
        ServiceClient::new(&caller, "/add", "0123456789abcdef0123456789abcdef", false).unwrap();
    match wrong.call(&request(&srv, 1, 2).to_bytes()) {
        Err(ServiceError::Connection(name, why)) => {
            assert_eq!(name, "/add");
            assert!(why.contains("md5sum mismatch"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    let missing = DynServiceClient::new(&caller, "/nothing", &srv, false).unwrap();
    assert!(!missing.raw().exists());
    assert!(matches!(
        missing.call(&request(&srv, 1, 2)),
        Err(ServiceError::NotFound(..))
    ));
    // a request of another type is refused before anything is sent
    let other = DynMessage::new(srv.response().clone());
    let c = DynServiceClient::new(&caller, "/add", &srv, false).unwrap();
    assert!(matches!(c.call(&other), Err(ServiceError::BadMessage(..))));
    drop(server);
    assert!(!c.raw().exists(), "dropping the server unregisters it");
}

#[test]
fn the_wire_form_of_an_answer_and_a_probe() {
    let m = FakeMaster::start().unwrap();
    let srv = add_two_ints();
    let server_node = node(&m, "/adder");
    let _server = serve(&server_node, &srv);
    let uri = server_node.lookup_service("/add").unwrap();
    let addr = uri.strip_prefix("rosrpc://").unwrap().to_string();
    let hello = |probe: bool| {
        let mut s = TcpStream::connect(&addr).unwrap();
        let mut h = Header::default()
            .with("callerid", "/raw")
            .with("service", "/add")
            .with("md5sum", srv.md5sum());
        if probe {
            h = h.with("probe", "1");
        }
        h.write(&mut s).unwrap();
        let back = Header::read(&mut s).unwrap();
        assert_eq!(back.get("md5sum"), Some(srv.md5sum()));
        assert_eq!(back.get("type"), Some("test_srvs/AddTwoInts"));
        assert_eq!(
            back.get("request_type"),
            Some("test_srvs/AddTwoIntsRequest")
        );
        assert_eq!(
            back.get("response_type"),
            Some("test_srvs/AddTwoIntsResponse")
        );
        s
    };
    let mut probe = hello(true);
    let mut rest = Vec::new();
    assert_eq!(
        probe.read_to_end(&mut rest).unwrap(),
        0,
        "a probe is closed after the header"
    );
    let mut s = hello(false);
    std::io::Write::write_all(&mut s, &tcpros::frame(&request(&srv, 20, 22).to_bytes())).unwrap();
    let mut ok = [0u8; 1];
    s.read_exact(&mut ok).unwrap();
    let mut body = Vec::new();
    tcpros::read_frame(&mut s, &mut body).unwrap();
    assert_eq!(ok[0], 1);
    assert_eq!(body, 42i64.to_le_bytes());
}
