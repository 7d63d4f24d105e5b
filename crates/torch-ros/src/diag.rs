//! Where a script's mistakes are, shown as every Skipper language shows them.
//!
//! - A syntax error is `file:line:col: error: message`, the source line and a caret under
//!   the token Lua stopped at. Lua's own parser decides whether the script parses and
//!   what is wrong, but it names only the line and the token's text (`near '='`), which
//!   may stand several times on the line. full_moon's Lua 5.4 lexer gives the exact place
//!   of every token on that line, and Lua's parser, run again on the script cut after one
//!   token or another, tells which of them it stopped at: the first one whose cut gives
//!   Lua's message again. (full_moon's parser was not used for the position: it points
//!   at the token before the mistake for some errors, `local x = = 1` at the first `=`.)
//!   An error at the end of the file has its caret after the line's last character;
//!   where no token is found, the caret underlines the whole line.
//! - A runtime error keeps Lua's `file:line: message` (Lua's bytecode records lines, not
//!   columns) and gets the script's source line under it, above the traceback.

use skipper_core::excerpt::Excerpt;
use std::fmt::Write as _;

/// The script a state runs: its name in messages and its text.
#[derive(Debug, Clone, Default)]
pub(crate) struct Script {
    pub name: String,
    pub source: String,
}

/// `file:LINE: rest` at the start of `message`: (LINE, rest).
fn lua_position(message: &str) -> Option<(usize, &str)> {
    let mut from = 0;
    while let Some(i) = message[from..].find(':') {
        let at = from + i + 1;
        let digits = message[at..].bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && message[at + digits..].starts_with(": ") {
            let line = message[at..at + digits].parse().ok()?;
            return Some((line, &message[at + digits + 2..]));
        }
        from = at;
    }
    None
}

/// The `line`th line of `src` (from 1), without its end of line.
fn line_of(src: &str, line: usize) -> &str {
    src.lines().nth(line.saturating_sub(1)).unwrap_or("")
}

/// The gutter, the source line and a caret under columns `col..col + len` (from 1).
fn excerpt(out: &mut String, text: &str, line: usize, caret: Option<(usize, usize)>) {
    let _ = write!(out, "\n{}", Excerpt { line, text, caret });
}

/// Where on `line` (from 1) of `src` the token Lua's parser stopped at is, as (column,
/// width): the first token of the line whose cut gives Lua's `message` again (a cut
/// before that token gives another message, one after it the same: a binary search).
fn offending_token(chunk: &str, src: &str, line: usize, message: &str) -> Option<(usize, usize)> {
    use full_moon::tokenizer::{Lexer, LexerResult};
    let end = src
        .match_indices('\n')
        .nth(line.saturating_sub(1))
        .map_or(src.len(), |(i, _)| i);
    // full_moon 3.0 panics (`unreachable!`) on a backtick that starts a token (it is a
    // string quote only in dialects not built here); as an unknown character of the same
    // width it is a fatal lexer error instead, and the caret falls back to the whole line
    let cut = &src[..end];
    let cut = if cut.contains('`') {
        std::borrow::Cow::Owned(cut.replace('`', "$"))
    } else {
        std::borrow::Cow::Borrowed(cut)
    };
    let tokens = match Lexer::new(&cut, full_moon::LuaVersion::lua54()).collect() {
        LexerResult::Ok(t) | LexerResult::Recovered(t, _) => t,
        LexerResult::Fatal(_) => return None,
    };
    let on_line: Vec<_> = tokens
        .iter()
        .filter(|t| !t.token_type().is_trivia() && t.start_position().line() == line)
        .filter(|t| !matches!(t.token_type(), full_moon::tokenizer::TokenType::Eof))
        .map(|t| (t.start_position(), t.end_position()))
        .collect();
    let lua = compiler().ok()?;
    let same = |cut: usize| match lua
        .load(&src.as_bytes()[..cut])
        .set_name(chunk)
        .into_function()
    {
        Err(mlua::Error::SyntaxError { message: m, .. }) => m == message,
        _ => false,
    };
    let (_, last) = on_line.last()?;
    if !same(last.bytes()) {
        return None;
    }
    let first = on_line.partition_point(|(_, stop)| !same(stop.bytes()));
    let (start, stop) = on_line.get(first)?;
    let width = if stop.line() == line {
        stop.character().saturating_sub(start.character())
    } else {
        1
    };
    Some((start.character(), width.max(1)))
}

/// A Lua state that only compiles: no standard library, which compiling does not need
/// (loading the libraries was most of the cost of a state made for the cuts).
pub(crate) fn compiler() -> mlua::Result<mlua::Lua> {
    mlua::Lua::new_with(mlua::StdLib::NONE, mlua::LuaOptions::default())
}

/// Lua's syntax error `message` (`file:line: what near 'x'`) as `file:line:col: error:
/// what`, the line and a caret; the message as it is when it names no line.
pub(crate) fn syntax_error(script: &Script, message: &str) -> String {
    let Some((line, what)) = lua_position(message) else {
        let first = message.lines().next().unwrap_or("");
        return format!("{}: error: {first}", script.name);
    };
    let text = line_of(&script.source, line);
    let chunk = format!("@{}", script.name);
    let found = if what.ends_with("near <eof>") {
        Some((text.chars().count() + 1, 1))
    } else {
        offending_token(&chunk, &script.source, line, message)
    };
    let (col, len) = found.unwrap_or_else(|| {
        let lead = text.len() - text.trim_start().len();
        (
            text[..lead].chars().count() + 1,
            text.trim().chars().count(),
        )
    });
    let mut out = format!("{}:{line}:{col}: error: {what}", script.name);
    excerpt(&mut out, text, line, Some((col, len)));
    out
}

/// A runtime error's text with the script's source line under its first line, when that
/// line is `file:line: ...` of the script itself (Lua shortens long names with `...`).
pub(crate) fn runtime_error(script: &Script, text: &str) -> String {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let Some((line, _)) = lua_position(first) else {
        return text.to_string();
    };
    let file = &first[..first.find(&format!(":{line}: ")).unwrap_or(0)];
    let own = file == script.name
        || file
            .strip_prefix("...")
            .is_some_and(|tail| script.name.ends_with(tail));
    if !own || line == 0 || line > script.source.lines().count() {
        return text.to_string();
    }
    let mut out = first.to_string();
    excerpt(&mut out, line_of(&script.source, line), line, None);
    if !rest.is_empty() {
        out.push('\n');
        out.push_str(rest);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(src: &str) -> Script {
        Script {
            name: "s.lua".into(),
            source: src.into(),
        }
    }

    #[test]
    fn a_position_is_read_after_the_file_name() {
        assert_eq!(lua_position("a:b.lua:12: x: y"), Some((12, "x: y")));
        assert_eq!(lua_position("no line here"), None);
    }

    #[test]
    fn a_runtime_error_of_another_file_is_left_as_it_is() {
        let s = script("error('x')\n");
        assert_eq!(runtime_error(&s, "other.lua:1: x"), "other.lua:1: x");
        assert_eq!(
            runtime_error(&s, "s.lua:1: x\nstack traceback:"),
            "s.lua:1: x\n  |\n1 | error('x')\nstack traceback:"
        );
    }
}
