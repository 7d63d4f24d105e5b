//! Fuzz the JSON-lines input of `skipper xabsl run` (one object of inputs per cycle) on a
//! synthetic agent with number, boolean and enumerated inputs, native code and the
//! interpreter side by side: errors for bad lines, the same output line from both
//! backends for good ones, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_xabsl::fuzzing::trace(data);
});
