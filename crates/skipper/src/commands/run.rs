//! `skipper run`: run a controller on the simulator or a real robot.
//!
//! The controller choice builds the world and its controllers; every robot that has a
//! controller then takes goals from the transports asked for (the dashboard's
//! click-to-goto, ROS 1), whatever engine or vehicle it is: each binds the goal kinds
//! the controller declares.
// doc comments here are `--help` text: `/<robot>/goto` is a placeholder, not HTML
#![allow(rustdoc::invalid_html_tags)]

use super::session::{self, ClockArgs, OutputArgs, Outputs, WorldArgs};
use crate::controllers::{Assignments, ControllerChoice, WorldOptions};
use crate::exit::Failure;
use crate::vehicles::VehicleChoice;
use clap::Args;
use skipper_core::goals::GoalPort;
use skipper_core::velocity::VelocityInbox;
use skipper_core::Runner;
use skipper_goals::BindOptions;
use skipper_ros1::{LinkError, RosLink};
use std::path::PathBuf;
use std::sync::Arc;
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
  skipper run --world lab.map --realtime
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
    /// Serve the live dashboard on this address (default 127.0.0.1:8088); the run is then
    /// paced by the wall clock (--speed sets the factor) and goes on until --until or Ctrl-C.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = skipper_dashboard::DEFAULT_ADDR)]
    pub serve: Option<std::net::SocketAddr>,
    /// Let --serve listen on an address other machines can reach; every request then needs
    /// the token printed at start.
    #[arg(long, requires = "serve")]
    pub allow_remote: bool,
    /// Join ROS 1: the master URI, or nothing for ROS_MASTER_URI (default
    /// http://127.0.0.1:11311). Each robot (and the AUV of a mission) then hosts an action
    /// server for every goal kind its controller takes: /<robot>/goto (skipper_msgs/Goto)
    /// always, /<robot>/run_option (skipper_msgs/RunOption) with an XABSL agent,
    /// /<auv>/run_mission (skipper_msgs/RunMission) with a mission; publishes
    /// /<robot>/pose and /<robot>/odom and obeys /<robot>/cmd_vel. The run is paced by the
    /// wall clock and goes on until --until or Ctrl-C.
    #[arg(long, value_name = "MASTER_URI", num_args = 0..=1, default_missing_value = "")]
    pub ros: Option<String>,
    /// With --ros: listen on this address instead of 127.0.0.1 (prints a warning: anyone
    /// who reaches it can drive the robots). For 0.0.0.0 set ROS_IP or ROS_HOSTNAME to the
    /// address peers reach this machine by.
    #[arg(long, requires = "ros", value_name = "ADDR")]
    pub ros_host: Option<std::net::IpAddr>,
    /// Join ROS 2 (domain ROS_DOMAIN_ID, peers on this machine only): each robot gets
    /// /<robot>/odom, pose, scan, sonar, battery, cmd_vel, goal_pose and its goal kinds
    /// as actions (goto, run_option, run_mission); the node publishes /tf, /tf_static,
    /// /clock and /rosout. See docs/ros2.md.
    #[arg(long, conflicts_with = "ros")]
    pub ros2: bool,
    /// With --ros2: discover peers on the network of this local address too (0.0.0.0:
    /// every interface); prints a warning, anyone on it can drive the robots.
    #[arg(long, requires = "ros2", value_name = "ADDR")]
    pub ros2_host: Option<std::net::IpAddr>,
    /// With --ros2, last: ROS 2 arguments (-r __node:=NAME -r __ns:=/NS -r FROM:=TO -p
    /// NAME:=VALUE).
    #[arg(long = "ros-args", requires = "ros2", num_args = 0.., allow_hyphen_values = true, value_name = "ARG")]
    pub ros_args: Vec<String>,
}

/// One robot's goals and velocity commands, for the transports.
struct Served {
    robot: usize,
    goals: Arc<dyn GoalPort>,
    velocity: VelocityInbox,
}

/// Give each robot its controller; with a transport, serve its goals (and velocity
/// commands) through the goal runner.
fn bind(runner: &mut Runner, controllers: Assignments, options: BindOptions) -> Vec<Served> {
    let mut served = Vec::new();
    for (i, c) in controllers {
        if options == BindOptions::default() {
            runner.set_controller(i, c);
            continue;
        }
        let b = skipper_goals::bind(runner.world(), i, Some(c), options);
        runner.set_controller(i, b.controller);
        served.push(Served {
            robot: i,
            goals: b.goals,
            velocity: b.velocity,
        });
    }
    served
}

/// A ROS error for the user: bad settings are bad input, the rest a failure.
fn ros_failure(e: LinkError) -> Failure {
    match e {
        LinkError::Settings(m) => Failure::bad_input(m),
        LinkError::Ros(m) => Failure::failed(m),
    }
}

/// Run it; returns the exit status.
pub fn run(args: RunArgs) -> Result<u8, Failure> {
    let choice = ControllerChoice::parse(args.controller.as_deref())?.with_soar(&args.soar)?;
    let setup = choice.setup(&WorldOptions {
        vehicle: &args.world.vehicle,
        world: args.world.world.as_deref(),
        robots: args.world.robots,
        seed: args.world.seed,
        mission_timeout: args.mission_timeout,
        models: &args.world.models,
    })?;
    let serve = args
        .serve
        .map(|a| skipper_dashboard::ServeOptions::new(a, args.allow_remote))
        .transpose()?;
    let options = BindOptions {
        goto: serve.is_some() || args.ros.is_some() || args.ros2,
        velocity: args.ros.is_some() || args.ros2,
    };
    let real_robot = !matches!(args.world.vehicle, VehicleChoice::Sim);
    let rate = args.rate.unwrap_or(setup.rate);
    let config = args.clock.config(rate, options.goto, real_robot)?;
    let ros = args
        .ros
        .as_deref()
        .map(|m| RosLink::connect(m, args.ros_host).map_err(ros_failure))
        .transpose()?;
    let robots = setup.world.len();
    let period = config.period;
    let mut runner = Runner::new(setup.world, config);
    let served = bind(&mut runner, setup.controllers, options);
    let ports = || served.iter().map(|s| (s.robot, s.goals.clone())).collect();
    let dashboard = match &serve {
        Some(o) => Some(skipper_dashboard::live::serve(
            &mut runner,
            ports(),
            period,
            o,
        )?),
        None => None,
    };
    if let Some(link) = &ros {
        let robots: Vec<_> = served
            .iter()
            .map(|s| skipper_ros1::Robot {
                index: s.robot,
                goals: s.goals.clone(),
                velocity: s.velocity.clone(),
            })
            .collect();
        let services = link
            .serve_services(runner.world(), &robots, runner.control())
            .map_err(ros_failure)?;
        runner.add_observer(services);
        let time = if real_robot {
            skipper_ros1::TimeSource::Wall
        } else {
            skipper_ros1::TimeSource::Simulated
        };
        let topics = link
            .serve_with(
                runner.world(),
                robots,
                &crate::vehicles::pioneer_sensors(),
                time,
            )
            .map_err(ros_failure)?;
        runner.add_observer(topics);
    }
    if args.ros2 {
        let robots = served
            .iter()
            .map(|s| (s.robot, s.goals.clone(), s.velocity.clone()))
            .collect();
        crate::ros2::attach(&mut runner, robots, &args.ros_args, args.ros2_host, rate)?;
    }
    for o in setup.observers {
        runner.add_observer(o);
    }
    let outputs = Outputs::attach(&mut runner, &args.output, &choice.name())?;
    session::progress(&mut runner, args.clock.until);
    session::stop_on_interrupt(&runner);
    // `rosnode kill`, or another node taking the name: the run ends as planned (robots
    // stopped, log closed, exit 0), as a rospy or roscpp node exits
    let killed_by_ros = Arc::new(std::sync::atomic::AtomicBool::new(false));
    if let Some(link) = &ros {
        let (control, flag) = (runner.control(), killed_by_ros.clone());
        link.node().on_shutdown(move |why| {
            eprintln!("ROS: {why}; ending the run");
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            control.request_stop();
        });
    }

    let mut report = runner.run();
    if killed_by_ros.load(std::sync::atomic::Ordering::SeqCst)
        && matches!(report.outcome, skipper_core::RunOutcome::Interrupted)
    {
        report.outcome = skipper_core::RunOutcome::Finished;
    }
    // controllers have finished (goals aborted); now leave the ROS graph
    drop(runner);
    if let Some(link) = ros {
        link.shutdown();
    }
    if let Some(d) = dashboard {
        // let the browsers get the last frame before the server stops
        std::thread::sleep(Duration::from_millis(300));
        d.stop();
    }
    outputs.finish(&report, robots)
}
