//! The report's tables: the run's summary, a row per robot, the events (numbers rounded,
//! with their units) and the events of each kind.

use crate::digest::{Digest, EventRow};
use crate::esc;
use serde_json::Value;
use std::fmt::Write as _;

/// Per-robot figures for the robots table.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotRow {
    /// Name.
    pub name: String,
    /// Kind and model.
    pub kind: String,
    /// Controller name(s).
    pub controller: String,
    /// Track length (m).
    pub distance: f64,
    /// Top speed (m/s).
    pub max_speed: f64,
    /// Mean speed (m/s).
    pub mean_speed: f64,
    /// Collision events.
    pub collisions: u64,
    /// Goals reached.
    pub goals: u64,
    /// Events of any kind.
    pub events: u64,
    /// Where it ended: x, y (m), heading (deg).
    pub end: Option<(f64, f64, f64)>,
}

/// The per-robot rows.
pub fn robot_rows(d: &Digest) -> Vec<RobotRow> {
    d.robots
        .iter()
        .map(|r| RobotRow {
            name: r.info.name.clone(),
            kind: [r.info.kind.as_str(), r.info.model.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
            controller: r.controllers.join(", "),
            distance: r.distance,
            max_speed: r.max_speed(),
            mean_speed: r.mean_speed(),
            collisions: r.collisions.total(),
            goals: r.goals.total(),
            events: r.event_count(),
            end: r.last.map(|p| (p.x, p.y, p.yaw.to_degrees())),
        })
        .collect()
}

/// A summary value as text (floats to the thousandth).
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => format!("{}", (f * 1000.0).round() / 1000.0),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(a) if a.iter().all(Value::is_string) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        v => v.to_string(),
    }
}

/// The summary table: the log, the world, the robots, the period, the run's summary.
pub fn summary_table(h: &mut String, d: &Digest) {
    h.push_str("<table id=\"summary\">\n");
    let mut row = |k: &str, v: String| {
        let _ = writeln!(
            h,
            "<tr><th>{}</th><td data-key=\"{}\">{}</td></tr>",
            esc(k),
            esc(k),
            esc(&v)
        );
    };
    row("log", d.path.display().to_string());
    if let Some(name) = d.world.get("name").and_then(Value::as_str) {
        row("world", name.to_string());
    }
    row("robots", d.robots.len().to_string());
    if let Some(p) = d.period_s {
        row("period_s", format!("{p}"));
    }
    match &d.summary {
        Some(Value::Object(s)) => {
            for (k, v) in s.iter().filter(|(k, _)| *k != "t" && *k != "robots") {
                row(k, value_text(v));
            }
        }
        _ => row(
            "outcome",
            "(no summary: the run did not end cleanly)".into(),
        ),
    }
    row("events", d.event_count().to_string());
    if d.skipped > 0 {
        row("messages skipped", d.skipped.to_string());
    }
    h.push_str("</table>\n");
}

/// The robots table; with `links`, each name links to the robot's own section.
pub fn robots_table(h: &mut String, rows: &[RobotRow], links: bool) {
    h.push_str("<table id=\"robots\">\n<tr><th>robot</th><th>vehicle</th><th>controller</th><th>distance (m)</th><th>max speed (m/s)</th><th>mean speed (m/s)</th><th>collisions</th><th>goals reached</th><th>events</th><th>end pose (x, y, heading)</th></tr>\n");
    for r in rows {
        let end = r.end.map_or_else(String::new, |(x, y, a)| {
            format!("{x:.2} m, {y:.2} m, {a:.0}°")
        });
        let name = if links {
            format!(
                "<a href=\"#{}\">{}</a>",
                robot_anchor(&r.name),
                esc(&r.name)
            )
        } else {
            esc(&r.name)
        };
        let _ = writeln!(
            h,
            "<tr data-robot=\"{n}\"><td>{name}</td><td>{k}</td><td>{c}</td><td class=\"num\">{d:.2}</td><td class=\"num\">{ms:.2}</td><td class=\"num\">{mn:.2}</td><td class=\"num\">{col}</td><td class=\"num\">{g}</td><td class=\"num\">{ev}</td><td>{end}</td></tr>",
            n = esc(&r.name),
            k = esc(&r.kind),
            c = esc(&r.controller),
            d = r.distance,
            ms = r.max_speed,
            mn = r.mean_speed,
            col = r.collisions,
            g = r.goals,
            ev = r.events,
            end = esc(&end),
        );
    }
    h.push_str("</table>\n");
}

/// The id of a robot's section: `robot-` and its name, with anything but letters, digits,
/// `-` and `_` as `_`.
pub fn robot_anchor(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("robot-{safe}")
}

/// An events table (`id` if given): time, robot, kind, and the data as `key value unit`.
pub fn events_table(h: &mut String, d: &Digest, rows: &[EventRow], id: Option<&str>) {
    let id = id.map(|i| format!(" id=\"{i}\"")).unwrap_or_default();
    let _ = writeln!(
        h,
        "<table{id} class=\"events\">\n<tr><th>t (s)</th><th>robot</th><th>kind</th><th>what</th></tr>"
    );
    for e in rows {
        let _ = writeln!(
            h,
            "<tr><td class=\"num\">{:.1}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            e.t,
            esc(d.robot_name(e.robot)),
            esc(&e.kind),
            esc(&data_text(&e.data))
        );
    }
    h.push_str("</table>\n");
}

/// The number of events of each kind.
pub fn kinds_table(h: &mut String, d: &Digest) {
    h.push_str("<table id=\"event-kinds\">\n<tr><th>kind</th><th>events</th><th>robots with the most</th></tr>\n");
    for (kind, n) in &d.kinds {
        let mut most: Vec<(u64, &str)> = d
            .robots
            .iter()
            .filter_map(|r| Some((*r.kinds.get(kind)?, r.info.name.as_str())))
            .collect();
        most.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let names: Vec<String> = most
            .iter()
            .take(3)
            .map(|(k, name)| {
                format!(
                    "<a href=\"#{}\">{}</a> ({k})",
                    robot_anchor(name),
                    esc(name)
                )
            })
            .collect();
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"num\">{n}</td><td>{}</td></tr>",
            esc(kind),
            names.join(", ")
        );
    }
    h.push_str("</table>\n");
}

/// The unit of an event's number by its key, where the key says it.
fn unit_of(key: &str) -> &'static str {
    let k = key.rsplit('.').next().unwrap_or(key).to_ascii_lowercase();
    match k.as_str() {
        "x" | "y" | "z" | "distance" | "range" | "radius" | "tolerance" | "capture_radius"
        | "depth" | "altitude" | "dist" | "remaining" => " m",
        "speed" | "velocity" => " m/s",
        "t" | "time" | "elapsed" | "duration" | "timeout" | "period" => " s",
        _ => "",
    }
}

/// A number as a person reads it: to the centimetre below 100, whole above 1000.
pub fn number_text(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let decimals = match v.abs() {
        a if a >= 1000.0 => 0,
        a if a >= 100.0 => 1,
        _ => 2,
    };
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

/// An event's data as `key value unit, ...` (nested keys joined with dots), at most 160
/// characters.
pub fn data_text(v: &Value) -> String {
    let mut parts = Vec::new();
    flat(v, "", &mut parts, 0);
    let s = parts.join(", ");
    if s.chars().count() > 160 {
        let mut t: String = s.chars().take(159).collect();
        t.push('…');
        t
    } else {
        s
    }
}

fn flat(v: &Value, key: &str, out: &mut Vec<String>, depth: usize) {
    let named = |text: String| {
        if key.is_empty() {
            text
        } else {
            format!("{key} {text}")
        }
    };
    match v {
        Value::Null => {}
        Value::Number(n) => {
            let text = match n.as_f64() {
                Some(f) if n.is_f64() => number_text(f),
                _ => n.to_string(),
            };
            out.push(named(format!("{text}{}", unit_of(key))));
        }
        Value::String(s) => out.push(named(s.clone())),
        Value::Bool(b) => out.push(named(b.to_string())),
        Value::Object(o) if depth < 3 => {
            for (k, child) in o {
                let k = if key.is_empty() {
                    k.clone()
                } else {
                    format!("{key}.{k}")
                };
                flat(child, &k, out, depth + 1);
            }
        }
        Value::Array(a) if depth < 3 && a.len() <= 8 => {
            let mut inner = Vec::new();
            for child in a {
                flat(child, "", &mut inner, depth + 1);
            }
            out.push(named(format!("[{}]", inner.join(", "))));
        }
        other => out.push(named(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn event_data_reads_with_units_and_rounded_numbers() {
        let d = json!({"with": "wall", "x": 12.345678901234567, "y": -0.0004, "n": 3});
        assert_eq!(data_text(&d), "n 3, with wall, x 12.35 m, y 0 m");
        let d = json!({"goal": {"x": 1234.5678, "tolerance": 0.25}, "status": "active"});
        assert_eq!(
            data_text(&d),
            "goal.tolerance 0.25 m, goal.x 1235 m, status active"
        );
        assert_eq!(data_text(&json!("hello")), "hello");
        assert_eq!(data_text(&json!({"elapsed": 100.04})), "elapsed 100 s");
        let long = "x".repeat(300);
        assert_eq!(data_text(&json!({ "text": long })).chars().count(), 160);
    }

    #[test]
    fn anchors_are_ids() {
        assert_eq!(robot_anchor("robot 1<"), "robot-robot_1_");
    }
}
