//! The corpus of the `xabsl_trace` fuzz target (fuzz/corpus/xabsl_trace: JSON lines of
//! inputs for `skipper xabsl run`) replayed as a regular test: both backends accept or
//! refuse each line alike and write the same output, never a panic.

use skipper_xabsl::fuzzing;
use std::path::Path;

#[test]
fn corpus_replays_without_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/xabsl_trace");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        fuzzing::trace(&std::fs::read(entry.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(n >= 4, "only {n} inputs in {}", dir.display());
}

#[test]
fn extreme_cycles_and_times_are_taken_without_overflow() {
    fuzzing::trace(
        b"{\"cycle\": 18446744073709551615, \"time_ms\": 18446744073709551615}\n{}\n{}\n",
    );
}
