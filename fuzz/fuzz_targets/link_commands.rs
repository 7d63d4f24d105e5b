//! Fuzz the link's JSON command decoding and processing: any line from an agent either
//! fails to decode with an error, or is processed by a link (statuses, `error` for bad
//! commands) without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_sps::wire::fuzz_one(data);
});
