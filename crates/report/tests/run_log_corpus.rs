//! The run log reader on bad input: the fuzz corpus replayed, and real logs with bytes
//! changed, cut short or padded. Every input reads or fails with an error, and whatever
//! it read makes a report; nothing panics. The streaming reader of the report and the
//! reader that keeps everything agree on what they read.

use proptest::prelude::*;
use skipper_report::Digest;
use skipper_runlog::reader::Recording;
use std::path::Path;

fn corpus() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/run_log");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("the corpus is there") {
        out.push(std::fs::read(e.unwrap().path()).unwrap());
    }
    out
}

fn read_and_report(bytes: &[u8]) -> bool {
    let kept = Recording::from_bytes(bytes, &skipper_report::series::keep_signal);
    match Digest::from_bytes(bytes) {
        Ok(d) => {
            let html = skipper_report::render(&d);
            assert!(html.contains("<figure id=\"map\">"));
            let rec = kept.expect("both readers read it");
            assert_eq!(rec.counts, d.counts);
            assert_eq!(rec.truncated, d.truncated);
            true
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert!(kept.is_err(), "both readers fail on it");
            false
        }
    }
}

#[test]
fn the_corpus_reads_or_fails_cleanly() {
    let all = corpus();
    assert!(all.len() >= 3, "the corpus holds the seeds");
    let read = all.iter().filter(|b| read_and_report(b)).count();
    // the seeds are real logs (one cut short), and all of them read
    assert!(read >= 3, "{read} of {} read", all.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn changed_bytes_never_panic(seed in 0usize..2, edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..20), cut in any::<usize>()) {
        let mut bytes = corpus().into_iter().nth(seed).unwrap();
        let n = bytes.len();
        for (at, b) in edits {
            bytes[at % n] = b;
        }
        bytes.truncate(cut % (n + 1));
        let _ = read_and_report(&bytes);
    }

    #[test]
    fn any_bytes_after_the_magic_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut bytes = skipper_runlog::mcap_file::MAGIC.to_vec();
        bytes.extend(tail);
        let _ = read_and_report(&bytes);
    }
}
