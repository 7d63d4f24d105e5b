//! `skipper replay`: the dashboard over a recorded run, with a time slider.

use crate::exit::Failure;
use clap::Args;
use skipper_dashboard::{self as dashboard, replay::Replay, server, ServeOptions};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// Options of `skipper replay`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # a run's log, then the replay: open http://127.0.0.1:8088/
  skipper run --world examples/worlds/office.world --until 10m --log office.mcap
  skipper replay office.mcap --serve
  skipper replay office.mcap --serve 127.0.0.1:9000
  # from other machines: prints a token the browser must present
  skipper replay office.mcap --serve 0.0.0.0:8088 --allow-remote

The page shows the world, the robots with their trails and sensor rays, each
robot's controller state and the events, at the time of the slider (Play runs it
at the speed chosen). Ctrl-C stops serving.

Exit status: 0 when stopped with Ctrl-C, 2 when the log cannot be read or the
address cannot be used.")]
pub struct ReplayArgs {
    /// The run log (MCAP) to replay.
    pub log: PathBuf,
    /// Serve the dashboard on this address.
    #[arg(
        long,
        value_name = "ADDR",
        num_args = 0..=1,
        default_value = dashboard::DEFAULT_ADDR,
        default_missing_value = dashboard::DEFAULT_ADDR
    )]
    pub serve: SocketAddr,
    /// Allow --serve to listen on an address other machines can reach; every request then
    /// needs the token printed at start.
    #[arg(long)]
    pub allow_remote: bool,
}

/// Serve the replay until Ctrl-C; returns the exit status.
pub fn run(args: ReplayArgs) -> Result<u8, Failure> {
    let opts = ServeOptions::new(args.serve, args.allow_remote)?;
    let replay = Replay::open(&args.log).map_err(|e| Failure::bad_input(format!("{e:#}")))?;
    let run = replay.run();
    if let Some(why) = &run.truncated {
        eprintln!(
            "warning: {} ends early ({why}); the replay shows what it has",
            args.log.display()
        );
    }
    eprintln!(
        "replaying {}: {} robots, {:.1} s",
        args.log.display(),
        run.robots.len(),
        run.end_t
    );
    let backend = Arc::new(replay);
    let server = server::start(backend, &opts).map_err(|source| dashboard::Error::Serve {
        addr: opts.addr,
        source,
    })?;
    // the stop is in place before the address is announced: a signal sent on seeing it
    // stops the replay cleanly
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    crate::shutdown::on_stop(move || {
        let _ = tx.send(());
    });
    dashboard::announce(&opts, server.addr());
    let _ = rx.recv();
    server.stop();
    Ok(0)
}
