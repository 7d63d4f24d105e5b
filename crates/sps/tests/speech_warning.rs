//! The speech queue's warning, alone in its own test binary.
//!
//! `tracing` caches, per call site and for the whole process, whether any subscriber
//! wants it. When another test thread reaches the warning's call site first, without a
//! subscriber, while this test installs its own, the site can be cached as unwanted and
//! the warning never reaches this test's subscriber. Here no other thread reaches it.

mod fake_espeak;
use fake_espeak::fake_espeak;
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

#[test]
fn a_full_queue_warns_once_not_once_per_utterance() {
    let dir = tempfile::tempdir().unwrap();
    let gate = dir.path().join("go");
    let program = fake_espeak(
        dir.path(),
        &format!("while [ ! -e {} ]; do sleep 0.01; done", gate.display()),
    );
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
