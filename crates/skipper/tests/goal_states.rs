//! The run_option and run_mission goals in the controller's state (the `/controller`
//! topic, the dashboard's action goals): `option_goal` and `mission_goal` carry the
//! latest goal's id, status and feedback, and a new mission goal status is a new state
//! version (so the run log writes it).

use serde_json::Value;
use skipper_core::goals::{GoalPort, Record};
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunConfig, Runner};
use skipper_goals::GoalRunner;
use skipper_mission::RUN_MISSION;
use skipper_xabsl::robot::RUN_OPTION;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// Robot 0's state and state version, every cycle.
type Seen = Arc<Mutex<Vec<(Option<u64>, Value)>>>;

struct Watch(Seen);

impl Observer for Watch {
    fn on_cycle(&mut self, v: &CycleView<'_>) {
        let Some(Some(c)) = v.controllers.first() else {
            return;
        };
        let s = c.state().unwrap_or(Value::Null);
        self.0.lock().unwrap().push((c.state_version(), s));
    }
}

fn config(period_ms: u64, secs: u64) -> RunConfig {
    RunConfig {
        period: Duration::from_millis(period_ms),
        until: Some(Duration::from_secs(secs)),
        realtime: false,
        speed: 1.0,
    }
}

#[test]
fn an_option_goal_shows_in_the_state_with_its_status_and_path() {
    let agents = examples().join("xabsl/goals/agents.xabsl");
    let world = Box::new(skipper::vehicles::ground_world(None, None, 0, false).unwrap())
        as Box<dyn skipper_core::World>;
    let (_, xabsl) = skipper::controllers::xabsl_controllers(&agents, &*world)
        .unwrap()
        .into_iter()
        .next()
        .unwrap();
    let (runner, handle) = GoalRunner::new("robot1", Box::new(xabsl));
    let seen: Seen = Arc::default();

    let mut r = Runner::new(world, config(100, 10));
    r.set_controller(0, Box::new(runner));
    r.add_observer(Box::new(Watch(seen.clone())));
    let goal = Record::defaults(RUN_OPTION.goal)
        .with("option", "turn_to")
        .with("parameters", r#"{"yaw": 1.2, "direction": "left"}"#);
    let id = handle.send("run_option", goal).unwrap();
    r.run();
    let seen = seen.lock().unwrap();
    let first = &seen.first().unwrap().1;
    assert!(first["path"].is_array(), "{first}");
    let goals: Vec<&Value> = seen.iter().map(|(_, s)| &s["option_goal"]).collect();
    let active = goals
        .iter()
        .find(|g| g["status"] == "active")
        .unwrap_or_else(|| panic!("no active option goal in {goals:?}"));
    assert_eq!(active["id"], id);
    assert!(
        active["path"].as_str().unwrap().contains("turn_to.turning"),
        "{active}"
    );
    let done = seen.last().unwrap();
    assert_eq!(done.1["option_goal"]["status"], "succeeded", "{}", done.1);
    assert_eq!(done.1["path"][0]["option"], "turn_to", "{}", done.1);
}

#[test]
fn a_mission_goal_shows_in_the_state_and_each_status_is_a_new_version() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.lua");
    std::fs::write(
        &first,
        "NAME = \"First\"\nSTACK = {\n    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.HOUR(2)) };\n}\n",
    )
    .unwrap();
    let short = dir.path().join("short.lua");
    std::fs::write(
        &short,
        "NAME = \"Short\"\nSTACK = {\n    { ID = \"Pause\";\n      { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.MINUTE(1)) };\n    };\n}\n",
    )
    .unwrap();
    let m = skipper::controllers::mission::load(&first).unwrap();
    let world = skipper::controllers::mission::world(&m, None, 0).unwrap();
    let (runner, handle) = GoalRunner::new(
        "tethys",
        Box::new(skipper_mission::MissionController::new(m)),
    );
    let seen: Seen = Arc::default();
    let mut r = Runner::new(Box::new(world), config(200, 120));
    r.set_controller(0, Box::new(runner));
    r.add_observer(Box::new(Watch(seen.clone())));
    let goal = Record::defaults(RUN_MISSION.goal).with("mission", short.display().to_string());
    let id = handle.send("run_mission", goal).unwrap();
    let report = r.run();
    // the goal's one-minute mission ended, and the run went on serving goals to its limit
    assert_eq!(report.sim_time, Duration::from_secs(120), "{report:?}");
    let seen = seen.lock().unwrap();
    let active = seen
        .iter()
        .map(|(_, s)| s)
        .find(|s| s["mission_goal"]["status"] == "active")
        .expect("an active mission goal");
    assert_eq!(active["mission_goal"]["id"], id);
    assert!(
        active["mission_goal"]["items"]
            .as_str()
            .unwrap()
            .contains("Pause"),
        "{active}"
    );
    assert_eq!(active["mission"], "Short", "{active}");
    let last = &seen.last().unwrap().1;
    assert_eq!(last["mission_goal"]["status"], "ended", "{last}");
    assert_eq!(last["mission_goal"]["outcome"], "completed", "{last}");
    // every change of the goal's status came with a new version
    for w in seen.windows(2) {
        if w[0].1["mission_goal"] != w[1].1["mission_goal"] {
            assert!(
                w[0].0.is_some() && w[0].0 != w[1].0,
                "{:?} -> {:?}",
                w[0],
                w[1]
            );
        }
    }
}
