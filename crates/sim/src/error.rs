//! Errors in world files, reported as `file:line:col: error: ...` with the line and a
//! caret (as the XABSL and Lua diagnostics, and compilers that editors read, put them).

use skipper_core::excerpt::Excerpt;
use std::fmt;
use std::sync::Arc;

/// Where something is in a source file (line and column from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// File name as given.
    pub file: Arc<str>,
    /// Line, from 1.
    pub line: usize,
    /// Column (characters), from 1.
    pub col: usize,
    /// Width of the offending token (at least 1).
    pub len: usize,
    /// The whole source line.
    pub text: Arc<str>,
}

/// A world file that does not load.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WorldError {
    /// A mistake at a place in a file.
    #[error("{}", render(.loc, .message))]
    At {
        /// where
        loc: Location,
        /// what is wrong and what was expected
        message: String,
    },
    /// A file that cannot be read.
    #[error("{file}: {message}")]
    Io {
        /// the path
        file: String,
        /// the OS error
        message: String,
    },
}

impl WorldError {
    /// An error at a location.
    pub fn at(loc: &Location, message: impl Into<String>) -> Self {
        WorldError::At {
            loc: loc.clone(),
            message: message.into(),
        }
    }
    /// The location, if the error has one.
    pub fn location(&self) -> Option<&Location> {
        match self {
            WorldError::At { loc, .. } => Some(loc),
            WorldError::Io { .. } => None,
        }
    }
}

fn render(loc: &Location, message: &str) -> String {
    struct R<'a>(&'a Location, &'a str);
    impl fmt::Display for R<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let l = self.0;
            writeln!(f, "{}:{}:{}: error: {}", l.file, l.line, l.col, self.1)?;
            write!(f, "{}", Excerpt::new(l.line, &l.text, l.col, l.len))
        }
    }
    R(loc, message).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_file_line_col_and_caret() {
        let loc = Location {
            file: "office.world".into(),
            line: 12,
            col: 8,
            len: 3,
            text: "wall 0 abc 1 2".into(),
        };
        let s = WorldError::at(&loc, "expected a number for y1, found `abc`").to_string();
        assert_eq!(
            s,
            "office.world:12:8: error: expected a number for y1, found `abc`\n   |\n12 | wall 0 abc 1 2\n   |        ^^^"
        );
    }
}
