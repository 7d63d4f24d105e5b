//! The XABSL tokenizer, following the reference compiler's rules (`tokenizer.rb`).
//!
//! - whitespace and `// ...` line comments are skipped; `/* ... */` comments too;
//!   `/** ... */` is a doc comment token and `/*** ... */` the initial comment (both kept,
//!   trimmed, for the documentation); the first `*/` after the opener closes a comment;
//! - identifiers: an optional `@`, a letter or `_`, then letters, digits, `_` and dots
//!   (`ball.seen.distance` is one identifier);
//! - numbers: digits with an optional fraction (`12`, `3.`, `0.5`); no sign;
//! - strings `"..."` (no escapes) and ranges `[...]` (any text up to `]`);
//! - the keywords of [`Keyword`] and the operators `<= >= == != && ||`, `% ! < > { } ( )
//!   ; | + - * / = , ? :`.
//!
//! One deliberate difference: the reference looks a keyword up after matching
//! `[A-Za-z_][A-Za-z0-9_.-]*`, so `state_time-500` becomes an (unknown) identifier
//! `state_time` there; here it is the keyword followed by `-500`.

use crate::diag::Diagnostic;
use crate::source::{FileId, Span};

/// Reserved words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Keyword {
    True,
    False,
    Option,
    Initial,
    Target,
    State,
    Common,
    Decision,
    Action,
    Stay,
    Goto,
    If,
    Else,
    StateTime,
    OptionTime,
    ActionDone,
    Agent,
    Function,
    Enum,
    Input,
    Output,
    Bool,
    Float,
    Const,
    Namespace,
    Behavior,
    Include,
    Internal,
    Capacity,
    Synchronized,
    Conflict,
}

impl Keyword {
    /// The keyword spelled `s`, if any.
    pub fn from_word(s: &str) -> Option<Keyword> {
        use Keyword::*;
        Some(match s {
            "true" => True,
            "false" => False,
            "option" => Option,
            "initial" => Initial,
            "target" => Target,
            "state" => State,
            "common" => Common,
            "decision" => Decision,
            "action" => Action,
            "stay" => Stay,
            "goto" => Goto,
            "if" => If,
            "else" => Else,
            "state_time" => StateTime,
            "option_time" => OptionTime,
            "action_done" => ActionDone,
            "agent" => Agent,
            "function" => Function,
            "enum" => Enum,
            "input" => Input,
            "output" => Output,
            "bool" => Bool,
            "float" => Float,
            "const" => Const,
            "namespace" => Namespace,
            "behavior" => Behavior,
            "include" => Include,
            "internal" => Internal,
            "capacity" => Capacity,
            "synchronized" => Synchronized,
            "conflict" => Conflict,
            _ => return None,
        })
    }
    /// How it is spelled.
    pub fn as_str(self) -> &'static str {
        use Keyword::*;
        match self {
            True => "true",
            False => "false",
            Option => "option",
            Initial => "initial",
            Target => "target",
            State => "state",
            Common => "common",
            Decision => "decision",
            Action => "action",
            Stay => "stay",
            Goto => "goto",
            If => "if",
            Else => "else",
            StateTime => "state_time",
            OptionTime => "option_time",
            ActionDone => "action_done",
            Agent => "agent",
            Function => "function",
            Enum => "enum",
            Input => "input",
            Output => "output",
            Bool => "bool",
            Float => "float",
            Const => "const",
            Namespace => "namespace",
            Behavior => "behavior",
            Include => "include",
            Internal => "internal",
            Capacity => "capacity",
            Synchronized => "synchronized",
            Conflict => "conflict",
        }
    }
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Tok {
    Ident,
    Number,
    Str,
    Range,
    DocComment,
    InitialComment,
    Kw(Keyword),
    Le,
    Ge,
    EqEq,
    Ne,
    AndAnd,
    OrOr,
    Percent,
    Bang,
    Lt,
    Gt,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Semi,
    Pipe,
    Plus,
    Minus,
    Star,
    Slash,
    Assign,
    Comma,
    Question,
    Colon,
    /// end of file
    Eof,
}

impl Tok {
    /// A description for "expected ..." messages.
    pub fn describe(self) -> String {
        match self {
            Tok::Ident => "a name".into(),
            Tok::Number => "a number".into(),
            Tok::Str => "a string".into(),
            Tok::Range => "a range `[...]`".into(),
            Tok::DocComment => "a doc comment".into(),
            Tok::InitialComment => "an initial comment `/*** ... */`".into(),
            Tok::Kw(k) => format!("`{}`", k.as_str()),
            Tok::Eof => "the end of the file".into(),
            other => format!("`{}`", other.symbol()),
        }
    }
    fn symbol(self) -> &'static str {
        match self {
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::EqEq => "==",
            Tok::Ne => "!=",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Percent => "%",
            Tok::Bang => "!",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::Semi => ";",
            Tok::Pipe => "|",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Assign => "=",
            Tok::Comma => ",",
            Tok::Question => "?",
            Tok::Colon => ":",
            _ => "",
        }
    }
}

/// One token.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// what it is
    pub tok: Tok,
    /// where
    pub span: Span,
    /// its text: the identifier, the number as written, a string or range without its
    /// delimiters, a comment's trimmed content
    pub text: String,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// Ruby's `\s`: space, tab, CR, LF, form feed, vertical tab.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0c | 0x0b)
}

/// Split a file into tokens (the last one is [`Tok::Eof`]). The first tokenizer error
/// stops it, as in the reference.
pub fn tokenize(text: &str, file: FileId) -> Result<Vec<Token>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0usize;
    let span = |a: usize, b: usize| Span::new(file, a, b);
    let slice = |a: usize, b: usize| text.get(a..b).unwrap_or("").to_string();
    while i < bytes.len() {
        let b = bytes[i];
        if is_space(b) {
            i += 1;
            continue;
        }
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                i += 1;
            }
            continue;
        }
        if rest.starts_with(b"/*") {
            let (kind, open) = if rest.starts_with(b"/***") {
                (Some(Tok::InitialComment), 4)
            } else if rest.starts_with(b"/**") {
                (Some(Tok::DocComment), 3)
            } else {
                (None, 2)
            };
            let body = i + open;
            let Some(close) = find(bytes, body, b"*/") else {
                return Err(Diagnostic::error(
                    "X3275",
                    span(i, i + open),
                    "this comment is never closed: expected `*/` before the end of the file",
                ));
            };
            if let Some(kind) = kind {
                toks.push(Token {
                    tok: kind,
                    span: span(i, close + 2),
                    text: slice(body, close).trim().to_string(),
                });
            }
            i = close + 2;
            continue;
        }
        if rest.starts_with(b"*/") {
            return Err(Diagnostic::error(
                "X3257",
                span(i, i + 2),
                "`*/` closes no comment: there is no `/*` before it",
            ));
        }
        let start = i;
        if is_ident_start(b) || (b == b'@' && rest.get(1).copied().is_some_and(is_ident_start)) {
            i += 1;
            while i < bytes.len() && is_ident_char(bytes[i]) {
                i += 1;
            }
            let word = slice(start, i);
            let tok = match Keyword::from_word(&word) {
                Some(k) => Tok::Kw(k),
                None => Tok::Ident,
            };
            toks.push(Token {
                tok,
                span: span(start, i),
                text: word,
            });
            continue;
        }
        if b.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i < bytes.len() && bytes[i] == b'.' {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            toks.push(Token {
                tok: Tok::Number,
                span: span(start, i),
                text: slice(start, i),
            });
            continue;
        }
        if b == b'"' {
            if let Some(end) = bytes[i + 1..].iter().position(|&c| c == b'"') {
                let end = i + 1 + end;
                toks.push(Token {
                    tok: Tok::Str,
                    span: span(start, end + 1),
                    text: slice(start + 1, end),
                });
                i = end + 1;
                continue;
            }
            return Err(Diagnostic::error(
                "X2573",
                span(start, start + 1),
                "this string is never closed: expected a `\"` before the end of the file",
            ));
        }
        if b == b'[' {
            if let Some(end) = bytes[i + 1..].iter().position(|&c| c == b']') {
                let end = i + 1 + end;
                toks.push(Token {
                    tok: Tok::Range,
                    span: span(start, end + 1),
                    text: slice(start + 1, end),
                });
                i = end + 1;
                continue;
            }
        }
        let two = match rest.get(..2) {
            Some(b"<=") => Some(Tok::Le),
            Some(b">=") => Some(Tok::Ge),
            Some(b"==") => Some(Tok::EqEq),
            Some(b"!=") => Some(Tok::Ne),
            Some(b"&&") => Some(Tok::AndAnd),
            Some(b"||") => Some(Tok::OrOr),
            _ => None,
        };
        if let Some(t) = two {
            toks.push(Token {
                tok: t,
                span: span(start, start + 2),
                text: slice(start, start + 2),
            });
            i += 2;
            continue;
        }
        let one = match b {
            b'%' => Tok::Percent,
            b'!' => Tok::Bang,
            b'<' => Tok::Lt,
            b'>' => Tok::Gt,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b';' => Tok::Semi,
            b'|' => Tok::Pipe,
            b'+' => Tok::Plus,
            b'-' => Tok::Minus,
            b'*' => Tok::Star,
            b'/' => Tok::Slash,
            b'=' => Tok::Assign,
            b',' => Tok::Comma,
            b'?' => Tok::Question,
            b':' => Tok::Colon,
            _ => {
                let ch = text.get(i..).and_then(|s| s.chars().next());
                let (shown, len) = match ch {
                    Some(c) if !c.is_control() => (format!("`{c}`"), c.len_utf8()),
                    Some(c) => (
                        format!("the control character {:#04x}", c as u32),
                        c.len_utf8(),
                    ),
                    None => (format!("the byte {b:#04x}"), 1),
                };
                return Err(Diagnostic::error(
                    "X2573",
                    span(i, i + len),
                    format!("illegal character {shown}: XABSL source is made of names, numbers, strings, comments and the operators of C"),
                ));
            }
        };
        toks.push(Token {
            tok: one,
            span: span(start, start + 1),
            text: slice(start, start + 1),
        });
        i += 1;
    }
    toks.push(Token {
        tok: Tok::Eof,
        span: span(bytes.len(), bytes.len()),
        text: String::new(),
    });
    Ok(toks)
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, String)> {
        tokenize(s, FileId(0))
            .unwrap()
            .into_iter()
            .map(|t| (t.tok, t.text))
            .collect()
    }

    #[test]
    fn identifiers_keep_dots_and_at() {
        let k = kinds("@speed ball.seen.distance state_time.x 3. 0.5 12");
        assert_eq!(k[0], (Tok::Ident, "@speed".into()));
        assert_eq!(k[1], (Tok::Ident, "ball.seen.distance".into()));
        assert_eq!(k[2], (Tok::Ident, "state_time.x".into()));
        assert_eq!(k[3], (Tok::Number, "3.".into()));
        assert_eq!(k[4], (Tok::Number, "0.5".into()));
        assert_eq!(k[5], (Tok::Number, "12".into()));
    }

    #[test]
    fn comments_and_ranges() {
        let k = kinds("/*** Title: T */ /** doc\n */ /* no */ // line\n[-180..180] \"mm\" x");
        assert_eq!(k[0], (Tok::InitialComment, "Title: T".into()));
        assert_eq!(k[1], (Tok::DocComment, "doc".into()));
        assert_eq!(k[2], (Tok::Range, "-180..180".into()));
        assert_eq!(k[3], (Tok::Str, "mm".into()));
        assert_eq!(k[4], (Tok::Ident, "x".into()));
    }

    #[test]
    fn operators() {
        let k: Vec<Tok> = kinds("<= >= == != && || % ! < > { } ( ) ; | + - * / = , ? :")
            .into_iter()
            .map(|x| x.0)
            .collect();
        assert_eq!(k.len(), 25);
        assert_eq!(k[0], Tok::Le);
        assert_eq!(k[23], Tok::Colon);
    }

    #[test]
    fn comment_errors() {
        assert_eq!(tokenize("/* open", FileId(0)).unwrap_err().code, "X3275");
        assert_eq!(tokenize("/* a */ */", FileId(0)).unwrap_err().code, "X3257");
        assert_eq!(tokenize("x # y", FileId(0)).unwrap_err().code, "X2573");
    }
}
