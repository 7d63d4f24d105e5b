//! The source excerpt under a diagnostic, as every Skipper language prints it below its
//! `file:line:col: error: ...` line: an empty gutter, the line with its number, and a
//! caret under the offending columns.
//!
//! ```text
//!   |
//! 7 | robot pioneer at 1 2 oops
//!   |                      ^^^^
//! ```
//!
//! A long line (a generated file, a minified script) is shown as a window of
//! [`WINDOW`] characters around the caret, cut with `...`, so that a 10 kB line prints
//! as one screen line. Tabs stay tabs in the line and under it (the caret lines up
//! whatever the terminal's tab width); other control characters show as `?`, so that
//! no escape sequence in a file reaches the terminal.

use std::fmt;

/// The most characters of a source line an excerpt shows.
pub const WINDOW: usize = 100;

/// Columns of the window before the caret, when the line is cut.
const LEAD: usize = WINDOW / 3;

/// One excerpt: `line` (from 1) whose text is `text`, with a caret under `len` columns
/// from `col` (from 1; `len` at least 1) or no caret. [`fmt::Display`] renders it
/// without a final end of line.
#[derive(Debug, Clone, Copy)]
pub struct Excerpt<'a> {
    /// Line number, from 1.
    pub line: usize,
    /// The whole source line (its end of line, if any, is not shown).
    pub text: &'a str,
    /// The caret's column (from 1, in characters) and width, if there is one.
    pub caret: Option<(usize, usize)>,
}

impl<'a> Excerpt<'a> {
    /// The excerpt of `text` at `line` with a caret under `col..col + len`.
    pub fn new(line: usize, text: &'a str, col: usize, len: usize) -> Self {
        Self {
            line,
            text,
            caret: Some((col, len)),
        }
    }
}

/// The characters of `text` to show, as (first char index, count, cut before, cut after).
fn window(chars: usize, caret: Option<(usize, usize)>) -> (usize, usize, bool, bool) {
    if chars <= WINDOW {
        return (0, chars, false, false);
    }
    let col = caret.map_or(1, |(c, _)| c.max(1));
    let first = (col - 1).saturating_sub(LEAD).min(chars - WINDOW);
    (first, WINDOW, first > 0, first + WINDOW < chars)
}

fn shown(c: char) -> char {
    if c.is_control() && c != '\t' {
        '?'
    } else {
        c
    }
}

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.text.trim_end_matches(['\n', '\r']).trim_end();
        let chars = text.chars().count();
        let (first, count, before, after) = window(chars, self.caret);
        let num = self.line.to_string();
        let pad = " ".repeat(num.len());
        let cut = if before { "..." } else { "" };
        write!(f, "{pad} |\n{num} | {cut}")?;
        for c in text.chars().skip(first).take(count) {
            write!(f, "{}", shown(c))?;
        }
        if after {
            f.write_str("...")?;
        }
        let Some((col, len)) = self.caret else {
            return Ok(());
        };
        write!(f, "\n{pad} | {}", if before { "   " } else { "" })?;
        let col = col.max(1).saturating_sub(first);
        for c in text.chars().skip(first).take(col - 1) {
            f.write_str(if c == '\t' { "\t" } else { " " })?;
        }
        // the window's own columns, and one past the line's end (an error at its end)
        let room = (count + usize::from(!after)).saturating_sub(col - 1).max(1);
        write!(f, "{}", "^".repeat(len.clamp(1, room)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_is_shown_whole_with_the_caret_under_its_columns() {
        let e = Excerpt::new(7, "robot pioneer at 1 2 oops\n", 22, 4);
        assert_eq!(
            e.to_string(),
            "  |\n7 | robot pioneer at 1 2 oops\n  |                      ^^^^"
        );
    }

    #[test]
    fn tabs_stay_tabs_and_control_characters_show_as_question_marks() {
        let e = Excerpt::new(12, "\tx = \x1b[2J y", 10, 1);
        assert_eq!(e.to_string(), "   |\n12 | \tx = ?[2J y\n   | \t        ^");
    }

    #[test]
    fn a_long_line_is_a_window_around_the_caret() {
        let text = format!("{}BAD{}", "a".repeat(5_000), "b".repeat(5_000));
        let e = Excerpt::new(1, &text, 5_001, 3).to_string();
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(lines.len(), 3);
        let shown = lines[1].strip_prefix("1 | ...").unwrap();
        assert!(shown.ends_with("..."), "{e}");
        assert_eq!(shown.chars().count(), WINDOW + 3);
        let caret = lines[2].strip_prefix("  | ").unwrap();
        let at = caret.find('^').unwrap();
        assert_eq!(&lines[1][4 + at..4 + at + 3], "BAD", "{e}");
        assert_eq!(caret.trim_start(), "^^^");
    }

    #[test]
    fn the_caret_at_the_start_or_past_the_end_of_a_long_line_stays_in_the_window() {
        let text = "x".repeat(300);
        let start = Excerpt::new(1, &text, 1, 500).to_string();
        let lines: Vec<&str> = start.lines().collect();
        assert!(!lines[1].starts_with("1 | ..."));
        assert!(lines[1].ends_with("..."));
        assert_eq!(lines[2], format!("  | {}", "^".repeat(WINDOW)));
        let end = Excerpt::new(1, &text, 301, 1).to_string();
        let lines: Vec<&str> = end.lines().collect();
        assert!(lines[1].starts_with("1 | ...") && !lines[1].ends_with("..."));
        assert_eq!(lines[2].len(), "  | ...".len() + WINDOW + 1);
        assert!(lines[2].ends_with(" ^"));
    }

    #[test]
    fn an_excerpt_without_a_caret_is_two_lines() {
        let e = Excerpt {
            line: 3,
            text: "end",
            caret: None,
        };
        assert_eq!(e.to_string(), "  |\n3 | end");
    }
}
