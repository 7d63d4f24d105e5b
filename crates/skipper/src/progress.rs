//! Progress of a long run: a bar on a terminal (simulated time against the time limit);
//! off a terminal (a pipe, a CI log, `nohup`), a plain line on stderr every half minute of
//! wall time, so a run that goes on for a while still says where it is.

use indicatif::{ProgressBar, ProgressStyle};
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunConfig, RunReport, World};
use std::io::Write;
use std::time::{Duration, Instant};

/// Wall time between two progress lines off a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(30);

/// Shows simulated time, cycles and speed.
pub struct Progress {
    out: Sink,
    /// the run's time limit (s), if it has one
    until_s: Option<f64>,
}

enum Sink {
    /// on a terminal
    Bar(ProgressBar),
    /// off a terminal: a line every `every` of wall time
    Lines(Lines),
}

/// Plain progress lines, at most one every `every` of wall time.
struct Lines {
    every: Duration,
    start: Instant,
    last: Instant,
    to: Box<dyn Write + Send>,
}

impl Progress {
    /// Progress of a run with an optional time limit (s): a bar when stderr is a
    /// terminal, else a line on stderr every [`LINE_EVERY`].
    pub fn new(until_s: Option<f64>) -> Self {
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            Self {
                out: Sink::Bar(bar(until_s)),
                until_s,
            }
        } else {
            Self::lines(until_s, LINE_EVERY, Box::new(std::io::stderr()))
        }
    }

    /// Plain lines to `to`, at most one every `every` of wall time.
    pub fn lines(until_s: Option<f64>, every: Duration, to: Box<dyn Write + Send>) -> Self {
        let now = Instant::now();
        Self {
            out: Sink::Lines(Lines {
                every,
                start: now,
                last: now,
                to,
            }),
            until_s,
        }
    }

    /// The line for simulated time `t` (s) at wall-clock instant `now`, if one is due.
    fn line_at(&mut self, t: f64, now: Instant) -> Option<String> {
        let Sink::Lines(l) = &mut self.out else {
            return None;
        };
        if now.duration_since(l.last) < l.every {
            return None;
        }
        l.last = now;
        let wall = crate::summary::human_duration(now.duration_since(l.start).as_secs_f64());
        let sim = crate::summary::human_duration(t);
        Some(match self.until_s {
            Some(u) if u > 0.0 => format!(
                "progress: sim {sim} of {} ({:.0}%), {wall} wall",
                crate::summary::human_duration(u),
                (100.0 * t / u).min(100.0)
            ),
            _ => format!("progress: sim {sim}, {wall} wall"),
        })
    }
}

/// The terminal's bar: against the limit, or a spinner without one.
fn bar(until_s: Option<f64>) -> ProgressBar {
    match until_s {
        Some(u) => {
            let b = ProgressBar::new((u * 10.0).ceil() as u64);
            b.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{bar:30}] sim {msg} ({percent}%, {elapsed} wall, eta {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            b
        }
        None => {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template(
                    "{spinner} sim {msg} ({elapsed} wall; Ctrl-C ends the run)",
                )
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b
        }
    }
}

impl Observer for Progress {
    fn on_start(&mut self, _world: &dyn World, _config: &RunConfig) {}
    fn on_cycle(&mut self, v: &CycleView<'_>) {
        if v.cycle % 50 != 0 {
            return;
        }
        let t = (v.now + v.dt).as_secs_f64();
        if let Sink::Bar(b) = &self.out {
            b.set_position((t * 10.0) as u64);
            b.set_message(crate::summary::human_duration(t));
            return;
        }
        if let Some(line) = self.line_at(t, Instant::now()) {
            if let Sink::Lines(l) = &mut self.out {
                // a closed stderr is no reason to stop the run
                let _ = writeln!(l.to, "{line}");
            }
        }
    }
    fn on_end(&mut self, _world: &dyn World, _report: &RunReport) {
        if let Sink::Bar(b) = &self.out {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_a_terminal_a_line_comes_every_interval_of_wall_time() {
        let mut p = Progress::lines(Some(600.0), Duration::from_secs(30), Box::new(Vec::new()));
        let Sink::Lines(l) = &p.out else {
            panic!("not lines")
        };
        let start = l.start;
        assert_eq!(p.line_at(10.0, start + Duration::from_secs(5)), None);
        assert_eq!(
            p.line_at(120.0, start + Duration::from_secs(31)).as_deref(),
            Some("progress: sim 2m 00.0s of 10m 00.0s (20%), 31.0s wall")
        );
        // the next one 30 s after that one
        assert_eq!(p.line_at(150.0, start + Duration::from_secs(50)), None);
        assert!(p.line_at(300.0, start + Duration::from_secs(61)).is_some());
    }

    #[test]
    fn a_run_without_a_limit_says_how_far_it_is() {
        let mut p = Progress::lines(None, Duration::ZERO, Box::new(Vec::new()));
        let Sink::Lines(l) = &p.out else {
            panic!("not lines")
        };
        let at = l.start + Duration::from_secs(90);
        assert_eq!(
            p.line_at(3723.4, at).as_deref(),
            Some("progress: sim 1h 02m 03.4s, 1m 30.0s wall")
        );
    }
}
