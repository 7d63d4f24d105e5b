//! The goal runner: drives a vehicle to goals sent from outside the run (an actionlib
//! `goto` goal, a click on the dashboard's map), on top of the run's own controller.
//!
//! While a goal is active its [`Pilot`] steers the vehicle there (a ground robot turns
//! toward the goal, drives, slows near it and goes round what its front sonars see; the
//! AUV heads for it at cruise speed holding its depth), and the inner controller is not
//! stepped: it is held, and drives again from the cycle after the goal ends. With no goal,
//! the inner controller drives (or the vehicle stands still if there is none). A new goal
//! preempts the active one; a cancel stops the vehicle. Goals and statuses cross threads
//! through a [`GoalHandle`].

use super::pilot::{GroundPilot, Pilot};
use skipper_core::{Controller, ControllerError, Cycle, Signals, Status, VehicleInfo};
use std::sync::{Arc, Mutex};

/// Where a goal stands.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum GoalStatus {
    /// Sent, not yet taken up by the robot's cycle.
    Pending {
        /// goal id
        id: u64,
    },
    /// Being driven to.
    Active {
        /// goal id
        id: u64,
        /// distance left (m)
        distance: f64,
    },
    /// Reached; the pose where the robot stopped.
    Succeeded {
        /// goal id
        id: u64,
        /// x (m)
        x: f64,
        /// y (m)
        y: f64,
        /// yaw (rad)
        yaw: f64,
    },
    /// Cancelled; the robot stopped.
    Canceled {
        /// goal id
        id: u64,
    },
    /// Replaced by a newer goal.
    Preempted {
        /// goal id
        id: u64,
    },
    /// Given up.
    Aborted {
        /// goal id
        id: u64,
        /// why
        reason: String,
    },
}

impl GoalStatus {
    /// The goal's id.
    pub fn id(&self) -> u64 {
        match *self {
            GoalStatus::Pending { id }
            | GoalStatus::Active { id, .. }
            | GoalStatus::Succeeded { id, .. }
            | GoalStatus::Canceled { id }
            | GoalStatus::Preempted { id }
            | GoalStatus::Aborted { id, .. } => id,
        }
    }
    /// `true` once the goal is over.
    pub fn is_terminal(&self) -> bool {
        !matches!(self, GoalStatus::Pending { .. } | GoalStatus::Active { .. })
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Goto {
    id: u64,
    x: f64,
    y: f64,
    tolerance: f64,
}

#[derive(Debug, Default)]
struct Shared {
    next_id: u64,
    /// a goal sent and not yet taken up
    pending: Option<Goto>,
    cancel: bool,
    /// statuses in order, for whoever watches (bounded)
    history: Vec<GoalStatus>,
    latest: Option<GoalStatus>,
}

impl Shared {
    fn publish(&mut self, s: GoalStatus) {
        if self.history.len() >= 256 {
            self.history.remove(0);
        }
        self.history.push(s.clone());
        self.latest = Some(s);
    }
}

/// Sends goals to a robot's goal runner from any thread.
#[derive(Debug, Clone, Default)]
pub struct GoalHandle(Arc<Mutex<Shared>>);

impl GoalHandle {
    /// Send a goal: drive to (x, y) (m, the frame of the vehicle's published pose) until
    /// within `tolerance` m (0, negative or not a number: the vehicle's default, see
    /// [`Pilot::default_tolerance`]). Returns its id. Preempts any active goal.
    pub fn goto(&self, x: f64, y: f64, tolerance: f64) -> u64 {
        let Ok(mut s) = self.0.lock() else { return 0 };
        s.next_id += 1;
        let id = s.next_id;
        s.pending = Some(Goto {
            id,
            x,
            y,
            tolerance,
        });
        s.cancel = false;
        s.publish(GoalStatus::Pending { id });
        id
    }
    /// Cancel the active or pending goal; the robot stops.
    pub fn cancel(&self) {
        if let Ok(mut s) = self.0.lock() {
            s.cancel = true;
        }
    }
    /// The latest status.
    pub fn status(&self) -> Option<GoalStatus> {
        self.0.lock().ok().and_then(|s| s.latest.clone())
    }
    /// Statuses since the one at `from` (an index into the bounded history), and the next index.
    pub fn statuses_since(&self, from: usize) -> (Vec<GoalStatus>, usize) {
        match self.0.lock() {
            Ok(s) => (
                s.history.get(from..).map(<[_]>::to_vec).unwrap_or_default(),
                s.history.len(),
            ),
            Err(_) => (Vec::new(), from),
        }
    }
}

/// A controller that serves goals and otherwise lets an inner controller drive.
pub struct GoalRunner {
    inner: Option<Box<dyn Controller>>,
    handle: GoalHandle,
    active: Option<Goto>,
    pilot: Box<dyn Pilot>,
    name: String,
    inner_finished: bool,
}

impl GoalRunner {
    /// Serve a ground robot's goals on top of `inner` (or of standing still).
    pub fn new(inner: Option<Box<dyn Controller>>) -> (Self, GoalHandle) {
        Self::with_pilot(inner, Box::new(GroundPilot::default()))
    }

    /// Serve goals on top of `inner`, steering with `pilot`.
    pub fn with_pilot(
        inner: Option<Box<dyn Controller>>,
        pilot: Box<dyn Pilot>,
    ) -> (Self, GoalHandle) {
        let handle = GoalHandle::default();
        let name = match &inner {
            Some(c) => format!("{}+goals", c.name()),
            None => "goals".into(),
        };
        (
            Self {
                inner,
                handle: handle.clone(),
                active: None,
                pilot,
                name,
                inner_finished: false,
            },
            handle,
        )
    }
}

impl Controller for GoalRunner {
    fn name(&self) -> &str {
        &self.name
    }

    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.pilot.start(vehicle, s)?;
        match self.inner.as_mut() {
            Some(c) => c.start(vehicle, s),
            None => Ok(()),
        }
    }

    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let (pending, cancel) = match self.handle.0.lock() {
            Ok(mut s) => (s.pending.take(), std::mem::take(&mut s.cancel)),
            Err(_) => (None, false),
        };
        let publish = |st: GoalStatus, c: &mut Cycle<'_>| {
            c.events
                .push(c.now, "goal", serde_json::to_value(&st).unwrap_or_default());
            if let Ok(mut s) = self.handle.0.lock() {
                s.publish(st);
            }
        };
        if let Some(mut g) = pending {
            if let Some(old) = self.active.take() {
                publish(GoalStatus::Preempted { id: old.id }, c);
            }
            if !(g.tolerance.is_finite() && g.tolerance > 0.0) {
                g.tolerance = self.pilot.default_tolerance();
            }
            self.pilot.begin(c.signals);
            self.active = Some(g);
        }
        if cancel {
            if let Some(old) = self.active.take() {
                publish(GoalStatus::Canceled { id: old.id }, c);
                self.pilot.stop(c.actuation);
                return Ok(Status::Running);
            }
        }
        if let Some(g) = self.active {
            let Some(fix) = self.pilot.fix(c.signals) else {
                self.active = None;
                publish(
                    GoalStatus::Aborted {
                        id: g.id,
                        reason: "the robot reports no pose".into(),
                    },
                    c,
                );
                self.pilot.stop(c.actuation);
                return Ok(Status::Running);
            };
            let dist = (g.x - fix.x).hypot(g.y - fix.y);
            if dist <= g.tolerance {
                self.active = None;
                self.pilot.stop(c.actuation);
                publish(
                    GoalStatus::Succeeded {
                        id: g.id,
                        x: fix.x,
                        y: fix.y,
                        yaw: fix.yaw,
                    },
                    c,
                );
                return Ok(Status::Running);
            }
            self.pilot.steer(c, fix, g.x, g.y, dist);
            if let Ok(mut s) = self.handle.0.lock() {
                s.latest = Some(GoalStatus::Active {
                    id: g.id,
                    distance: dist,
                });
            }
            return Ok(Status::Running);
        }
        match self.inner.as_mut() {
            Some(inner) if !self.inner_finished => {
                let st = inner.step(c)?;
                if st == Status::Finished {
                    // keep serving goals; the run ends with its time limit or Ctrl-C
                    self.inner_finished = true;
                    c.events.push(
                        c.now,
                        "controller",
                        serde_json::json!({"controller": inner.name(), "status": "finished"}),
                    );
                }
                match st {
                    Status::Aborted(r) => Ok(Status::Aborted(r)),
                    _ => Ok(Status::Running),
                }
            }
            _ => Ok(Status::Running),
        }
    }

    fn state(&self) -> Option<serde_json::Value> {
        let inner = self.inner.as_ref().and_then(|c| c.state());
        let goal = self.handle.status();
        if inner.is_none() && goal.is_none() {
            return None;
        }
        // where the active goal is, so that views can draw it
        let target = self
            .active
            .map(|g| serde_json::json!({"id": g.id, "x": g.x, "y": g.y, "tolerance": g.tolerance}));
        Some(serde_json::json!({"inner": inner, "goal": goal, "target": target}))
    }

    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        if let Some(c) = &self.inner {
            c.summary(out);
        }
    }

    fn finish(&mut self) {
        if let Some(c) = self.inner.as_mut() {
            c.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::{RunConfig, Runner};
    use skipper_sim::{parse_world, GroundWorld};
    use std::time::Duration;

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
        let (g, h) = GoalRunner::new(None);
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

    #[test]
    fn the_state_shows_where_the_active_goal_is() {
        let (mut g, h) = GoalRunner::new(None);
        assert!(g.state().is_none());
        g.active = Some(Goto {
            id: 7,
            x: 1.5,
            y: -2.0,
            tolerance: 0.2,
        });
        h.goto(1.5, -2.0, 0.2);
        let s = g.state().unwrap();
        assert_eq!(s["target"]["x"], 1.5);
        assert_eq!(s["target"]["y"], -2.0);
        assert_eq!(s["target"]["tolerance"], 0.2);
    }

    #[test]
    fn a_new_goal_preempts_and_cancel_stops() {
        use skipper_core::{Actuation, Events, World};
        let spec = parse_world("box 0 0 20 20\nrobot r 0 0 0\n", "t.world", None).unwrap();
        let mut w = GroundWorld::new(&spec, 0).unwrap();
        let (mut g, h) = GoalRunner::new(None);
        let mut s = skipper_core::Signals::new();
        let mut ev = Events::new();
        let info = w.vehicle(0).unwrap().info().clone();
        w.vehicle_mut(0)
            .unwrap()
            .sense(Duration::ZERO, &mut s, &mut ev);
        g.start(&info, &s).unwrap();
        let mut step = |g: &mut GoalRunner, now: u64| {
            let mut a = Actuation::default();
            let mut c = Cycle {
                now: Duration::from_millis(now),
                dt: Duration::from_millis(100),
                cycle: now / 100 + 1,
                robot: 0,
                vehicle: &info,
                signals: &s,
                actuation: &mut a,
                events: &mut ev,
            };
            g.step(&mut c).unwrap();
            a.drive
        };
        let a = h.goto(5.0, 0.0, 0.1);
        assert!(matches!(
            step(&mut g, 0),
            Some(skipper_core::Drive::Channels { .. })
        ));
        assert!(matches!(h.status(), Some(GoalStatus::Active { id, .. }) if id == a));
        let b = h.goto(-5.0, 0.0, 0.1);
        step(&mut g, 100);
        h.cancel();
        assert_eq!(step(&mut g, 200), Some(skipper_core::Drive::Stop));
        let (all, _) = h.statuses_since(0);
        assert!(all.contains(&GoalStatus::Preempted { id: a }), "{all:?}");
        assert_eq!(h.status(), Some(GoalStatus::Canceled { id: b }));
        let kinds: Vec<_> = ev
            .as_slice()
            .iter()
            .map(|e| e.data["status"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(kinds, ["preempted", "canceled"]);
    }
}
