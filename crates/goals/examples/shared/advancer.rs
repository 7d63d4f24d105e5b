//! The controller of tutorials 3 and 6: `advance` drives a ground robot straight ahead
//! by a distance. It declares the goal kind and implements [`Goals`]; nothing in it knows
//! which transport sends its goals.

use skipper_core::goals::{
    Field, FieldType, GoalId, GoalKind, GoalReport, GoalStart, Goals, Record,
};
use skipper_core::vocabulary::ground::PoseReader;
use skipper_core::{Controller, ControllerError, Cycle, Drive, Signals, Status, VehicleInfo};

/// `advance`: drive straight ahead by a distance.
pub static ADVANCE: GoalKind = GoalKind {
    name: "advance",
    type_name: "tutorial_msgs/Advance",
    doc: "drive straight ahead by a distance",
    goal: &[Field::new("distance", FieldType::Float, "how far (m)")],
    result: &[Field::new(
        "travelled",
        FieldType::Float,
        "how far it went (m)",
    )],
    feedback: &[Field::new("left", FieldType::Float, "distance left (m)")],
    ended: GoalKind::no_result,
};

/// Stands still until a goal says how far to go.
#[derive(Default)]
pub struct Advancer {
    pose: Option<PoseReader>,
    /// the active goal: its id, where it started, how far to go; and how far it went
    goal: Option<(GoalId, (f64, f64), f64)>,
    travelled: f64,
}

impl Controller for Advancer {
    fn name(&self) -> &str {
        "advancer"
    }
    fn start(&mut self, v: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.pose = PoseReader::bind(s);
        match self.pose {
            Some(_) => Ok(()),
            None => Err(ControllerError::vehicle(format!(
                "{} reports no pose",
                v.name
            ))),
        }
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let (Some((_, (x0, y0), distance)), Some(p)) =
            (self.goal, self.pose.and_then(|r| r.pose(c.signals)))
        else {
            return Ok(Status::Running);
        };
        self.travelled = (p.x - x0).hypot(p.y - y0);
        let left = distance - self.travelled;
        c.actuation.drive = Some(if left > 0.0 {
            Drive::velocity(left.clamp(0.1, 0.5), 0.0)
        } else {
            Drive::Stop
        });
        Ok(Status::Running)
    }
    fn goals(&mut self) -> Option<&mut dyn Goals> {
        Some(self)
    }
}

impl Goals for Advancer {
    fn kinds(&self) -> Vec<&'static GoalKind> {
        vec![&ADVANCE]
    }
    fn begin(&mut self, g: GoalStart, c: &mut Cycle<'_>) -> Result<(), String> {
        let distance = g.goal.float("distance");
        if !(distance.is_finite() && distance > 0.0) {
            return Err(format!(
                "the distance must be a positive number of metres, not {distance}"
            ));
        }
        let p = self.pose.and_then(|r| r.pose(c.signals)).ok_or("no pose")?;
        self.goal = Some((g.id, (p.x, p.y), distance));
        self.travelled = 0.0;
        Ok(())
    }
    fn cancel(&mut self, _: &'static GoalKind, _: GoalId, c: &mut Cycle<'_>) -> String {
        self.goal = None;
        c.actuation.drive = Some(Drive::Stop);
        "canceled; the robot stopped".into()
    }
    fn report(&mut self, _: &'static GoalKind, _: GoalId, out: &mut GoalReport) {
        let Some((_, _, distance)) = self.goal else {
            return;
        };
        let left = (distance - self.travelled).max(0.0);
        out.feedback(
            Record::defaults(ADVANCE.feedback).with("left", (left * 100.0).round() / 100.0),
        );
        if left < 0.02 {
            self.goal = None;
            out.succeed(
                Record::defaults(ADVANCE.result).with("travelled", self.travelled),
                "there",
            );
        }
    }
}

/// A simulated Pioneer in an empty room, taking `advance` goals.
pub fn world() -> skipper_sim::GroundWorld {
    let spec = skipper_sim::parse_world("box 0 0 20 20\nrobot r1 0 0 0\n", "room.world", None)
        .expect("the world");
    skipper_sim::GroundWorld::new(&spec, 0).expect("the robot fits")
}
