//! A JSON object's members found without decoding them: each key (a string without
//! escapes) and the bytes of its value, the value skipped over by its brackets and
//! quotes. The frequent messages (`/pose`, `/signals`) are read this way and only the
//! values wanted are parsed; anything this does not expect (an escape in a key, bytes
//! that are not JSON) is `None`, and the caller decodes the message with `serde_json`
//! instead. It never panics and never allocates; the bytes are checked to be UTF-8 once.

/// The members of the object in `b`, in order: `(key, value bytes)`; `None` at the first
/// thing that is not as expected.
pub struct Members<'a> {
    b: &'a [u8],
    /// `b` as text (checked once: keys are slices of it)
    text: &'a str,
    at: usize,
    done: bool,
}

/// The members of the JSON object `b` (surrounding whitespace allowed; UTF-8).
pub fn members(b: &[u8]) -> Option<Members<'_>> {
    let at = skip_ws(b, 0);
    let text = std::str::from_utf8(b).ok()?;
    (b.get(at) == Some(&b'{')).then_some(Members {
        b,
        text,
        at: at + 1,
        done: false,
    })
}

impl<'a> Members<'a> {
    /// The next member; `Some(None)` at the end of the object, `None` if it is not as
    /// expected.
    pub fn next_member(&mut self) -> Option<Option<(&'a str, &'a [u8])>> {
        let Some(key) = self.next_key()? else {
            return Some(None);
        };
        Some(Some((key, self.value()?)))
    }

    /// The next member's key, the value left to [`Members::value`] or
    /// [`Members::object`]; `Some(None)` at the end of the object, `None` if it is not as
    /// expected.
    pub fn next_key(&mut self) -> Option<Option<&'a str>> {
        if self.done {
            return Some(None);
        }
        let b = self.b;
        let mut at = skip_ws(b, self.at);
        match *b.get(at)? {
            b'}' => {
                self.done = true;
                self.at = at + 1;
                return Some(None);
            }
            b',' => at = skip_ws(b, at + 1),
            _ => {}
        }
        if b.get(at) != Some(&b'"') {
            return None;
        }
        let key_end = at
            + 1
            + b.get(at + 1..)?
                .iter()
                .position(|&c| c == b'"' || c == b'\\')?;
        if b.get(key_end) != Some(&b'"') {
            return None; // an escape: left to serde
        }
        // the quotes are ASCII, so the key's ends are on characters' boundaries
        let key = self.text.get(at + 1..key_end)?;
        at = skip_ws(b, key_end + 1);
        if b.get(at) != Some(&b':') {
            return None;
        }
        self.at = skip_ws(b, at + 1);
        Some(Some(key))
    }

    /// The bytes of the value after the key just read, skipped over.
    pub fn value(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        let end = skip_value(self.b, start)?;
        self.at = end;
        self.b.get(start..end)
    }

    /// The members of the object after the key just read, read in place (its bytes are
    /// walked once); `f` reads them, and this object goes on after it once `f` has read
    /// them all. `None` if the value is not an object or `f` does not read to its end.
    pub fn object<T>(&mut self, f: impl FnOnce(&mut Members<'a>) -> Option<T>) -> Option<T> {
        if self.b.get(self.at) != Some(&b'{') {
            return None;
        }
        let mut inner = Members {
            b: self.b,
            text: self.text,
            at: self.at + 1,
            done: false,
        };
        let out = f(&mut inner)?;
        if !inner.done {
            return None;
        }
        self.at = inner.at;
        Some(out)
    }

    /// Whether only whitespace follows the object.
    pub fn at_end(&self) -> bool {
        self.done && skip_ws(self.b, self.at) == self.b.len()
    }
}

fn skip_ws(b: &[u8], mut at: usize) -> usize {
    while matches!(b.get(at), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        at += 1;
    }
    at
}

/// Where the value that starts at `at` ends.
fn skip_value(b: &[u8], at: usize) -> Option<usize> {
    match *b.get(at)? {
        b'"' => skip_string(b, at),
        b'{' | b'[' => skip_nested(b, at),
        _ => {
            // a number, true, false or null: up to the next delimiter
            let n = b
                .get(at..)?
                .iter()
                .position(|&c| matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t'))
                .unwrap_or(b.len() - at);
            (n > 0).then_some(at + n)
        }
    }
}

/// Where the string that starts at `at` (its opening quote) ends, after its closing quote.
fn skip_string(b: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        match *b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// Where the object or array that starts at `at` ends.
fn skip_nested(b: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    loop {
        match *b.get(i)? {
            b'"' => {
                i = skip_string(b, i)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// A JSON number's value.
pub fn number(v: &[u8]) -> Option<f64> {
    let first = *v.first()?;
    let numeric = |c: &u8| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E');
    if !(first == b'-' || first.is_ascii_digit()) || !v.iter().all(numeric) {
        return None; // `-inf`, `-nan` and the like are not JSON
    }
    std::str::from_utf8(v).ok()?.parse().ok()
}

/// A JSON string's text, if it has no escapes.
pub fn plain_string(v: &[u8]) -> Option<&str> {
    let inner = v.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if inner.iter().any(|&c| c == b'\\' || c == b'"') {
        return None;
    }
    std::str::from_utf8(inner).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(b: &[u8]) -> Option<Vec<(String, String)>> {
        let mut m = members(b)?;
        let mut out = Vec::new();
        while let Some((k, v)) = m.next_member()? {
            out.push((k.to_string(), String::from_utf8_lossy(v).into_owned()));
        }
        m.at_end().then_some(out)
    }

    #[test]
    fn members_and_their_values() {
        let m = all(br#" {"a": 1.5, "b":"x\"}", "c":{"d":[1,{"e":"]"}]}, "f":true} "#).unwrap();
        assert_eq!(
            m,
            [
                ("a".into(), "1.5".into()),
                ("b".into(), r#""x\"}""#.into()),
                ("c".into(), r#"{"d":[1,{"e":"]"}]}"#.into()),
                ("f".into(), "true".into()),
            ]
        );
        assert_eq!(all(b"{}").unwrap(), []);
        // an object read in place, then the members after it
        let b = br#"{"v":{"a":1,"b":[2]},"t":3}"#;
        let mut m = members(b).unwrap();
        assert_eq!(m.next_key(), Some(Some("v")));
        let inner = m.object(|o| {
            let mut keys = Vec::new();
            while let Some((k, _)) = o.next_member()? {
                keys.push(k);
            }
            Some(keys)
        });
        assert_eq!(inner, Some(vec!["a", "b"]));
        assert_eq!(m.next_member(), Some(Some(("t", &b"3"[..]))));
        assert_eq!(m.next_member(), Some(None));
        assert!(m.at_end());
        // not an object, or not read to its end
        let mut m = members(b).unwrap();
        m.next_key();
        assert_eq!(m.object(|_| Some(())), None);
        let mut m = members(br#"{"v":1}"#).unwrap();
        m.next_key();
        assert_eq!(m.object(|_| Some(())), None);
    }

    #[test]
    fn what_it_does_not_expect_is_none() {
        for bad in [
            &b""[..],
            b"[1]",
            b"{\"a\":",
            b"{\"a\" 1}",
            b"{\"a\\n\":1}",
            b"{\"a\":\"open",
            b"{\"a\":[1,2}",
            b"{\"a\":1} x",
            b"{a:1}",
        ] {
            assert!(all(bad).is_none(), "{}", String::from_utf8_lossy(bad));
        }
        assert_eq!(number(b"-1.5e3"), Some(-1500.0));
        assert_eq!(number(b"true"), None);
        assert_eq!(number(b"-inf"), None);
        assert_eq!(number(b"-NaN"), None);
        assert_eq!(plain_string(b"\"robot1\""), Some("robot1"));
        assert_eq!(plain_string(b"\"a\\\"b\""), None);
    }
}
