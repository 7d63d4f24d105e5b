//! Replays the fuzz target's corpus (`fuzz/corpus/p2os_stream/`) as a regular test.

use std::path::Path;

#[test]
fn the_fuzz_corpus_replays_without_panicking() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/p2os_stream");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the corpus folder exists") {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        skipper_p2os::fuzzing::fuzz_stream(&data);
        n += 1;
    }
    assert!(n >= 5, "the corpus has its seeds ({n} found)");
}
