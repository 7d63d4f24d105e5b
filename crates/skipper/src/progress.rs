//! A progress bar for long runs on a terminal (simulated time against the time limit).

use indicatif::{ProgressBar, ProgressStyle};
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunConfig, RunReport, World};

/// Shows simulated time, cycles and speed; hidden when stderr is not a terminal.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar for a run with an optional time limit (s).
    pub fn new(until_s: Option<f64>) -> Self {
        let bar = match until_s {
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
        };
        if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        Self { bar }
    }
}

impl Observer for Progress {
    fn on_start(&mut self, _world: &dyn World, _config: &RunConfig) {}
    fn on_cycle(&mut self, v: &CycleView<'_>) {
        if v.cycle % 50 == 0 {
            let t = (v.now + v.dt).as_secs_f64();
            self.bar.set_position((t * 10.0) as u64);
            self.bar.set_message(crate::summary::human_duration(t));
        }
    }
    fn on_end(&mut self, _world: &dyn World, _report: &RunReport) {
        self.bar.finish_and_clear();
    }
}
