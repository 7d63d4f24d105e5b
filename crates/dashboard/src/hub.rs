//! The hub: hands each frame to every connected browser through a small bounded queue
//! per browser, without ever waiting.
//!
//! The run's thread calls [`Hub::publish`]; a browser's queue that is full (the browser
//! reads slower than frames come, or not at all) loses that frame, which is counted, and
//! a queue whose browser went away is dropped. Nothing here blocks the run.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Frames each browser may have waiting before newer ones are dropped for it.
pub const QUEUE_LEN: usize = 4;

/// A frame, serialized once and shared by every browser.
pub type Frame = Arc<str>;

/// Counters of what the hub did.
#[derive(Debug, Default)]
pub struct HubStats {
    /// Frames published.
    pub published: AtomicU64,
    /// Frames queued for a browser (one per browser per frame).
    pub queued: AtomicU64,
    /// Frames dropped because a browser's queue was full.
    pub dropped: AtomicU64,
    /// Browsers that went away.
    pub disconnected: AtomicU64,
}

/// The set of connected browsers.
#[derive(Debug, Default)]
pub struct Hub {
    clients: Mutex<Vec<mpsc::Sender<Frame>>>,
    /// What happened so far.
    pub stats: HubStats,
}

impl Hub {
    /// A new hub, shared.
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// A new browser: the receiving end of its queue.
    pub fn subscribe(&self) -> mpsc::Receiver<Frame> {
        let (tx, rx) = mpsc::channel(QUEUE_LEN);
        if let Ok(mut c) = self.clients.lock() {
            c.push(tx);
        }
        rx
    }

    /// How many browsers are connected.
    pub fn clients(&self) -> usize {
        self.clients.lock().map_or(0, |c| c.len())
    }

    /// Hand a frame to every browser that has room for it; never waits.
    pub fn publish(&self, frame: Frame) {
        self.stats.published.fetch_add(1, Ordering::Relaxed);
        let Ok(mut clients) = self.clients.lock() else {
            return;
        };
        clients.retain(|tx| match tx.try_send(frame.clone()) {
            Ok(()) => {
                self.stats.queued.fetch_add(1, Ordering::Relaxed);
                true
            }
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.stats.dropped.fetch_add(1, Ordering::Relaxed);
                true
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                self.stats.disconnected.fetch_add(1, Ordering::Relaxed);
                false
            }
        });
    }

    /// A snapshot of the counters: (published, queued, dropped, disconnected).
    pub fn counts(&self) -> (u64, u64, u64, u64) {
        let s = &self.stats;
        (
            s.published.load(Ordering::Relaxed),
            s.queued.load(Ordering::Relaxed),
            s.dropped.load(Ordering::Relaxed),
            s.disconnected.load(Ordering::Relaxed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_drops_and_a_closed_one_goes() {
        let hub = Hub::new();
        let mut reader = hub.subscribe();
        let _stuck = hub.subscribe();
        let gone = hub.subscribe();
        drop(gone);
        for k in 0..10 {
            hub.publish(Arc::from(format!("{k}")));
            // the reader keeps up
            assert_eq!(
                reader.try_recv().ok().as_deref(),
                Some(format!("{k}").as_str())
            );
        }
        let (published, queued, dropped, disconnected) = hub.counts();
        assert_eq!(published, 10);
        assert_eq!(disconnected, 1);
        assert_eq!(hub.clients(), 2);
        // the stuck one took QUEUE_LEN frames and lost the rest
        assert_eq!(dropped, 10 - QUEUE_LEN as u64);
        assert_eq!(queued, 10 + QUEUE_LEN as u64);
    }
}
