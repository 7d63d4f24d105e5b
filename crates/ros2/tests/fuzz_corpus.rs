//! The fuzz target's corpus (fuzz/corpus/ros2_cdr, seeds serialized by rclpy's
//! `serialize_message`) replayed as a regular test: every seed decodes as the type its
//! first byte names, and no truncation of one panics.

#[test]
fn corpus_replays() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus/ros2_cdr");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        let (&k, sample) = bytes.split_first().unwrap();
        let k = usize::from(k);
        assert!(
            skipper_ros2::cdr::decode_received(k, sample).is_ok(),
            "seed for {} decodes",
            skipper_ros2::cdr::RECEIVED[k % skipper_ros2::cdr::RECEIVED.len()]
        );
        for cut in 0..sample.len() {
            let _ = skipper_ros2::cdr::decode_received(k, &sample[..cut]);
        }
        n += 1;
    }
    assert!(n >= skipper_ros2::cdr::RECEIVED.len(), "{n} seeds");
}
