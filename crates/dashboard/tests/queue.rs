//! The dashboard never holds up or changes a run: a browser that never reads, one that
//! disconnects, and one that sends garbage are all connected while a run goes at full
//! speed with a frame every cycle; the run completes every cycle, its result is the same
//! as without a dashboard, frames were dropped for the stuck browser (not queued without
//! end), and a browser that reads got frames.

#[path = "../../goals/tests/common/mod.rs"]
mod goto_goals;

use goto_goals::GoalHandle;
use serde_json::Value;
use skipper_goals::BindOptions;
use skipper_goals::Wander;

/// Where the robots' goals go.
fn ports(
    goals: &[Option<GoalHandle>],
) -> Vec<Option<std::sync::Arc<dyn skipper_core::goals::GoalPort>>> {
    goals
        .iter()
        .map(|g| g.as_ref().map(GoalHandle::port))
        .collect()
}

/// Robots take goto goals.
const GOTO: BindOptions = BindOptions {
    goto: true,
    velocity: false,
};
use skipper_core::{RunConfig, RunReport, Runner};
use skipper_dashboard::live::{attach, LiveOptions};
use skipper_dashboard::{server, ServeOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::Duration;

const ROBOTS: usize = 20;
const SECONDS: u64 = 60;

fn office() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds/office.world")
}

fn runner() -> (Runner, Vec<Option<GoalHandle>>) {
    let world = office_fleet(&office(), 7);
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            until: Some(Duration::from_secs(SECONDS)),
            ..RunConfig::default()
        },
    );
    let mut goals = Vec::new();
    for i in 0..ROBOTS {
        let b = skipper_goals::bind(r.world(), i, Some(Box::new(Wander::new())), GOTO);
        r.set_controller(i, b.controller);
        goals.push(Some(GoalHandle(b.goals)));
    }
    (r, goals)
}

fn request(addr: SocketAddr, text: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(text).unwrap();
    s
}

fn stream_request(addr: SocketAddr) -> TcpStream {
    request(
        addr,
        b"GET /api/stream HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n",
    )
}

/// Send a request and read the whole answer (the server closes after `Connection: close`).
fn answer(addr: SocketAddr, text: &[u8]) -> String {
    let mut s = request(addr, text);
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn same_result(a: &RunReport, b: &RunReport) {
    assert_eq!(a.outcome, b.outcome);
    assert_eq!(a.cycles, b.cycles);
    assert_eq!(a.sim_time, b.sim_time);
    assert_eq!(
        a.distance_m.to_bits(),
        b.distance_m.to_bits(),
        "{} vs {}",
        a.distance_m,
        b.distance_m
    );
    assert_eq!(a.collisions, b.collisions);
}

#[test]
fn stuck_gone_and_garbage_browsers_neither_block_nor_disturb_the_run() {
    // the reference: the same run without a dashboard
    let (mut plain, _) = runner();
    let reference = plain.run();
    assert_eq!(reference.cycles, SECONDS * 10);

    let (mut r, goals) = runner();
    let state = attach(
        &mut r,
        ports(&goals),
        Duration::from_millis(100),
        LiveOptions {
            min_interval: Duration::ZERO,
            cost_factor: 0,
        },
    );
    let hub = state.hub().clone();
    let opts = ServeOptions::new("127.0.0.1:0".parse().unwrap(), false).unwrap();
    let srv = server::start(state, &opts).unwrap();
    let addr = srv.addr();

    // 1. a browser that asks for the stream and never reads a byte
    let stuck = stream_request(addr);
    // 2. a browser that reads a little, then goes away
    let leaver = stream_request(addr);
    // 3. a browser that reads everything it can
    let reader = stream_request(addr);
    let reading = std::thread::spawn(move || {
        let mut lines = BufReader::new(reader);
        let mut frames = 0u64;
        let mut robots = 0usize;
        let mut rays = (false, false);
        let mut ended = false;
        let mut line = String::new();
        while !ended {
            line.clear();
            match lines.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if let Some(data) = line.strip_prefix("data: ") {
                let v: Value = serde_json::from_str(data.trim_end()).expect("a frame is JSON");
                if v.get("ended").is_some() {
                    ended = true;
                } else {
                    frames += 1;
                    robots = v["robots"].as_array().map_or(0, Vec::len);
                    // more than 10 robots: rays only for the selected one (robot 0 at first)
                    rays = (
                        v["robots"][0]["view"].get("laser").is_some(),
                        v["robots"][1]["view"].get("laser").is_some(),
                    );
                }
            }
        }
        (frames, robots, rays, ended)
    });
    // wait until the three streams are subscribed (a bounded wait: the test fails, it
    // does not hang, if they never are)
    for _ in 0..3000 {
        if hub.clients() == 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(hub.clients(), 3, "the three streams did not connect");
    drop(leaver);

    // 4. garbage, while the run goes: bytes that are not HTTP, a command that is not
    // JSON, one that is JSON but not a command, a body too large, an unknown route
    let garbage = std::thread::spawn(move || {
        let mut raw = request(
            addr,
            b"\x00\xff\x13garbage\r\n\r\n\x16\x03\x01 not http at all",
        );
        let _ = raw.write_all(&[0xAB; 4096]);
        let post = |body: &str| {
            answer(
                addr,
                format!(
                    "POST /api/control HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            )
        };
        let a = post("{{{ not json");
        let b = post(r#"{"cmd": "fly", "to": "moon"}"#);
        let c = post(r#"{"cmd": "goto", "robot": 99999, "x": 1, "y": 2}"#);
        let d = post(r#"{"cmd": "speed", "factor": -3}"#);
        let big = "x".repeat(100_000);
        let e = post(&big);
        let f = answer(
            addr,
            b"GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        drop(raw);
        [a, b, c, d, e, f]
    });

    // the run, with a watchdog so that a blocked run fails the test instead of hanging it
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if rx.recv_timeout(Duration::from_secs(600)).is_err() {
            eprintln!("the run did not finish: a browser blocked it");
            std::process::abort();
        }
    });
    let report = r.run();
    let _ = tx.send(());
    same_result(&report, &reference);

    let answers = garbage.join().unwrap();
    for a in &answers[..4] {
        assert!(a.starts_with("HTTP/1.1 400"), "{a}");
    }
    assert!(
        answers[0].contains("must be a JSON command"),
        "{}",
        answers[0]
    );
    assert!(answers[1].contains("unknown command"), "{}", answers[1]);
    assert!(answers[2].contains("takes no goals"), "{}", answers[2]);
    assert!(answers[4].starts_with("HTTP/1.1 413"), "{}", answers[4]);
    assert!(answers[5].starts_with("HTTP/1.1 404"), "{}", answers[5]);

    let (frames, robots, rays, ended) = reading.join().unwrap();
    assert_eq!(rays, (true, false), "rays of the selected robot only");
    let (published, queued, dropped, disconnected) = hub.counts();
    eprintln!(
        "published {published} frames, queued {queued}, dropped {dropped}, disconnected {disconnected}; the reader got {frames}"
    );
    // one frame per cycle, plus the end
    assert_eq!(published, report.cycles + 1);
    assert!(
        frames > 0 && robots == ROBOTS,
        "{frames} frames of {robots} robots"
    );
    assert!(ended, "the reader saw the end of the run");
    assert!(
        dropped > 0,
        "the stuck browser's frames were dropped, not queued"
    );
    assert!(disconnected >= 1, "the browser that left was let go");
    drop(stuck);
    srv.stop();
}

/// The office with `ROBOTS` robots.
fn office_fleet(path: &Path, seed: u64) -> skipper_sim::GroundWorld {
    let spec = skipper_sim::load_world(path).expect("the office loads");
    let spec = skipper_sim::ground::with_robots(spec, ROBOTS).expect("robots fit");
    skipper_sim::GroundWorld::new(&spec, seed).expect("the world builds")
}
