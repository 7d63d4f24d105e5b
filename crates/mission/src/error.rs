//! Diagnostics for mission files: `file:line:col: message`, the line and a caret, as every
//! Skipper language reports mistakes. Lua itself only knows lines, so the column is the
//! place of the offending word on that line when we know the word, else the line's start.

use skipper_core::excerpt::Excerpt;
use std::fmt;
use std::sync::Arc;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The mission does not load.
    Error,
    /// The mission loads, but probably does not do what its author meant.
    Warning,
}

/// One finding about a mission file.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The file, as named by the user.
    pub file: Arc<str>,
    /// Line, from 1 (0 when the finding concerns the whole file).
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
    /// Width of the caret.
    pub len: usize,
    /// The source line (empty when unknown).
    pub text: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at `line` of `source`, with the caret under the first occurrence of
    /// `word` on that line (or under the line's first non-blank character).
    pub fn at(
        severity: Severity,
        file: &Arc<str>,
        source: &str,
        line: usize,
        word: Option<&str>,
        message: impl Into<String>,
    ) -> Self {
        let text = if line == 0 {
            String::new()
        } else {
            source.lines().nth(line - 1).unwrap_or("").to_string()
        };
        let (col, len) = match word.filter(|w| !w.is_empty()).and_then(|w| {
            text.find(w)
                .map(|b| (text[..b].chars().count() + 1, w.chars().count()))
        }) {
            Some(p) => p,
            None => {
                let lead = text.len() - text.trim_start().len();
                (
                    text[..lead].chars().count() + 1,
                    text.trim().chars().count().max(1),
                )
            }
        };
        Self {
            severity,
            file: file.clone(),
            line,
            col,
            len,
            text,
            message: message.into(),
        }
    }

    /// `true` for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if self.line == 0 {
            return write!(f, "{}: {kind}: {}", self.file, self.message);
        }
        writeln!(
            f,
            "{}:{}:{}: {kind}: {}",
            self.file, self.line, self.col, self.message
        )?;
        write!(
            f,
            "{}",
            Excerpt::new(self.line, &self.text, self.col, self.len)
        )
    }
}

/// A mission that does not load.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MissionError {
    /// The file cannot be read.
    #[error("{file}: {message}")]
    Io {
        /// the path
        file: String,
        /// the OS error
        message: String,
    },
    /// The script or its stack is wrong; every error found is listed (warnings too).
    #[error("{}", render(.0))]
    Invalid(Vec<Diagnostic>),
}

impl MissionError {
    /// The diagnostics (empty for I/O errors).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            MissionError::Invalid(d) => d,
            MissionError::Io { .. } => &[],
        }
    }
}

fn render(d: &[Diagnostic]) -> String {
    let errors = d.iter().filter(|d| d.is_error()).count();
    let mut s: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    s.push(format!(
        "the mission does not load: {errors} error{}",
        if errors == 1 { "" } else { "s" }
    ));
    s.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_line_and_caret_under_the_word() {
        let f: Arc<str> = "m.lua".into();
        let src = "a = 1\n  BEHAVIOR( Guidance.Nope )\n";
        let d = Diagnostic::at(
            Severity::Error,
            &f,
            src,
            2,
            Some("Nope"),
            "unknown behavior",
        );
        assert_eq!(
            d.to_string(),
            "m.lua:2:22: error: unknown behavior\n  |\n2 |   BEHAVIOR( Guidance.Nope )\n  |                      ^^^^"
        );
        let d = Diagnostic::at(Severity::Warning, &f, src, 2, None, "w");
        assert_eq!((d.col, d.len), (3, 25));
    }
}
