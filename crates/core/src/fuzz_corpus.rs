//! The committed fuzz corpora, for the tests that replay them: which inputs the fuzzer
//! found (libFuzzer names a file by the SHA-1 of its bytes) and which are seeds named by
//! hand (tests hold seeds to what their names say; found inputs need only not panic).

use std::path::Path;

/// Whether the file at `path` was found by the fuzzer: its name is 40 hex digits.
pub fn found_by_the_fuzzer(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.len() == 40 && n.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_names_are_found_inputs_and_other_names_are_seeds() {
        let found = "fuzz/corpus/x/3fa28a6c50c5a2f02aa8cde4206f2793090901c8";
        assert!(found_by_the_fuzzer(Path::new(found)));
        for seed in [
            "fuzz/corpus/x/goto_goal",
            "fuzz/corpus/x/3fa28a6c50c5a2f02aa8cde4206f2793090901c",
            "fuzz/corpus/x/3fa28a6c50c5a2f02aa8cde4206f2793090901cz",
        ] {
            assert!(!found_by_the_fuzzer(Path::new(seed)), "{seed}");
        }
    }
}
