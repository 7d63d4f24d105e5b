//! `skipper link serve`: the SPS input-link/output-link over TCP (JSON lines) for
//! external agents, each driving its own robot of one world (see `docs/soar.md` for the
//! protocol, and `skipper_sps::server` for how it runs).

use super::session::{self, ClockArgs, OutputArgs, Outputs, WorldArgs};
use crate::exit::{self, Failure};
use crate::vehicles::{self, VehicleChoice};
use clap::{Args, Subcommand};
use skipper_core::time::parse_duration;
use skipper_core::Runner;
use skipper_sps::server::conn::Listener;
use skipper_sps::server::{Gate, Hub, HubConfig, ServerPort};
use skipper_sps::speech::{Speaker, SpeechObserver};
use skipper_sps::{Link, LinkConfig, LinkController, PostOffice};
use std::io::Write;
use std::net::{SocketAddr, TcpListener};
use std::time::Duration;

/// The default address of `skipper link serve`.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:12100";

/// `skipper link ...`
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  skipper link serve --world examples/worlds/soar-tour.world
  # then, in another shell:
  skipper-soar-bridge examples/soar/waypoint-tour.soar --connect 127.0.0.1:12100")]
pub struct LinkArgs {
    #[command(subcommand)]
    pub command: LinkCommand,
}

/// What to do with the link.
#[derive(Debug, Subcommand)]
pub enum LinkCommand {
    /// Serve the SPS input-link/output-link over TCP (JSON lines) to external agents, one
    /// robot each, in one world.
    #[command(after_help = "Examples:
  skipper link serve --world examples/worlds/soar-tour.world
  # then, in another shell:
  skipper-soar-bridge examples/soar/waypoint-tour.soar --connect 127.0.0.1:12100
  # two agents (robot1, robot2); the clock starts when both are connected
  skipper link serve --world examples/worlds/soar-patrol.world --agents 2 \\
      --until 5m --log patrol.mcap
  # paced by the wall clock, on a free port (printed at start)
  skipper link serve --realtime --listen 127.0.0.1:0

The protocol (JSON lines, one object per line; docs/soar.md): the agent says
{\"type\":\"hello\",\"robot\":\"robot1\"} (robot optional), gets
{\"type\":\"welcome\",...} and its whole input-link as a first
{\"type\":\"input\",...}, then sends one {\"type\":\"step\",...} per decision
cycle and gets one input per step.

By default time is simulated and lock-step: each cycle waits for every connected
agent's step (up to --silence), and the clock holds while no agent is connected.
An agent that disconnects, halts, goes silent or sends garbage has its robot
stopped; garbage also gets an error line and the connection is closed. The run
ends when every agent that connected has halted (exit status 0), at --until, or
on Ctrl-C (130).")]
    Serve(ServeArgs),
}

/// Options of `skipper link serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: a free port; the address is printed at start).
    #[arg(long, value_name = "ADDR", default_value = DEFAULT_LISTEN)]
    pub listen: SocketAddr,
    /// Allow listening on an address other than loopback (the link has no
    /// authentication: anyone who reaches it can drive the robots).
    #[arg(long)]
    pub allow_remote: bool,
    #[command(flatten)]
    pub world: WorldArgs,
    /// Wait for this many agents before the clock starts (and before the run may end).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub agents: usize,
    /// Stop a robot whose agent sent nothing for this long (`500ms`, `2s`).
    #[arg(long, default_value = "2s", value_parser = parse_duration, value_name = "DURATION")]
    pub silence: Duration,
    #[command(flatten)]
    pub clock: ClockArgs,
    /// Cycle rate in Hz (default 20: one decision cycle per 50 ms).
    #[arg(long, default_value_t = 20.0, value_name = "HZ")]
    pub rate: f64,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Run it; returns the exit status.
pub fn run(args: LinkArgs) -> Result<u8, Failure> {
    match args.command {
        LinkCommand::Serve(a) => serve(a),
    }
}

fn check(a: &ServeArgs) -> Result<(), Failure> {
    if !a.listen.ip().is_loopback() && !a.allow_remote {
        return Err(Failure::bad_input(format!(
            "--listen {}: the link has no authentication, so it listens on loopback only; add --allow-remote to listen on {}",
            a.listen,
            a.listen.ip()
        )));
    }
    if a.silence.is_zero() {
        return Err(Failure::bad_input("--silence must be longer than 0"));
    }
    Ok(())
}

fn serve(a: ServeArgs) -> Result<u8, Failure> {
    check(&a)?;
    if !a.listen.ip().is_loopback() {
        eprintln!(
            "warning: serving the SPS link on {} — anyone who can reach it can drive the robots",
            a.listen.ip()
        );
    }
    let w = &a.world;
    let world = vehicles::build(w, 0, &vehicles::Reach::default())?;
    let names: Vec<String> = (0..world.len())
        .filter_map(|i| world.vehicle(i).map(|v| v.info().name.clone()))
        .collect();
    let config = a
        .clock
        .config(a.rate, false, !matches!(w.vehicle(), VehicleChoice::Sim))?;
    let (realtime, period) = (config.realtime, config.period);
    let post = PostOffice::new();
    let hub = Hub::new(
        &names,
        post.clone(),
        HubConfig {
            lockstep: !realtime,
            silence: a.silence,
            agents: a.agents,
            period,
        },
    );
    let listener = TcpListener::bind(a.listen)
        .map_err(|e| Failure::failed(format!("cannot listen on {}: {e}", a.listen)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::failed(format!("cannot listen on {}: {e}", a.listen)))?;
    let mut runner = Runner::new(world, config);
    for (i, name) in names.iter().enumerate() {
        let link = Link::new(LinkConfig::new(name.clone())).with_post_office(post.clone());
        let port = ServerPort::new(hub.clone(), i);
        let c = LinkController::new(format!("link:{name}"), link, port).serving();
        runner.set_controller(i, Box::new(c));
    }
    let control = runner.control();
    let outputs = Outputs::attach(&mut runner, &a.output, "link")?;
    session::progress(&mut runner, a.clock.until);
    runner.add_observer(Box::new(SpeechObserver::new(Speaker::new())));
    if !realtime {
        // last, so the cycle is logged before the clock holds
        runner.add_observer(Box::new(Gate::new(hub.clone(), control.clone())));
    }
    session::stop_on_interrupt(&runner);

    let server = Listener::start(listener, hub.clone())
        .map_err(|e| Failure::failed(format!("cannot serve on {addr}: {e}")))?;
    crate::outln!(
        "skipper link serve: listening on {addr} (robots: {}; {})",
        names.join(", "),
        if realtime {
            "real time"
        } else {
            "simulated time, lock-step"
        }
    );
    let _ = std::io::stdout().flush();
    if a.agents > 0 {
        eprintln!(
            "waiting for {} agent{} to connect",
            a.agents,
            if a.agents == 1 { "" } else { "s" }
        );
    }
    let report = if hub.wait_for_agents(a.agents, &control) {
        Some(runner.run())
    } else {
        None
    };
    hub.close();
    server.stop();
    let Some(report) = report else {
        return Ok(exit::INTERRUPTED);
    };
    outputs.finish(&report, names.len())
}
