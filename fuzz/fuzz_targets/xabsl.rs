//! Fuzz the XABSL lexer, parser and checker (and, for agents that check, the
//! intermediate code, engine and documentation): diagnostics, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_xabsl::fuzzing::run(data);
});
