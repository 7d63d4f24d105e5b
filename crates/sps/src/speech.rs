//! Speech: what robots `say` (a Soar agent's `send-message` to `say`) is spoken aloud
//! with `espeak-ng` when it is installed, and otherwise only logged as speech (the run
//! log's `speech` events are written either way, by the vehicle).
//!
//! Speaking never holds up a cycle: [`Speaker::say`] hands the text to a speaker thread
//! through a short queue and returns; the thread runs `espeak-ng` once per utterance,
//! one after the other. When the queue is full (a robot talks faster than it can be
//! spoken, as in a simulated run far faster than real time) the text is dropped and
//! counted, with one warning for the run and the count at its end (the run log keeps
//! every `speech` event). An utterance that takes longer than [`MAX_UTTERANCE`] is cut.

use skipper_core::runner::CycleView;
use skipper_core::Observer;
use std::ffi::OsString;
use std::process::{Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The program that speaks.
pub const ESPEAK: &str = "espeak-ng";
/// Utterances waiting to be spoken before new ones are dropped.
pub const QUEUE: usize = 8;
/// The longest an utterance may take.
pub const MAX_UTTERANCE: Duration = Duration::from_secs(30);

/// What the speaker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SpeechStats {
    /// spoken by espeak-ng
    pub spoken: u64,
    /// only logged (espeak-ng is not installed, or failed)
    pub logged: u64,
    /// dropped because the queue was full
    pub dropped: u64,
}

/// Speaks off the cycle.
pub struct Speaker {
    queue: Option<SyncSender<(String, String)>>,
    thread: Option<JoinHandle<SpeechStats>>,
    dropped: u64,
}

/// The warning for the first utterance a run drops (later ones only at debug level).
const QUEUE_FULL: &str = "speech queue full: robots talk faster than it can be spoken; \
     what does not fit is not spoken aloud (the run log keeps every speech event)";

impl Speaker {
    /// A speaker using `espeak-ng` from the PATH.
    pub fn new() -> Self {
        Self::with_program(ESPEAK)
    }

    /// A speaker using `program` (called as `program -- TEXT`).
    pub fn with_program(program: impl Into<OsString>) -> Self {
        let program = program.into();
        let (tx, rx) = sync_channel::<(String, String)>(QUEUE);
        let thread = std::thread::Builder::new()
            .name("speech".into())
            .spawn(move || speak_all(&program, rx))
            .ok();
        Self {
            queue: thread.as_ref().map(|_| tx),
            thread,
            dropped: 0,
        }
    }

    /// Speak `text` for `robot`, without waiting.
    pub fn say(&mut self, robot: &str, text: &str) {
        let Some(q) = &self.queue else {
            tracing::info!(robot, "says: {text}");
            return;
        };
        match q.try_send((robot.to_string(), text.to_string())) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                self.dropped += 1;
                if self.dropped == 1 {
                    tracing::warn!(robot, "{QUEUE_FULL}; first dropped: `{text}`");
                } else {
                    tracing::debug!(robot, "speech queue full: not speaking `{text}`");
                }
            }
        }
    }

    /// Let what is queued be spoken, then stop; returns what was done.
    pub fn finish(&mut self) -> SpeechStats {
        self.queue = None;
        let mut stats = self
            .thread
            .take()
            .and_then(|t| t.join().ok())
            .unwrap_or_default();
        stats.dropped += self.dropped;
        stats
    }
}

impl Default for Speaker {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Speaker {
    fn drop(&mut self) {
        self.finish();
    }
}

fn speak_all(program: &OsString, rx: Receiver<(String, String)>) -> SpeechStats {
    let mut stats = SpeechStats::default();
    let mut installed = true;
    for (robot, text) in rx {
        if installed {
            match speak(program, &text) {
                Ok(()) => {
                    stats.spoken += 1;
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    installed = false;
                    tracing::info!(
                        "{} is not installed: speech is only logged",
                        program.to_string_lossy()
                    );
                }
                Err(e) => tracing::warn!("{}: {e}", program.to_string_lossy()),
            }
        }
        tracing::info!(robot = %robot, "says: {text}");
        stats.logged += 1;
    }
    stats
}

fn speak(program: &OsString, text: &str) -> std::io::Result<()> {
    let mut child = Command::new(program)
        .arg("--")
        .arg(text)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return if status.success() {
                Ok(())
            } else {
                Err(std::io::Error::other(format!("exited with {status}")))
            };
        }
        if start.elapsed() > MAX_UTTERANCE {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("took too long; cut"));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Speaks what each robot says, as a run observer.
pub struct SpeechObserver {
    speaker: Speaker,
}

impl SpeechObserver {
    /// An observer speaking through `speaker`.
    pub fn new(speaker: Speaker) -> Self {
        Self { speaker }
    }
}

impl Observer for SpeechObserver {
    fn on_cycle(&mut self, view: &CycleView<'_>) {
        for (i, a) in view.actuation.iter().enumerate() {
            for text in &a.say {
                let name = view.world.vehicle(i).map(|v| v.info().name.as_str());
                self.speaker.say(name.unwrap_or("robot"), text);
            }
        }
    }

    fn on_end(&mut self, _world: &dyn skipper_core::World, _report: &skipper_core::RunReport) {
        let s = self.speaker.finish();
        let total = s.spoken + s.logged + s.dropped;
        if s.dropped > 0 {
            tracing::warn!(
                spoken = s.spoken,
                logged = s.logged,
                dropped = s.dropped,
                "speech: {} of {total} utterances were not spoken aloud (the queue was full); all are in the run log",
                s.dropped
            );
        } else if total > 0 {
            tracing::info!(
                spoken = s.spoken,
                logged = s.logged,
                dropped = s.dropped,
                "speech"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_espeak_the_text_is_logged() {
        let mut s = Speaker::with_program("/nonexistent/skipper-test/espeak-ng");
        s.say("robot1", "hello world");
        s.say("robot1", "again");
        let st = s.finish();
        assert_eq!(
            st,
            SpeechStats {
                spoken: 0,
                logged: 2,
                dropped: 0
            }
        );
    }
}
