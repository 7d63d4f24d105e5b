//! Fuzz the world-file parser and world construction: errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(spec) = skipper_sim::parse_world(text, "fuzz.world", None) {
            let _ = skipper_sim::GroundWorld::new(&spec, 0);
        }
    }
});
