//! Diagnostics: errors and warnings with a position, rendered as
//! `file:line:col: error: sentence [X1234]`, the source line, and a caret under the
//! offending token.
//!
//! The `X` numbers are the reference compiler's error numbers (`errors.rb`), so users
//! who know them find their way; checks the reference compiler does not make have
//! numbers from 8000 up.

use crate::source::{SourceMap, Span};
use skipper_core::excerpt::Excerpt;
use std::fmt::Write as _;

/// How bad.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The files cannot be compiled.
    Error,
    /// Worth knowing; compilation goes on.
    Warning,
}

/// One message about the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// error or warning
    pub severity: Severity,
    /// the reference compiler's number (`X5552`), or ours from `X8000` up
    pub code: &'static str,
    /// where (none for messages about no particular place)
    pub span: Option<Span>,
    /// what is wrong and what was expected, one sentence
    pub message: String,
    /// further lines (`note: ...`)
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error at a span.
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code,
            span: Some(span),
            message: message.into(),
            notes: Vec::new(),
        }
    }
    /// A warning at a span.
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            code,
            span: Some(span),
            message: message.into(),
            notes: Vec::new(),
        }
    }
    /// An error about no particular place.
    pub fn global(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code,
            span: None,
            message: message.into(),
            notes: Vec::new(),
        }
    }
    /// Add a note.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    /// `true` for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Render with the source line and a caret.
    pub fn render(&self, sources: &SourceMap) -> String {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = String::new();
        let file = self.span.and_then(|s| sources.get(s.file).map(|f| (s, f)));
        match file {
            Some((span, f)) => {
                let (line, col) = f.line_col(span.start as usize);
                let _ = writeln!(
                    out,
                    "{}:{line}:{col}: {kind}: {} [{}]",
                    f.path.display(),
                    self.message,
                    self.code
                );
                let (end_line, end_col) = f.line_col(span.end as usize);
                let width = if end_line == line && end_col > col {
                    end_col - col
                } else {
                    1
                };
                let _ = writeln!(out, "{}", Excerpt::new(line, f.line(line), col, width));
            }
            None => {
                let _ = writeln!(out, "{kind}: {} [{}]", self.message, self.code);
            }
        }
        for n in &self.notes {
            let _ = writeln!(out, "  note: {n}");
        }
        out
    }
}

/// The messages of a run, in the order they were found.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// None yet.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add one.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    /// All of them.
    pub fn all(&self) -> &[Diagnostic] {
        &self.items
    }
    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.is_error())
    }
    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| !d.is_error())
    }
    /// `true` if there is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }
    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.errors().count()
    }
    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.warnings().count()
    }
    /// Append another set.
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }
    /// Render every error, then every warning.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        for d in self.errors().chain(self.warnings()) {
            out.push_str(&d.render(sources));
        }
        out
    }
    /// Render only the errors.
    pub fn render_errors(&self, sources: &SourceMap) -> String {
        self.errors().map(|d| d.render(sources)).collect()
    }
    /// Render only the warnings.
    pub fn render_warnings(&self, sources: &SourceMap) -> String {
        self.warnings().map(|d| d.render(sources)).collect()
    }
    /// Sort by file and position, errors and warnings kept apart (stable).
    pub fn sort(&mut self) {
        self.items.sort_by_key(|d| {
            (
                d.span.map(|s| (s.file, s.start)).unwrap_or_default(),
                d.severity,
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    #[test]
    fn renders_line_and_caret() {
        let mut sm = SourceMap::new();
        let f = sm.add(SourceFile::new(
            "o.xabsl",
            "option o {\n  if (bal.seen) x;\n}".into(),
        ));
        let d = Diagnostic::error("X5552", Span::new(f, 17, 25), "unknown symbol `bal.seen`")
            .note("did you mean `ball.seen`?");
        let r = d.render(&sm);
        assert_eq!(
            r,
            "o.xabsl:2:7: error: unknown symbol `bal.seen` [X5552]\n  |\n2 |   if (bal.seen) x;\n  |       ^^^^^^^^\n  note: did you mean `ball.seen`?\n"
        );
    }
}
