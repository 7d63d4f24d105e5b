//! The corpus of the `work_site` fuzz target (fuzz/corpus/work_site: `workSite.cfg`
//! files, good and hostile) replayed as a regular test: each is parsed, turned into a
//! worksite and an AUV world, and advanced, or refused; never a panic.

use std::path::Path;

#[test]
fn corpus_replays_without_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/work_site");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        skipper::fuzzing::work_site(&std::fs::read(entry.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(n >= 5, "only {n} inputs in {}", dir.display());
}
