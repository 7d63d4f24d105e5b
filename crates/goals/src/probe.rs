//! A goal kind and a controller for testing a transport: `probe` (type
//! `probe_msgs/Probe`) has a field of every type, feedback and a result, so a transport
//! that carries it carries any goal kind a controller declares. The ROS 1, ROS 2 and
//! dashboard transports' tests send it; a new transport's tests can do the same.

use skipper_core::goals::{
    Field, FieldType, GoalId, GoalKind, GoalReport, GoalStart, Goals, Record,
};
use skipper_core::{Controller, ControllerError, Cycle, RunConfig, Runner, Status, World};
use std::time::Duration;

use crate::{BindOptions, Endpoint};

/// Robot 0 of `world` driven by a [`Prober`], its goals served through the goal runner
/// ([`crate::bind()`]), in a runner paced by the wall clock for at most ten minutes (a hang
/// guard): the runner and the endpoint a transport under test attaches to.
pub fn served(world: impl World + 'static) -> (Runner, Endpoint) {
    let bound = crate::bind(
        &world,
        0,
        Some(Box::new(Prober::default())),
        BindOptions::default(),
    );
    let endpoint = bound.endpoint(&world, 0);
    let mut runner = Runner::new(
        Box::new(world),
        RunConfig {
            until: Some(Duration::from_secs(600)),
            realtime: true,
            ..Default::default()
        },
    );
    runner.set_controller(0, bound.controller);
    (runner, endpoint)
}

/// The probe kind: count `steps` cycles, then answer with the label (in capitals when
/// `loud`).
pub static PROBE: GoalKind = GoalKind {
    name: "probe",
    type_name: "probe_msgs/Probe",
    doc: "count cycles, then answer",
    goal: &[
        Field::new(
            "steps",
            FieldType::Int,
            "cycles to count (negative: forever)",
        ),
        Field::new("label", FieldType::Text, "what to answer"),
        Field::new("loud", FieldType::Bool, "answer in capitals"),
        Field::new("scale", FieldType::Float, "a factor"),
    ],
    result: &[
        Field::new("answer", FieldType::Text, "the label"),
        Field::new("counted", FieldType::Int, "cycles counted"),
    ],
    feedback: &[Field::new("count", FieldType::Int, "cycles so far")],
    ended: GoalKind::no_result,
};

/// A controller that takes `probe` goals and does nothing else.
#[derive(Default)]
pub struct Prober {
    goal: Option<(i64, String, bool)>,
    count: i64,
}

impl Controller for Prober {
    fn name(&self) -> &str {
        "prober"
    }
    fn step(&mut self, _: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        if self.goal.is_some() {
            self.count += 1;
        }
        Ok(Status::Running)
    }
    fn goals(&mut self) -> Option<&mut dyn Goals> {
        Some(self)
    }
}

impl Goals for Prober {
    fn kinds(&self) -> Vec<&'static GoalKind> {
        vec![&PROBE]
    }
    fn begin(&mut self, g: GoalStart, _: &mut Cycle<'_>) -> Result<(), String> {
        let label = g.goal.text("label").to_string();
        self.goal = Some((g.goal.int("steps"), label, g.goal.flag("loud")));
        self.count = 0;
        Ok(())
    }
    fn cancel(&mut self, _: &'static GoalKind, _: GoalId, _: &mut Cycle<'_>) -> String {
        self.goal = None;
        "stopped counting".into()
    }
    fn report(&mut self, _: &'static GoalKind, _: GoalId, out: &mut GoalReport) {
        let Some((steps, label, loud)) = &self.goal else {
            return;
        };
        out.feedback(Record::defaults(PROBE.feedback).with("count", self.count));
        if *steps >= 0 && self.count >= *steps {
            let answer = if *loud {
                label.to_uppercase()
            } else {
                label.clone()
            };
            out.succeed(
                Record::defaults(PROBE.result)
                    .with("answer", answer)
                    .with("counted", self.count),
                "counted",
            );
            self.goal = None;
        }
    }
}
