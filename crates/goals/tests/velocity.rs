//! Velocity commands over the AUV's goal runner and mission: a fresh command overrides
//! the goal, then the vehicle stops once and the goal and mission drive again; an estop
//! wins over a fresh command.

mod common;

use common::{GoalHandle, GoalStatus};
use skipper_core::runner::CycleView;
use skipper_core::velocity::{VelocityCommand, VelocityInbox};
use skipper_core::{Actuation, Drive, Observer, RunConfig, Runner};
use skipper_goals::pilot::{AuvLimits, AuvPilot};
use skipper_goals::velocity::AuvVelocity;
use skipper_goals::{GoalRunner, Goto, VelocityOverride};
use skipper_sim::{AuvSite, AuvWorld};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LOITER: &str = "NAME = \"Loiter\"\nSTACK = {\n    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.HOUR(2)) };\n}\n";

/// The wall clock of the test: one cycle is 100 ms of it.
#[derive(Clone)]
struct FakeClock(Arc<Mutex<Instant>>);

/// Records each cycle's actuation and advances the fake clock.
struct Tape(FakeClock, Arc<Mutex<Vec<Actuation>>>);

impl Observer for Tape {
    fn on_cycle(&mut self, v: &CycleView<'_>) {
        if let Some(a) = v.actuation.first() {
            self.1.lock().unwrap().push(a.clone());
        }
        *self.0 .0.lock().unwrap() += Duration::from_millis(100);
    }
}

/// The AUV 20 m down heading north, a loitering mission under a goal runner, and
/// `cmd_vel` over both; a run of `until` s at 5 Hz.
fn auv_run(
    until: f64,
) -> (
    Runner,
    GoalHandle,
    VelocityInbox,
    FakeClock,
    Arc<Mutex<Vec<Actuation>>>,
) {
    let mut w = AuvWorld::new(AuvSite::default(), 0);
    w.auv_mut().place(0.0, 0.0, 20.0, 0.0);
    let origin = (w.auv().site().latitude, w.auv().site().longitude);
    let m = skipper_mission::load_str(LOITER, "loiter.lua").unwrap();
    let mission = skipper_mission::MissionController::new(Arc::new(m));
    let pilot = AuvPilot::new(origin, AuvLimits::default());
    let goto = Goto::new(Some(Box::new(mission)), Box::new(pilot));
    let (g, goals) = GoalRunner::new("tethys", Box::new(goto));
    let goals = GoalHandle(goals);
    let commands = VelocityInbox::default();
    let clock = FakeClock(Arc::new(Mutex::new(Instant::now())));
    let c2 = clock.clone();
    let velocity = AuvVelocity::new(origin, AuvLimits::default());
    let c = VelocityOverride::new(Box::new(g), commands.clone(), Box::new(velocity))
        .with_clock(Arc::new(move || *c2.0.lock().unwrap()));
    let mut r = Runner::new(
        Box::new(w),
        RunConfig {
            period: Duration::from_millis(200),
            until: Some(Duration::from_secs_f64(until)),
            ..Default::default()
        },
    );
    r.set_controller(0, Box::new(c));
    let tape: Arc<Mutex<Vec<Actuation>>> = Arc::default();
    r.add_observer(Box::new(Tape(clock.clone(), tape.clone())));
    (r, goals, commands, clock, tape)
}

fn twist(speed: f64, yaw_rate: f64) -> VelocityCommand {
    VelocityCommand {
        forward: speed,
        turn_rate: yaw_rate,
        climb: 0.0,
    }
}

#[test]
fn a_command_overrides_the_goal_then_stops_once_and_the_goal_and_mission_drive_again() {
    let (mut r, goals, commands, clock, tape) = auv_run(120.0);
    let id = goals.goto(0.0, 60.0, 0.0);
    commands.put(twist(0.6, 0.05), *clock.0.lock().unwrap());
    r.run();
    let tape = tape.lock().unwrap();
    let sp: Vec<_> = tape.iter().map(|a| a.auv.unwrap_or_default()).collect();
    // five cycles of 100 ms are fresh: the command flies the AUV, turning left,
    // holding its depth
    for s in &sp[..5] {
        assert_eq!((s.speed, s.depth), (Some(0.6), Some(20.0)), "{s:?}");
    }
    let (h0, h1) = (sp[0].heading.unwrap(), sp[1].heading.unwrap());
    assert!(h0 > std::f64::consts::FRAC_PI_2 && h1 > h0, "{sp:?}");
    // then it stops once: the propeller off, nothing else
    assert_eq!(
        sp[5],
        skipper_core::AuvSetpoints {
            speed: Some(0.0),
            ..Default::default()
        }
    );
    // and the goal flies on at cruise speed, holding the depth, until reached
    assert_eq!((sp[6].speed, sp[6].depth), (Some(1.0), Some(20.0)));
    assert!(
        matches!(goals.status(), Some(GoalStatus::Succeeded { id: got, .. }) if got == id),
        "{:?}",
        goals.status()
    );
    // after it, the mission (held meanwhile) drives again: it loiters, level,
    // propeller off
    let last = sp.last().unwrap();
    assert_eq!(
        (last.speed, last.pitch, last.depth),
        (Some(0.0), Some(0.0), None)
    );
}

#[test]
fn an_estop_wins_over_a_fresh_command() {
    for estop in [false, true] {
        let (mut r, _, commands, clock, tape) = auv_run(30.0);
        // fresh all along: the clock stands still
        let c2 = clock.clone();
        commands.put(twist(1.0, 0.0), *c2.0.lock().unwrap());
        r.add_observer(Box::new(Freeze(c2)));
        r.control().set_estop(estop);
        r.run();
        let moved = r.world().vehicle(0).unwrap().odometer();
        let tape = tape.lock().unwrap();
        assert!(tape
            .iter()
            .all(|a| a.auv.and_then(|s| s.speed) == Some(1.0)));
        if estop {
            assert!(tape.iter().all(|a| a.drive == Some(Drive::Estop)));
            assert_eq!(moved, 0.0);
        } else {
            assert!(moved > 10.0, "{moved}");
        }
    }
}

/// Sets the fake clock back each cycle, so a command stays fresh.
struct Freeze(FakeClock);
impl Observer for Freeze {
    fn on_cycle(&mut self, _: &CycleView<'_>) {
        *self.0 .0.lock().unwrap() -= Duration::from_millis(100);
    }
}
