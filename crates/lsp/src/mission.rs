//! Mission scripts: loaded in the sandbox as `skipper mission check` loads them (with the
//! `workSite.cfg` and `Control.cfg` beside the script, if any), their errors and warnings
//! as diagnostics.

use lsp_types::{Diagnostic, DiagnosticSeverity, Position, Range};
use skipper_mission::{load, parse_config, LoadOptions, MissionError, Severity};
use std::path::Path;

/// The mission's configuration files beside it.
fn options(path: &Path) -> LoadOptions {
    let mut opts = LoadOptions::default();
    let dir = path.parent().unwrap_or(Path::new("."));
    for (name, slot) in [("workSite.cfg", 0), ("Control.cfg", 1)] {
        let p = dir.join(name);
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        if let Ok(t) = parse_config(&text, &p.display().to_string()) {
            if slot == 0 {
                opts.work_site = Some(t);
            } else {
                opts.control = Some(t);
            }
        }
    }
    opts
}

fn convert(d: &skipper_mission::Diagnostic) -> Diagnostic {
    let (line, col) = (d.line.saturating_sub(1) as u32, d.col.saturating_sub(1));
    // columns are characters; the line's text gives them in UTF-16 units
    let units = |chars: usize| -> u32 {
        d.text
            .chars()
            .take(chars)
            .map(|c| c.len_utf16() as u32)
            .sum()
    };
    let (start, end) = (units(col), units(col + d.len.max(1)));
    Diagnostic {
        range: Range::new(
            Position::new(line, start),
            Position::new(line, end.max(start + 1)),
        ),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        source: Some("skipper mission".into()),
        message: d.message.clone(),
        ..Diagnostic::default()
    }
}

/// The diagnostics of a mission script's text.
pub(crate) fn diagnostics(path: &Path, text: &str) -> Vec<Diagnostic> {
    let file = path.display().to_string();
    match load(text, &file, &options(path)) {
        Ok(m) => m.warnings.iter().map(convert).collect(),
        Err(MissionError::Invalid(ds)) => ds.iter().map(convert).collect(),
        Err(e @ MissionError::Io { .. }) => vec![Diagnostic {
            severity: Some(DiagnosticSeverity::ERROR),
            source: Some("skipper mission".into()),
            message: e.to_string(),
            ..Diagnostic::default()
        }],
    }
}
