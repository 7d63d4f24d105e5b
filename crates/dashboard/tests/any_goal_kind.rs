//! A goal kind added to a controller reaches it through the live dashboard with no change
//! to the dashboard: the test takes `skipper_goals::probe`'s kind (`probe`, one field of
//! each type) and its controller, and attaches [`LiveTransport`] to the run through
//! the transport seam, as `skipper run --serve` does. Over plain HTTP, as a browser or a
//! script would: `/api/info` lists the kind, a `goal` command sends one, `goal_state`
//! follows it (feedback, then the result field by field), a goal with a field of the
//! wrong type or of a kind the robot does not take gets 400 and a message, and a
//! `cancel` of the kind stops a goal.

use serde_json::{json, Value};
use skipper_dashboard::{LiveTransport, ServeOptions};
use skipper_goals::{probe, Transport};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

fn world() -> skipper_sim::GroundWorld {
    let spec = skipper_sim::parse_world("box 0 0 20 20\nrobot probe1 0 0 0\n", "probe.world", None)
        .expect("the world");
    skipper_sim::GroundWorld::new(&spec, 0).expect("the robot fits")
}

/// One HTTP/1.1 request (`Connection: close`); the status code and the body as JSON.
fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut s = TcpStream::connect(addr).expect("the dashboard answers");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("the request is sent");
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("a reply");
    let (head, body) = reply.split_once("\r\n\r\n").expect("a head and a body");
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status code");
    let body = serde_json::from_str(body).unwrap_or(Value::String(body.to_string()));
    (code, body)
}

fn control(addr: SocketAddr, cmd: Value) -> (u16, Value) {
    http(addr, "POST", "/api/control", Some(&cmd))
}

/// Follow goal `id` until it is over: its last state and the feedback counts seen.
fn follow(addr: SocketAddr, id: u64) -> (Value, Vec<i64>) {
    let mut counts = Vec::new();
    let give_up = Instant::now() + Duration::from_secs(60);
    loop {
        let (code, u) = control(addr, json!({"cmd": "goal_state", "robot": 0, "goal": id}));
        assert_eq!(code, 200, "{u}");
        if let Some(c) = u["feedback"]["count"].as_i64() {
            if counts.last() != Some(&c) {
                counts.push(c);
            }
        }
        if !matches!(u["status"].as_str(), Some("pending" | "active")) {
            return (u, counts);
        }
        assert!(Instant::now() < give_up, "goal {id} never ended: {u}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Send a probe goal with `fields`; its id.
fn send(addr: SocketAddr, fields: Value) -> u64 {
    let (code, r) = control(
        addr,
        json!({"cmd": "goal", "robot": 0, "kind": "probe", "goal": fields}),
    );
    assert_eq!(code, 200, "{r}");
    r["goal"].as_u64().expect("the goal's id")
}

#[test]
fn a_kind_added_to_a_controller_is_served_by_the_dashboard() {
    let (mut runner, endpoint) = probe::served(world());
    let options = ServeOptions::new("127.0.0.1:0".parse().unwrap(), false).unwrap();
    let mut live = LiveTransport::new(options);
    live.attach(&mut runner, &[endpoint])
        .expect("the dashboard attaches");
    let addr = live.addr().expect("the dashboard listens");

    let control_run = runner.control();
    let client = std::thread::spawn(move || {
        let (_, info) = http(addr, "GET", "/api/info", None);
        let goal = json!({"steps": 3, "label": "hello", "loud": true, "scale": 0.5});
        let done = send(addr, goal);
        let done = follow(addr, done);
        let wrong_type = control(
            addr,
            json!({"cmd": "goal", "robot": 0, "kind": "probe", "goal": {"steps": "three"}}),
        );
        let wrong_kind = control(
            addr,
            json!({"cmd": "goal", "robot": 0, "kind": "juggle", "goal": {}}),
        );
        let forever = send(addr, json!({"steps": -1, "label": "on"}));
        std::thread::sleep(Duration::from_millis(300));
        let cancel = control(addr, json!({"cmd": "cancel", "robot": 0, "kind": "probe"}));
        let forever = follow(addr, forever);
        control_run.request_stop();
        (info, done, wrong_type, wrong_kind, cancel, forever)
    });
    let mut report = runner.run();
    let (info, (done, counts), wrong_type, wrong_kind, cancel, (forever, _)) =
        client.join().expect("the client");
    Box::new(live).finish(&mut report);

    assert_eq!(info["kinds"], json!([["probe"]]), "{info}");
    assert_eq!(info["goto"], json!([false]), "{info}");
    assert_eq!(done["kind"], "probe", "{done}");
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["result"]["answer"], "HELLO", "{done}");
    assert!(
        done["result"]["counted"].as_i64().unwrap_or(0) >= 3,
        "{done}"
    );
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
    assert_eq!(wrong_type.0, 400, "{}", wrong_type.1);
    assert!(
        wrong_type.1.to_string().contains("steps"),
        "{}",
        wrong_type.1
    );
    assert_eq!(wrong_kind.0, 400, "{}", wrong_kind.1);
    assert!(
        wrong_kind.1.to_string().contains("juggle") && wrong_kind.1.to_string().contains("probe"),
        "{}",
        wrong_kind.1
    );
    assert_eq!(cancel.0, 200, "{}", cancel.1);
    assert_eq!(forever["status"], "canceled", "{forever}");
}
