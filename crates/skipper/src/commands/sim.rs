//! `skipper sim serve`: a MobileSim-like P2OS robot server for the simulated robots.

use crate::exit::Failure;
use crate::vehicles;
use clap::{Args, Subcommand, ValueEnum};
use skipper_p2os::server::{OldLaserCommands, ServerExit};
use skipper_simserve::ServeOptions;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// `skipper sim ...`
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  skipper sim serve --p2os 127.0.0.1:8101 --world examples/worlds/office.world")]
pub struct SimArgs {
    #[command(subcommand)]
    pub command: SimCommand,
}

/// What to do with the simulator.
#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// Serve the simulated robots over P2OS, as MobileSim does: one TCP port per robot.
    #[command(after_help = "Examples:
  skipper sim serve --p2os 127.0.0.1:8101
  # robot1 on 8101, robot2 on 8102, robot3 on 8103
  skipper sim serve --p2os 127.0.0.1:8101 --world examples/worlds/office.world \\
      --robots 3
  # drive it with the wander demo
  skipper run --vehicle p2os://127.0.0.1:8101 --until 1m
  # or with ARIA's examples (robot2, with its simulated laser)
  ./simpleMotionCommands -rh 127.0.0.1 -rrtp 8101
  ./wander -rh 127.0.0.1 -rrtp 8102

Robots report subtype p3dx (as MobileSim's P3-DX model does; ARIA then loads
p3dx.p), or their --model (p3at: the P3-AT's sonar ring and laser place),
unless --subtype says otherwise, and serial number SIM, so that ARIA
knows it talks to a simulator and asks for the simulated laser (scans ray-cast
from the world at the angles and resolution ARIA asks for). Ctrl-C stops the
server; a client's SIM_EXIT ends it with the client's code.")]
    Serve(ServeArgs),
}

/// Options of `skipper sim serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address of the first robot's port; robot k listens on the next port up (port 0:
    /// a free port for each robot).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8101")]
    pub p2os: SocketAddr,
    /// Allow listening on an address other than loopback (P2OS has no authentication).
    #[arg(long)]
    pub allow_remote: bool,
    /// World: a Skipper world file (*.world) or a MobileSim/ARIA map (*.map).
    #[arg(long, value_name = "W")]
    pub world: Option<PathBuf>,
    /// Fill the world with this many robots.
    #[arg(long, value_name = "N")]
    pub robots: Option<usize>,
    /// Seed for every random number of the simulation: the robots' odometry, sonar and
    /// laser noise (docs/pioneer.md).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub seed: u64,
    /// The simulated robots' model: `p3dx` (default), `p3at` (the P3-AT's sonar ring and
    /// laser place, from ARIA's parameter files), ...; `ROBOT=MODEL` for one robot.
    /// Repeatable.
    #[arg(long = "model", value_name = "[ROBOT=]MODEL")]
    pub models: Vec<vehicles::ModelChoice>,
    /// No sensor or odometry noise: the same robots whatever the seed.
    #[arg(long)]
    pub exact: bool,
    /// Robot subtype to report (one ARIA knows: p3dx, p3dx-sh, p2de, p2dx, p3at, ...);
    /// default: the --model given for every robot, if it is a subtype, else p3dx.
    #[arg(long, value_name = "SUBTYPE")]
    pub subtype: Option<String>,
    /// Watchdog: stop a robot when its client sent no command for this many ms (0: off).
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    pub watchdog: u64,
    /// SIP cycle in ms (also one simulated-laser scan per cycle).
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub sip_cycle: u64,
    /// How to read commands 35-38, which are ADSEL, GRIPPERVAL, GRIPPERPACREQUEST (and
    /// nothing) in P2OS but the old simulated-laser commands in MobileSim.
    #[arg(long, value_enum, default_value_t = OldLaser::Sequence, value_name = "HOW")]
    pub old_laser_commands: OldLaser,
}

/// `--old-laser-commands`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OldLaser {
    /// Laser commands when they come as ARIA's simulated laser sends them (36, 37, 38,
    /// 35 back to back; 38 always), P2OS meanings otherwise.
    Sequence,
    /// Always the old laser commands, as MobileSim does by default.
    Always,
    /// Always the P2OS meanings (no old laser commands).
    Never,
}

impl From<OldLaser> for OldLaserCommands {
    fn from(o: OldLaser) -> Self {
        match o {
            OldLaser::Sequence => OldLaserCommands::Sequence,
            OldLaser::Always => OldLaserCommands::Always,
            OldLaser::Never => OldLaserCommands::Never,
        }
    }
}

/// Run it; returns the exit status.
pub fn run(args: SimArgs) -> Result<u8, Failure> {
    match args.command {
        SimCommand::Serve(a) => serve(a),
    }
}

/// The subtype robots report: `--subtype`, else the model of every robot when it is a
/// subtype (not `splinter`), else p3dx.
fn subtype(a: &ServeArgs) -> String {
    let every = a.models.iter().rev().find(|m| m.robot.is_none());
    match (&a.subtype, every) {
        (Some(s), _) => s.clone(),
        (None, Some(m)) if m.model != "splinter" => m.model.clone(),
        _ => "p3dx".into(),
    }
}

fn serve(a: ServeArgs) -> Result<u8, Failure> {
    let subtype = subtype(&a);
    let options = ServeOptions {
        first: a.p2os,
        allow_remote: a.allow_remote,
        subtype: subtype.clone(),
        watchdog: (a.watchdog > 0).then(|| Duration::from_millis(a.watchdog)),
        sip_cycle: Duration::from_millis(a.sip_cycle),
        old_laser_commands: a.old_laser_commands.into(),
    };
    options.check().map_err(settings_failure)?;
    if !a.p2os.ip().is_loopback() {
        eprintln!(
            "warning: serving P2OS on {} — anyone who can reach it can drive the robots",
            a.p2os.ip()
        );
    }
    let world = vehicles::ground_world_with_models(
        a.world.as_deref(),
        a.robots,
        0,
        a.seed,
        &a.models,
        a.exact,
    )?;
    // where the map is on the globe, if it says: the robots' simulated GPS
    let origin = vehicles::load_spec(a.world.as_deref())?.origin;
    let names: Vec<String> = world
        .robots()
        .iter()
        .map(|r| r.spec().name.clone())
        .collect();
    let handle =
        skipper_simserve::start_with_origin(world, origin, &options).map_err(settings_failure)?;
    for (name, addr) in names.iter().zip(handle.addrs()) {
        crate::outln!("{name} ({subtype}) on {addr}");
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let stop = Arc::new(AtomicBool::new(false));
    let s2 = stop.clone();
    crate::shutdown::on_stop(move || s2.store(true, Ordering::SeqCst));
    while !stop.load(Ordering::SeqCst) && !handle.is_finished() {
        std::thread::sleep(Duration::from_millis(50));
    }
    let exit = if handle.is_finished() {
        handle.wait()
    } else {
        handle.stop()
    };
    Ok(match exit {
        ServerExit::Stopped => 0,
        ServerExit::SimExit(code) => code.clamp(0, 255) as u8,
    })
}

/// A server that cannot start, in the words of the command line: bad settings are bad
/// input (named by their flag), the rest a failure.
fn settings_failure(e: skipper_simserve::Error) -> Failure {
    use skipper_simserve::Error as E;
    match e {
        E::Remote(addr) => Failure::bad_input(format!(
            "--p2os {addr}: P2OS has no authentication, so the server listens on loopback only; add --allow-remote to listen on {}",
            addr.ip()
        )),
        E::UnknownSubtype { .. } => Failure::bad_input(format!("--{e}")),
        E::SipCycle => Failure::bad_input("--sip-cycle must be at least 1 ms"),
        E::Bind { .. } | E::Start(_) => Failure::failed(e.to_string()),
    }
}
