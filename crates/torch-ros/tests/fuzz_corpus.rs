//! The fuzz targets' corpora (fuzz/corpus/lua_ros_args, fuzz/corpus/lua_syntax_error)
//! replayed as regular tests, and property tests: over arguments made of the characters
//! names are made of (ROS arguments and names in, names or errors out) and over scripts
//! made of Lua's tokens (a diagnostic that names the file and, with a line, shows it
//! with a caret), never a panic.

use proptest::prelude::*;
use skipper_core::fuzz_corpus::found_by_the_fuzzer;
use skipper_torch_ros::fuzzing;
use std::path::Path;

#[test]
fn corpus_replays_without_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/lua_ros_args");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        fuzzing::ros_args(&std::fs::read(entry.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(n >= 6, "only {n} inputs in {}", dir.display());
}

proptest! {
    #[test]
    fn arguments_and_names_never_panic(args in prop::collection::vec("[a-z_~/:= .é0-9]{0,12}", 0..8)) {
        fuzzing::ros_args(args.join("\n").as_bytes());
    }
}

/// A diagnostic as `skipper lua` prints it: the file, and with a line the excerpt.
fn well_formed(d: &str) {
    assert!(d.starts_with("f.lua:"), "{d}");
    if !d.starts_with("f.lua: error: ") {
        // (Lua's message may span lines: the token it names can be a long string)
        let line: String = d["f.lua:".len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let lines: Vec<&str> = d.lines().collect();
        let n = lines.len();
        assert!(n >= 4 && lines[n - 1].trim_end().ends_with('^'), "{d}");
        assert!(lines[n - 2].starts_with(&format!("{line} | ")), "{d}");
    }
}

#[test]
fn syntax_error_corpus_replays_with_well_formed_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/lua_syntax_error");
    let mut seeds = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        // the named seeds are syntax errors; what the fuzzer found (named by its SHA-1)
        // may be a valid script, and then there is nothing to place
        match fuzzing::syntax_error(&data) {
            Some(d) => well_formed(&d),
            None => assert!(found_by_the_fuzzer(&path), "{} parses", path.display()),
        }
        seeds += usize::from(!found_by_the_fuzzer(&path));
    }
    assert!(seeds >= 9, "only {seeds} named seeds in {}", dir.display());
}

proptest! {
    #[test]
    fn syntax_errors_of_token_soup_are_placed_without_panics(
        tokens in prop::collection::vec(
            prop::sample::select(vec![
                "local", "x", "=", "==", "(", ")", "{", "}", "[[", "]]", "\"", "'", "end",
                "function", "if", "then", "<const>", "//", "::", "goto", "\n", " ", "--", "1",
                "é", "..", "...", ",", ";", "[", "]", "`",
            ]),
            0..24,
        )
    ) {
        if let Some(d) = fuzzing::syntax_error(tokens.concat().as_bytes()) {
            well_formed(&d);
        }
    }
}
