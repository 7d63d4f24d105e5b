//! The cycle runner: time limits, finishing, failing, interruption, estop, stopping.

use skipper_core::*;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A one-dimensional cart: velocity commands move it; it records what it was told.
struct Cart {
    info: VehicleInfo,
    x: f64,
    v: f64,
    stopped: bool,
    drives: Arc<Mutex<Vec<Option<Drive>>>>,
    x_id: Option<SignalId>,
}

impl Vehicle for Cart {
    fn info(&self) -> &VehicleInfo {
        &self.info
    }
    fn sense(&mut self, now: Duration, s: &mut Signals, _e: &mut Events) {
        let id = *self
            .x_id
            .get_or_insert_with(|| s.declare("pose.x", Some(&units::METER)));
        s.set_f64(id, self.x, now);
    }
    fn act(&mut self, _now: Duration, a: &Actuation, _e: &mut Events) {
        self.drives.lock().unwrap().push(a.drive);
        match a.drive {
            Some(Drive::Channels {
                translation: Some(Translation::Velocity(v)),
                ..
            }) => self.v = v,
            Some(Drive::Estop) | Some(Drive::Stop) => self.v = 0.0,
            _ => {}
        }
    }
    fn stop(&mut self, _now: Duration, _e: &mut Events) {
        self.v = 0.0;
        self.stopped = true;
    }
    fn pose(&self) -> Pose3 {
        Pose3 {
            x: self.x,
            ..Default::default()
        }
    }
    fn odometer(&self) -> f64 {
        self.x.abs()
    }
}

struct Track {
    carts: Vec<Cart>,
    stopped: Arc<Mutex<Vec<bool>>>,
}

impl World for Track {
    fn len(&self) -> usize {
        self.carts.len()
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        self.carts.get(i).map(|c| c as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        self.carts.get_mut(i).map(|c| c as &mut dyn Vehicle)
    }
    fn advance(&mut self, _now: Duration, dt: Duration, _e: &mut Events) {
        for c in &mut self.carts {
            c.x += c.v * dt.as_secs_f64();
        }
        *self.stopped.lock().unwrap() = self.carts.iter().map(|c| c.stopped).collect();
    }
}

impl Drop for Track {
    fn drop(&mut self) {
        *self.stopped.lock().unwrap() =
            self.carts.iter().map(|c| c.stopped && c.v == 0.0).collect();
    }
}

struct Probe {
    drives: Arc<Mutex<Vec<Option<Drive>>>>,
    stopped: Arc<Mutex<Vec<bool>>>,
}

fn track(n: usize) -> (Box<Track>, Probe) {
    let drives = Arc::new(Mutex::new(Vec::new()));
    let stopped = Arc::new(Mutex::new(Vec::new()));
    let carts = (0..n)
        .map(|i| Cart {
            info: VehicleInfo {
                name: format!("cart{i}"),
                kind: VehicleKind::Ground,
                model: "cart".into(),
            },
            x: 0.0,
            v: 0.0,
            stopped: false,
            drives: drives.clone(),
            x_id: None,
        })
        .collect();
    (
        Box::new(Track {
            carts,
            stopped: stopped.clone(),
        }),
        Probe { drives, stopped },
    )
}

/// Drives forward at 1 m/s; finishes at `goal` metres; fails at `fail_at` cycles.
struct GoTo {
    goal: f64,
    fail_at: Option<u64>,
    x: Option<SignalId>,
    control: Option<Arc<RunControl>>,
    stop_at: Option<u64>,
    estop_at: Option<u64>,
    /// with `estop_at`: the estop of this vehicle alone
    estop_one: Option<usize>,
}

impl GoTo {
    fn new(goal: f64) -> Self {
        Self {
            goal,
            fail_at: None,
            x: None,
            control: None,
            stop_at: None,
            estop_at: None,
            estop_one: None,
        }
    }
}

impl Controller for GoTo {
    fn name(&self) -> &str {
        "goto"
    }
    fn start(&mut self, _v: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.x = s.id("pose.x");
        self.x
            .map(|_| ())
            .ok_or_else(|| ControllerError::new("no pose.x"))
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        if Some(c.cycle) == self.fail_at {
            return Err(ControllerError::new("boom"));
        }
        if let Some(ctl) = &self.control {
            if Some(c.cycle) == self.stop_at {
                ctl.request_stop();
            }
            if Some(c.cycle) == self.estop_at {
                match self.estop_one {
                    Some(i) => assert!(ctl.set_estop_for(i, true)),
                    None => ctl.set_estop(true),
                }
            }
        }
        let x = c.signals.f64(self.x.unwrap()).unwrap();
        if x >= self.goal {
            c.actuation.drive = Some(Drive::Stop);
            return Ok(Status::Finished);
        }
        c.actuation.drive = Some(Drive::velocity(1.0, 0.0));
        Ok(Status::Running)
    }
}

fn config(until: Option<f64>) -> RunConfig {
    RunConfig {
        until: until.map(Duration::from_secs_f64),
        ..Default::default()
    }
}

#[test]
fn time_limit_runs_exactly_the_cycles_it_needs() {
    let (w, probe) = track(1);
    let mut r = Runner::new(w, config(Some(10.0)));
    r.set_controller(0, Box::new(GoTo::new(1e9)));
    let rep = r.run();
    assert_eq!(rep.outcome, RunOutcome::TimeLimit);
    assert_eq!(rep.cycles, 100);
    assert_eq!(rep.sim_time, Duration::from_secs(10));
    assert!((rep.distance_m - 10.0).abs() < 1e-9, "{}", rep.distance_m);
    drop(r);
    assert_eq!(*probe.stopped.lock().unwrap(), vec![true]);
}

#[test]
fn finishes_when_every_controller_has_finished() {
    let (w, _probe) = track(2);
    let mut r = Runner::new(w, config(Some(100.0)));
    r.set_controller(0, Box::new(GoTo::new(1.0)));
    r.set_controller(1, Box::new(GoTo::new(3.0)));
    let rep = r.run();
    assert_eq!(rep.outcome, RunOutcome::Finished);
    // the second cart needs 3 m at 1 m/s = 30 cycles of driving, finishing on the 31st
    assert_eq!(rep.cycles, 31);
}

#[test]
fn a_failing_controller_fails_the_run_and_stops_the_vehicles() {
    let (w, probe) = track(1);
    let mut r = Runner::new(w, config(None));
    let mut c = GoTo::new(1e9);
    c.fail_at = Some(5);
    r.set_controller(0, Box::new(c));
    let rep = r.run();
    assert_eq!(rep.outcome.as_str(), "failed");
    assert!(rep.outcome.reason().unwrap().contains("boom"));
    assert_eq!(rep.cycles, 5);
    drop(r);
    assert_eq!(*probe.stopped.lock().unwrap(), vec![true]);
}

#[test]
fn a_stop_request_interrupts_after_the_cycle() {
    let (w, probe) = track(1);
    let mut r = Runner::new(w, config(None));
    let mut c = GoTo::new(1e9);
    c.control = Some(r.control());
    c.stop_at = Some(7);
    r.set_controller(0, Box::new(c));
    let rep = r.run();
    assert_eq!(rep.outcome, RunOutcome::Interrupted);
    assert_eq!(rep.cycles, 7);
    drop(r);
    assert_eq!(*probe.stopped.lock().unwrap(), vec![true]);
}

#[test]
fn estop_overrides_the_controller_in_the_same_cycle() {
    let (w, probe) = track(1);
    let mut r = Runner::new(w, config(Some(2.0)));
    let mut c = GoTo::new(1e9);
    c.control = Some(r.control());
    c.estop_at = Some(4);
    r.set_controller(0, Box::new(c));
    let rep = r.run();
    assert_eq!(rep.outcome, RunOutcome::TimeLimit);
    let drives = probe.drives.lock().unwrap();
    assert_eq!(drives[2], Some(Drive::velocity(1.0, 0.0)));
    assert!(
        drives[3..].iter().all(|d| *d == Some(Drive::Estop)),
        "{drives:?}"
    );
    // 3 cycles of driving at 1 m/s
    assert!((rep.distance_m - 0.3).abs() < 1e-9);
}

#[test]
fn a_vehicles_own_estop_stops_it_alone_in_the_same_cycle_until_released() {
    let (w, probe) = track(2);
    let mut r = Runner::new(w, config(Some(1.0)));
    let ctl = r.control();
    let mut c = GoTo::new(1e9);
    c.control = Some(ctl.clone());
    c.estop_at = Some(4);
    c.estop_one = Some(1);
    r.set_controller(0, Box::new(c));
    r.set_controller(1, Box::new(GoTo::new(1e9)));
    let rep = r.run();
    assert_eq!(rep.outcome, RunOutcome::TimeLimit);
    assert!(ctl.estop_for(1) && !ctl.estop_for(0) && !ctl.estop());
    let drives = probe.drives.lock().unwrap();
    // two carts act in turn each cycle: cart0 at even indices, cart1 at odd ones
    let (cart0, cart1): (Vec<_>, Vec<_>) = drives.chunks(2).map(|d| (d[0], d[1])).unzip();
    assert_eq!(cart1[2], Some(Drive::velocity(1.0, 0.0)));
    assert!(
        cart1[3..].iter().all(|d| *d == Some(Drive::Estop)),
        "{cart1:?}"
    );
    assert!(
        cart0.iter().all(|d| *d == Some(Drive::velocity(1.0, 0.0))),
        "{cart0:?}"
    );
    assert!(ctl.set_estop_for(1, false) && !ctl.estop_for(1));
    assert!(!ctl.set_estop_for(64, true) && !ctl.estop_for(64));
}

#[test]
fn summary_json_has_the_contract_keys() {
    let (w, _) = track(1);
    let mut r = Runner::new(w, config(Some(1.0)));
    let rep = r.run();
    let j = rep.summary_json(true);
    for k in [
        "outcome",
        "sim_time_s",
        "wall_time_s",
        "cycles",
        "distance_m",
        "collisions",
    ] {
        assert!(j.get(k).is_some(), "missing {k}");
    }
    assert!(rep.summary_json(false).get("wall_time_s").is_none());
    assert_eq!(j["outcome"], "time_limit");
}

/// Records which signals each cycle reports as changed.
struct ChangeLog(Arc<Mutex<Vec<usize>>>);

impl Observer for ChangeLog {
    fn on_cycle(&mut self, v: &skipper_core::runner::CycleView<'_>) {
        self.0.lock().unwrap().push(v.signals[0].changed().count());
    }
}

#[test]
fn the_first_cycle_reports_every_signal_and_later_ones_only_changes() {
    let (w, _) = track(1);
    let mut r = Runner::new(w, config(Some(0.5)));
    let counts = Arc::new(Mutex::new(Vec::new()));
    r.add_observer(Box::new(ChangeLog(counts.clone())));
    r.run();
    // pose.x never changes: the cart has no controller
    assert_eq!(*counts.lock().unwrap(), vec![1, 0, 0, 0, 0]);
}
