//! The corpora of the fuzz targets `ros1_message` and `ros1_msg_definition` replayed as
//! regular tests: every named seed is a valid input and no truncation of it panics; the
//! inputs a campaign found (named by their SHA-1) need not be valid, but none may panic.

/// A libFuzzer file name: 40 hex digits (the input's SHA-1).
fn found_by_fuzzer(name: &str) -> bool {
    name.len() == 40 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Replay the corpus of fuzz target `target` through `input` (which says whether the
/// input is valid): every named seed must be valid and no truncation of it may panic; the
/// inputs a campaign found are run once. There must be at least `min_seeds` named seeds.
fn replay(target: &str, input: impl Fn(&[u8]) -> bool, min_seeds: usize) {
    let dir = format!("{}/../../fuzz/corpus/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut seeds = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let valid = input(&bytes);
        let name = path.file_name().unwrap().to_string_lossy();
        if found_by_fuzzer(&name) {
            continue;
        }
        assert!(valid, "seed {name} is not a valid input");
        for k in 0..bytes.len() {
            let _ = input(&bytes[..k]);
        }
        seeds += 1;
    }
    assert!(seeds >= min_seeds, "{target}: {seeds} seeds");
}

#[test]
fn corpus_replays() {
    replay("ros1_message", skipper_ros1_wire::fuzz_input, 8);
}

/// The corpus of `ros1_msg_definition`: definitions, and bodies of the types they define.
#[test]
fn definition_corpus_replays() {
    replay(
        "ros1_msg_definition",
        skipper_ros1_wire::msg::fuzz_definition,
        5,
    );
}
