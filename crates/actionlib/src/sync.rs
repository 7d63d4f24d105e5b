//! A condition variable that skips the wake-up system call when nobody waits: the state
//! machines signal on every message, and most of the time no thread is waiting.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, MutexGuard};
use std::time::Duration;

/// A [`Condvar`] that counts its waiters. The waiter registers while it holds the mutex,
/// so a notifier that changed the state under the same mutex sees it.
#[derive(Debug, Default)]
pub(crate) struct Signal {
    cv: Condvar,
    waiters: AtomicUsize,
}

impl Signal {
    /// Wait at most `d` (spurious wake-ups possible, as with any condition variable).
    pub(crate) fn wait_timeout<'a, T>(
        &self,
        g: MutexGuard<'a, T>,
        d: Duration,
    ) -> MutexGuard<'a, T> {
        self.waiters.fetch_add(1, Ordering::SeqCst);
        let g = match self.cv.wait_timeout(g, d) {
            Ok((g, _)) => g,
            Err(p) => p.into_inner().0,
        };
        self.waiters.fetch_sub(1, Ordering::SeqCst);
        g
    }
    /// Wake every waiter, if there is one.
    pub(crate) fn notify_all(&self) {
        if self.waiters.load(Ordering::SeqCst) > 0 {
            self.cv.notify_all();
        }
    }
}
