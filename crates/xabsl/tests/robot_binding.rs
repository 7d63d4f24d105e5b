//! An agent as a controller: inputs from signals through a binding file (stateful
//! functions included), basic behaviors and output symbols to actuation, transitions as
//! events, the activation path on the controller topic, finished in a target state.

use skipper_core::{
    Actuation, Controller, Cycle, Drive, Events, GripperCommand, Signals, Status, VehicleInfo,
    VehicleKind,
};
use skipper_xabsl::compile;
use skipper_xabsl::loader::MemLoader;
use skipper_xabsl::robot::XabslController;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

const AGENTS: &str = r#"
include "sym.xabsl";
include "bbs.xabsl";
include "root.xabsl";
agent bot("Bot", root);
"#;

const SYM: &str = r#"
namespace sym("Symbols") {
  enum grip { open, close };
  bool input seen;
  float input seen_for;
  bool input just_seen;
  float input since;
  float input range;
  enum grip output paddles;
}
"#;

const BBS: &str = r#"
namespace bbs("Behaviors") {
  behavior go { float speed; float turn; }
}
"#;

const ROOT: &str = r#"
option root {
  initial state wait {
    decision { if (seen_for >= 3) goto chase; else stay; }
    action { go(speed = 0, turn = 10); paddles = open; }
  }
  state chase {
    decision { if (range < 1000) goto grab; else stay; }
    action { go(speed = range / 10, turn = 0); }
  }
  target state grab {
    action { paddles = close; }
  }
}
"#;

const BINDING: &str = r#"
input seen = cam.seen;
input seen_for = cycles_while(seen);
input just_seen = rising(cam.seen);
input since = ms_since(cam.seen);
input range = cam.distance * 1000;
behavior go: drive(speed, turn * pi / 180);
output paddles: close -> gripper(close), open -> gripper(open);
"#;

fn controller() -> XabslController {
    controller_with(BINDING)
}

fn controller_with(binding: &str) -> XabslController {
    let mut files = MemLoader::new();
    files
        .add("agents.xabsl", AGENTS)
        .add("sym.xabsl", SYM)
        .add("bbs.xabsl", BBS)
        .add("root.xabsl", ROOT);
    let c = compile("agents.xabsl", &files);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    XabslController::new(
        Arc::new(c.program),
        Some((Path::new("agents.binding"), binding)),
    )
    .unwrap()
}

#[test]
fn an_agent_drives_a_robot_through_its_binding() {
    let mut ctl = controller();
    let mut signals = Signals::new();
    let seen = signals.declare("cam.seen", None);
    let dist = signals.declare("cam.distance", None);
    let info = VehicleInfo {
        name: "bot".into(),
        kind: VehicleKind::Ground,
        model: "test".into(),
    };
    ctl.start(&info, &signals).unwrap();
    let mut events = Events::new();
    let mut statuses = Vec::new();
    let mut drives = Vec::new();
    let mut grippers = Vec::new();
    for k in 0..8u64 {
        let now = Duration::from_millis(100 * k);
        signals.begin_cycle();
        signals.set_bool(seen, k >= 2, now);
        signals.set_f64(dist, if k >= 6 { 0.5 } else { 2.0 }, now);
        let mut act = Actuation::default();
        let mut cycle = Cycle {
            now,
            dt: Duration::from_millis(100),
            cycle: k + 1,
            robot: 0,
            vehicle: &info,
            signals: &signals,
            actuation: &mut act,
            events: &mut events,
        };
        statuses.push(ctl.step(&mut cycle).unwrap());
        drives.push(act.drive);
        grippers.push(act.gripper);
    }
    // the ball is seen from cycle 2 on; three cycles later the agent chases it
    assert_eq!(drives[0], Some(Drive::velocity(0.0, 10f64.to_radians())));
    assert_eq!(drives[4], Some(Drive::velocity(200.0, 0.0)));
    assert_eq!(grippers[0], Some(GripperCommand::Open));
    assert_eq!(grippers[4], None, "only when the output is set");
    // in range at cycle 6: grab, a target state: finished, the paddles close
    assert_eq!(statuses[5], Status::Running);
    assert_eq!(statuses[6], Status::Finished);
    assert_eq!(grippers[6], Some(GripperCommand::Close));
    let transitions: Vec<String> = events
        .as_slice()
        .iter()
        .filter(|e| e.kind == "transition")
        .map(|e| format!("{}->{}", e.data["from"], e.data["to"]))
        .collect();
    assert_eq!(
        transitions,
        vec![
            "null->\"wait\"",
            "\"wait\"->\"chase\"",
            "\"chase\"->\"grab\""
        ]
    );
    let state = ctl.state().unwrap();
    assert_eq!(state["path"][0]["state"], "grab");
    assert_eq!(state["inputs"]["seen_for"], 6.0);
    assert_eq!(state["inputs"]["just_seen"], false);
    assert_eq!(state["inputs"]["since"], 0.0);
    assert_eq!(state["outputs"]["paddles"], "grip.close");
}

#[test]
fn a_missing_signal_is_named_at_start() {
    let mut ctl = controller();
    let signals = Signals::new();
    let info = VehicleInfo {
        name: "bot".into(),
        kind: VehicleKind::Ground,
        model: "test".into(),
    };
    let err = ctl.start(&info, &signals).unwrap_err();
    assert!(
        err.message().contains("`cam.seen`") && err.message().contains("`cam.distance`"),
        "{}",
        err.message()
    );
    assert!(!err.message().contains("landmark"), "{}", err.message());
    // a landmark's signals come from the world: the error says where to get them
    let mut ctl = controller_with(&BINDING.replace("cam.distance", "landmark.goal.distance"));
    let err = ctl.start(&info, &signals).unwrap_err();
    assert!(
        err.message().contains("`landmark.goal.distance`")
            && err
                .message()
                .contains("the world's `landmark NAME X Y` lines"),
        "{}",
        err.message()
    );
}

#[test]
fn binding_errors_have_positions() {
    let mut files = MemLoader::new();
    files
        .add("agents.xabsl", AGENTS)
        .add("sym.xabsl", SYM)
        .add("bbs.xabsl", BBS)
        .add("root.xabsl", ROOT);
    let c = compile("agents.xabsl", &files);
    let text =
        "input seen = cam.seen;\ninput nothing = 1;\nbehavior go: drive(speed, twist(turn));\n";
    let err = XabslController::new(Arc::new(c.program), Some((Path::new("x.binding"), text)))
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("x.binding:2:7: error: no input symbol is called `nothing`"),
        "{err}"
    );
    assert!(
        err.contains("x.binding:3:27: error: unknown function `twist`"),
        "{err}"
    );
}

#[test]
fn robots_of_one_run_share_a_capacity_state_through_the_team_bus() {
    let mut files = MemLoader::new();
    files
        .add(
            "agents.xabsl",
            "include \"s.xabsl\";\ninclude \"team.xabsl\";\nagent p(\"P\", team);\n",
        )
        .add("s.xabsl", "namespace s(\"S\") { bool input cam.seen; float output role; }")
        .add(
            "team.xabsl",
            "option team {\n initial state support { decision { if (cam.seen) goto striker; else stay; } action { role = 0; } }\n state striker capacity 1 { decision { if (!cam.seen || conflict) goto support; else stay; } action { role = 1; } }\n}\n",
        );
    let c = compile("agents.xabsl", &files);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    let program = Arc::new(c.program);
    let bus = skipper_xabsl::robot::TeamBus::new(2);
    let mut robots: Vec<XabslController> = (0..2)
        .map(|i| {
            let mut r = XabslController::new(program.clone(), None).unwrap();
            r.join_team(bus.clone(), i);
            r
        })
        .collect();
    let mut signals = Signals::new();
    let seen = signals.declare("cam.seen", None);
    let info = VehicleInfo {
        name: "p".into(),
        kind: VehicleKind::Ground,
        model: "test".into(),
    };
    for r in robots.iter_mut() {
        r.start(&info, &signals).unwrap();
    }
    let mut strikers = Vec::new();
    for k in 0..30u64 {
        let now = Duration::from_millis(100 * k);
        signals.begin_cycle();
        signals.set_bool(seen, true, now);
        let mut who = Vec::new();
        for r in robots.iter_mut() {
            let mut act = Actuation::default();
            let mut events = Events::new();
            let mut cycle = Cycle {
                now,
                dt: Duration::from_millis(100),
                cycle: k + 1,
                robot: 0,
                vehicle: &info,
                signals: &signals,
                actuation: &mut act,
                events: &mut events,
            };
            r.step(&mut cycle).unwrap();
            let team = r.engine().program().option("team").unwrap();
            who.push(r.engine().active_state(team) == 1);
        }
        assert!(!(who[0] && who[1]), "both strikers at cycle {k}");
        strikers.push(who);
    }
    assert!(strikers[29].iter().any(|&x| x), "nobody took the state");
}
