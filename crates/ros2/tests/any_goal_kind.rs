//! A goal kind added to a controller reaches it over ROS 2 with no change to the
//! transport: the test takes `skipper_goals::probe`'s kind (`probe_msgs/Probe`, one field
//! of each type) and its controller, binds them as `skipper run` does and serves the
//! robot with `skipper_ros2::link`; a ROS 2 action client of the kind's run-time type
//! sends goals: feedback and result come back field by field, a goal out of bounds is
//! rejected, a cancel stops a goal. Runs in a network namespace of its own.

mod common;

use skipper_core::goals::Record;
use skipper_core::{RunConfig, Runner};
use skipper_goals::probe::{Prober, PROBE};
use skipper_goals::BindOptions;
use skipper_ros2::action::GoalStatusEnum;
use skipper_ros2::args::RosArgs;
use skipper_ros2::client::{send, Ending, Event};
use skipper_ros2::dynamic::{DynMsg, KindAction};
use skipper_ros2::link::{Robot, Ros2Link};
use skipper_ros2::node::{Discovery, NodeConfig, Ros2Node};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
