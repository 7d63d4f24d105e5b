//! `skipper run`: run a controller on the simulator or a real robot.

use crate::controllers::auv_pilot::AuvPilot;
use crate::controllers::goal::GoalRunner;
use crate::controllers::mission_goal::MissionRunner;
use crate::controllers::option::OptionRunner;
use crate::controllers::{mission, ControllerChoice};
use crate::exit::{self, Failure};
use crate::progress::Progress;
use crate::runlog::{self, RunLog};
use crate::vehicles::{self, VehicleChoice};
use clap::Args;
use skipper_core::seconds;
use skipper_core::time::parse_duration;
use skipper_core::{RunConfig, RunOutcome, Runner};
use std::path::PathBuf;
use std::time::Duration;

/// Options of `skipper run`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  skipper run --until 2m                                  wander in the empty room for 2 simulated minutes
  skipper run --world examples/worlds/office.world --until 10m --summary-json out.json
  skipper run --world examples/worlds/office.world --robots 50 --until 1m --seed 3
  skipper run --world lab.map --realtime                  watch it at real-time pace (Ctrl-C ends it)
  skipper run --soar examples/soar/waypoint-tour.soar --until 5m
  skipper run --soar examples/soar/dispatcher.soar --soar examples/soar/patrol.soar
  skipper run --world examples/worlds/office.world --serve 127.0.0.1:8088   watch and steer it in a browser
  skipper run examples/xabsl/soccer/agents.xabsl --world examples/worlds/soccer.world
                                                          an XABSL agent pushes the ball into the goal
  skipper run examples/missions/test_mission.lua --summary-json out.json
                                                          fly the spec's mission on the simulated AUV
  skipper run --ros --no-log                              a ROS 1 node: send goals with `skipper action send /robot1/goto x=2 y=1`
  skipper run examples/xabsl/soccer/agents.xabsl --world examples/worlds/soccer.world --ros
                                                          ... and `skipper action send /robot1/run_option option=play`
  skipper run examples/missions/test_mission.lua --ros    ... and `skipper action send /tethys/run_mission mission=m.lua`
                                                          or `skipper action send /tethys/goto x=-200 y=100`
  skipper run --ros --ros-host 0.0.0.0                    reachable from other machines (set ROS_IP; prints a warning)

A mission without a WITHIN on its STACK is bounded by the default mission timeout (24 h,
or MissionTimeout in the Control.cfg beside it, or --mission-timeout): it then ends with
the outcome `timeout`.

Exit status: 0 when the run ended as planned (controller finished or time limit), 1 when
the controller failed or aborted, 2 for bad input, 3 when a mission did not complete
within its default mission timeout, 130 when interrupted by Ctrl-C.")]
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
    /// World: a Skipper world file (*.world) or a MobileSim/ARIA map (*.map); default: an
    /// empty 25 m x 25 m room with one robot in the middle. Missions fly in the worksite of
    /// the workSite.cfg beside them (or of a *.cfg given here).
    #[arg(long, value_name = "W")]
    pub world: Option<PathBuf>,
    /// The vehicle: `sim`, `p2os://HOST:PORT` or a serial device such as /dev/ttyS0.
    #[arg(
        long,
        default_value = "sim",
        value_name = "sim|p2os://HOST:PORT|/dev/ttyS0"
    )]
    pub vehicle: VehicleChoice,
    /// Seed for every random number of a simulated run.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub seed: u64,
    /// Stop after this much simulated time: `600`, `90s`, `10m`, `4h`.
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    pub until: Option<Duration>,
    /// Pace the run by the wall clock (real robots always are).
    #[arg(long)]
    pub realtime: bool,
    /// With --realtime: run this many times faster than real time.
    #[arg(long, default_value_t = 1.0, value_name = "FACTOR")]
    pub speed: f64,
    /// Cycle rate in Hz (default 10 for ground robots, 5 for the AUV).
    #[arg(long, value_name = "HZ")]
    pub rate: Option<f64>,
    /// Fill the world with this many robots (more are placed on free floor near the first).
    #[arg(long, value_name = "N")]
    pub robots: Option<usize>,
    /// Where to write the run log (default: runs/<controller>-<UTC time>.mcap).
    #[arg(long, value_name = "PATH.mcap")]
    pub log: Option<PathBuf>,
    /// A mission that has no WITHIN on its STACK ends after this much simulated time, with
    /// the outcome `timeout` (default: MissionTimeout in the Control.cfg beside it, else 24h).
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    pub mission_timeout: Option<Duration>,
    /// Do not write a run log.
    #[arg(long, conflicts_with = "log")]
    pub no_log: bool,
    /// Write the run's summary as one JSON object to this file.
    #[arg(long, value_name = "PATH")]
    pub summary_json: Option<PathBuf>,
    /// Serve the live dashboard on this address (default 127.0.0.1:8088); the run is then
    /// paced by the wall clock (--speed sets the factor) and goes on until --until or Ctrl-C.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = crate::dashboard::DEFAULT_ADDR)]
    pub serve: Option<std::net::SocketAddr>,
    /// Let --serve listen on an address other machines can reach; every request then needs
    /// the token printed at start.
    #[arg(long, requires = "serve")]
    pub allow_remote: bool,
    /// Join ROS 1: the master URI, or nothing for ROS_MASTER_URI (default
    /// http://127.0.0.1:11311). Each robot, and the AUV of a mission, then hosts the action
    /// server /<robot>/goto (skipper_msgs/Goto), publishes /<robot>/pose and
    /// /<robot>/odom and obeys /<robot>/cmd_vel; with an XABSL agent also
    /// /<robot>/run_option (skipper_msgs/RunOption), with a mission the AUV
    /// /<auv>/run_mission (skipper_msgs/RunMission). The run is paced by the wall clock
    /// and goes on until --until or Ctrl-C.
    #[arg(long, value_name = "MASTER_URI", num_args = 0..=1, default_missing_value = "")]
    pub ros: Option<String>,
    /// With --ros: listen on this address instead of 127.0.0.1 (prints a warning: anyone
    /// who reaches it can drive the robots). For 0.0.0.0 set ROS_IP or ROS_HOSTNAME to the
    /// address peers reach this machine by.
    #[arg(long, requires = "ros", value_name = "ADDR")]
    pub ros_host: Option<std::net::IpAddr>,
}

/// Run it; returns the exit status.
pub fn run(args: RunArgs) -> Result<u8, Failure> {
    let choice = ControllerChoice::parse(args.controller.as_deref())?.with_soar(&args.soar)?;
    let mut mission_goals = None;
    let mut auv_limits = None;
    let mut option_goals = Vec::new();
    let (world, controllers) = match &choice {
        // a mission flies the AUV in the worksite of its workSite.cfg
        ControllerChoice::Mission(p) => {
            if !matches!(args.vehicle, VehicleChoice::Sim) {
                return Err(Failure::bad_input(
                    "missions run on the simulated AUV only (--vehicle sim)",
                ));
            }
            let m = mission::load(p)?;
            let auv_world = mission::world(&m, args.world.as_deref(), args.seed)?;
            auv_limits = Some(mission::auv_limits(&auv_world, &m));
            let w: Box<dyn skipper_core::World> = Box::new(auv_world);
            let mut mc = mission::controller(m, &*w);
            if let Some(t) = args.mission_timeout {
                mc = mc.with_timeout(t.as_secs_f64());
            }
            let c: Box<dyn skipper_core::Controller> = if args.ros.is_some() {
                // run_mission goals replace the mission; the run goes on after it ends
                let (r, h) = MissionRunner::new(mc);
                mission_goals = Some(h);
                Box::new(r)
            } else {
                Box::new(mc)
            };
            (w, vec![(0, c)])
        }
        ControllerChoice::Xabsl(p) if args.ros.is_some() => {
            // run_option goals choose the agents' root options
            let w = vehicles::build(&args.vehicle, args.world.as_deref(), args.robots, args.seed)?;
            let mut c: Vec<(usize, Box<dyn skipper_core::Controller>)> = Vec::new();
            for (i, x) in crate::controllers::xabsl_controllers(p, &*w)? {
                let (r, h) = OptionRunner::new(x);
                option_goals.push((i, h));
                c.push((i, Box::new(r)));
            }
            (w, c)
        }
        _ => {
            let mut w =
                vehicles::build(&args.vehicle, args.world.as_deref(), args.robots, args.seed)?;
            // several Soar agents need as many robots
            let needed = choice.robots_needed();
            if w.len() < needed && args.robots.is_none() {
                w = vehicles::build(
                    &args.vehicle,
                    args.world.as_deref(),
                    Some(needed),
                    args.seed,
                )?;
            }
            let c = choice.build(&*w, args.seed)?;
            (w, c)
        }
    };
    // the default rate follows the vehicle: 10 Hz for ground robots, 5 Hz for the AUV;
    // Soar agents run one decision cycle per 50 ms (20 Hz)
    let auv = world
        .vehicle(0)
        .is_some_and(|v| v.info().kind == skipper_core::VehicleKind::Auv);
    let soar = matches!(choice, ControllerChoice::Soar(_));
    let rate = args.rate.unwrap_or(if auv {
        5.0
    } else if soar {
        20.0
    } else {
        10.0
    });
    let period = seconds::period_of_rate(rate)
        .map_err(|e| Failure::bad_input(format!("--rate (Hz): {e}")))?;
    seconds::speed_factor(args.speed).map_err(|e| Failure::bad_input(format!("--speed: {e}")))?;
    let serve = args
        .serve
        .map(|a| crate::dashboard::ServeOptions::new(a, args.allow_remote))
        .transpose()?;
    let realtime = args.realtime
        || serve.is_some()
        || args.ros.is_some()
        || !matches!(args.vehicle, VehicleChoice::Sim);
    let names: Vec<String> = (0..world.len())
        .map(|i| {
            world
                .vehicle(i)
                .map(|v| v.info().name.clone())
                .unwrap_or_else(|| format!("robot{i}"))
        })
        .collect();
    let ros = args
        .ros
        .as_deref()
        .map(|m| crate::ros::RosLink::connect(m, args.ros_host))
        .transpose()?;
    let robots = world.len();
    let config = RunConfig {
        period,
        until: args.until,
        realtime,
        speed: args.speed,
    };
    let mut runner = Runner::new(world, config);
    let mut goals = Vec::new();
    for (i, c) in controllers {
        let ground = runner
            .world()
            .vehicle(i)
            .is_some_and(|v| v.info().kind == skipper_core::VehicleKind::Ground);
        if (serve.is_some() || ros.is_some()) && ground {
            // the dashboard's click-to-goto and ROS goals drive a ground robot through a
            // goal runner (the AUV gets one, with its own pilot, under --ros only: below)
            let (g, h) = GoalRunner::new(Some(c));
            goals.push((i, h.clone()));
            let mut c: Box<dyn skipper_core::Controller> = Box::new(g);
            if let Some(link) = &ros {
                let name = names.get(i).map(String::as_str).unwrap_or("robot");
                let options = option_goals
                    .iter()
                    .position(|(k, _)| *k == i)
                    .map(|k| option_goals.swap_remove(k).1);
                c = link.robot(name, h, options, c)?;
            }
            runner.set_controller(i, c);
        } else if let (Some(link), Some(h)) = (&ros, mission_goals.take()) {
            // goto goals fly the AUV through a goal runner over the mission, which is
            // held while a goal runs
            let name = names.get(i).map(String::as_str).unwrap_or("auv");
            let origin = mission::origin(runner.world()).unwrap_or((0.0, 0.0));
            let limits = auv_limits.unwrap_or_default();
            let pilot = AuvPilot::new(origin, limits);
            let (g, goals) = GoalRunner::with_pilot(Some(c), Box::new(pilot));
            runner.set_controller(i, link.auv(name, h, goals, Box::new(g), origin, limits)?);
        } else {
            runner.set_controller(i, c);
        }
    }
    let dashboard = match &serve {
        Some(o) => Some(crate::dashboard::live::serve(
            &mut runner,
            goals,
            period,
            o,
        )?),
        None => None,
    };
    let log_path = (!args.no_log).then(|| {
        args.log
            .clone()
            .unwrap_or_else(|| runlog::default_path(&choice.name()))
    });
    let log_status = match &log_path {
        Some(p) => {
            let (log, status) =
                RunLog::create(p).map_err(|e| Failure::bad_input(format!("{e:#}")))?;
            runner.add_observer(Box::new(log));
            Some(status)
        }
        None => None,
    };
    runner.add_observer(Box::new(Progress::new(args.until.map(|d| d.as_secs_f64()))));
    if soar {
        // send-message to `say`: espeak-ng when installed, off the cycle
        runner.add_observer(Box::new(crate::speech::SpeechObserver::new(
            crate::speech::Speaker::new(),
        )));
    }
    let control = runner.control();
    // Ctrl-C or SIGTERM; a second one while the first is being handled ends the process
    crate::shutdown::on_stop(move || control.request_stop());

    let report = runner.run();
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

    if let Some(status) = &log_status {
        if let Some(e) = status.lock().ok().and_then(|s| s.error.clone()) {
            eprintln!("warning: {e}");
        }
    }
    print!(
        "{}",
        crate::summary::render(&report, &choice.name(), robots, log_path.as_deref())
    );
    if let Some(p) = &args.summary_json {
        let text = serde_json::to_string_pretty(&report.summary_json(true)).unwrap_or_default();
        std::fs::write(p, text + "\n")
            .map_err(|e| Failure::failed(format!("cannot write {}: {e}", p.display())))?;
    }
    Ok(match &report.outcome {
        RunOutcome::Finished | RunOutcome::TimeLimit => 0,
        RunOutcome::Aborted(r) | RunOutcome::Failed(r) => {
            eprintln!(
                "error: the run {}: {r}",
                if matches!(report.outcome, RunOutcome::Aborted(_)) {
                    "was aborted"
                } else {
                    "failed"
                }
            );
            exit::FAILED
        }
        RunOutcome::Interrupted => exit::INTERRUPTED,
        RunOutcome::TimedOut(r) => {
            eprintln!("error: the run timed out: {r}");
            exit::TIMEOUT
        }
    })
}
