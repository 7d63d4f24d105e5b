//! `skipper sim serve` and `skipper run --vehicle p2os://` end to end, as two processes.

mod cli;
use cli::{skipper, text};

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Kills the server whatever happens.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn sim_serve_has_help_with_examples_and_refuses_bad_options() {
    for args in [["sim", "--help"].as_slice(), &["sim", "serve", "--help"]] {
        let out = skipper(args);
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("Examples:"), "{args:?}");
    }
    let out = skipper(&["sim", "serve", "--p2os", "0.0.0.0:0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--allow-remote"),
        "{}",
        text(&out.stderr)
    );
    let out = skipper(&[
        "sim",
        "serve",
        "--p2os",
        "127.0.0.1:0",
        "--subtype",
        "rustsim",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("p3dx-sh"),
        "{}",
        text(&out.stderr)
    );
    // nobody listening: a clear failure, exit status 1
    let out = skipper(&[
        "run",
        "--vehicle",
        "p2os://127.0.0.1:1",
        "--until",
        "1s",
        "--no-log",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot connect to the robot at p2os://127.0.0.1:1"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_wander_demo_drives_a_served_robot_over_p2os() {
    let child = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "sim",
            "serve",
            "--p2os",
            "127.0.0.1:0",
            "--world",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../examples/worlds/office.world"
            ),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut server = Server(child);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // "robot1 (p3dx) on 127.0.0.1:PORT"
    let addr = line.trim().rsplit(' ').next().unwrap().to_string();
    assert!(line.starts_with("robot1 (p3dx) on 127.0.0.1:"), "{line}");
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let out = skipper(&[
        "run",
        "--vehicle",
        &format!("p2os://{addr}"),
        "--until",
        "3s",
        "--no-log",
        "--summary-json",
        summary.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(s["outcome"], "time_limit");
    assert!(s["p2os_sips"].as_u64().unwrap() >= 10, "{s}");
    assert!(
        s["distance_m"].as_f64().unwrap() > 0.1,
        "the demo moved the robot: {s}"
    );
    std::thread::sleep(Duration::from_millis(10));
}

/// `skipper sim serve` on a map with an `OriginLatLongAlt` gives its robots the
/// simulated GPS ARIA reads from SIMSTAT (the flag bit and a fix); the packet's fields
/// are checked against the pose in skipper-simserve's tests.
#[test]
fn sim_serve_gives_a_map_with_an_origin_its_simulated_gps() {
    use skipper_p2os::client::{ClientOptions, Connection, LinkSpec};
    use skipper_p2os::packets::simstat::FLAG_GEO;
    use skipper_p2os::packets::{ids, SimStat};
    use skipper_p2os::{CommandId, CommandPacket};
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("gps.map");
    std::fs::write(
        &map,
        "2D-Map\nOriginLatLongAlt: 42.0 -71.0 60.0\n\
         Cairn: RobotHome 3000 4000 0 \"\" ICON \"home\"\n\
         LINES\n0 0 10000 0\n10000 0 10000 10000\n10000 10000 0 10000\n0 10000 0 0\nDATA\n",
    )
    .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["sim", "serve", "--p2os", "127.0.0.1:0", "--world"])
        .arg(&map)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut server = Server(child);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line.trim().rsplit(' ').next().unwrap().to_string();
    let mut c =
        Connection::open(&LinkSpec::Tcp(addr), &ClientOptions::default()).expect("connects");
    c.send(&CommandPacket::int(CommandId::SimStat, 2)).unwrap();
    let start = std::time::Instant::now();
    let stat = loop {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no SIMSTAT after SIM_STAT 2"
        );
        let mut got = None;
        c.poll(Duration::from_millis(50), |f| {
            if f.id == ids::SIMSTAT && got.is_none() {
                got = Some(SimStat::decode(f).expect("SIMSTAT decodes"));
            }
        })
        .unwrap();
        if let Some(s) = got {
            break s;
        }
    };
    c.close();
    assert_ne!(stat.flags & FLAG_GEO, 0, "{stat:?}");
    let geo = stat.geo.expect("the GPS fields");
    let (lat, lon) = (
        f64::from(geo.latitude) / 1e7,
        f64::from(geo.longitude) / 1e7,
    );
    assert!(
        (lat - 42.0).abs() < 0.01 && (lon + 71.0).abs() < 0.01,
        "{geo:?}"
    );
    assert_eq!(geo.quality, 100, "a fix of DOP 1 on the map: {geo:?}");
}
