//! The fuzz target's corpus (fuzz/corpus/ros2_cdr) replayed as a regular test. The named
//! seeds (serialized by rclpy's `serialize_message`) decode as the type their first byte
//! names; the inputs the fuzzer found (named by their SHA-1) need not decode, but no
//! input and no truncation of one may panic.

use skipper_core::fuzz_corpus::found_by_the_fuzzer;

#[test]
fn corpus_replays() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus/ros2_cdr");
    let mut seeds = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let Some((&k, sample)) = bytes.split_first() else {
            continue;
        };
        let k = usize::from(k);
        let decoded = skipper_ros2::cdr::decode_received(k, sample);
        let name = path.file_name().unwrap().to_string_lossy();
        if !found_by_the_fuzzer(&path) {
            assert!(
                decoded.is_ok(),
                "seed {name} for {} decodes",
                skipper_ros2::cdr::RECEIVED[k % skipper_ros2::cdr::RECEIVED.len()]
            );
            seeds += 1;
        }
        for cut in 0..sample.len() {
            let _ = skipper_ros2::cdr::decode_received(k, &sample[..cut]);
        }
    }
    assert!(seeds >= skipper_ros2::cdr::RECEIVED.len(), "{seeds} seeds");
}
