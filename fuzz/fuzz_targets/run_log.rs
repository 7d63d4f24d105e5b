//! Fuzz the run log reader and the report drawn from what it read: errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(rec) = skipper_runlog::Recording::from_bytes(data, &|_| true) {
        let _ = skipper_report::render(&rec);
    }
});
