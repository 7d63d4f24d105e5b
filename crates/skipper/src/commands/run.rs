//! `skipper run`: run a controller on the simulator or a real robot.
//!
//! The run goes in steps, each a function: read the controller, build the vehicles once,
//! build the controllers, decide the cycle rate, bind the controllers (with their goals
//! served when a transport asks for them), attach the transports and the outputs, run,
//! and finish. Every robot that has a controller takes goals from the transports asked
//! for (the dashboard's click-to-goto, ROS 1, ROS 2), whatever engine or vehicle it is:
//! each binds the goal kinds the controller declares.

use super::session::{self, ClockArgs, OutputArgs, Outputs, WorldArgs};
use crate::controllers::{Assignments, ControllerChoice};
use crate::exit::Failure;
use crate::transports;
use crate::vehicles::{self, VehicleChoice};
use clap::Args;
use skipper_core::{Runner, World};
use skipper_goals::{BindOptions, Endpoint};
use std::path::PathBuf;
use std::time::Duration;

/// Options of `skipper run`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # wander in the empty room for 2 simulated minutes
  skipper run --until 2m
  # the office, a summary as JSON; fifty robots with a seed
  skipper run --world examples/worlds/office.world --until 10m \\
      --summary-json out.json
  skipper run --world examples/worlds/office.world --robots 50 --until 1m \\
      --seed 3
  # watch it at real-time pace (Ctrl-C ends it)
  skipper run --world examples/worlds/lab.map --realtime
  # Soar agents; on the SPS robot's limits; two agents, one robot each
  skipper run --soar examples/soar/waypoint-tour.soar --until 5m
  skipper run --soar examples/soar/waypoint-tour.soar --model splinter
  skipper run --soar examples/soar/dispatcher.soar \\
      --soar examples/soar/patrol.soar
  # watch and steer it in a browser
  skipper run --world examples/worlds/office.world --serve 127.0.0.1:8088
  # an XABSL agent pushes the ball into the goal
  skipper run examples/xabsl/soccer/agents.xabsl \\
      --world examples/worlds/soccer.world
  # fly the spec's mission on the simulated AUV
  skipper run examples/missions/test_mission.lua --summary-json out.json
  # a ROS 1 node; send it goals with `skipper action send /robot1/goto x=2 y=1`
  skipper run --ros --no-log
  # ... and `skipper action send /robot1/run_option option=play`
  skipper run examples/xabsl/soccer/agents.xabsl \\
      --world examples/worlds/soccer.world --ros
  # ... and `skipper action send /tethys/run_mission mission=m.lua`
  # or `skipper action send /tethys/goto x=-200 y=100`
  skipper run examples/missions/test_mission.lua --ros
  # reachable from other machines (set ROS_IP; prints a warning)
  skipper run --ros --ros-host 0.0.0.0
  # a ROS 2 node; `skipper action send --ros2 /robot1/goto x=2 y=1`
  skipper run --ros2 --no-log

A mission without a WITHIN on its STACK is bounded by the default mission
timeout (24 h, or MissionTimeout in the Control.cfg beside it, or
--mission-timeout): it then ends with the outcome `timeout`.

Exit status: 0 when the run ended as planned (controller finished or time
limit), 1 when the controller failed or aborted, 2 for bad input, 3 when a
mission did not complete within its default mission timeout, 130 when
interrupted by Ctrl-C.")]
pub struct RunArgs {
    /// What drives the robots: a mission (*.lua), an XABSL agent (*.xabsl), or nothing for
    /// the built-in wander-and-avoid demo.
    pub controller: Option<PathBuf>,
    /// A Soar agent written for the SPS input-link/output-link, run through the Soar
    /// bridge (install it with `bash bridges/soar/install.sh`). Repeat for several agents:
    /// agent i drives robot i, and they can message each other by robot name. Runs at
    /// 20 Hz (one decision cycle per 50 ms) unless --rate says otherwise.
    #[arg(long = "soar", value_name = "AGENT.soar")]
    pub soar: Vec<PathBuf>,
    #[command(flatten)]
    pub world: WorldArgs,
    #[command(flatten)]
    pub clock: ClockArgs,
    /// Cycle rate in Hz (default 10 for ground robots, 5 for the AUV).
    #[arg(long, value_name = "HZ")]
    pub rate: Option<f64>,
    #[command(flatten)]
    pub output: OutputArgs,
    /// A mission that has no WITHIN on its STACK ends after this much simulated time, with
    /// the outcome `timeout` (default: MissionTimeout in the Control.cfg beside it, else 24h).
    #[arg(long, value_parser = skipper_core::time::parse_duration, value_name = "DURATION")]
    pub mission_timeout: Option<Duration>,
    #[command(flatten)]
    pub transports: transports::TransportArgs,
}

/// Run it; returns the exit status.
pub fn run(args: RunArgs) -> Result<u8, Failure> {
    let choice = ControllerChoice::parse(args.controller.as_deref())?.with_soar(&args.soar)?;
    let real_robot = !matches!(args.world.vehicle(), VehicleChoice::Sim);
    let mut transports = transports::from_args(&args.transports, real_robot)?;
    let reach = reach(&args)?;
    let world = build_vehicles(&choice, &args.world, &reach)?;
    let controllers = choice.controllers(&*world, args.world.seed, args.mission_timeout)?;
    let rate = args.rate.unwrap_or_else(|| choice.rate(&*world));
    let options = transports::bind_options(&transports);
    let mut config = args.clock.config(rate, options.goto, real_robot)?;
    let mission = matches!(choice, ControllerChoice::Mission(..));
    session::bound_unattended(&mut config, mission);
    let robots = world.len();
    let mut runner = Runner::new(world, config);
    let endpoints = bind(&mut runner, controllers.assignments, options);
    transports::attach(&mut transports, &mut runner, &endpoints)?;
    for o in controllers.observers {
        runner.add_observer(o);
    }
    let outputs = attach_outputs(&mut runner, &args, &choice.name())?;
    let mut report = runner.run();
    // controllers have finished (goals aborted); now the transports leave
    drop(runner);
    transports::finish(transports, &mut report);
    outputs.finish(&report, robots)
}

/// Where ROS robots are looked for: `--ros2-host` and `--ros-host`, each only with a
/// transport or a robot of its ROS.
fn reach(args: &RunArgs) -> Result<vehicles::Reach, Failure> {
    let has = |ros2: bool| {
        args.world.vehicles.iter().any(|v| match v {
            VehicleChoice::Ros2(_) => ros2,
            VehicleChoice::Ros1(_) => !ros2,
            _ => false,
        })
    };
    let t = &args.transports;
    if t.ros2_host.is_some() && !t.ros2 && !has(true) {
        return Err(Failure::bad_input(
            "--ros2-host is for --ros2 or a --vehicle ros2:/NAMESPACE",
        ));
    }
    if t.ros_host.is_some() && t.ros.is_none() && !has(false) {
        return Err(Failure::bad_input(
            "--ros-host is for --ros or a --vehicle ros1:/NAMESPACE",
        ));
    }
    Ok(vehicles::Reach {
        ros2_host: t.ros2_host,
        ros1_host: t.ros_host,
    })
}

/// The vehicles of the run, built once: a mission's AUV in its worksite, or the vehicles
/// `--vehicle` says (as many robots as Soar agents at least).
fn build_vehicles(
    choice: &ControllerChoice,
    w: &WorldArgs,
    reach: &vehicles::Reach,
) -> Result<Box<dyn World>, Failure> {
    match choice {
        ControllerChoice::Mission(_, m) => {
            Ok(Box::new(crate::controllers::mission::vehicles(m, w)?))
        }
        _ => vehicles::build(w, choice.robots_needed(), reach),
    }
}

/// Give each robot its controller; with a transport, serve its goals (and velocity
/// commands) through the goal runner: one endpoint per robot for the transports.
fn bind(runner: &mut Runner, controllers: Assignments, options: BindOptions) -> Vec<Endpoint> {
    let mut endpoints = Vec::new();
    for (i, c) in controllers {
        if options == BindOptions::default() {
            runner.set_controller(i, c);
            continue;
        }
        let b = skipper_goals::bind(runner.world(), i, Some(c), options);
        endpoints.push(b.endpoint(runner.world(), i));
        runner.set_controller(i, b.controller);
    }
    endpoints
}

/// The run log, the progress on a terminal, the summary, and Ctrl-C.
fn attach_outputs(runner: &mut Runner, args: &RunArgs, name: &str) -> Result<Outputs, Failure> {
    let outputs = Outputs::attach(runner, &args.output, name)?;
    session::progress(runner, args.clock.until);
    session::stop_on_interrupt(runner);
    Ok(outputs)
}
