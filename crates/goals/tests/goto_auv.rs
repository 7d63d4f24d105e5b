//! `goto` goals and velocity commands on the simulated AUV: flown to within the default
//! tolerance holding depth, points inside the turning circle reached, a newer goal
//! preempts and a cancel turns the propeller off; velocity commands become setpoints.

mod common;

use common::{GoalHandle, GoalStatus};
use skipper_core::{
    Actuation, AuvSetpoints, Controller, Cycle, Events, RunConfig, Runner, Signals, World,
};
use skipper_goals::pilot::{AuvLimits, AuvPilot, AUV_TOLERANCE};
use skipper_goals::velocity::AuvVelocity;
use skipper_goals::{GoalRunner, Goto};
use skipper_sim::{AuvSite, AuvWorld};
use std::f64::consts::FRAC_PI_2;
use std::time::Duration;

/// A goal runner steering with `pilot`, with nothing under it.
fn with_pilot(pilot: AuvPilot) -> (GoalRunner, GoalHandle) {
    let (g, m) = GoalRunner::new("tethys", Box::new(Goto::new(None, Box::new(pilot))));
    (g, GoalHandle(m))
}

fn world() -> AuvWorld {
    let mut w = AuvWorld::new(AuvSite::default(), 0);
    // 20 m down, heading north
    w.auv_mut().place(0.0, 0.0, 20.0, 0.0);
    w
}

fn origin(w: &AuvWorld) -> (f64, f64) {
    (w.auv().site().latitude, w.auv().site().longitude)
}

/// A run of the AUV with a goal runner and no mission under it.
fn run(until: f64, goals: &[(f64, f64, f64)]) -> (Runner, Vec<GoalStatus>, Vec<f64>) {
    let w = world();
    let pilot = AuvPilot::new(origin(&w), AuvLimits::default());
    let (g, h) = with_pilot(pilot);
    let mut r = Runner::new(
        Box::new(w),
        RunConfig {
            period: Duration::from_millis(200),
            until: Some(Duration::from_secs_f64(until)),
            ..Default::default()
        },
    );
    r.set_controller(0, Box::new(g));
    for &(x, y, t) in goals {
        h.goto(x, y, t);
    }
    let distances = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    r.add_observer(Box::new(Distances(h.clone(), distances.clone())));
    r.run();
    let d = distances.lock().unwrap().clone();
    (r, h.statuses_since(0).0, d)
}

struct Distances(GoalHandle, std::sync::Arc<std::sync::Mutex<Vec<f64>>>);
impl skipper_core::Observer for Distances {
    fn on_cycle(&mut self, _: &skipper_core::runner::CycleView<'_>) {
        if let Some(GoalStatus::Active { distance, .. }) = self.0.status() {
            self.1.lock().unwrap().push(distance);
        }
    }
}

fn succeeded(all: &[GoalStatus]) -> Option<(f64, f64)> {
    all.iter().find_map(|s| match *s {
        GoalStatus::Succeeded { x, y, .. } => Some((x, y)),
        _ => None,
    })
}

#[test]
fn flies_to_a_point_within_the_default_tolerance_holding_depth() {
    let (r, all, d) = run(600.0, &[(-150.0, 80.0, 0.0)]);
    let (x, y) = succeeded(&all).unwrap_or_else(|| panic!("not reached: {all:?}"));
    assert!((x + 150.0).hypot(y - 80.0) <= AUV_TOLERANCE, "({x}, {y})");
    // the remaining distance shrinks once it heads that way, and ends within tolerance
    assert!(d.len() > 100, "{}", d.len());
    assert!(d.windows(2).skip(60).all(|w| w[1] <= w[0]), "{d:?}");
    let v = r.world().vehicle(0).unwrap();
    assert!(
        (v.pose().z + 20.0).abs() < 1.0,
        "held the depth: {:?}",
        v.pose()
    );
}

#[test]
fn points_inside_the_turning_circle_are_reached_too() {
    // beside, behind and just ahead of an AUV heading north, to within a metre or two
    for (px, py, tol) in [
        (4.0, 0.0, 2.0),
        (-9.0, 9.0, 1.0),
        (0.0, -5.0, 1.0),
        (1.0, 3.0, 0.5),
    ] {
        let (_, all, _) = run(600.0, &[(px, py, tol)]);
        let (x, y) = succeeded(&all).unwrap_or_else(|| panic!("({px}, {py}): {all:?}"));
        assert!((x - px).hypot(y - py) <= tol, "({px}, {py}): ({x}, {y})");
    }
}

#[test]
fn a_newer_goal_preempts_and_a_cancel_turns_the_propeller_off() {
    let mut w = world();
    let pilot = AuvPilot::new(origin(&w), AuvLimits::default());
    let (mut g, h) = with_pilot(pilot);
    let mut s = Signals::new();
    let mut ev = Events::new();
    let info = w.vehicle(0).unwrap().info().clone();
    w.vehicle_mut(0)
        .unwrap()
        .sense(Duration::ZERO, &mut s, &mut ev);
    g.start(&info, &s).unwrap();
    let mut step = |g: &mut GoalRunner| {
        let mut a = Actuation::default();
        let mut c = Cycle {
            now: Duration::ZERO,
            dt: Duration::from_millis(200),
            cycle: 1,
            robot: 0,
            vehicle: &info,
            signals: &s,
            actuation: &mut a,
            events: &mut ev,
        };
        g.step(&mut c).unwrap();
        a.auv
    };
    let a = h.goto(0.0, 500.0, 0.0);
    let sp = step(&mut g).unwrap();
    assert_eq!((sp.speed, sp.depth), (Some(1.0), Some(20.0)));
    assert!(sp.heading.unwrap() > 1.5, "north: {sp:?}");
    let b = h.goto(0.0, -500.0, 0.0);
    let sp = step(&mut g).unwrap();
    assert!(sp.heading.is_some() && sp.speed == Some(1.0), "{sp:?}");
    h.cancel();
    let sp = step(&mut g).unwrap();
    assert_eq!(
        sp,
        AuvSetpoints {
            speed: Some(0.0),
            ..Default::default()
        }
    );
    let (all, _) = h.statuses_since(0);
    assert!(all.contains(&GoalStatus::Preempted { id: a }), "{all:?}");
    assert_eq!(h.status(), Some(GoalStatus::Canceled { id: b }));
    // no goal and nothing under the runner: nothing more is asked
    assert_eq!(step(&mut g), None);
}

#[test]
fn velocity_commands_become_setpoints() {
    let mut w = world();
    let mut s = Signals::new();
    let mut ev = Events::new();
    w.vehicle_mut(0)
        .unwrap()
        .sense(Duration::ZERO, &mut s, &mut ev);
    let mut v = AuvVelocity::new(origin(&w), AuvLimits::default());
    // too fast, turning left faster than it can: clamped; no climb holds 20 m
    let sp = v.setpoints(&s, 0.2, 3.0, 1.0, 0.0);
    assert_eq!(sp.speed, Some(1.0));
    let yaw = FRAC_PI_2; // north
    let turn = 6f64.to_radians() * 0.2;
    assert!((sp.heading.unwrap() - (yaw + turn)).abs() < 1e-9, "{sp:?}");
    assert_eq!((sp.depth, sp.depth_rate), (Some(20.0), None));
    // backwards is not possible; climbing 0.2 m/s is a depth rate of -0.2 m/s
    let sp = v.setpoints(&s, 0.2, -1.0, -0.05, 0.2);
    assert_eq!(sp.speed, Some(0.0));
    assert!((sp.heading.unwrap() - (yaw - 0.01)).abs() < 1e-9, "{sp:?}");
    assert_eq!((sp.depth, sp.depth_rate), (None, Some(-0.2)));
    let sp = v.setpoints(&s, 0.2, f64::NAN, f64::INFINITY, f64::NAN);
    assert_eq!(sp.speed, Some(0.0));
    assert_eq!(sp.depth, Some(20.0));
}
