//! Source files and positions: the text of every file of a compilation, and spans
//! (byte ranges) into them, turned into `line:col` for messages.

use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range in one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// the file
    pub file: FileId,
    /// first byte
    pub start: u32,
    /// one past the last byte
    pub end: u32,
}

impl Span {
    /// A span in `file` from `start` to `end` (bytes).
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Self {
            file,
            start: start as u32,
            end: end.max(start) as u32,
        }
    }
    /// The span from the start of `self` to the end of `other` (same file).
    pub fn to(self, other: Span) -> Span {
        if other.file != self.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as given or as resolved from an include (for messages).
    pub path: PathBuf,
    /// The text (invalid UTF-8 replaced).
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// A file with its text.
    pub fn new(path: impl Into<PathBuf>, text: String) -> Self {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        Self {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The text of a 1-based line, without its line end.
    pub fn line(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }

    /// The text of a span.
    pub fn slice(&self, span: Span) -> &str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// The file name without directories.
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The file name without directories and extension (options and namespaces should be
    /// named after it).
    pub fn stem(&self) -> String {
        let name = self.file_name();
        match name.find('.') {
            Some(i) => name[..i].to_string(),
            None => name,
        }
    }
}

/// Every file of a compilation.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add a file; returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }
    /// A file by id.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }
    /// The id of a file by path.
    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.path == path)
            .map(|i| FileId(i as u32))
    }
    /// All files, in the order they were added.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }
    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }
    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
    /// The text of a span.
    pub fn slice(&self, span: Span) -> &str {
        self.get(span.file).map_or("", |f| f.slice(span))
    }
    /// `path:line:col` of a span's start.
    pub fn position(&self, span: Span) -> String {
        match self.get(span.file) {
            Some(f) => {
                let (l, c) = f.line_col(span.start as usize);
                format!("{}:{l}:{c}", f.path.display())
            }
            None => "<unknown>".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let f = SourceFile::new("a.xabsl", "ab\ncdé f\n\nx".into());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(8), (2, 5)); // after the two-byte é
        assert_eq!(f.line(2), "cdé f");
        assert_eq!(f.line(4), "x");
        assert_eq!(f.line(9), "");
        assert_eq!(f.line_col(100), (4, 2));
    }
}
