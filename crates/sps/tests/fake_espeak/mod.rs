//! A fake `espeak-ng` for the speech tests: a shell script with the given body.

/// A fake espeak-ng, written by a `sh` child rather than by this process: while
/// this process holds a file open for writing, a sibling test thread that forks
/// hands that descriptor to its child until the child's exec, and executing the
/// file in that window fails with ETXTBSY ("Text file busy"), which made
/// `espeak_is_called_with_the_words` fail now and then in a crate-wide run.
pub fn fake_espeak(dir: &std::path::Path, body: &str) -> std::path::PathBuf {
    let p = dir.join("espeak-ng");
    let status = std::process::Command::new("/bin/sh")
        .args([
            "-c",
            "printf '#!/bin/sh\\n%s\\n' \"$1\" > \"$2\" && chmod 755 \"$2\"",
        ])
        .arg("sh")
        .arg(body)
        .arg(&p)
        .status()
        .unwrap();
    assert!(status.success());
    p
}
