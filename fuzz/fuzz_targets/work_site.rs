//! Fuzz the `workSite.cfg` parser (one `name = value [unit];` per line) and what a run
//! builds from it: the worksite and the AUV world, sensed and advanced a few cycles.
//! Diagnostics or errors, never a panic, a hang or an unbounded allocation.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper::fuzzing::work_site(data);
});
