//! Fuzz the P2OS framer and every packet decoder: any bytes, split anywhere; errors and
//! skipped bytes, never a panic (and whatever decodes as a SIP re-encodes byte for byte).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    skipper_p2os::fuzzing::fuzz_stream(data);
});
