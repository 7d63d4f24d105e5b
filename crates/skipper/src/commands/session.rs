//! What every command that runs a world shares (`skipper run`, `skipper link serve`): the
//! options that say where the vehicles come from, how the clock goes and what is
//! written; the run log, progress and interrupt wiring; and the end of a run (summary,
//! `--summary-json`, exit status).
// doc comments here are `--help` text: `/<robot>/goto` is a placeholder, not HTML
#![allow(rustdoc::invalid_html_tags)]

use crate::exit::{self, Failure};
use crate::progress::Progress;
use crate::vehicles::VehicleChoice;
use clap::Args;
use skipper_core::seconds;
use skipper_core::time::parse_duration;
use skipper_core::{ErrorKind, RunConfig, RunOutcome, RunReport, Runner};
use skipper_runlog::{LogStatus, RunLog};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Where the vehicles come from.
#[derive(Debug, Clone, Args)]
pub struct WorldArgs {
    /// World: a Skipper world file (*.world) or a MobileSim/ARIA map (*.map); default: an
    /// empty 25 m x 25 m room with one robot in the middle. Missions fly in the worksite of
    /// the workSite.cfg beside them (or of a *.cfg given here).
    #[arg(long, value_name = "W")]
    pub world: Option<PathBuf>,
    /// The vehicle: `sim`, `p2os://HOST:PORT`, a serial device such as /dev/ttyS0, or a
    /// robot driven over ROS 2 or ROS 1 topics, `[NAME=]ros2:/NAMESPACE[,OPTION...]`
    /// (`ros1:` the same; docs/robots.md). Repeat it for a fleet of ROS robots, one robot
    /// each. Real robots run in real time.
    #[arg(
        long = "vehicle",
        default_value = "sim",
        value_name = "sim|p2os://HOST:PORT|/dev/ttyS0|ros2:/NS|ros1:/NS"
    )]
    pub vehicles: Vec<VehicleChoice>,
    /// Fill the world with this many robots (more are spread over the free floor the
    /// first can drive to, as far apart as they fit).
    #[arg(long, value_name = "N")]
    pub robots: Option<usize>,
    /// Seed for every random number of a simulated run: the simulated robots' odometry,
    /// sonar and laser noise (0.75% of each wheel's travel, 0.5 mm, 5 mm by default; at
    /// MobileSim's documented levels, docs/pioneer.md).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub seed: u64,
    /// No sensor or odometry noise in the simulator: the same run whatever the seed.
    #[arg(long)]
    pub exact: bool,
    /// The simulated robots' model: `p3dx` (default) or `splinter` (the Splinter Soar
    /// robot: 0.5 m/s, 180 deg/s); `ROBOT=MODEL` for one robot. Repeatable.
    #[arg(long = "model", value_name = "[ROBOT=]MODEL")]
    pub models: Vec<crate::vehicles::ModelChoice>,
}

/// The built-in simulator, the vehicle when `--vehicle` does not say.
static SIM: VehicleChoice = VehicleChoice::Sim;

impl WorldArgs {
    /// The first `--vehicle` (the only one but for a fleet of ROS robots).
    pub fn vehicle(&self) -> &VehicleChoice {
        self.vehicles.first().unwrap_or(&SIM)
    }
}

/// How the clock goes.
#[derive(Debug, Clone, Args)]
pub struct ClockArgs {
    /// Stop after this much simulated time: `600`, `90s`, `10m`, `4h`.
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    pub until: Option<Duration>,
    /// Pace the run by the wall clock (real robots always are).
    #[arg(long)]
    pub realtime: bool,
    /// Pace the run by the wall clock at this many times real time (implies --realtime;
    /// simulated robots only) [default: 1].
    #[arg(long, value_name = "FACTOR")]
    pub speed: Option<f64>,
}

impl ClockArgs {
    /// The run's configuration at `rate` Hz, paced by the wall clock if `paced` (a real
    /// robot, goals from outside), `--realtime` or `--speed` says so; bad numbers are bad
    /// input, and so is a speed other than 1 for a real robot.
    pub fn config(&self, rate: f64, paced: bool, real_robot: bool) -> Result<RunConfig, Failure> {
        let period = seconds::period_of_rate(rate)
            .map_err(|e| Failure::bad_input(format!("--rate (Hz): {e}")))?;
        let speed = self.speed.unwrap_or(1.0);
        seconds::speed_factor(speed).map_err(|e| Failure::bad_input(format!("--speed: {e}")))?;
        if real_robot && speed != 1.0 {
            return Err(Failure::bad_input(format!(
                "--speed {speed}: a real robot runs in real time; --speed is for simulated robots"
            )));
        }
        Ok(RunConfig {
            period,
            until: self.until,
            realtime: paced || real_robot || self.realtime || self.speed.is_some(),
            speed,
        })
    }
}

/// Simulated time a run stops after when nobody is there to stop it and nothing else
/// would: no `--until`, not paced by the wall clock, a controller that may never finish
/// (the wander demo never does), and neither stdin nor stderr a terminal. As fast as the
/// simulator goes, an unbounded run would fill the disk with its log.
pub const UNATTENDED_LIMIT: Duration = Duration::from_secs(3600);

/// Bound an unattended run (see [`UNATTENDED_LIMIT`]); says so on stderr when it does.
/// `ends_by_itself`: the controller has a limit of its own (a mission's timeout).
pub fn bound_unattended(config: &mut RunConfig, ends_by_itself: bool) {
    use std::io::IsTerminal;
    let attended = std::io::stdin().is_terminal() || std::io::stderr().is_terminal();
    if let Some(note) = unattended_limit(config, ends_by_itself, attended) {
        eprintln!("{note}");
    }
}

/// [`bound_unattended`] for a run that is `attended` or not; the note to print, if it
/// set a limit.
fn unattended_limit(
    config: &mut RunConfig,
    ends_by_itself: bool,
    attended: bool,
) -> Option<String> {
    if config.until.is_some() || config.realtime || ends_by_itself || attended {
        return None;
    }
    config.until = Some(UNATTENDED_LIMIT);
    Some(format!(
        "note: no --until, and no terminal to stop the run from: it stops after {} of simulated time (give --until to choose)",
        crate::summary::human_duration(UNATTENDED_LIMIT.as_secs_f64())
    ))
}

/// What the run writes.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Where to write the run log (default: runs/<controller>-<UTC time>.mcap).
    #[arg(long, value_name = "PATH.mcap")]
    pub log: Option<PathBuf>,
    /// Do not write a run log.
    #[arg(long, conflicts_with = "log")]
    pub no_log: bool,
    /// Write the run's summary as one JSON object to this file.
    #[arg(long, value_name = "PATH")]
    pub summary_json: Option<PathBuf>,
}

/// Whether `path` can be written, found out before the run rather than after it: an
/// existing file is opened for appending (it does not change), a new one is made and
/// removed again.
fn check_writable(path: &std::path::Path) -> Result<(), Failure> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| Failure::bad_input(format!("cannot write {}: {e}", path.display())))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// The run log and outputs of a run being watched.
pub struct Outputs {
    log: Option<(PathBuf, Arc<Mutex<LogStatus>>)>,
    summary_json: Option<PathBuf>,
    name: String,
    /// whether the vehicles tell collisions (the simulated Pioneer; not P2OS, not the AUV)
    counts_collisions: bool,
}

impl Outputs {
    /// Add the run log (unless `--no-log`) and the progress bar to `runner`, and make
    /// Ctrl-C stop it. `name` names the controller in the log's file name and summary.
    pub fn attach(runner: &mut Runner, o: &OutputArgs, name: &str) -> Result<Self, Failure> {
        if let Some(p) = &o.summary_json {
            check_writable(p)?;
        }
        let log = match (o.no_log, &o.log) {
            (true, _) => None,
            (false, p) => {
                let to = skipper_runlog::Destination::from_arg(p.as_deref());
                let (log, created, status) = RunLog::create_at(&to, name)
                    .map_err(|e| Failure::bad_input(format!("{e:#}")))?;
                if created.replaced {
                    eprintln!("note: {} existed and is replaced", created.path.display());
                }
                runner.add_observer(Box::new(log));
                Some((created.path, status))
            }
        };
        Ok(Self {
            log,
            summary_json: o.summary_json.clone(),
            name: name.to_string(),
            counts_collisions: counts_collisions(runner.world()),
        })
    }

    /// Say how the run went: warnings of the log, the summary, `--summary-json`; the exit
    /// status of the command-line contract.
    pub fn finish(self, report: &RunReport, robots: usize) -> Result<u8, Failure> {
        if let Some((_, status)) = &self.log {
            if let Some(e) = status.lock().ok().and_then(|s| s.error.clone()) {
                eprintln!("warning: {e}");
            }
        }
        let facts = crate::summary::RunFacts {
            controller: &self.name,
            robots,
            log: self.log.as_ref().map(|(p, _)| p.as_path()),
            counts_collisions: self.counts_collisions,
        };
        crate::out!("{}", crate::summary::render(report, &facts));
        if let Some(p) = &self.summary_json {
            let text = serde_json::to_string_pretty(&crate::summary::json(report, &facts))
                .unwrap_or_default();
            std::fs::write(p, text + "\n")
                .map_err(|e| Failure::failed(format!("cannot write {}: {e}", p.display())))?;
        }
        Ok(exit_status(&report.outcome))
    }
}

/// Whether `world`'s vehicles tell when they collide: the simulated ground robots do
/// (contact with a wall or a robot); a P2OS robot reports no collisions and the AUV's
/// contact with the floor or the coast ends its run instead, so a count of 0 from them
/// would claim what nobody knows.
fn counts_collisions(world: &dyn skipper_core::World) -> bool {
    world.describe().get("kind").and_then(|k| k.as_str()) == Some("ground")
}

/// Show progress on a terminal for a run limited by `until`.
pub fn progress(runner: &mut Runner, until: Option<Duration>) {
    runner.add_observer(Box::new(Progress::new(until.map(|d| d.as_secs_f64()))));
}

/// Ctrl-C or SIGTERM asks the run to stop after its cycle (robots stopped, log closed); a
/// second one while the first is being handled ends the process at once.
pub fn stop_on_interrupt(runner: &Runner) {
    let control = runner.control();
    crate::shutdown::on_stop(move || control.request_stop());
}

/// 0 when the run ended as planned, 1 when it failed or was aborted, 3 when a mission ran
/// into its default timeout (said on stderr), 130 when interrupted.
pub fn exit_status(outcome: &RunOutcome) -> u8 {
    match outcome {
        RunOutcome::TimedOut(r) => {
            eprintln!("error: the run timed out: {r}");
            exit::TIMEOUT
        }
        RunOutcome::Finished | RunOutcome::TimeLimit => 0,
        RunOutcome::Aborted(r) => {
            eprintln!("error: the run was aborted: {r}");
            exit::FAILED
        }
        RunOutcome::Failed(f) => {
            eprintln!("error: the run failed: {f}");
            match f.kind {
                ErrorKind::BadInput => exit::BAD_INPUT,
                ErrorKind::Vehicle | ErrorKind::Failed | ErrorKind::Link => exit::FAILED,
            }
        }
        RunOutcome::Interrupted => exit::INTERRUPTED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(realtime: bool, speed: Option<f64>) -> ClockArgs {
        ClockArgs {
            until: None,
            realtime,
            speed,
        }
    }

    #[test]
    fn speed_paces_the_run_by_itself() {
        let c = clock(false, Some(5.0)).config(10.0, false, false).unwrap();
        assert!(c.realtime);
        assert_eq!(c.speed, 5.0);
        // neither flag: as fast as it goes
        assert!(
            !clock(false, None)
                .config(10.0, false, false)
                .unwrap()
                .realtime
        );
        assert!(
            clock(true, None)
                .config(10.0, false, false)
                .unwrap()
                .realtime
        );
    }

    #[test]
    fn an_unattended_unbounded_run_stops_after_an_hour() {
        let base = clock(false, None).config(10.0, false, false).unwrap();
        let mut c = base.clone();
        let note = unattended_limit(&mut c, false, false).expect("a note");
        assert_eq!(c.until, Some(UNATTENDED_LIMIT));
        assert!(note.contains("stops after 1h 00m 00.0s"), "{note}");
        // on a terminal, with a limit of its own, paced, or a mission: as asked
        for (attended, ends) in [(true, false), (false, true)] {
            let mut c = base.clone();
            assert_eq!(unattended_limit(&mut c, ends, attended), None);
            assert_eq!(c.until, None);
        }
        let mut c = ClockArgs {
            until: Some(Duration::from_secs(7200)),
            ..clock(false, None)
        }
        .config(10.0, false, false)
        .unwrap();
        assert_eq!(unattended_limit(&mut c, false, false), None);
        assert_eq!(c.until, Some(Duration::from_secs(7200)));
        let mut c = clock(true, None).config(10.0, false, false).unwrap();
        assert_eq!(unattended_limit(&mut c, false, false), None);
        assert_eq!(c.until, None);
    }

    #[test]
    fn a_real_robot_runs_at_real_time_only() {
        let c = clock(false, None).config(10.0, false, true).unwrap();
        assert!(c.realtime && c.speed == 1.0);
        assert!(clock(false, Some(1.0)).config(10.0, false, true).is_ok());
        let e = clock(false, Some(5.0))
            .config(10.0, false, true)
            .unwrap_err();
        assert!(
            e.text().contains("a real robot runs in real time"),
            "{}",
            e.text()
        );
    }
}
