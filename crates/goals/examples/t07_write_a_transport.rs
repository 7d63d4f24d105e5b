//! Tutorial 7: write a transport.
//!
//! A transport is a way into a run from outside: ROS 1, ROS 2 and the dashboard are
//! transports, and so is this one, which takes goals as lines of text (`ROBOT KIND
//! {JSON}`, as a script, a socket or a serial console might give them). It implements
//! [`Transport`]: before the run it gets one [`Endpoint`] per robot (the robot's name,
//! its goal port, its velocity inbox and its sensors) and sends each line's goal through
//! the robot's goal port; after the run it reads how each goal ended. It knows no goal
//! kind: it finds the kind by name among those the robot's controller declares and reads
//! the goal's fields from the kind's schema, so any engine's goals reach it.
//!
//! A program registers it with one line, as `skipper run` registers its own:
//! `transports.push(Box::new(LineTransport::new(lines)))`.
//!
//! Run it: `cargo run -p skipper-goals --example t07_write_a_transport`

#[path = "shared/advancer.rs"]
mod advancer;

use advancer::Advancer;
use skipper_core::goals::port::find_kind;
use skipper_core::goals::{GoalId, GoalPort, GoalState, Record};
use skipper_core::{RunConfig, RunReport, Runner};
use skipper_goals::{BindOptions, Endpoint, Transport, TransportError};
use std::sync::Arc;
use std::time::Duration;

/// Goals from lines of text: `ROBOT KIND {"field": value, ...}`.
struct LineTransport {
    lines: Vec<String>,
    /// the goals sent: (line, port, id)
    sent: Vec<(String, Arc<dyn GoalPort>, GoalId)>,
}

impl LineTransport {
    fn new(lines: &[&str]) -> Self {
        Self {
            lines: lines.iter().map(|l| l.to_string()).collect(),
            sent: Vec::new(),
        }
    }
}

/// One line's goal for the robots of `robots`: its port and the goal, or why not.
fn goal_of(line: &str, robots: &[Endpoint]) -> Result<(Arc<dyn GoalPort>, String, Record), String> {
    let mut words = line.splitn(3, ' ');
    let (robot, kind) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let fields: serde_json::Value =
        serde_json::from_str(words.next().unwrap_or("{}")).map_err(|e| format!("{line}: {e}"))?;
    let endpoint = robots
        .iter()
        .find(|e| e.name == robot)
        .ok_or_else(|| format!("{line}: no robot `{robot}` takes goals"))?;
    let kinds = endpoint.goals.kinds();
    let k = find_kind(&kinds, kind).ok_or_else(|| format!("{line}: {robot} takes no `{kind}`"))?;
    let goal = Record::from_json(k.goal, &fields).map_err(|e| format!("{line}: {e}"))?;
    Ok((endpoint.goals.clone(), kind.to_string(), goal))
}

impl Transport for LineTransport {
    fn attach(&mut self, _: &mut Runner, robots: &[Endpoint]) -> Result<(), TransportError> {
        for line in &self.lines {
            // a line that does not make a goal is the user's input: say which and why
            let (port, kind, goal) = goal_of(line, robots).map_err(TransportError::Settings)?;
            let id = port
                .send(&kind, goal)
                .map_err(|e| TransportError::Failed(format!("{line}: {e}")))?;
            self.sent.push((line.clone(), port, id));
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _: &mut RunReport) {
        // a real transport would close its connections here; this one prints its goals
        for (line, port, id) in &self.sent {
            if let Some(u) = port.update(*id) {
                let result = u
                    .result
                    .map(|r| r.to_json().to_string())
                    .unwrap_or_default();
                println!("{line}: {:?} {result}", u.state);
            }
        }
    }
}

/// Run the advancer with goals from `lines`; how its latest `advance` goal ended (state,
/// distance travelled), read back through the robot's port as any transport would.
fn run(lines: &[&str]) -> Result<Option<(GoalState, f64)>, TransportError> {
    let world = advancer::world();
    let bound = skipper_goals::bind(
        &world,
        0,
        Some(Box::new(Advancer::default())),
        BindOptions::default(),
    );
    let endpoints = vec![bound.endpoint(&world, 0)];
    let mut runner = Runner::new(
        Box::new(world),
        RunConfig {
            until: Some(Duration::from_secs(30)),
            ..Default::default()
        },
    );
    runner.set_controller(0, bound.controller);
    // the registration: one line per transport
    let mut transports: Vec<Box<dyn Transport>> = vec![Box::new(LineTransport::new(lines))];
    for t in &mut transports {
        t.attach(&mut runner, &endpoints)?;
    }
    let mut report = runner.run();
    let port = endpoints[0].goals.clone();
    for t in transports {
        t.finish(&mut report);
    }
    Ok(port.latest("advance").map(|u| {
        let travelled = u.result.map_or(f64::NAN, |r| r.float("travelled"));
        (u.state, travelled)
    }))
}

fn main() {
    if let Err(e) = run(&[r#"r1 advance {"distance": 2.5}"#]) {
        eprintln!("{e}");
    }
}

#[test]
fn a_goal_from_a_line_of_text_drives_the_robot() {
    let ended = run(&[r#"r1 advance {"distance": 2.5}"#]).expect("the transport attaches");
    let (state, travelled) = ended.expect("the goal reached the robot");
    assert_eq!(state, GoalState::Succeeded);
    assert!((travelled - 2.5).abs() < 0.05, "{travelled}");
}

#[test]
fn a_line_for_a_goal_the_robot_does_not_take_is_refused_with_the_reason() {
    match run(&[r#"r1 fly {"altitude": 10}"#]) {
        Err(TransportError::Settings(m)) => assert!(m.contains("takes no `fly`"), "{m}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
    match run(&[r#"r9 advance {"distance": 1}"#]) {
        Err(TransportError::Settings(m)) => assert!(m.contains("no robot `r9`"), "{m}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}
