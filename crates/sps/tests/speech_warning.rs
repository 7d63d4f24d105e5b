//! The speech queue's warning, alone in its own test binary.
//!
//! `tracing` caches, per call site and for the whole process, whether any subscriber
//! wants it. When another test thread reaches the warning's call site first, without a
//! subscriber, while this test installs its own, the site can be cached as unwanted and
//! the warning never reaches this test's subscriber. Here no other thread reaches it.

use skipper_sps::speech::{Speaker, QUEUE};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A fake espeak-ng that waits until `gate` exists, so the queue fills up.
fn waiting_espeak(dir: &std::path::Path, gate: &std::path::Path) -> std::path::PathBuf {
    let p = dir.join("espeak-ng");
    let body = format!("while [ ! -e {} ]; do sleep 0.01; done", gate.display());
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

#[test]
fn a_full_queue_warns_once_not_once_per_utterance() {
    let dir = tempfile::tempdir().unwrap();
    let gate = dir.path().join("go");
    let program = waiting_espeak(dir.path(), &gate);
    let out = Captured::default();
    let w = out.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_ansi(false)
        .with_writer(move || w.clone())
        .finish();
    let st = tracing::subscriber::with_default(subscriber, || {
        let mut s = Speaker::with_program(program.as_os_str());
        for k in 0..(QUEUE + 20) {
            s.say("robot1", &format!("utterance {k}"));
        }
        std::fs::write(&gate, "").unwrap();
        s.finish()
    });
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(st.dropped >= 19, "{st:?}");
    assert_eq!(
        text.matches("speech queue full").count(),
        1,
        "{} drops: {text}",
        st.dropped
    );
}
