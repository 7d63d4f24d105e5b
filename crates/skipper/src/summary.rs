//! The human summary printed at the end of a run.

use skipper_core::RunReport;
use std::fmt::Write;

/// `1h 02m 03.4s`, `5m 00.0s`, `12.3s`.
pub fn human_duration(s: f64) -> String {
    let h = (s / 3600.0).floor();
    let m = ((s - h * 3600.0) / 60.0).floor();
    let sec = s - h * 3600.0 - m * 60.0;
    if h > 0.0 {
        format!("{h}h {m:02}m {sec:04.1}s")
    } else if m > 0.0 {
        format!("{m}m {sec:04.1}s")
    } else {
        format!("{sec:.1}s")
    }
}

/// The summary as a few aligned lines.
pub fn render(
    report: &RunReport,
    controller: &str,
    robots: usize,
    log: Option<&std::path::Path>,
) -> String {
    let mut out = String::new();
    let outcome = match report.outcome.reason() {
        Some(r) => format!("{} — {r}", report.outcome.as_str()),
        None => report.outcome.as_str().to_string(),
    };
    let sim = report.sim_time.as_secs_f64();
    let wall = report.wall_time.as_secs_f64();
    // no speed for a run of no simulated time (`--until 0s`): "0x real time" says nothing
    let speed = if wall > 0.0 && sim > 0.0 {
        format!(" ({:.0}x real time)", sim / wall)
    } else {
        String::new()
    };
    let _ = writeln!(out, "run summary");
    let _ = writeln!(
        out,
        "  controller   {controller} on {robots} robot{}",
        if robots == 1 { "" } else { "s" }
    );
    let _ = writeln!(out, "  outcome      {outcome}");
    let _ = writeln!(
        out,
        "  sim time     {} in {} cycles",
        human_duration(sim),
        report.cycles
    );
    // a fast run takes milliseconds: "0.0s" would say nothing
    let wall_text = if wall < 1.0 {
        format!("{:.1} ms", wall * 1e3)
    } else {
        human_duration(wall)
    };
    let _ = writeln!(out, "  wall time    {wall_text}{speed}");
    let _ = writeln!(out, "  distance     {:.2} m", report.distance_m);
    let _ = writeln!(out, "  collisions   {}", report.collisions);
    for (k, v) in &report.extra {
        let _ = writeln!(out, "  {k:<12} {v}");
    }
    if let Some(p) = log {
        let _ = writeln!(out, "  log          {}", p.display());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(human_duration(12.34), "12.3s");
        assert_eq!(human_duration(300.0), "5m 00.0s");
        assert_eq!(human_duration(3723.4), "1h 02m 03.4s");
    }

    #[test]
    fn a_fast_run_shows_its_wall_time_in_milliseconds() {
        let mut report = RunReport {
            outcome: skipper_core::RunOutcome::Finished,
            cycles: 48313,
            sim_time: std::time::Duration::from_secs(9663),
            wall_time: std::time::Duration::from_micros(27_400),
            distance_m: 7680.0,
            collisions: 0,
            extra: serde_json::Map::new(),
        };
        let text = render(&report, "test_mission", 1, None);
        assert!(
            text.contains("  wall time    27.4 ms (352664x real time)"),
            "{text}"
        );
        report.wall_time = std::time::Duration::from_millis(1500);
        let text = render(&report, "test_mission", 1, None);
        assert!(
            text.contains("  wall time    1.5s (6442x real time)"),
            "{text}"
        );
        report.sim_time = std::time::Duration::ZERO;
        let text = render(&report, "test_mission", 1, None);
        assert!(text.contains("  wall time    1.5s\n"), "{text}");
    }
}
