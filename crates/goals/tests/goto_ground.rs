//! `goto` goals on a simulated ground robot: driven to within the tolerance, a newer goal
//! preempts, a cancel stops the robot, and the state shows where the goal is.

mod common;

use common::{GoalHandle, GoalStatus};
use skipper_core::{Controller, Cycle, RunConfig, Runner};
use skipper_goals::pilot::GroundPilot;
use skipper_goals::{GoalRunner, Goto};
use skipper_sim::{parse_world, GroundWorld};
use std::time::Duration;

/// The goal runner of a ground robot with nothing under it.
fn goal_runner() -> (GoalRunner, GoalHandle) {
    let goto = Goto::new(None, Box::new(GroundPilot::default()));
    let (g, mailbox) = GoalRunner::new("r", Box::new(goto));
    (g, GoalHandle(mailbox))
}

fn runner(world: &str, until: f64) -> (Runner, GoalHandle) {
    let spec = parse_world(world, "t.world", None).unwrap();
    let w = GroundWorld::new(&spec, 0).unwrap();
    let mut r = Runner::new(
        Box::new(w),
        RunConfig {
            until: Some(Duration::from_secs_f64(until)),
            ..Default::default()
        },
    );
    let (g, h) = goal_runner();
    r.set_controller(0, Box::new(g));
    (r, h)
}

#[test]
fn drives_to_a_goal_and_reports_success() {
    let (mut r, h) = runner("box 0 0 20 20\nrobot r 0 0 0\n", 40.0);
    let id = h.goto(3.0, 2.0, 0.1);
    r.run();
    match h.status().unwrap() {
        GoalStatus::Succeeded { id: got, x, y, .. } => {
            assert_eq!(got, id);
            assert!((x - 3.0).hypot(y - 2.0) <= 0.1, "stopped at ({x}, {y})");
        }
        s => panic!("not reached: {s:?}"),
    }
    let (all, _) = h.statuses_since(0);
    assert_eq!(all.first(), Some(&GoalStatus::Pending { id }));
}

/// A ground world of one robot at the origin, sensed once, and a way to step `g` in it.
struct Bench {
    info: skipper_core::VehicleInfo,
    signals: skipper_core::Signals,
    events: skipper_core::Events,
}

impl Bench {
    fn new() -> Self {
        use skipper_core::World;
        let spec = parse_world("box 0 0 20 20\nrobot r 0 0 0\n", "t.world", None).unwrap();
        let mut w = GroundWorld::new(&spec, 0).unwrap();
        let mut signals = skipper_core::Signals::new();
        let mut events = skipper_core::Events::new();
        let info = w.vehicle(0).unwrap().info().clone();
        w.vehicle_mut(0)
            .unwrap()
            .sense(Duration::ZERO, &mut signals, &mut events);
        Bench {
            info,
            signals,
            events,
        }
    }

    fn step(&mut self, g: &mut dyn Controller, now: u64) -> Option<skipper_core::Drive> {
        let mut a = skipper_core::Actuation::default();
        let mut c = Cycle {
            now: Duration::from_millis(now),
            dt: Duration::from_millis(100),
            cycle: now / 100 + 1,
            robot: 0,
            vehicle: &self.info,
            signals: &self.signals,
            actuation: &mut a,
            events: &mut self.events,
        };
        g.step(&mut c).unwrap();
        a.drive
    }
}

#[test]
fn the_state_shows_where_the_active_goal_is() {
    let (mut g, h) = goal_runner();
    assert!(g.state().is_none());
    let mut b = Bench::new();
    g.start(&b.info, &b.signals).unwrap();
    h.goto(1.5, -2.0, 0.2);
    b.step(&mut g, 0);
    let s = g.state().unwrap();
    assert_eq!(s["target"]["x"], 1.5);
    assert_eq!(s["target"]["y"], -2.0);
    assert_eq!(s["target"]["tolerance"], 0.2);
}

#[test]
fn a_new_goal_preempts_and_cancel_stops() {
    let mut b = Bench::new();
    let (mut g, h) = goal_runner();
    g.start(&b.info, &b.signals).unwrap();
    let a = h.goto(5.0, 0.0, 0.1);
    assert!(matches!(
        b.step(&mut g, 0),
        Some(skipper_core::Drive::Channels { .. })
    ));
    assert!(matches!(h.status(), Some(GoalStatus::Active { id, .. }) if id == a));
    let bb = h.goto(-5.0, 0.0, 0.1);
    b.step(&mut g, 100);
    h.cancel();
    assert_eq!(b.step(&mut g, 200), Some(skipper_core::Drive::Stop));
    let (all, _) = h.statuses_since(0);
    assert!(all.contains(&GoalStatus::Preempted { id: a }), "{all:?}");
    assert_eq!(h.status(), Some(GoalStatus::Canceled { id: bb }));
    let kinds: Vec<_> = b
        .events
        .as_slice()
        .iter()
        .map(|e| e.data["status"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(kinds, ["preempted", "canceled"]);
}

#[test]
fn a_goal_that_cannot_run_is_refused_at_once() {
    let (mut g, h) = goal_runner();
    let mut b = Bench::new();
    g.start(&b.info, &b.signals).unwrap();
    let id = h.goto(f64::NAN, 1.0, 0.0);
    assert_eq!(
        h.status(),
        Some(GoalStatus::Aborted {
            id,
            reason: "x, y and tolerance must be finite numbers".into()
        })
    );
    assert_eq!(b.step(&mut g, 0), None, "nothing drives");
}
