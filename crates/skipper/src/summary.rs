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

/// What a summary says besides the report: who ran, on how many robots, where the log
/// went, and whether the vehicles can tell a collision at all.
#[derive(Debug, Clone, Copy)]
pub struct RunFacts<'a> {
    /// The controller's name (`wander`, `test_mission`, `link`).
    pub controller: &'a str,
    /// How many robots ran.
    pub robots: usize,
    /// The run log, if one was written.
    pub log: Option<&'a std::path::Path>,
    /// Whether the vehicles count collisions (the simulated Pioneer does; a P2OS robot and
    /// the AUV report none, so their 0 would mean nothing).
    pub counts_collisions: bool,
}

/// Why a run's vehicles count no collisions, in the summary's words.
pub const COLLISIONS_NOT_COUNTED: &str = "not counted (these vehicles do not report them)";

/// The summary as aligned lines: every value starts in the same column, however long
/// the longest key (`waypoints_reached`, `decision_cycles`).
pub fn render(report: &RunReport, facts: &RunFacts<'_>) -> String {
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
    // a fast run takes milliseconds: "0.0s" would say nothing
    let wall_text = if wall < 1.0 {
        format!("{:.1} ms", wall * 1e3)
    } else {
        human_duration(wall)
    };
    let robots = facts.robots;
    let mut rows: Vec<(String, String)> = vec![
        (
            "controller".into(),
            format!(
                "{} on {robots} robot{}",
                facts.controller,
                if robots == 1 { "" } else { "s" }
            ),
        ),
        ("outcome".into(), outcome),
        (
            "sim time".into(),
            format!("{} in {} cycles", human_duration(sim), report.cycles),
        ),
        ("wall time".into(), format!("{wall_text}{speed}")),
        ("distance".into(), format!("{:.2} m", report.distance_m)),
        (
            "collisions".into(),
            if facts.counts_collisions {
                report.collisions.to_string()
            } else {
                COLLISIONS_NOT_COUNTED.into()
            },
        ),
    ];
    for (k, v) in &report.extra {
        let v = match v {
            serde_json::Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        rows.push((k.clone(), v));
    }
    if let Some(p) = facts.log {
        rows.push(("log".into(), p.display().to_string()));
    }
    // keys in a column of 12 at least, one space wider than the longest key
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count() + 1)
        .fold(12, usize::max);
    let mut out = String::from("run summary\n");
    for (k, v) in rows {
        let _ = writeln!(out, "  {k:<width$} {v}");
    }
    out
}

/// The `--summary-json` object: the report's keys, and how many robots ran, the
/// controller, the run log's path (`null` without one); `collisions` is `null` when the
/// vehicles cannot count them.
pub fn json(report: &RunReport, facts: &RunFacts<'_>) -> serde_json::Value {
    let mut v = report.summary_json(true);
    if let Some(m) = v.as_object_mut() {
        m.insert("robots".into(), facts.robots.into());
        m.insert("controller".into(), facts.controller.into());
        m.insert(
            "log".into(),
            facts
                .log
                .map_or(serde_json::Value::Null, |p| p.display().to_string().into()),
        );
        if !facts.counts_collisions {
            m.insert("collisions".into(), serde_json::Value::Null);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(controller: &str) -> RunFacts<'_> {
        RunFacts {
            controller,
            robots: 1,
            log: None,
            counts_collisions: true,
        }
    }

    fn report() -> RunReport {
        RunReport {
            outcome: skipper_core::RunOutcome::Finished,
            cycles: 48313,
            sim_time: std::time::Duration::from_secs(9663),
            wall_time: std::time::Duration::from_micros(27_400),
            distance_m: 7680.0,
            collisions: 0,
            extra: serde_json::Map::new(),
        }
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(human_duration(12.34), "12.3s");
        assert_eq!(human_duration(300.0), "5m 00.0s");
        assert_eq!(human_duration(3723.4), "1h 02m 03.4s");
    }

    #[test]
    fn a_fast_run_shows_its_wall_time_in_milliseconds() {
        let mut report = report();
        let f = facts("test_mission");
        let text = render(&report, &f);
        assert!(
            text.contains("  wall time    27.4 ms (352664x real time)"),
            "{text}"
        );
        report.wall_time = std::time::Duration::from_millis(1500);
        let text = render(&report, &f);
        assert!(
            text.contains("  wall time    1.5s (6442x real time)"),
            "{text}"
        );
        report.sim_time = std::time::Duration::ZERO;
        let text = render(&report, &f);
        assert!(text.contains("  wall time    1.5s\n"), "{text}");
    }

    /// A mission's and a Soar run's keys are longer than the usual ones: every value
    /// still starts in one column.
    #[test]
    fn long_keys_keep_the_values_in_one_column() {
        let mut report = report();
        report
            .extra
            .insert("waypoints_reached".into(), serde_json::json!(4));
        report
            .extra
            .insert("max_depth_m".into(), serde_json::json!(52.5));
        let log = std::path::Path::new("runs/m.mcap");
        let f = RunFacts {
            log: Some(log),
            ..facts("test_mission")
        };
        let text = render(&report, &f);
        let columns: Vec<usize> = text
            .lines()
            .skip(1)
            .map(|l| {
                let key_end = l[2..].find("  ").expect("two spaces after the key") + 2;
                key_end + l[key_end..].len() - l[key_end..].trim_start().len()
            })
            .collect();
        assert_eq!(columns.len(), 9, "{text}");
        assert!(columns.iter().all(|&c| c == columns[0]), "{text}");
        assert!(text.contains("  waypoints_reached  4\n"), "{text}");
        assert!(
            text.contains("  log                runs/m.mcap\n"),
            "{text}"
        );
    }

    #[test]
    fn vehicles_that_cannot_tell_a_collision_report_none() {
        let f = RunFacts {
            counts_collisions: false,
            ..facts("wander")
        };
        let text = render(&report(), &f);
        assert!(
            text.contains(&format!("  collisions   {COLLISIONS_NOT_COUNTED}\n")),
            "{text}"
        );
        assert!(!text.contains("collisions   0"), "{text}");
        let j = json(&report(), &f);
        assert_eq!(j["collisions"], serde_json::Value::Null);
        let j = json(&report(), &facts("wander"));
        assert_eq!(j["collisions"], 0);
    }

    #[test]
    fn the_json_says_who_ran_on_how_many_robots_and_where_the_log_is() {
        let log = std::path::Path::new("runs/wander.mcap");
        let f = RunFacts {
            robots: 50,
            log: Some(log),
            ..facts("wander")
        };
        let j = json(&report(), &f);
        assert_eq!(j["robots"], 50);
        assert_eq!(j["controller"], "wander");
        assert_eq!(j["log"], "runs/wander.mcap");
        assert_eq!(j["outcome"], "finished");
        let j = json(&report(), &facts("wander"));
        assert_eq!(j["log"], serde_json::Value::Null);
    }
}
