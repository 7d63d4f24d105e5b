//! Fuzz the mission loader: any text runs in the sandbox and is checked; errors, never
//! panics, hangs or unbounded memory (tight limits keep each run short).
#![no_main]
use libfuzzer_sys::fuzz_target;
use skipper_mission::{load, Limits, LoadOptions};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let opts = LoadOptions {
            limits: Limits {
                instructions: 200_000,
                memory: 8 << 20,
            },
            ..LoadOptions::default()
        };
        if let Ok(m) = load(text, "fuzz.lua", &opts) {
            // and the executive takes a few ticks on empty signals
            let mut exec = skipper_mission::Executive::new(std::sync::Arc::new(m));
            let signals = skipper_core::Signals::new();
            for k in 0..5u64 {
                exec.tick(std::time::Duration::from_secs(k), &signals);
            }
        }
    }
});
