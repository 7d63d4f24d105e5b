//! Fuzz the run log readers (the one that keeps everything, and the report's, which reads
//! the log as a stream) and the report drawn from what it read: errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = skipper_runlog::Recording::from_bytes(data, &|_| true);
    if let Ok(d) = skipper_report::Digest::from_bytes(data) {
        let _ = skipper_report::render(&d);
    }
});
