//! Positions: byte offsets of a text and LSP positions (line, UTF-16 column), both ways.

use lsp_types::{Position, Range};

/// Where the lines of a text start.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self { text, starts }
    }

    /// The LSP position of a byte offset.
    pub(crate) fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let col: usize = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().map(char::len_utf16).sum());
        Position::new(line as u32, col as u32)
    }

    /// The byte offset of an LSP position (clamped to the line and the text).
    pub(crate) fn offset(&self, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(p.line as usize + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = self.text.get(start..end).unwrap_or("");
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units >= p.character || c == '\n' {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        end
    }

    /// The LSP range of a byte range.
    pub(crate) fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_both_ways() {
        let t = "ab\nxé𝄞z\n";
        let ix = LineIndex::new(t);
        assert_eq!(ix.position(0), Position::new(0, 0));
        assert_eq!(ix.position(3), Position::new(1, 0));
        // é is 2 bytes, 1 unit; 𝄞 is 4 bytes, 2 units
        let z = t.find('z').unwrap();
        assert_eq!(ix.position(z), Position::new(1, 4));
        assert_eq!(ix.offset(Position::new(1, 4)), z);
        assert_eq!(ix.offset(Position::new(9, 0)), t.len());
        assert_eq!(ix.offset(Position::new(0, 99)), 2);
    }
}
