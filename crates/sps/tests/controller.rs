//! The link as a controller over a scripted port: statuses go back in the same cycle,
//! and the robot is e-stopped when its agent goes silent, disconnects or halts; over a
//! serving port a new agent gets a fresh input-link and a halt does not end the
//! controller.

use skipper_core::{
    Actuation, Controller, Cycle, Drive, Events, Signals, Status, VehicleInfo, VehicleKind,
};
use skipper_sps::{
    Command, Link, LinkConfig, LinkController, LinkError, Param, Port, PostOffice, Received, Step,
};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A port playing a script; what it is sent is kept.
#[derive(Clone, Default)]
struct Script {
    next: Arc<Mutex<VecDeque<(Received, Step)>>>,
    sent: Arc<Mutex<Vec<serde_json::Value>>>,
}

impl Port for Script {
    fn receive(&mut self, step: &mut Step) -> Result<Received, LinkError> {
        let (r, s) = self
            .next
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or((Received::Nothing, Step::default()));
        *step = s;
        Ok(r)
    }
    fn send(&mut self, line: &[u8]) -> Result<(), LinkError> {
        self.sent
            .lock()
            .unwrap()
            .push(serde_json::from_slice(line).unwrap());
        Ok(())
    }
}

impl Script {
    fn push(&self, r: Received, s: Step) {
        self.next.lock().unwrap().push_back((r, s));
    }
    fn last(&self) -> serde_json::Value {
        self.sent.lock().unwrap().last().cloned().unwrap()
    }
    fn count(&self) -> usize {
        self.sent.lock().unwrap().len()
    }
}

struct Rig {
    signals: Signals,
    info: VehicleInfo,
    events: Events,
    cycle: u64,
}

impl Rig {
    fn new() -> Self {
        let mut signals = Signals::new();
        for n in ["pose.x", "pose.y", "pose.yaw"] {
            let id = signals.declare(n, None);
            signals.set_f64(id, 0.0, Duration::ZERO);
        }
        Rig {
            signals,
            info: VehicleInfo {
                name: "robot1".into(),
                kind: VehicleKind::Ground,
                model: "p3dx".into(),
            },
            events: Events::new(),
            cycle: 0,
        }
    }

    fn step<P: Port>(&mut self, c: &mut LinkController<P>) -> (Status, Actuation) {
        self.cycle += 1;
        let mut a = Actuation::default();
        let mut cyc = Cycle {
            now: Duration::from_millis(50 * self.cycle),
            dt: Duration::from_millis(50),
            cycle: self.cycle,
            robot: 0,
            vehicle: &self.info,
            signals: &self.signals,
            actuation: &mut a,
            events: &mut self.events,
        };
        let s = c.step(&mut cyc).unwrap();
        (s, a)
    }
}

fn step_with(name: &str, tt: i64, attrs: &[(&str, Param)]) -> Step {
    Step {
        dc: 1,
        commands: vec![Command {
            tt,
            name: name.into(),
            attrs: attrs
                .iter()
                .map(|(a, v)| (a.to_string(), v.clone()))
                .collect(),
        }],
        ..Default::default()
    }
}

fn drive() -> Step {
    step_with(
        "set-velocity",
        1,
        &[
            ("linear-velocity", Param::Float(0.3)),
            ("angular-velocity", Param::Float(0.0)),
        ],
    )
}

#[test]
fn lock_step_statuses_and_estop_on_silence_and_halt() {
    let port = Script::default();
    let mut rig = Rig::new();
    let link = Link::new(LinkConfig::new("robot1"));
    let mut c = LinkController::new("soar:test", link, port.clone());
    c.start(&rig.info, &rig.signals).unwrap();
    assert_eq!(port.count(), 1, "the whole input-link at start");
    port.push(Received::Step, drive());
    let (s, a) = rig.step(&mut c);
    assert_eq!(s, Status::Running);
    assert!(matches!(a.drive, Some(Drive::Channels { .. })));
    let statuses = &port.last()["statuses"];
    assert_eq!(statuses[0]["status"], "accepted");
    assert_eq!(statuses[1]["status"], "executing");

    port.push(Received::Silent, Step::default());
    let (_, a) = rig.step(&mut c);
    assert_eq!(a.drive, Some(Drive::Estop), "silence stops the robot");

    port.push(Received::Halted, Step::default());
    let (s, a) = rig.step(&mut c);
    assert_eq!(s, Status::Finished);
    assert_eq!(a.drive, Some(Drive::Estop), "a halted agent's robot stops");
}

#[test]
fn serving_agents_come_and_go() {
    let port = Script::default();
    let mut rig = Rig::new();
    let post = PostOffice::new();
    let link = Link::new(LinkConfig::new("robot1")).with_post_office(post.clone());
    let mut c = LinkController::new("link:robot1", link, port.clone()).serving();
    c.start(&rig.info, &rig.signals).unwrap();
    assert_eq!(port.count(), 0, "no agent yet: nothing sent");
    assert!(
        post.tell("robot1", None, "hello").is_err(),
        "mailbox closed"
    );
    // nobody there: the robot is left alone
    let (s, a) = rig.step(&mut c);
    assert_eq!((s, a.drive), (Status::Running, None));

    port.push(Received::Connected, Step::default());
    rig.step(&mut c);
    let first = port.last();
    assert!(first["add"].as_array().unwrap().len() > 20, "{first}");
    post.tell("robot1", None, "hello there").unwrap();
    port.push(
        Received::Step,
        step_with(
            "add-waypoint",
            5,
            &[("id", Param::Int(1)), ("x", Param::Float(1.0))],
        ),
    );
    rig.step(&mut c);
    port.push(Received::Step, drive());
    let (_, a) = rig.step(&mut c);
    assert!(matches!(a.drive, Some(Drive::Channels { .. })));
    assert_eq!(c.link().waypoints().len(), 1);
    assert_eq!(c.link().messages().len(), 1);

    port.push(Received::Disconnected, Step::default());
    let (s, a) = rig.step(&mut c);
    assert_eq!((s, a.drive), (Status::Running, Some(Drive::Estop)));

    // a new agent: a fresh input-link without the old waypoint or message
    port.push(Received::Connected, Step::default());
    rig.step(&mut c);
    assert!(c.link().waypoints().is_empty() && c.link().messages().is_empty());
    let adds = port.last()["add"].as_array().unwrap().len();
    assert_eq!(adds, first["add"].as_array().unwrap().len());

    port.push(Received::Halted, Step::default());
    let (s, a) = rig.step(&mut c);
    assert_eq!((s, a.drive), (Status::Running, Some(Drive::Estop)));
    port.push(Received::Closed, Step::default());
    let (s, _) = rig.step(&mut c);
    assert_eq!(s, Status::Finished);
    let mut summary = serde_json::Map::new();
    c.summary(&mut summary);
    assert_eq!(summary["commands"], 2, "{summary:?}");
    assert_eq!(summary["soar_agents"][0]["agents_connected"], 2);
    assert_eq!(summary["halted"], true);
}

#[test]
fn the_state_shows_the_input_link_tree_and_the_newest_commands() {
    let port = Script::default();
    let mut rig = Rig::new();
    let link = Link::new(LinkConfig::new("robot1"));
    let mut c = LinkController::new("soar:test", link, port.clone());
    c.start(&rig.info, &rig.signals).unwrap();
    port.push(Received::Step, drive());
    rig.step(&mut c);
    let s = c.state().unwrap();
    assert_eq!(s["agent"], "robot1", "{s}");
    let il = &s["input_link"];
    assert_eq!(il["self"]["name"], "robot1", "{il}");
    assert!(il["self"]["pose"]["x"].is_number(), "{il}");
    let ranges = il["ranges"]["range"]
        .as_array()
        .expect("repeated ^range as an array");
    assert!(ranges.len() > 1, "{il}");
    assert!(ranges.iter().all(|r| r["id"].is_i64()), "{il}");
    assert_eq!(s["commands"][0]["tt"], 1, "{s}");
    assert_eq!(s["commands"][0]["command"], "set-velocity");
    assert_eq!(s["commands"][0]["status"], "executing", "the latest status");
    assert_eq!(s["running"]["command"], "set-velocity", "{s}");

    // an unknown command gets an error with a message; only the newest 16 are kept
    port.push(Received::Step, step_with("fly", 2, &[]));
    rig.step(&mut c);
    let s = c.state().unwrap();
    assert_eq!(s["commands"][1]["status"], "error", "{s}");
    assert!(
        s["commands"][1]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{s}"
    );
    for tt in 3..=30 {
        port.push(Received::Step, step_with("stop", tt, &[]));
        rig.step(&mut c);
    }
    let s = c.state().unwrap();
    let cmds = s["commands"].as_array().unwrap();
    assert_eq!(cmds.len(), skipper_sps::controller::RECENT_COMMANDS, "{s}");
    assert_eq!(cmds.last().unwrap()["tt"], 30);
    assert_eq!(
        cmds[0]["tt"],
        30 - skipper_sps::controller::RECENT_COMMANDS as i64 + 1
    );
}
