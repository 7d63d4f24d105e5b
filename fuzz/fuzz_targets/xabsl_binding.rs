//! Fuzz XABSL binding files (`agents.binding`): parsed and checked against the ground
//! robot's vocabulary (diagnostics for every mistake), and when they check, run on the
//! robot's signals for a few cycles; never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_xabsl::fuzzing::binding(data);
});
