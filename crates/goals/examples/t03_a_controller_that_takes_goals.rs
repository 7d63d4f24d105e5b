//! Tutorial 3: a controller that takes goals, driven from an in-process client.
//!
//! A controller offers goals by declaring a goal kind (its goal, feedback and result
//! fields) and implementing [`Goals`]: it is told when a goal begins or is cancelled and
//! reports how it goes. Which goal is active, what a newer goal does to an older one and
//! what a cancel means are the goal layer's, the same for every engine. The registration
//! is one line: `skipper_goals::bind` serves its goals on a mailbox, and any transport
//! (here the tutorial itself, in process; tutorial 6 over ROS 1; the dashboard; ROS 2)
//! sends goals through that mailbox as a [`GoalPort`].
//!
//! The controller (in `advancer.rs`): `advance` drives a ground robot straight ahead by a
//! distance.
//!
//! Run it: `cargo run -p skipper-goals --example t03_a_controller_that_takes_goals`

#[path = "shared/advancer.rs"]
mod advancer;

use advancer::{Advancer, ADVANCE};
use skipper_core::goals::{GoalPort, GoalState, Record};
use skipper_core::{RunConfig, Runner};
use skipper_goals::BindOptions;
use std::time::Duration;

/// Send a goal, run, and say how it ended: (state, travelled, feedback seen).
pub fn run() -> (GoalState, f64, usize) {
    let world = advancer::world();
    // the one line that registers the controller's goals
    let bound = skipper_goals::bind(
        &world,
        0,
        Some(Box::new(Advancer::default())),
        BindOptions::default(),
    );
    let port = bound.goals;
    let mut runner = Runner::new(
        Box::new(world),
        RunConfig {
            until: Some(Duration::from_secs(60)),
            ..Default::default()
        },
    );
    runner.set_controller(0, bound.controller);

    // the client: send a goal, then watch it from another thread while the run goes on
    let goal = Record::defaults(ADVANCE.goal).with("distance", 3.0);
    let id = port
        .send("advance", goal)
        .expect("the robot takes advance goals");
    let watcher = std::thread::spawn(move || {
        let (mut seq, mut feedback) = (0, 0);
        while let Some(u) = port.wait(id, seq, Duration::from_secs(10)) {
            if u.seq != seq && u.feedback.is_some() {
                feedback += 1;
            }
            seq = u.seq;
            if u.state.is_terminal() {
                let travelled = u.result.map_or(f64::NAN, |r| r.float("travelled"));
                println!(
                    "goal {id}: {:?} ({}), travelled {travelled:.2} m",
                    u.state, u.text
                );
                return (u.state, travelled, feedback);
            }
        }
        (GoalState::Pending, f64::NAN, feedback)
    });
    runner.run();
    watcher.join().expect("the watcher")
}

fn main() {
    run();
}

#[test]
fn an_advance_goal_drives_the_robot_three_metres() {
    let (state, travelled, feedback) = run();
    assert_eq!(state, GoalState::Succeeded);
    assert!((travelled - 3.0).abs() < 0.05, "{travelled}");
    assert!(feedback >= 1, "{feedback}");
}
