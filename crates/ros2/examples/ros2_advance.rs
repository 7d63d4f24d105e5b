//! Tutorial 3's controller over ROS 2: the advancer (`advance` drives a ground robot
//! straight ahead by a distance; crates/goals/examples/shared/advancer.rs) is bound
//! with `skipper_goals::bind` and its robot served by `skipper_ros2::link` exactly as
//! `skipper run --ros2` serves a robot. Nothing here, and nothing in the transport, is
//! written for the `advance` kind: its action `/r1/advance` (the tutorial's robot is
//! `r1`), of type `tutorial_msgs/action/Advance`, is made from the kind's fields, beside
//! the robot's `goto`, `navigate_to_pose` and topics.
//!
//! ```sh
//! cargo run -p skipper-ros2 --example ros2_advance               # until stdin closes
//! cargo run -p skipper-ros2 --example ros2_advance -- --interfaces OUT
//! ```
//!
//! `--interfaces OUT` writes the interface package of the tutorial's own kinds
//! (`OUT/tutorial_msgs`, as `skipper interfaces --ros2` writes packages) and exits;
//! an rclpy client built on it sends `advance` goals. `skipper_msgs` (goto) comes from
//! `skipper interfaces --ros2`.

#[path = "../../goals/examples/shared/advancer.rs"]
#[allow(dead_code)]
mod advancer;

use advancer::{Advancer, ADVANCE};
use skipper_core::goals::GoalPort;
use skipper_core::{RunConfig, Runner};
use skipper_goals::BindOptions;
use skipper_ros2::dynamic::KindAction;
use skipper_ros2::link::{Robot, Ros2Link};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, out] = &args[..] {
        if flag == "--interfaces" {
            let packages = skipper_ros2::interfaces::packages(&[&ADVANCE])?;
            let written = skipper_ros2::interfaces::write(out.as_ref(), &packages)?;
            for f in written {
                println!("{}", f.display());
            }
            // as `skipper interfaces` prints it
            let a = KindAction::of(&ADVANCE)?;
            println!(
                "  goal kind {}: {}, type hash {}",
                ADVANCE.name,
                a.type_name(),
                a.hashes().action
            );
            return Ok(());
        }
    }
    if !args.is_empty() {
        return Err("usage: ros2_advance [--interfaces OUT]".into());
    }
    let world = advancer::world();
    let bound = skipper_goals::bind(
        &world,
        0,
        Some(Box::new(Advancer::default())),
        BindOptions {
            goto: true,
            velocity: true,
        },
    );
    let kinds: Vec<&str> = bound.goals.kinds().iter().map(|k| k.name).collect();
    let mut runner = Runner::new(
        Box::new(world),
        RunConfig {
            realtime: true,
            ..Default::default()
        },
    );
    runner.set_controller(0, bound.controller);
    let names: Vec<String> = (0..runner.world().len())
        .filter_map(|i| runner.world().vehicle(i).map(|v| v.info().name.clone()))
        .collect();
    let link = Ros2Link::start(&[], None, &names, 10.0, runner.control())?;
    let robots = vec![Robot {
        index: 0,
        goals: bound.goals,
        velocity: bound.velocity,
    }];
    let observer = link.serve(runner.world(), robots)?;
    runner.add_observer(observer);
    // stop when stdin closes (the test's handle on the process)
    let control = runner.control();
    std::thread::spawn(move || {
        let mut line = String::new();
        while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
            line.clear();
        }
        control.request_stop();
    });
    println!(
        "{} serves goal kinds: {}",
        names.join(", "),
        kinds.join(", ")
    );
    let report = runner.run();
    println!("run ended after {:.1} s", report.sim_time.as_secs_f64());
    Ok(())
}
