//! `/<vehicle>/cmd_vel` (`geometry_msgs/Twist`): a fresh velocity command overrides every
//! controller of the vehicle (the goal runner and the run's controller under it, which
//! go on stepping); when the commands go silent for [`CMD_VEL_TIMEOUT`] (wall-clock time,
//! as ROS peers live in it) the vehicle stops once and the controllers drive again.
//!
//! How a vehicle obeys a command is its [`VelocityMap`]: a ground robot drives with
//! `linear.x` (m/s) and `angular.z` (rad/s, counter-clockwise) and stops with a
//! graceful stop; the AUV takes `linear.x` as its speed, `angular.z` as a yaw rate and
//! `linear.z` as a climb rate ([`crate::controllers::auv_pilot::AuvVelocity`]) and stops
//! by turning its propeller off. An estop is applied by the runner after every
//! controller, so it wins over a command.

use crate::controllers::auv_pilot::AuvVelocity;
use skipper_actionlib::msg::common::Twist;
use skipper_core::{Controller, ControllerError, Cycle, Drive, Signals, Status, VehicleInfo};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a velocity command holds before the vehicle stops.
pub const CMD_VEL_TIMEOUT: Duration = Duration::from_millis(500);

/// The latest command and when it came; clones share it (the subscriber's thread puts,
/// the cycle reads).
#[derive(Debug, Clone, Default)]
pub struct CmdVelBox(Arc<Mutex<Option<(Twist, Instant)>>>);

impl CmdVelBox {
    /// A command that came at `at`.
    pub fn put(&self, t: Twist, at: Instant) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some((t, at));
        }
    }

    fn latest(&self) -> Option<(Twist, Instant)> {
        self.0.lock().ok().and_then(|g| g.clone())
    }
}

/// How a vehicle obeys a velocity command.
pub trait VelocityMap {
    /// Drive by `t` this cycle.
    fn apply(&mut self, t: &Twist, c: &mut Cycle<'_>);
    /// The commands went silent: stop (once).
    fn stop(&mut self, c: &mut Cycle<'_>);
}

/// A ground robot: velocity drive, graceful stop.
#[derive(Debug, Default)]
pub struct GroundVelocity;

impl VelocityMap for GroundVelocity {
    fn apply(&mut self, t: &Twist, c: &mut Cycle<'_>) {
        c.actuation.drive = Some(Drive::velocity(t.linear.x, t.angular.z));
    }
    fn stop(&mut self, c: &mut Cycle<'_>) {
        c.actuation.drive = Some(Drive::Stop);
    }
}

impl VelocityMap for AuvVelocity {
    /// Every AUV setpoint is replaced, samples included: the command flies the vehicle.
    fn apply(&mut self, t: &Twist, c: &mut Cycle<'_>) {
        let sp = self.setpoints(
            c.signals,
            c.dt.as_secs_f64(),
            t.linear.x,
            t.angular.z,
            t.linear.z,
        );
        c.actuation.auv = Some(sp);
    }
    fn stop(&mut self, c: &mut Cycle<'_>) {
        AuvVelocity::stop(self, c.actuation);
    }
}

/// The wall clock of the command timeout (tests give their own).
pub type Now = Arc<dyn Fn() -> Instant + Send + Sync>;

/// A vehicle's controller whose actuation fresh velocity commands override.
pub struct VelocityOverride {
    inner: Box<dyn Controller>,
    commands: CmdVelBox,
    map: Box<dyn VelocityMap>,
    now: Now,
    active: bool,
}

impl VelocityOverride {
    /// Override `inner` with the commands put in `commands`, obeyed as `map` says.
    pub fn new(inner: Box<dyn Controller>, commands: CmdVelBox, map: Box<dyn VelocityMap>) -> Self {
        Self {
            inner,
            commands,
            map,
            now: Arc::new(Instant::now),
            active: false,
        }
    }

    /// Judge freshness by `now` instead of the wall clock.
    pub fn with_clock(mut self, now: Now) -> Self {
        self.now = now;
        self
    }
}

impl Controller for VelocityOverride {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.inner.start(vehicle, s)
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let st = self.inner.step(c)?;
        let now = (self.now)();
        match self.commands.latest() {
            Some((t, at)) if now.saturating_duration_since(at) < CMD_VEL_TIMEOUT => {
                self.map.apply(&t, c);
                self.active = true;
            }
            _ if self.active => {
                // the velocity commands went silent: stop once, then hand back
                self.map.stop(c);
                self.active = false;
            }
            _ => {}
        }
        Ok(st)
    }
    fn state(&self) -> Option<serde_json::Value> {
        self.inner.state()
    }
    fn state_version(&self) -> Option<u64> {
        self.inner.state_version()
    }
    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        self.inner.summary(out);
    }
    fn finish(&mut self) {
        self.inner.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controllers::auv_pilot::{AuvLimits, AuvPilot};
    use crate::controllers::goal::{GoalHandle, GoalRunner, GoalStatus};
    use skipper_actionlib::msg::common::Vector3;
    use skipper_core::runner::CycleView;
    use skipper_core::{Actuation, Observer, RunConfig, Runner};
    use skipper_sim::{AuvSite, AuvWorld};

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
        CmdVelBox,
        FakeClock,
        Arc<Mutex<Vec<Actuation>>>,
    ) {
        let mut w = AuvWorld::new(AuvSite::default(), 0);
        w.auv_mut().place(0.0, 0.0, 20.0, 0.0);
        let origin = (w.auv().site().latitude, w.auv().site().longitude);
        let m = skipper_mission::load_str(LOITER, "loiter.lua").unwrap();
        let mission = skipper_mission::MissionController::new(Arc::new(m));
        let pilot = AuvPilot::new(origin, AuvLimits::default());
        let (g, goals) = GoalRunner::with_pilot(Some(Box::new(mission)), Box::new(pilot));
        let commands = CmdVelBox::default();
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

    fn twist(speed: f64, yaw_rate: f64) -> Twist {
        Twist {
            linear: Vector3 {
                x: speed,
                ..Default::default()
            },
            angular: Vector3 {
                z: yaw_rate,
                ..Default::default()
            },
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
}
