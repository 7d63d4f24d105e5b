//! The dashboard over HTTP: the token when it listens beyond this machine, the controls
//! (goto drives the robot there, estop stops it, pause and step), and the replay's frames
//! and trails; the command line refuses another address without --allow-remote.

#[path = "../../goals/tests/common/mod.rs"]
mod goto_goals;

use goto_goals::{GoalHandle, GoalStatus};
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
use skipper_core::{RunConfig, Runner};
use skipper_dashboard::live::{attach, LiveOptions};
use skipper_dashboard::{replay::Replay, server, ServeOptions};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn http(addr: SocketAddr, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let code = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (code, body)
}

fn json_of(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn room_runner(until: f64) -> (Runner, Vec<Option<GoalHandle>>) {
    let spec = skipper_sim::parse_world("box 0 0 20 20\nrobot r 0 0 0\n", "t.world", None).unwrap();
    let w = skipper_sim::GroundWorld::new(&spec, 0).unwrap();
    let mut r = Runner::new(
        Box::new(w),
        RunConfig {
            until: Some(Duration::from_secs_f64(until)),
            ..RunConfig::default()
        },
    );
    let b = skipper_goals::bind(r.world(), 0, Some(Box::new(Wander::new())), GOTO);
    r.set_controller(0, b.controller);
    (r, vec![Some(GoalHandle(b.goals))])
}

#[test]
fn a_token_guards_every_route_but_the_assets() {
    let (mut r, goals) = room_runner(1.0);
    let state = attach(
        &mut r,
        ports(&goals),
        Duration::from_millis(100),
        LiveOptions::default(),
    );
    let opts = ServeOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        token: Some("s3cret".into()),
    };
    let srv = server::start(state, &opts).unwrap();
    let a = srv.addr();
    assert_eq!(http(a, "GET", "/", "", "").0, 401);
    assert_eq!(http(a, "GET", "/api/info", "", "").0, 401);
    assert_eq!(http(a, "GET", "/api/info?token=wrong", "", "").0, 401);
    assert_eq!(
        http(
            a,
            "POST",
            "/api/control",
            "",
            r#"{"cmd":"estop","on":true}"#
        )
        .0,
        401
    );
    assert_eq!(http(a, "GET", "/api/info?token=s3cret", "", "").0, 200);
    assert_eq!(http(a, "GET", "/?token=s3cret", "", "").0, 200);
    assert_eq!(
        http(
            a,
            "GET",
            "/api/info",
            "Authorization: Bearer s3cret\r\n",
            ""
        )
        .0,
        200
    );
    assert_eq!(http(a, "GET", "/app.js", "", "").0, 200);
    let (code, js) = http(a, "GET", "/behavior.js", "", "");
    assert_eq!(code, 200);
    assert!(js.contains("SkipperBehavior"), "the behavior view's script");
    assert_eq!(http(a, "GET", "/style.css", "", "").0, 200);
    srv.stop();
}

#[test]
fn goto_drives_the_robot_there_and_estop_stops_it() {
    // goto: sent over HTTP before the run, reached during it (then the wander demo
    // drives on)
    let (mut r, goals) = room_runner(40.0);
    let handle = goals[0].clone().unwrap();
    let state = attach(
        &mut r,
        ports(&goals),
        Duration::from_millis(100),
        LiveOptions::default(),
    );
    let opts = ServeOptions::new("127.0.0.1:0".parse().unwrap(), false).unwrap();
    let srv = server::start(state.clone(), &opts).unwrap();
    let a = srv.addr();
    let (code, body) = http(
        a,
        "POST",
        "/api/control",
        "",
        r#"{"cmd":"goto","robot":0,"x":4,"y":-3,"tolerance":0.1}"#,
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(json_of(&body)["goal"], 1);
    let info = json_of(&http(a, "GET", "/api/info", "", "").1);
    assert_eq!(info["mode"], "live");
    assert_eq!(info["goto"][0], true);
    r.run();
    match handle.status() {
        Some(GoalStatus::Succeeded { id: 1, x, y, .. }) => {
            assert!(
                (x - 4.0).hypot(y + 3.0) <= 0.1,
                "the robot stopped at ({x}, {y})"
            );
        }
        s => panic!("the goal was not reached: {s:?}"),
    }
    let trails = json_of(&http(a, "GET", "/api/trails", "", "").1);
    assert!(trails["trails"][0].as_array().unwrap().len() > 10);
    srv.stop();

    // estop: engaged over HTTP, the wander demo does not move the robot at all
    let (mut r, goals) = room_runner(20.0);
    let state = attach(
        &mut r,
        ports(&goals),
        Duration::from_millis(100),
        LiveOptions::default(),
    );
    let srv = server::start(state, &opts).unwrap();
    let a = srv.addr();
    let (code, body) = http(
        a,
        "POST",
        "/api/control",
        "",
        r#"{"cmd":"estop","on":true}"#,
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(json_of(&body)["estop"], true);
    let report = r.run();
    assert_eq!(report.cycles, 200);
    assert_eq!(report.distance_m, 0.0, "the estop held the robot");
    srv.stop();
}

struct Count(Arc<AtomicU64>);

impl skipper_core::Observer for Count {
    fn on_cycle(&mut self, _v: &skipper_core::runner::CycleView<'_>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn pause_holds_the_run_and_step_runs_one_cycle() {
    let (mut r, goals) = room_runner(5.0);
    let control = r.control();
    let state = attach(
        &mut r,
        ports(&goals),
        Duration::from_millis(100),
        LiveOptions::default(),
    );
    let opts = ServeOptions::new("127.0.0.1:0".parse().unwrap(), false).unwrap();
    let srv = server::start(state, &opts).unwrap();
    let a = srv.addr();
    let (_, body) = http(a, "POST", "/api/control", "", r#"{"cmd":"pause"}"#);
    assert_eq!(json_of(&body)["paused"], true);
    for _ in 0..3 {
        http(a, "POST", "/api/control", "", r#"{"cmd":"step"}"#);
    }
    let (_, body) = http(
        a,
        "POST",
        "/api/control",
        "",
        r#"{"cmd":"speed","factor":4}"#,
    );
    assert_eq!(json_of(&body)["speed"], 4.0);
    // the run takes its three steps, then waits (it would take more without the pause);
    // a stop ends it
    let cycles = Arc::new(AtomicU64::new(0));
    r.add_observer(Box::new(Count(cycles.clone())));
    let stopper = std::thread::spawn(move || {
        while cycles.load(Ordering::SeqCst) < 3 {
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(300));
        control.request_stop();
    });
    let report = r.run();
    stopper.join().unwrap();
    assert_eq!(report.cycles, 3);
    srv.stop();
}

#[test]
fn the_replay_serves_frames_at_any_time() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("r.mcap");
    let office = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds/office.world");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "run",
            "--world",
            office.to_str().unwrap(),
            "--robots",
            "2",
            "--until",
            "20s",
            "--log",
        ])
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success());
    let keep = |n: &str| skipper_dashboard::replay::keep_signal(n);
    let rec = skipper_runlog::reader::Recording::open(&log, &keep).unwrap();
    let end = rec.end_t;
    let opts = ServeOptions::new("127.0.0.1:0".parse().unwrap(), false).unwrap();
    let srv = server::start(Arc::new(Replay::new(rec)), &opts).unwrap();
    let a = srv.addr();
    let info = json_of(&http(a, "GET", "/api/info", "", "").1);
    assert_eq!(info["mode"], "replay");
    assert_eq!(info["end_t"], end);
    let f0 = json_of(&http(a, "GET", "/api/frame?t=0", "", "").1);
    let f1 = json_of(&http(a, "GET", "/api/frame?t=15", "", "").1);
    assert_eq!(f0["robots"].as_array().unwrap().len(), 2);
    assert_eq!(f1["t"], 15.0);
    let moved = (f1["robots"][0]["x"].as_f64().unwrap() - f0["robots"][0]["x"].as_f64().unwrap())
        .hypot(f1["robots"][0]["y"].as_f64().unwrap() - f0["robots"][0]["y"].as_f64().unwrap());
    assert!(moved > 1.0, "robot1 moved {moved} m in 15 s");
    // the sonar ring and the laser of the p3dx are in the view
    assert_eq!(
        f1["robots"][0]["view"]["sonar"].as_array().unwrap().len(),
        16
    );
    assert_eq!(
        f1["robots"][0]["view"]["laser"]["ranges"]
            .as_array()
            .unwrap()
            .len(),
        180
    );
    assert!(f1["robots"][0]["state"]["state"].as_str().is_some());
    // trails up to a time
    let t5 = json_of(&http(a, "GET", "/api/trails?t=5", "", "").1);
    let t15 = json_of(&http(a, "GET", "/api/trails?t=15", "", "").1);
    assert!(t5["trails"][0].as_array().unwrap().len() < t15["trails"][0].as_array().unwrap().len());
    // a replay has no stream and no controls; bad times are refused
    assert_eq!(http(a, "GET", "/api/stream", "", "").0, 404);
    assert_eq!(
        http(a, "POST", "/api/control", "", r#"{"cmd":"pause"}"#).0,
        400
    );
    assert_eq!(http(a, "GET", "/api/frame?t=soon", "", "").0, 400);
    assert_eq!(
        json_of(&http(a, "GET", "/api/frame?t=1e9", "", "").1)["t"],
        end
    );
    srv.stop();
}

#[test]
fn another_address_needs_allow_remote() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["run", "--until", "1s", "--no-log", "--serve", "0.0.0.0:0"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--allow-remote"), "{err}");

    // with the flag: a warning and a token, and the run goes
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "run",
            "--until",
            "1s",
            "--speed",
            "20",
            "--no-log",
            "--serve",
            "0.0.0.0:0",
            "--allow-remote",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: the dashboard listens on 0.0.0.0:"),
        "{err}"
    );
    let token = err
        .lines()
        .find_map(|l| l.strip_prefix("dashboard token: "))
        .expect("a token is printed");
    assert_eq!(token.len(), 32);
    assert!(err.contains(&format!("?token={token}")), "{err}");
}
