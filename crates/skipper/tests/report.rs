//! `skipper report`: the report of each example run has the expected plots (checked in
//! the SVG: elements present, counts right) and the run's summary values; and a run of a
//! scripted engine on a scripted AUV shows every kind of behavior lane, the depth and
//! altitude profile with its envelopes, waypoints with capture circles and a coastline.

use serde_json::{json, Value};
use skipper_core::units;
use skipper_core::{
    Actuation, Controller, ControllerError, Cycle, Events, Pose3, RunConfig, Runner, SignalId,
    Signals, Status, Vehicle, VehicleInfo, VehicleKind, World,
};
use skipper_report::{lanes, plots};
use skipper_runlog::reader::Recording;
use skipper_runlog::RunLog;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds")
}

fn skipper(args: &[&str], dir: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run skipper");
    assert!(
        out.status.success(),
        "skipper {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The SVG of the figure with this id.
fn figure<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<figure id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no figure {id}"));
    let end = html[start..].find("</figure>").expect("figure ends") + start;
    let fig = &html[start..end];
    assert!(fig.contains("<svg"), "figure {id} has no SVG: {fig}");
    fig
}

/// Elements `<tag ...>` whose attributes contain every one of `attrs`.
fn count(svg: &str, tag: &str, attrs: &[&str]) -> usize {
    svg.split(&format!("<{tag} "))
        .skip(1)
        .filter(|e| {
            let head = &e[..e.find('>').unwrap_or(e.len())];
            attrs.iter().all(|a| head.contains(a))
        })
        .count()
}

/// Polylines of this stroke with more than two points.
fn long_lines(svg: &str, stroke: &str) -> usize {
    svg.split("<polyline ")
        .skip(1)
        .filter(|e| {
            let head = &e[..e.find('>').unwrap_or(e.len())];
            head.contains(&format!("stroke=\"{stroke}\""))
                && head
                    .split("points=\"")
                    .nth(1)
                    .and_then(|p| p.split('"').next())
                    .is_some_and(|p| p.split_whitespace().count() > 2)
        })
        .count()
}

fn summary_cell(html: &str, key: &str) -> String {
    let tag = format!("data-key=\"{key}\">");
    let i = html
        .find(&tag)
        .unwrap_or_else(|| panic!("no summary row {key}"))
        + tag.len();
    html[i..i + html[i..].find('<').unwrap()].to_string()
}

fn stroke(c: plotters::style::RGBColor) -> String {
    format!("stroke=\"{}\"", plots::hex(c))
}

fn fill(c: plotters::style::RGBColor) -> String {
    format!("fill=\"{}\"", plots::hex(c))
}

fn check_example(world: &str, robots: usize) {
    let dir = tempfile::tempdir().unwrap();
    let w = examples().join(world);
    let n = robots.to_string();
    skipper(
        &[
            "run",
            "--world",
            w.to_str().unwrap(),
            "--robots",
            &n,
            "--until",
            "40s",
            "--log",
            "run.mcap",
            "--summary-json",
            "s.json",
        ],
        dir.path(),
    );
    let said = skipper(&["report", "run.mcap"], dir.path());
    assert!(said.contains("run.html"), "{said}");
    let html = std::fs::read_to_string(dir.path().join("run.html")).unwrap();
    let rec = Recording::open(&dir.path().join("run.mcap"), &|_| false).unwrap();
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();

    // the map: every wall, every goal (a cross of two lines, and its name), every track
    let map = figure(&html, "map");
    let walls = rec.walls().len();
    assert!(walls > 0, "{world} has walls");
    assert_eq!(
        count(map, "polyline", &[&stroke(plots::style::WALL)]),
        walls,
        "{world}: walls"
    );
    // balls and cans where the run left them, each a dot with its kind
    let objects = rec
        .objects
        .last()
        .map_or(0, |(_, v)| v.as_array().unwrap().len());
    assert_eq!(
        count(map, "circle", &[&fill(plots::style::OBJECT)]),
        objects,
        "{world}: objects"
    );
    let goals = rec.world["goals"].as_array().map_or(0, Vec::len);
    assert_eq!(
        count(map, "line", &[&stroke(plots::style::GOAL)]),
        2 * goals,
        "{world}: goals"
    );
    for g in rec.world["goals"].as_array().into_iter().flatten() {
        let name = g["name"].as_str().unwrap();
        assert!(map.contains(&format!("\n{name}\n")), "{world}: goal {name}");
    }
    let landmarks = rec.world["landmarks"].as_array().map_or(0, Vec::len);
    assert_eq!(
        count(
            map,
            "polygon",
            &[&format!("fill=\"{}\"", plots::hex(plots::style::LANDMARK))]
        ),
        landmarks,
        "{world}: landmarks"
    );
    assert_eq!(rec.robots.len(), robots);
    for i in 0..robots {
        let c = plots::hex(plots::robot_color(i));
        // a track, a start (hollow) and an end (filled)
        assert!(long_lines(map, &c) >= 1, "{world}: track of robot {i}");
        assert!(
            count(
                map,
                "circle",
                &[&format!("stroke=\"{c}\""), "fill=\"none\""]
            ) >= 1
        );
        assert!(count(map, "circle", &[&format!("fill=\"{c}\"")]) >= 1);
    }
    assert_eq!(
        (0..robots.min(9))
            .map(|i| long_lines(map, &plots::hex(plots::robot_color(i))))
            .sum::<usize>(),
        robots,
        "{world}: one track per robot"
    );

    // speed and heading: a line per robot
    let speed = figure(&html, "speed");
    for i in 0..robots {
        assert!(long_lines(speed, &plots::hex(plots::robot_color(i))) >= 1);
    }
    assert!(speed.contains("speed (m/s)"));
    let heading = figure(&html, "heading");
    assert!(heading.contains("heading (deg"));
    for i in 0..robots {
        assert!(long_lines(heading, &plots::hex(plots::robot_color(i))) >= 1);
    }
    // no depth profile for ground robots
    assert!(!html.contains("<figure id=\"depth\">"));

    // the wander demo's state (cruise / turn) is on the timeline
    let timeline = figure(&html, "timeline");
    assert!(
        timeline.contains("\ncruise\n"),
        "{world}: the timeline shows cruising"
    );

    // the summary: the values of the run's summary, and a row per robot
    assert_eq!(summary_cell(&html, "outcome"), "time_limit");
    assert_eq!(summary_cell(&html, "cycles"), "400");
    assert_eq!(summary_cell(&html, "sim_time_s"), "40");
    let d = summary["distance_m"].as_f64().unwrap();
    assert_eq!(
        summary_cell(&html, "distance_m"),
        format!("{}", (d * 1000.0).round() / 1000.0)
    );
    assert_eq!(
        summary_cell(&html, "collisions"),
        summary["collisions"].to_string()
    );
    assert_eq!(html.matches("<tr data-robot=").count(), robots);
    // each robot's distance from its track is close to what its odometer said in total
    let rows =
        skipper_report::robot_rows(&skipper_report::open(&dir.path().join("run.mcap")).unwrap());
    let total: f64 = rows.iter().map(|r| r.distance).sum();
    assert!(
        (total - d).abs() <= 0.02 * d + 0.05,
        "{world}: tracks {total} m, odometers {d} m"
    );
}

#[test]
fn report_of_the_empty_room() {
    check_example("empty.world", 1);
}

#[test]
fn report_of_the_office_with_three_robots() {
    check_example("office.world", 3);
}

#[test]
fn report_of_the_soccer_field() {
    check_example("soccer.world", 2);
}

#[test]
fn report_of_a_mobilesim_map() {
    check_example("lab.map", 1);
}

#[test]
fn report_goes_where_asked_and_says_when_the_log_is_bad() {
    let dir = tempfile::tempdir().unwrap();
    // long enough for several chunks, so that a cut leaves whole ones
    skipper(&["run", "--until", "3m", "--log", "a.mcap"], dir.path());
    skipper(&["report", "a.mcap"], dir.path());
    assert!(dir.path().join("a.html").exists());
    std::fs::create_dir(dir.path().join("out")).unwrap();
    skipper(&["report", "a.mcap", "-o", "out/r.html"], dir.path());
    assert!(dir.path().join("out/r.html").exists());

    std::fs::write(dir.path().join("bad.mcap"), "this is not a run log").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["report", "bad.mcap"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.mcap"), "{err}");

    // a log cut short still gives a report of what it has
    let full = std::fs::read(dir.path().join("a.mcap")).unwrap();
    std::fs::write(dir.path().join("cut.mcap"), &full[..full.len() * 2 / 3]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["report", "cut.mcap"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(dir.path().join("cut.html")).unwrap();
    assert!(html.contains("id=\"truncated\""));
    figure(&html, "map");
}

// ---- a scripted AUV and a scripted engine ---------------------------------------------

/// An AUV that follows a fixed path: yo-yos between 2 and 18 m over a sloping seafloor.
struct Sub {
    info: VehicleInfo,
    t: f64,
    ids: Option<[SignalId; 2]>,
}

impl Sub {
    fn depth(&self) -> f64 {
        10.0 - 8.0 * (self.t / 20.0).cos()
    }
    fn floor(&self) -> f64 {
        40.0 + self.t * 0.1
    }
}

impl Vehicle for Sub {
    fn info(&self) -> &VehicleInfo {
        &self.info
    }
    fn sense(&mut self, now: Duration, s: &mut Signals, _e: &mut Events) {
        let ids = *self.ids.get_or_insert_with(|| {
            [
                s.declare("DEPTH", Some(&units::METER)),
                s.declare("ALTITUDE", Some(&units::METER)),
            ]
        });
        s.set_f64(ids[0], self.depth(), now);
        s.set_f64(ids[1], self.floor() - self.depth(), now);
    }
    fn act(&mut self, _now: Duration, _a: &Actuation, _e: &mut Events) {}
    fn stop(&mut self, _now: Duration, _e: &mut Events) {}
    fn pose(&self) -> Pose3 {
        Pose3 {
            x: self.t * 1.5,
            y: 30.0 * (self.t / 60.0).sin(),
            z: -self.depth(),
            roll: 0.0,
            pitch: 0.0,
            yaw: (20.0 / 60.0 * (self.t / 60.0).cos()).atan2(1.5),
        }
    }
}

struct Sea {
    sub: Sub,
}

impl World for Sea {
    fn len(&self) -> usize {
        1
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        (i == 0).then_some(&self.sub as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        (i == 0).then_some(&mut self.sub as &mut dyn Vehicle)
    }
    fn advance(&mut self, now: Duration, dt: Duration, _e: &mut Events) {
        self.sub.t = (now + dt).as_secs_f64();
    }
    fn describe(&self) -> Value {
        json!({"kind": "sea", "name": "bay", "bounds": [-20.0, -60.0, 200.0, 60.0],
               "coastline": [[-20.0, 50.0], [60.0, 58.0], [200.0, 45.0]]})
    }
}

/// An engine that reports an XABSL-like activation path, mission items with states, a
/// waypoint with a capture radius and depth envelopes, and sends transition, command
/// status, goal and speech events.
struct Script {
    phase: usize,
}

/// (time, root state, child option, item 2's state)
const PHASES: [(f64, &str, &str, &str); 3] = [
    (0.0, "search", "look_around", "armed"),
    (30.0, "approach", "go_to_ball", "active"),
    (70.0, "approach", "kick", "completed"),
];

impl Controller for Script {
    fn name(&self) -> &str {
        "script"
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let t = c.now.as_secs_f64();
        let next = self.phase + 1;
        if PHASES.get(next).is_some_and(|p| t >= p.0) {
            self.phase = next;
            c.events.push(
                c.now,
                "transition",
                json!({"option": "play", "from": PHASES[next - 1].1, "to": PHASES[next].1}),
            );
        }
        if c.cycle == 50 {
            c.events.push(
                c.now,
                "command_status",
                json!({"id": 7, "command": "move-to", "status": "executing"}),
            );
            c.events
                .push(c.now, "goal", json!({"id": 1, "status": "active"}));
            c.events.push(c.now, "speech", json!({"text": "diving"}));
        }
        if c.cycle == 400 {
            c.events.push(
                c.now,
                "command_status",
                json!({"id": 7, "command": "move-to", "status": "complete"}),
            );
            c.events
                .push(c.now, "goal", json!({"id": 1, "status": "succeeded"}));
            c.events.push(c.now, "speech", json!({"text": "up"}));
        }
        Ok(Status::Running)
    }
    fn state(&self) -> Option<Value> {
        let (_, root, child, item) = PHASES[self.phase];
        Some(json!({
            "path": [
                {"option": "play", "state": root, "option_time": 1.5},
                {"option": child, "state": "run"}
            ],
            "items": [
                {"name": "DepthEnvelope", "state": "active", "max_depth": 18.5, "min_depth": 1.0},
                {"name": "wp1", "state": item, "waypoint": {"x": 120.0, "y": 20.0, "capture_radius": 10.0}}
            ]
        }))
    }
}

#[test]
fn an_auv_with_a_scripted_engine_shows_every_kind_of_lane_and_its_profile() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sub.mcap");
    let world = Sea {
        sub: Sub {
            info: VehicleInfo {
                name: "tethys".into(),
                kind: VehicleKind::Auv,
                model: "lrauv".into(),
            },
            t: 0.0,
            ids: None,
        },
    };
    let mut r = Runner::new(
        Box::new(world),
        RunConfig {
            period: Duration::from_millis(200),
            until: Some(Duration::from_secs(100)),
            ..RunConfig::default()
        },
    );
    r.set_controller(0, Box::new(Script { phase: 0 }));
    let (runlog, _) = RunLog::create(&log).unwrap();
    r.add_observer(Box::new(runlog));
    r.run();

    let rec = skipper_report::open(&log).unwrap();
    let all = lanes::lanes(&rec);
    let lane = |label: &str| {
        all.iter().find(|l| l.label == label).unwrap_or_else(|| {
            panic!(
                "no lane {label} in {:?}",
                all.iter().map(|l| &l.label).collect::<Vec<_>>()
            )
        })
    };
    let values = |label: &str| {
        lane(label)
            .segments
            .iter()
            .map(|s| s.value.as_str())
            .collect::<Vec<_>>()
    };
    // the XABSL-like activation path: the root option's states, the children by name
    assert_eq!(values("path[play].state"), ["search", "approach"]);
    let switch = lane("path[play].state").segments[1].t0;
    assert!((switch - 30.0).abs() < 0.21, "the switch at {switch}");
    assert_eq!(values("path[look_around]"), ["look_around"]);
    assert_eq!(values("path[kick]"), ["kick"]);
    // the mission-like items and their states
    assert_eq!(values("items[wp1].state"), ["armed", "active", "completed"]);
    // status events: a lane per subject
    assert_eq!(values("command_status 7"), ["executing", "complete"]);
    assert_eq!(values("goal 1"), ["active", "succeeded"]);
    assert_eq!(values("transition play"), ["approach"]);
    // other events are marks
    assert_eq!(lane("speech").marks.len(), 2);
    assert_eq!(lane("speech").marks[0].text, "diving");

    let html = skipper_report::render(&rec);
    if let Some(dir) = std::env::var_os("SKIPPER_TEST_OUT") {
        // to look at it: SKIPPER_TEST_OUT=/tmp cargo test -p skipper --test report
        std::fs::write(Path::new(&dir).join("auv-report.html"), &html).unwrap();
    }
    let timeline = figure(&html, "timeline");
    let segments: usize = all.iter().map(|l| l.segments.len()).sum();
    // every segment is a coloured box (the rest of the rects are white backgrounds)
    let boxes = count(timeline, "rect", &["opacity=\"1\""])
        - count(timeline, "rect", &["opacity=\"1\" fill=\"#FFFFFF\""]);
    assert_eq!(boxes, segments);
    assert_eq!(
        count(timeline, "polyline", &[&stroke(plots::style::MARK)]),
        2,
        "a tick per speech event"
    );

    // the map: the coastline, the waypoint with its capture circle, the track
    let map = figure(&html, "map");
    assert_eq!(long_lines(map, &plots::hex(plots::style::COAST)), 1);
    // the coastline is a feature of the world, named: its own colour, its key entry, its
    // label on the map, and its line marked as the coastline (not as the track)
    assert!(
        map.contains("</span>coastline</span>"),
        "the key names the coastline"
    );
    assert!(
        map.contains(">\ncoastline\n<"),
        "the map labels the coastline"
    );
    assert_eq!(
        count(map, "polyline", &["data-legend=\"coastline\""]),
        1,
        "the coastline's line is marked"
    );
    assert_ne!(plots::style::COAST, plots::robot_color(0));
    assert_eq!(count(map, "circle", &[&stroke(plots::style::CAPTURE)]), 1);
    assert_eq!(count(map, "line", &[&stroke(plots::style::WAYPOINT)]), 2);
    assert_eq!(long_lines(map, &plots::hex(plots::robot_color(0))), 1);

    // the profile: depth, the seafloor, the two depth envelopes
    let depth = figure(&html, "depth");
    assert_eq!(long_lines(depth, &plots::hex(plots::robot_color(0))), 1);
    assert_eq!(long_lines(depth, &plots::hex(plots::style::SEAFLOOR)), 1);
    assert!(count(depth, "polyline", &[&stroke(plots::style::ENVELOPE)]) >= 2);
    assert!(depth.contains("max_depth 18.5 m"));
    assert!(depth.contains("min_depth 1 m"));
    // the deepest point of the yo-yo is on the plot's scale
    assert!(
        depth.contains(">\n18\n<") || depth.contains(">\n20\n<"),
        "depth labels"
    );
}

#[test]
fn report_of_the_example_mission() {
    let dir = tempfile::tempdir().unwrap();
    let mission =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/missions/test_mission.lua");
    skipper(
        &[
            "run",
            mission.to_str().unwrap(),
            "--until",
            "30m",
            "--log",
            "m.mcap",
            "--summary-json",
            "s.json",
        ],
        dir.path(),
    );
    skipper(&["report", "m.mcap"], dir.path());
    let html = std::fs::read_to_string(dir.path().join("m.html")).unwrap();
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    // the AUV's profile: its depth and the sea floor under it
    let depth = figure(&html, "depth");
    assert_eq!(long_lines(depth, &plots::hex(plots::robot_color(0))), 1);
    assert_eq!(long_lines(depth, &plots::hex(plots::style::SEAFLOOR)), 1);
    // the track is on the map, and the coast, 6 km east, on the map that now also spans
    // the mission's waypoints
    let map = figure(&html, "map");
    assert_eq!(long_lines(map, &plots::hex(plots::robot_color(0))), 1);
    assert_eq!(count(map, "polyline", &[&stroke(plots::style::COAST)]), 1);
    assert!(
        map.contains("</span>coastline</span>"),
        "the key names the coastline"
    );
    assert_eq!(count(map, "polyline", &["data-legend=\"coastline\""]), 1);
    // its four waypoints with their 100 m capture circles, from the items' places
    assert_eq!(count(map, "circle", &[&stroke(plots::style::CAPTURE)]), 4);
    let rec = skipper_report::open(&dir.path().join("m.mcap")).unwrap();
    let wps = skipper_report::series::waypoints(&rec);
    assert_eq!(wps.len(), 4, "{wps:?}");
    assert!(wps.iter().all(|w| w.radius == Some(100.0) && !w.from_world));
    // in the local frame of the track: the start, 0.01 deg west, north-west and north of it
    // (0.01 deg is 1112 m of latitude, 890 m of longitude at 36.8 deg N)
    for (x, y) in [(0.0, 0.0), (-890.3, 0.0), (-890.3, 1112.0), (0.0, 1112.0)] {
        assert!(
            wps.iter()
                .any(|w| (w.x - x).abs() < 5.0 && (w.y - y).abs() < 5.0),
            "no waypoint at ({x}, {y}): {wps:?}"
        );
    }
    // the mission's item states are lanes of the timeline
    let all = lanes::lanes(&rec);
    assert!(
        all.iter()
            .any(|l| l.label.starts_with("items[") && l.label.ends_with("].state")),
        "{:?}",
        all.iter().map(|l| &l.label).collect::<Vec<_>>()
    );
    figure(&html, "timeline");
    // the mission's summary values
    assert_eq!(
        summary_cell(&html, "max_depth_m"),
        format!(
            "{}",
            (summary["max_depth_m"].as_f64().unwrap() * 1000.0).round() / 1000.0
        )
    );
    assert_eq!(summary_cell(&html, "cycles"), summary["cycles"].to_string());
    // one distance: the robots table's (its 3D track) is the summary's (its distance
    // through the water), dives and climbs included (the horizontal track is 6 % shorter)
    let d = summary["distance_m"].as_f64().unwrap();
    let rows = skipper_report::robot_rows(&rec);
    assert_eq!(rows.len(), 1);
    assert!(
        (rows[0].distance - d).abs() <= 1e-3 * d,
        "track {} m, odometer {d} m",
        rows[0].distance
    );
}

#[test]
fn report_of_the_example_xabsl_agent() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let agent = root.join("examples/xabsl/soccer/agents.xabsl");
    let world = root.join("examples/worlds/soccer.world");
    skipper(
        &[
            "run",
            agent.to_str().unwrap(),
            "--world",
            world.to_str().unwrap(),
            "--until",
            "60s",
            "--log",
            "x.mcap",
        ],
        dir.path(),
    );
    skipper(&["report", "x.mcap"], dir.path());
    let html = std::fs::read_to_string(dir.path().join("x.html")).unwrap();
    let rec = skipper_report::open(&dir.path().join("x.mcap")).unwrap();
    let all = lanes::lanes(&rec);
    let labels: Vec<&str> = all.iter().map(|l| l.label.as_str()).collect();
    // the activation path: the root option's state changes over the run
    let path = all
        .iter()
        .find(|l| l.label.starts_with("path[") && l.label.ends_with("].state"))
        .unwrap_or_else(|| panic!("no option state lane in {labels:?}"));
    assert!(path.segments.len() >= 2, "{:?}", path.segments);
    // the engine's transition events are a status lane
    assert!(
        labels.iter().any(|l| l.starts_with("transition ")),
        "{labels:?}"
    );
    let timeline = figure(&html, "timeline");
    for s in &path.segments {
        if s.t1 - s.t0 > 5.0 {
            assert!(
                timeline.contains(&format!("\n{}\n", s.value)),
                "{}",
                s.value
            );
        }
    }
    figure(&html, "map");
}
