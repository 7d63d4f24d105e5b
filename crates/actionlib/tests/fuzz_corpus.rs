//! The corpora of the fuzz targets `ros1_message` and `ros1_msg_definition` replayed as
//! regular tests: every named seed is a valid input and no truncation of it panics; the
//! inputs a campaign found (named by their SHA-1) need not be valid, but none may panic.

/// A libFuzzer file name: 40 hex digits (the input's SHA-1).
fn found_by_fuzzer(name: &str) -> bool {
    name.len() == 40 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

#[test]
fn corpus_replays() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/ros1_message"
    );
    let mut seeds = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let decoded = skipper_actionlib::ros1::fuzz_input(&bytes);
        let name = path.file_name().unwrap().to_string_lossy();
        if found_by_fuzzer(&name) {
            continue;
        }
        assert!(decoded, "seed {name} is a valid input");
        // every truncation of a seed must fail cleanly, never panic
        for k in 0..bytes.len() {
            let _ = skipper_actionlib::ros1::fuzz_input(&bytes[..k]);
        }
        seeds += 1;
    }
    assert!(seeds >= 8, "{seeds} seeds");
}

/// The corpus of `ros1_msg_definition` (definitions, and bodies of the types they
/// define): every named seed is accepted and no truncation of it panics; the inputs a
/// campaign found need only not panic.
#[test]
fn definition_corpus_replays() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/ros1_msg_definition"
    );
    let mut seeds = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let accepted = skipper_actionlib::msg::fuzz_definition(&bytes);
        let name = path.file_name().unwrap().to_string_lossy();
        if found_by_fuzzer(&name) {
            continue;
        }
        assert!(accepted, "seed {name} is refused");
        for k in 0..bytes.len() {
            let _ = skipper_actionlib::msg::fuzz_definition(&bytes[..k]);
        }
        seeds += 1;
    }
    assert!(seeds >= 5, "{seeds} seeds");
}
