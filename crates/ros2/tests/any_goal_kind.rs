//! A goal kind added to a controller reaches it over ROS 2 with no change to the
//! transport: the test declares a kind of its own (`probe_msgs/Probe`, one field of each
//! type), a controller that takes it, binds it as `skipper run` does and serves the robot
//! with `skipper_ros2::link`; a ROS 2 action client of the kind's run-time type sends
//! goals: feedback and result come back field by field, a goal out of bounds is
//! rejected, a cancel stops a goal. Runs in a network namespace of its own.

mod common;

use skipper_core::goals::{
    Field, FieldType, GoalId, GoalKind, GoalReport, GoalStart, Goals, Record,
};
use skipper_core::{Controller, ControllerError, Cycle, RunConfig, Runner, Status};
use skipper_goals::BindOptions;
use skipper_ros2::action::GoalStatusEnum;
use skipper_ros2::args::RosArgs;
use skipper_ros2::client::{send, Ending, Event};
use skipper_ros2::dynamic::{DynMsg, KindAction};
use skipper_ros2::link::{Robot, Ros2Link};
use skipper_ros2::node::{Discovery, NodeConfig, Ros2Node};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The kind the test adds: count to `steps`, then answer with the label.
static PROBE: GoalKind = GoalKind {
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

/// A controller that takes `probe` goals.
#[derive(Default)]
struct Prober {
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

fn world() -> skipper_sim::GroundWorld {
    let spec = skipper_sim::parse_world("box 0 0 20 20\nrobot probe1 0 0 0\n", "probe.world", None)
        .expect("the world");
    skipper_sim::GroundWorld::new(&spec, 0).expect("the robot fits")
}

/// What the client saw of one goal.
struct Seen {
    ending: Ending<DynMsg<skipper_ros2::dynamic::ResultPart>>,
    feedback: Vec<i64>,
}

fn goal(node: &mut Ros2Node, ty: &KindAction, g: Record, timeout: Option<Duration>) -> Seen {
    let mut feedback = Vec::new();
    let stop = AtomicBool::new(false);
    let ending = send(
        node,
        ty,
        "/probe1/probe",
        ty.goal(g),
        Duration::from_secs(60),
        timeout,
        &stop,
        |e| {
            if let Event::Feedback(f) = e {
                feedback.push(f.record().int("count"));
            }
        },
    )
    .expect("the goal is followed to its end");
    Seen { ending, feedback }
}

#[test]
fn a_kind_added_to_a_controller_is_served_over_ros2() {
    if !common::in_netns("a_kind_added_to_a_controller_is_served_over_ros2") {
        return;
    }
    let world = world();
    let bound = skipper_goals::bind(
        &world,
        0,
        Some(Box::new(Prober::default())),
        BindOptions {
            goto: true,
            velocity: true,
        },
    );
    let mut runner = Runner::new(
        Box::new(world),
        RunConfig {
            realtime: true,
            ..Default::default()
        },
    );
    runner.set_controller(0, bound.controller);
    let link = Ros2Link::start(&[], None, &["probe1".into()], 10.0, runner.control()).unwrap();
    let observer = link
        .serve(
            runner.world(),
            vec![Robot {
                index: 0,
                goals: bound.goals,
                velocity: bound.velocity,
            }],
        )
        .unwrap();
    runner.add_observer(observer);
    let control = runner.control();
    let client = std::thread::spawn(move || {
        let mut node = Ros2Node::start(NodeConfig {
            name: "probe_client".into(),
            namespace: "/".into(),
            args: RosArgs::parse::<&str>(&[], None).unwrap(),
            discovery: Discovery::Localhost,
            parameters: Vec::new(),
            on_set: None,
        })
        .unwrap();
        let ty = KindAction::of(&PROBE).unwrap();
        let base = || {
            Record::defaults(PROBE.goal)
                .with("label", "hello")
                .with("scale", 0.5)
        };
        let done = goal(
            &mut node,
            &ty,
            base().with("steps", 3i64).with("loud", true),
            None,
        );
        let bad = goal(&mut node, &ty, base().with("scale", f64::NAN), None);
        let forever = goal(
            &mut node,
            &ty,
            base().with("steps", -1i64),
            Some(Duration::from_millis(500)),
        );
        control.request_stop();
        (done, bad, forever)
    });
    runner.run();
    let (done, bad, forever) = client.join().unwrap();
    match &done.ending {
        Ending::Done(GoalStatusEnum::Succeeded, r) => {
            assert_eq!(r.record().text("answer"), "HELLO");
            assert!(r.record().int("counted") >= 3, "{:?}", r.record());
        }
        other => panic!("the goal did not succeed: {other:?}"),
    }
    assert!(!done.feedback.is_empty(), "no feedback");
    assert!(
        done.feedback.windows(2).all(|w| w[0] <= w[1]),
        "{:?}",
        done.feedback
    );
    assert!(matches!(bad.ending, Ending::Rejected), "{:?}", bad.ending);
    assert!(
        matches!(forever.ending, Ending::Done(GoalStatusEnum::Canceled, _)),
        "{:?}",
        forever.ending
    );
}
