//! The `goto` goal kind, for any vehicle and on top of any controller: [`Goto`] drives
//! the vehicle to a point sent from outside the run (an action goal, a click on the
//! dashboard's map) and otherwise lets the controller under it drive.
//!
//! While a goal is active its [`Pilot`] steers the vehicle there (a ground robot turns
//! toward the goal, drives, slows near it and goes round what its sonars or laser see
//! ahead; the AUV heads for it at cruise speed holding its depth), and the controller
//! under it is not stepped: it is held, and drives again from the cycle after the goal
//! ends. With no goal the controller under it drives (or the vehicle stands still if
//! there is none). A newer goal takes over without stopping; a cancel stops the vehicle.
//! The goals of the controller under it are offered too, and passed down.
//!
//! - feedback: the distance left;
//! - within the tolerance (0, negative or not a number: the pilot's default):
//!   succeeded, "reached", with the pose where the vehicle stopped (x, y, yaw);
//! - x, y or tolerance not finite: refused at once; no pose: aborted.

use crate::pilot::{Fix, Pilot};
use skipper_core::goals::{
    Field, FieldType, GoalCheck, GoalId, GoalKind, GoalReport, GoalStart, Goals, Payload, Record,
};
use skipper_core::{Controller, ControllerError, Cycle, Signals, Status, VehicleInfo};
use std::sync::Arc;

/// `goto`: drive to a point.
pub static GOTO: GoalKind = GoalKind {
    name: "goto",
    type_name: "skipper_msgs/Goto",
    doc: "drive to (x, y) in the frame of the vehicle's published pose",
    goal: &[
        Field::new("x", FieldType::Float, "x of the point (m)"),
        Field::new("y", FieldType::Float, "y of the point (m)"),
        Field::new(
            "tolerance",
            FieldType::Float,
            "reached within this distance (m; 0: the vehicle's default)",
        ),
    ],
    result: &[
        Field::new("x", FieldType::Float, "x where the vehicle stopped (m)"),
        Field::new("y", FieldType::Float, "y where the vehicle stopped (m)"),
        Field::new("yaw", FieldType::Float, "its heading then (rad)"),
    ],
    feedback: &[Field::new(
        "distance",
        FieldType::Float,
        "distance left (m)",
    )],
    ended: GoalKind::no_result,
};

const NO_POSE: &str = "the robot reports no pose";

/// Where a goto goal stands, as views show it (`{"status": "active", "id": 3,
/// "distance": 1.2}`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum GotoStatus {
    /// Being driven to.
    Active {
        /// goal id
        id: GoalId,
        /// distance left (m)
        distance: f64,
    },
    /// Reached; the pose where the vehicle stopped.
    Succeeded {
        /// goal id
        id: GoalId,
        /// x (m)
        x: f64,
        /// y (m)
        y: f64,
        /// yaw (rad)
        yaw: f64,
    },
    /// Cancelled; the vehicle stopped.
    Canceled {
        /// goal id
        id: GoalId,
    },
    /// Replaced by a newer goal.
    Preempted {
        /// goal id
        id: GoalId,
    },
    /// Given up.
    Aborted {
        /// goal id
        id: GoalId,
        /// why
        reason: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Target {
    id: GoalId,
    x: f64,
    y: f64,
    tolerance: f64,
}

/// What the cycle found of the active goal, reported after it.
#[derive(Debug, Clone, PartialEq)]
enum Found {
    Distance(f64),
    Reached(Fix),
    NoPose,
}

/// Checks goto goals here and passes the other kinds' to the controller under it.
struct Check(Option<Arc<dyn GoalCheck>>);

impl GoalCheck for Check {
    fn check(&self, kind: &'static GoalKind, goal: &Record) -> Result<Payload, String> {
        if *kind != GOTO {
            return match &self.0 {
                Some(c) => c.check(kind, goal),
                None => Err(format!("no `{}` goals here", kind.name)),
            };
        }
        let finite = ["x", "y", "tolerance"]
            .iter()
            .all(|f| goal.float(f).is_finite());
        if finite {
            Ok(Box::new(()))
        } else {
            Err("x, y and tolerance must be finite numbers".into())
        }
    }
}

/// Goto goals on top of a controller.
pub struct Goto {
    inner: Option<Box<dyn Controller>>,
    pilot: Box<dyn Pilot>,
    name: String,
    active: Option<Target>,
    found: Option<Found>,
    latest: Option<GotoStatus>,
    /// the vehicle was stopped this cycle (a cancel): the controller under it waits a cycle
    held_once: bool,
    /// the goal kinds of the controller under it, and its check
    inner_kinds: Vec<&'static GoalKind>,
    inner_check: Option<Arc<dyn GoalCheck>>,
}

impl Goto {
    /// Serve goto goals on top of `inner` (or of standing still), steering with `pilot`.
    pub fn new(mut inner: Option<Box<dyn Controller>>, pilot: Box<dyn Pilot>) -> Self {
        let name = match &inner {
            Some(c) => format!("{}+goals", c.name()),
            None => "goals".into(),
        };
        let (inner_kinds, inner_check) = match inner.as_mut().and_then(|c| c.goals()) {
            Some(g) => (g.kinds(), Some(g.checker())),
            None => (Vec::new(), None),
        };
        Self {
            inner_kinds,
            inner_check,
            inner,
            pilot,
            name,
            active: None,
            found: None,
            latest: None,
            held_once: false,
        }
    }

    /// The latest status of a goto goal, as views show it.
    pub fn status(&self) -> Option<&GotoStatus> {
        self.latest.as_ref()
    }

    fn publish(&mut self, st: GotoStatus, c: &mut Cycle<'_>) {
        c.events
            .push(c.now, "goal", serde_json::to_value(&st).unwrap_or_default());
        self.latest = Some(st);
    }

    fn inner_goals(&mut self) -> Option<&mut dyn Goals> {
        self.inner.as_mut().and_then(|c| c.goals())
    }

    /// Steer toward the active goal; what was found is reported after the cycle.
    fn drive(&mut self, g: Target, c: &mut Cycle<'_>) {
        let Some(fix) = self.pilot.fix(c.signals) else {
            self.active = None;
            self.found = Some(Found::NoPose);
            let reason = NO_POSE.to_string();
            self.publish(GotoStatus::Aborted { id: g.id, reason }, c);
            self.pilot.stop(c.actuation);
            return;
        };
        let dist = (g.x - fix.x).hypot(g.y - fix.y);
        if dist <= g.tolerance {
            self.active = None;
            self.pilot.stop(c.actuation);
            self.found = Some(Found::Reached(fix));
            let (x, y, yaw) = (fix.x, fix.y, fix.yaw);
            self.publish(
                GotoStatus::Succeeded {
                    id: g.id,
                    x,
                    y,
                    yaw,
                },
                c,
            );
            return;
        }
        self.pilot.steer(c, fix, g.x, g.y, dist);
        self.found = Some(Found::Distance(dist));
        self.latest = Some(GotoStatus::Active {
            id: g.id,
            distance: dist,
        });
    }

    /// The controller under it drives (with none, the vehicle stands).
    fn step_inner(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        match self.inner.as_mut() {
            Some(inner) => inner.step(c),
            None => Ok(Status::Running),
        }
    }
}

impl Controller for Goto {
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
        if std::mem::take(&mut self.held_once) {
            return Ok(Status::Running);
        }
        match self.active {
            Some(g) => {
                self.drive(g, c);
                Ok(Status::Running)
            }
            None => self.step_inner(c),
        }
    }

    fn state(&self) -> Option<serde_json::Value> {
        let inner = self.inner.as_ref().and_then(|c| c.state());
        if inner.is_none() && self.latest.is_none() {
            return None;
        }
        // where the active goal is, so that views can draw it
        let target = self
            .active
            .map(|g| serde_json::json!({"id": g.id, "x": g.x, "y": g.y, "tolerance": g.tolerance}));
        Some(serde_json::json!({"inner": inner, "goal": self.latest, "target": target}))
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

    fn goals(&mut self) -> Option<&mut dyn Goals> {
        Some(self)
    }
}

impl Goals for Goto {
    fn kinds(&self) -> Vec<&'static GoalKind> {
        let mut kinds = vec![&GOTO];
        kinds.extend(self.inner_kinds.iter().copied().filter(|k| **k != GOTO));
        kinds
    }

    fn checker(&self) -> Arc<dyn GoalCheck> {
        Arc::new(Check(self.inner_check.clone()))
    }

    fn begin(&mut self, start: GoalStart, c: &mut Cycle<'_>) -> Result<(), String> {
        if *start.kind != GOTO {
            return match self.inner_goals() {
                Some(g) => g.begin(start, c),
                None => Err(format!("no `{}` goals here", start.kind.name)),
            };
        }
        if let Some(old) = self.active.take() {
            self.publish(GotoStatus::Preempted { id: old.id }, c);
        }
        let mut tolerance = start.goal.float("tolerance");
        if !(tolerance.is_finite() && tolerance > 0.0) {
            tolerance = self.pilot.default_tolerance();
        }
        self.pilot.begin(c.signals);
        self.found = None;
        self.active = Some(Target {
            id: start.id,
            x: start.goal.float("x"),
            y: start.goal.float("y"),
            tolerance,
        });
        Ok(())
    }

    fn cancel(&mut self, kind: &'static GoalKind, id: GoalId, c: &mut Cycle<'_>) -> String {
        if *kind != GOTO {
            return match self.inner_goals() {
                Some(g) => g.cancel(kind, id, c),
                None => String::new(),
            };
        }
        if self.active.is_some_and(|g| g.id == id) {
            self.active = None;
            self.publish(GotoStatus::Canceled { id }, c);
            self.pilot.stop(c.actuation);
            self.held_once = true;
        }
        "canceled; the robot stopped".into()
    }

    fn report(&mut self, kind: &'static GoalKind, id: GoalId, out: &mut GoalReport) {
        if *kind != GOTO {
            if let Some(g) = self.inner_goals() {
                g.report(kind, id, out);
            }
            return;
        }
        match self.found.take() {
            Some(Found::Distance(d)) => {
                out.feedback(Record::defaults(GOTO.feedback).with("distance", d))
            }
            Some(Found::Reached(fix)) => {
                let result = Record::defaults(GOTO.result)
                    .with("x", fix.x)
                    .with("y", fix.y)
                    .with("yaw", fix.yaw);
                out.succeed(result, "reached");
            }
            Some(Found::NoPose) => out.abort(None, NO_POSE),
            None => {}
        }
    }
}
