//! The fuzz target's corpus (fuzz/corpus/ros1_message) replayed as a regular test: every
//! seed decodes as expected and no input panics.

#[test]
fn corpus_replays() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/ros1_message"
    );
    let mut n = 0;
    let mut decoded = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        if skipper_actionlib::ros1::fuzz_input(&bytes) {
            decoded += 1;
        }
        // every truncation of a seed must fail cleanly, never panic
        for k in 0..bytes.len() {
            let _ = skipper_actionlib::ros1::fuzz_input(&bytes[..k]);
        }
        n += 1;
    }
    assert!(n >= 8, "{n} seeds");
    assert_eq!(decoded, n, "every seed is a valid input");
}

/// The corpus of `ros1_msg_definition` (definitions, and bodies of the types they
/// define): every seed is accepted, and no truncation panics.
#[test]
fn definition_corpus_replays() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/ros1_msg_definition"
    );
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        assert!(
            skipper_actionlib::msg::fuzz_definition(&bytes),
            "a seed is refused"
        );
        for k in 0..bytes.len() {
            let _ = skipper_actionlib::msg::fuzz_definition(&bytes[..k]);
        }
        n += 1;
    }
    assert!(n >= 5, "{n} seeds");
}
