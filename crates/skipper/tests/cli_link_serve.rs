//! `skipper link serve` end to end, with agents written here as TCP clients speaking the
//! JSON-lines protocol: several agents drive their own robots in one world, messages go
//! between them, garbage gets an error and a closed connection without disturbing the
//! others, a silent or disconnected agent's robot stops, a new agent can take a robot
//! over, `say` runs espeak-ng (a fake one on PATH), and the run ends when every agent
//! that came has halted.

mod cli;
use cli::{skipper, text};

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(60);

fn world(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/worlds")
        .join(name)
}

/// A running `skipper link serve` on a free port.
struct Server {
    child: Child,
    addr: String,
    dir: tempfile::TempDir,
}

impl Server {
    fn start(args: &[&str]) -> Self {
        Self::start_with_path(args, None)
    }

    fn start_with_path(args: &[&str], path_dir: Option<&Path>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skipper"));
        cmd.args(["link", "serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(p) = path_dir {
            let old = std::env::var_os("PATH").unwrap_or_default();
            let mut paths = vec![p.to_path_buf()];
            paths.extend(std::env::split_paths(&old));
            cmd.env("PATH", std::env::join_paths(paths).unwrap());
        }
        let mut child = cmd.spawn().expect("start skipper link serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        let addr = first
            .split("listening on ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        // keep reading stdout so the server never blocks on it
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = out.read_to_string(&mut rest);
        });
        Server { child, addr, dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Wait for the server to exit; returns its output (stderr) and status.
    fn wait(mut self) -> (Option<i32>, String, Self) {
        let start = std::time::Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                let mut err = String::new();
                if let Some(mut e) = self.child.stderr.take() {
                    let _ = e.read_to_string(&mut err);
                }
                return (st.code(), err, self);
            }
            if start.elapsed() > TIMEOUT {
                let _ = self.child.kill();
                panic!("the server did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn summary(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.path("s.json")).unwrap()).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An agent: a connection, and its mirror of the input-link.
struct Agent {
    r: BufReader<TcpStream>,
    w: TcpStream,
    wmes: BTreeMap<u64, (u64, String, Value)>,
    dc: u64,
    tt: i64,
}

impl Agent {
    fn open(addr: &str) -> Self {
        let s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        Agent {
            r: BufReader::new(s.try_clone().unwrap()),
            w: s,
            wmes: BTreeMap::new(),
            dc: 0,
            tt: 0,
        }
    }

    /// Say hello (asking for `robot`) and read the welcome.
    fn hello(addr: &str, robot: Option<&str>) -> (Self, Value) {
        let mut a = Self::open(addr);
        let mut h = json!({"type": "hello", "agent": "test"});
        if let Some(r) = robot {
            h["robot"] = json!(r);
        }
        a.send(&h);
        let w = a.read();
        assert_eq!(w["type"], "welcome", "{w}");
        (a, w)
    }

    fn send(&mut self, v: &Value) {
        self.send_raw(&format!("{v}\n"));
    }

    fn send_raw(&mut self, s: &str) {
        self.w.write_all(s.as_bytes()).unwrap();
    }

    fn read(&mut self) -> Value {
        let mut line = String::new();
        self.r.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }

    /// Read until an `error` line (skipping inputs).
    fn error(&mut self) -> Value {
        loop {
            let v = self.read();
            if v["type"] != "input" {
                assert_eq!(v["type"], "error", "{v}");
                return v;
            }
        }
    }

    /// The connection's end: nothing more to read.
    fn at_end(&mut self) -> bool {
        let mut line = String::new();
        matches!(self.r.read_line(&mut line), Ok(0))
    }

    /// Read an input message and apply it to the mirror.
    fn input(&mut self) -> Value {
        let v = self.read();
        assert_eq!(v["type"], "input", "{v}");
        for w in v["remove"].as_array().unwrap() {
            let mut gone = vec![w.as_u64().unwrap()];
            while let Some(k) = gone.pop() {
                self.wmes.remove(&k);
                let kids: Vec<u64> = self
                    .wmes
                    .iter()
                    .filter(|(_, (p, _, _))| *p == k)
                    .map(|(w, _)| *w)
                    .collect();
                gone.extend(kids);
            }
        }
        for a in v["add"].as_array().unwrap() {
            let w = a["w"].as_u64().unwrap();
            let val = if a["t"] == "id" {
                json!({"id": w})
            } else {
                a["v"].clone()
            };
            self.wmes.insert(
                w,
                (
                    a["p"].as_u64().unwrap(),
                    a["a"].as_str().unwrap().into(),
                    val,
                ),
            );
        }
        for u in v["update"].as_array().unwrap() {
            let w = u["w"].as_u64().unwrap();
            if let Some(e) = self.wmes.get_mut(&w) {
                e.2 = u["v"].clone();
            }
        }
        v
    }

    fn children(&self, parent: u64, attr: &str) -> Vec<u64> {
        self.wmes
            .iter()
            .filter(|(_, (p, a, _))| *p == parent && a == attr)
            .map(|(w, _)| *w)
            .collect()
    }

    fn find(&self, path: &[&str]) -> Option<u64> {
        path.iter()
            .try_fold(0u64, |at, a| self.children(at, a).first().copied())
    }

    fn value(&self, path: &[&str]) -> Value {
        self.find(path)
            .and_then(|w| self.wmes.get(&w))
            .map(|e| e.2.clone())
            .unwrap_or(Value::Null)
    }

    fn f(&self, path: &[&str]) -> f64 {
        self.value(path)
            .as_f64()
            .unwrap_or_else(|| panic!("{path:?} is not a number"))
    }

    /// One decision cycle with these commands (`[name, [[attr, value]...]]`); returns
    /// the input and the timetags given to the commands.
    fn step(&mut self, commands: &[(&str, Value)], ids: Value) -> (Value, Vec<i64>) {
        self.dc += 1;
        let mut cmds = vec![];
        let mut tts = vec![];
        for (name, attrs) in commands {
            self.tt += 1;
            tts.push(self.tt);
            cmds.push(json!({"tt": self.tt, "name": name, "attrs": attrs}));
        }
        let ids = if ids.is_null() { json!({}) } else { ids };
        self.send(&json!({"type": "step", "dc": self.dc, "commands": cmds, "ids": ids}));
        (self.input(), tts)
    }

    fn idle(&mut self) -> Value {
        self.step(&[], Value::Null).0
    }

    fn statuses(input: &Value, tt: i64) -> Vec<String> {
        input["statuses"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["tt"] == tt)
            .map(|s| s["status"].as_str().unwrap().to_string())
            .collect()
    }

    fn halt(&mut self) {
        self.send(&json!({"type": "halted", "dc": self.dc}));
    }
}

fn velocity(v: f64, w: f64) -> (&'static str, Value) {
    (
        "set-velocity",
        json!([["linear-velocity", {"f": v}], ["angular-velocity", {"f": w}]]),
    )
}

fn words(first: &str, list: &[&str]) -> Value {
    let mut ids = serde_json::Map::new();
    for (k, w) in list.iter().enumerate() {
        let name = if k == 0 {
            first.to_string()
        } else {
            format!("{first}{k}")
        };
        let next = if k + 1 == list.len() {
            json!({"s": "nil"})
        } else {
            json!({"id": format!("{first}{}", k + 1)})
        };
        ids.insert(name, json!([["word", {"s": w}], ["next", next]]));
    }
    Value::Object(ids)
}

#[test]
fn two_agents_drive_their_own_robots_message_each_other_and_the_run_ends_when_both_halt() {
    // a fake espeak-ng that writes down what it is asked to say
    let bin = tempfile::tempdir().unwrap();
    let said = bin.path().join("said.txt");
    let fake = bin.path().join("espeak-ng");
    std::fs::write(
        &fake,
        format!("#!/bin/sh\nprintf '%s ' \"$@\" >> '{}'\n", said.display()),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let server = Server::start_with_path(
        &[
            "--world",
            world("soar-patrol.world").to_str().unwrap(),
            "--agents",
            "2",
            "--summary-json",
            "s.json",
            "--log",
            "run.mcap",
        ],
        Some(bin.path()),
    );
    let (mut a, wa) = Agent::hello(&server.addr, None);
    let (mut b, wb) = Agent::hello(&server.addr, Some("robot2"));
    assert_eq!(wa["robot"], "robot1");
    assert_eq!(wb["robot"], "robot2");
    assert_eq!(wa["robots"], json!(["robot1", "robot2"]));
    assert_eq!(wa["lockstep"], true);
    // the whole input-link first
    a.input();
    b.input();
    assert_eq!(a.value(&["self", "name"]), "robot1");
    assert_eq!(b.value(&["self", "name"]), "robot2");
    assert_eq!(a.children(a.find(&["ranges"]).unwrap(), "range").len(), 5);
    let (x0, yaw0) = (a.f(&["self", "pose", "x"]), b.f(&["self", "pose", "yaw"]));

    // robot1 drives ahead, robot2 turns on the spot
    let (ia, ta) = a.step(&[velocity(0.4, 0.0)], Value::Null);
    assert_eq!(Agent::statuses(&ia, ta[0]), ["accepted", "executing"]);
    let (ib, tb) = b.step(&[velocity(0.0, 30.0)], Value::Null);
    assert_eq!(Agent::statuses(&ib, tb[0]), ["accepted", "executing"]);
    for _ in 0..40 {
        a.idle();
        b.idle();
    }
    let (x1, yaw1) = (a.f(&["self", "pose", "x"]), b.f(&["self", "pose", "yaw"]));
    assert!(x1 - x0 > 0.5, "robot1 moved from {x0} to {x1}");
    assert!(
        (yaw1 - yaw0).abs() > 20.0,
        "robot2 turned from {yaw0} to {yaw1}"
    );
    assert!(
        b.f(&["self", "pose", "speed"]) < 0.05,
        "robot2 turns on the spot"
    );

    // robot1 tells robot2, and says something aloud
    let (ia, ta) = a.step(
        &[
            (
                "send-message",
                json!([["destination", {"s": "robot2"}], ["first", {"id": "W"}]]),
            ),
            (
                "send-message",
                json!([["destination", {"s": "say"}], ["first", {"id": "S"}]]),
            ),
        ],
        {
            let mut ids = words("W", &["meet", "at", "the", "door"]);
            if let (Some(o), Value::Object(s)) =
                (ids.as_object_mut(), words("S", &["hello", "world"]))
            {
                o.extend(s);
            }
            ids
        },
    );
    assert_eq!(
        Agent::statuses(&ia, ta[0]),
        ["accepted", "complete"],
        "{ia}"
    );
    assert_eq!(
        Agent::statuses(&ia, ta[1]),
        ["accepted", "complete"],
        "{ia}"
    );
    b.idle();
    a.idle();
    b.idle();
    let msgs = b.children(b.find(&["self", "received-messages"]).unwrap(), "message");
    assert_eq!(msgs.len(), 1, "robot2 got the message");
    let m = msgs[0];
    assert_eq!(b.wmes[&b.children(m, "from")[0]].2, "robot1");
    let mut at = b.children(m, "first")[0];
    let mut got = vec![];
    loop {
        got.push(
            b.wmes[&b.children(at, "word")[0]]
                .2
                .as_str()
                .unwrap()
                .to_string(),
        );
        let next = b.children(at, "next")[0];
        match &b.wmes[&next].2 {
            Value::String(s) if s == "nil" => break,
            _ => at = next,
        }
    }
    assert_eq!(got, ["meet", "at", "the", "door"]);

    // a bad command gets error with a message, on the agent's own link only
    let (ia, ta) = a.step(&[("fly", json!([]))], Value::Null);
    assert_eq!(Agent::statuses(&ia, ta[0]), ["error"]);
    assert!(ia["statuses"][0]["message"]
        .as_str()
        .unwrap()
        .contains("fly"));

    a.halt();
    b.halt();
    let (code, err, server) = server.wait();
    assert_eq!(code, Some(0), "{err}");
    let s = server.summary();
    assert_eq!(s["outcome"], "finished", "{s}");
    assert_eq!(s["halted"], true, "{s}");
    assert_eq!(s["soar_agents"].as_array().unwrap().len(), 2, "{s}");
    assert_eq!(s["command_errors"], 1, "{s}");
    assert!(s["decision_cycles"].as_u64().unwrap() >= 80, "{s}");
    assert!(server.path("run.mcap").metadata().unwrap().len() > 1000);
    let said = std::fs::read_to_string(&said).unwrap_or_default();
    assert_eq!(
        said.trim(),
        "-- hello world",
        "espeak-ng was called with the words"
    );
}

#[test]
fn garbage_gets_an_error_and_a_closed_connection_and_the_others_go_on() {
    let server = Server::start(&["--robots", "2", "--no-log", "--summary-json", "s.json"]);
    let (mut a, _) = Agent::hello(&server.addr, Some("robot1"));
    a.input();
    a.step(&[velocity(0.3, 0.0)], Value::Null);

    let cases: [(&str, &str); 5] = [
        ("this is not json\n", "line 1"),
        (
            "{\"type\":\"step\",\"dc\":1,\"commands\":[]}\n",
            "before hello",
        ),
        ("{\"type\":\"launch\"}\n", "unknown variant"),
        ("\u{1}\u{2}\u{ff}\n", "line 1"),
        (
            "{\"type\":\"hello\",\"robot\":\"robot1\"}\n",
            "already has an agent",
        ),
    ];
    for (line, expect) in cases {
        let mut g = Agent::open(&server.addr);
        g.send_raw(line);
        let e = g.read();
        assert_eq!(e["type"], "error", "{line:?}: {e}");
        let msg = e["message"].as_str().unwrap();
        assert!(msg.contains(expect), "{line:?}: {msg}");
        assert!(g.at_end(), "{line:?}: the connection is closed");
        // the agent of robot1 goes on as if nothing happened
        let x = a.f(&["self", "pose", "x"]);
        a.idle();
        assert!(a.f(&["self", "pose", "x"]) > x);
    }
    // bytes that are not UTF-8
    let mut g = Agent::open(&server.addr);
    g.w.write_all(b"{\"type\":\"hello\"}\n\xff\xfe\n").unwrap();
    assert_eq!(g.read()["type"], "welcome");
    let e = g.error();
    assert!(e["message"].as_str().unwrap().contains("not UTF-8"), "{e}");
    assert!(g.at_end());
    a.idle();
    // that agent had taken robot2 and is gone: a new one takes it and halts
    let (mut c, w) = Agent::hello(&server.addr, None);
    assert_eq!(w["robot"], "robot2");
    c.input();
    c.idle();
    c.halt();
    a.halt();
    let (code, err, server) = server.wait();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(server.summary()["outcome"], "finished");
}

#[test]
fn a_silent_agent_has_its_robot_stopped() {
    let server = Server::start(&["--silence", "300ms", "--no-log"]);
    let (mut a, _) = Agent::hello(&server.addr, None);
    a.input();
    a.step(&[velocity(0.5, 0.0)], Value::Null);
    for _ in 0..40 {
        a.idle();
    }
    assert!(a.f(&["self", "pose", "speed"]) > 0.3);
    // silent for longer than --silence (the server waits for this agent's step)
    std::thread::sleep(Duration::from_millis(1200));
    let x = a.f(&["self", "pose", "x"]);
    for _ in 0..3 {
        a.idle();
        assert_eq!(a.f(&["self", "pose", "speed"]), 0.0, "stopped");
    }
    let x1 = a.f(&["self", "pose", "x"]);
    a.idle();
    assert_eq!(a.f(&["self", "pose", "x"]), x1, "stays stopped");
    assert!(x1 - x < 0.1, "it stopped where it was: {x} -> {x1}");
    a.halt();
    let (code, err, _) = server.wait();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_disconnected_agents_robot_stops_and_a_new_agent_starts_afresh() {
    let server = Server::start(&["--no-log", "--summary-json", "s.json"]);
    let (mut a, _) = Agent::hello(&server.addr, None);
    a.input();
    let (i, t) = a.step(
        &[
            velocity(0.5, 0.0),
            (
                "add-waypoint",
                json!([["id", {"i": 7}], ["x", {"f": 3.0}], ["y", {"f": 0.0}]]),
            ),
        ],
        Value::Null,
    );
    assert_eq!(Agent::statuses(&i, t[1]), ["accepted", "complete"]);
    for _ in 0..40 {
        a.idle();
    }
    assert_eq!(
        a.children(a.find(&["self", "waypoints"]).unwrap(), "waypoint")
            .len(),
        1
    );
    assert!(a.f(&["self", "pose", "speed"]) > 0.3);
    drop(a);

    let (mut b, w) = Agent::hello(&server.addr, Some("robot1"));
    assert_eq!(w["robot"], "robot1");
    b.input();
    assert!(
        b.children(b.find(&["self", "waypoints"]).unwrap(), "waypoint")
            .is_empty(),
        "a fresh input-link"
    );
    for _ in 0..3 {
        b.idle();
    }
    assert_eq!(b.f(&["self", "pose", "speed"]), 0.0, "the robot stopped");
    b.halt();
    let (code, err, server) = server.wait();
    assert_eq!(code, Some(0), "{err}");
    let s = server.summary();
    assert_eq!(s["soar_agents"][0]["agents_connected"], 2, "{s}");
}

#[test]
fn tell_from_outside_reaches_an_agent() {
    let server = Server::start(&["--no-log"]);
    let (mut a, _) = Agent::hello(&server.addr, None);
    a.input();
    let mut t = Agent::open(&server.addr);
    t.send(&json!({"type": "tell", "to": "robot1", "text": "go to the kitchen"}));
    t.send(&json!({"type": "tell", "to": "nobody", "text": "x"}));
    let e = t.read();
    assert!(e["message"].as_str().unwrap().contains("nobody"), "{e}");
    assert!(t.at_end());
    a.idle();
    a.idle();
    let m = a.children(a.find(&["self", "received-messages"]).unwrap(), "message");
    assert_eq!(m.len(), 1);
    assert_eq!(a.wmes[&a.children(m[0], "from")[0]].2, "http");
    a.halt();
    let (code, err, _) = server.wait();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn another_address_than_loopback_needs_allow_remote() {
    let out = skipper(&["link", "serve", "--listen", "0.0.0.0:0", "--no-log"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--allow-remote"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn link_serve_has_help_with_examples() {
    let out = skipper(&["link", "serve", "--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    assert!(
        help.contains("Examples:") && help.contains("--connect"),
        "{help}"
    );
}

#[test]
fn a_quick_reconnect_under_realtime_keeps_the_disconnected_event_and_its_cause() {
    let server = Server::start(&["--realtime", "--log", "run.mcap"]);
    let (mut a, _) = Agent::hello(&server.addr, None);
    a.input();
    a.step(&[velocity(0.3, 0.0)], Value::Null);
    drop(a);
    // the next agent comes at once, before the controller may have heard of the first
    let (mut b, _) = Agent::hello(&server.addr, Some("robot1"));
    b.input();
    b.halt();
    let (code, err, server) = server.wait();
    assert_eq!(code, Some(0), "{err}");
    let rec =
        skipper_runlog::reader::Recording::open(&server.path("run.mcap"), &|_| false).unwrap();
    let link: Vec<&Value> = rec
        .events
        .iter()
        .filter(|e| e.kind == "link")
        .map(|e| &e.data)
        .collect();
    let gone = link
        .iter()
        .find(|d| d["event"] == "disconnected")
        .unwrap_or_else(|| panic!("no disconnected event: {link:?}"));
    assert_eq!(gone["cause"], "the agent closed the connection", "{gone}");
    assert!(
        err.contains("agent disconnected: the agent closed the connection"),
        "{err}"
    );
}
