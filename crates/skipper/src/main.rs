//! `skipper`: the command line. Parses arguments and hands each subcommand to
//! `skipper::commands`.

use clap::{Parser, Subcommand};
use skipper::commands;
use std::process::ExitCode;

/// Skipper, a robot behavior executive: run XABSL agents, Tethys missions and Soar agents
/// on a simulated Pioneer or AUV, or on a real robot that speaks P2OS.
#[derive(Debug, Parser)]
#[command(
    name = "skipper",
    version,
    propagate_version = true,
    after_help = "Examples:
  # the wander demo, 2 simulated minutes; in the office for 10
  skipper run --until 2m
  skipper run --world examples/worlds/office.world --until 10m
  # check a world, an XABSL agent, a mission
  skipper world check examples/worlds/office.world
  skipper xabsl check examples/xabsl/soccer/agents.xabsl
  skipper mission check examples/missions/test_mission.lua
  # fly the spec's mission on the simulated AUV
  skipper run examples/missions/test_mission.lua
  # a Soar agent on the simulated Pioneer
  skipper run --soar examples/soar/waypoint-tour.soar --until 5m
  # a MobileSim-like P2OS robot, and the wander demo driving it
  skipper sim serve --p2os 127.0.0.1:8101
  skipper run --vehicle p2os://127.0.0.1:8101 --until 1m
  # the SPS link for external agents
  skipper link serve --world examples/worlds/soar-tour.world
  # a ROS 1 node with a goto action server per robot, and a goal for it
  skipper run --ros --no-log
  skipper action send /robot1/goto x=2 y=1
  # the same on ROS 2
  skipper run --ros2 --no-log
  skipper action send --ros2 /robot1/goto x=2 y=1

Run `skipper <command> --help` for each command's options and examples."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a controller (mission, XABSL agent, Soar agent, or the wander demo) on the
    /// simulator or a real robot.
    Run(commands::run::RunArgs),
    /// Check worlds and maps.
    World(commands::world::WorldArgs),
    /// Write an HTML report with plots of a run log.
    Report(commands::report::ReportArgs),
    /// Replay a run log in the web dashboard, with a time slider.
    #[cfg(feature = "dashboard")]
    Replay(commands::replay::ReplayArgs),
    /// Check, compile, document and run XABSL agents offline.
    Xabsl(commands::xabsl::XabslArgs),
    /// Check Tethys/LRAUV missions before launch.
    Mission(commands::mission::MissionArgs),
    /// Serve the simulated robots over P2OS (a MobileSim-like robot server).
    Sim(commands::sim::SimArgs),
    /// Serve the SPS input-link/output-link to external agents (Soar through the bridge).
    Link(commands::link::LinkArgs),
    /// Talk to action servers over ROS 1 (actionlib) or ROS 2 (send a goal, watch its
    /// feedback).
    Action(commands::action::ActionArgs),
    /// A language server for XABSL and mission scripts (an editor starts it; stdio).
    #[cfg(feature = "lsp")]
    Lsp(commands::lsp::LspArgs),
    /// Run a ROS 1 node script written for torch-ros's `ros` Lua API.
    #[cfg(feature = "torch-ros")]
    Lua(commands::lua::LuaArgs),
    /// Write the ROS 2 or ROS 1 interface packages of a controller's goal kinds.
    Interfaces(commands::interfaces::InterfacesArgs),
}

fn main() -> ExitCode {
    let filter = tracing_subscriber::EnvFilter::try_from_env("SKIPPER_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,rustdds=off,ros2_client=off"));
    // stderr gets what SKIPPER_LOG asks for; a ROS 1 node's /rosout gets INFO and up
    use skipper_ros1_wire::rosout;
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(filter),
        )
        .with(rosout::layer().with_filter(rosout::default_filter()))
        .init();
    let cli = Cli::parse_from(skipper_ros1_wire::names::take_process_args());
    if matches!(
        cli.command,
        Command::Run(_) | Command::Sim(_) | Command::Link(_)
    ) {
        // from the start, a signal stops these cleanly (sessions closed, logs finished)
        skipper::shutdown::install();
    }
    let result = match cli.command {
        Command::Run(a) => commands::run::run(a),
        Command::World(a) => commands::world::run(a),
        Command::Report(a) => commands::report::run(a),
        #[cfg(feature = "dashboard")]
        Command::Replay(a) => commands::replay::run(a),
        Command::Xabsl(a) => commands::xabsl::run(a),
        Command::Mission(a) => commands::mission::run(a),
        Command::Sim(a) => commands::sim::run(a),
        Command::Link(a) => commands::link::run(a),
        Command::Action(a) => commands::action::run(a),
        #[cfg(feature = "lsp")]
        Command::Lsp(a) => commands::lsp::run(a),
        #[cfg(feature = "torch-ros")]
        Command::Lua(a) => commands::lua::run(a),
        Command::Interfaces(a) => commands::interfaces::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(skipper::shutdown::exit_status(code)),
        Err(f) => {
            eprintln!("{}", f.text());
            ExitCode::from(f.code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every command's text after its options (examples, exit statuses), with the path
    /// to it.
    fn after_helps(cmd: &clap::Command, path: &str, out: &mut Vec<(String, String)>) {
        if let Some(h) = cmd.get_after_help() {
            out.push((path.to_string(), h.to_string()));
        }
        for sub in cmd.get_subcommands() {
            after_helps(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }

    /// `--help` of every command shows how it is used (clap's own `help` aside).
    #[test]
    fn every_command_has_examples() {
        fn walk(cmd: &clap::Command, path: &str) {
            let h = cmd
                .get_after_help()
                .map(|h| h.to_string())
                .unwrap_or_default();
            assert!(
                h.contains("Examples:") || h.contains("For example"),
                "`{path} --help` shows no example"
            );
            for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
                walk(sub, &format!("{path} {}", sub.get_name()));
            }
        }
        walk(&Cli::command(), "skipper");
    }

    /// clap re-wraps a line of help that is wider than the terminal, which breaks an
    /// example command or its comment in two; lines of at most 80 columns stay as written.
    #[test]
    fn every_help_text_fits_an_80_column_terminal() {
        let mut texts = Vec::new();
        after_helps(&Cli::command(), "skipper", &mut texts);
        assert!(texts.len() > 15, "only {} texts found", texts.len());
        for (path, text) in texts {
            for line in text.lines() {
                let width = line.chars().count();
                assert!(width <= 80, "`{path} --help`: {width} columns: {line}");
            }
        }
    }
}
