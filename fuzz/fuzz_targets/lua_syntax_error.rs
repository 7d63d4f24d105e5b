//! Fuzz the placing of a Lua syntax error (skipper-torch-ros's `file:line:col` with a caret:
//! full_moon's lexer over the script up to the error's line, Lua's parser on cuts of
//! it): a diagnostic naming the file, never a panic. Scripts are compiled, never run.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(d) = skipper_torch_ros::fuzzing::syntax_error(data) {
        assert!(
            d.starts_with("f.lua:") || d.starts_with("f.lua: error: "),
            "{d}"
        );
    }
});
