//! Watching the master: a restarted master knows nothing of the nodes that registered
//! with the one before it, so peers that start after the restart cannot find this node's
//! topics and services. rospy and roscpp leave it so; this node asks the master for its
//! pid every [`WATCH_PERIOD`], and when the master answers again after failing, or with
//! another pid, registers every publication, subscription (connecting to the publishers
//! the new master lists) and service again.

use super::subscribe::{add_publishers, uri_list};
use super::{lock, Inner};
use crate::xmlrpc::Value;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the master is asked whether it is the same one.
pub const WATCH_PERIOD: Duration = Duration::from_secs(1);

/// What the watch knows of the master.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Master {
    /// answering, with this pid
    Up(i64),
    /// it did not answer last time
    Lost,
}

pub(super) fn watch_master(inner: Arc<Inner>) {
    let mut state = pid(&inner).map_or(Master::Lost, Master::Up);
    while sleep_unless_stopped(&inner, WATCH_PERIOD) {
        let now = pid(&inner);
        match (state, now) {
            (Master::Up(before), Some(p)) if before == p => {}
            (_, Some(p)) => {
                let n = inner.register_again();
                if inner.stop.load(Ordering::SeqCst) {
                    return;
                }
                inner.stats.reregistrations.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(
                    "ROS master at {} is back (pid {p}): registered {n} topics and services again",
                    inner.master_uri
                );
                state = Master::Up(p);
            }
            (Master::Up(_), None) => {
                tracing::warn!(
                    "ROS master at {} does not answer; this node registers again when it is back",
                    inner.master_uri
                );
                state = Master::Lost;
            }
            (Master::Lost, None) => {}
        }
    }
}

fn pid(inner: &Inner) -> Option<i64> {
    inner
        .master("getPid", vec![])
        .ok()
        .and_then(|v| v.as_int())
        .map(i64::from)
}

/// Sleep `d` in short steps; false once the node stops.
fn sleep_unless_stopped(inner: &Inner, d: Duration) -> bool {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if inner.stop.load(Ordering::SeqCst) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    !inner.stop.load(Ordering::SeqCst)
}

impl Inner {
    /// Register every publication, subscription and service with the master again; how
    /// many registrations it accepted.
    fn register_again(self: &Arc<Self>) -> usize {
        let me: Value = self.xmlrpc_uri.as_str().into();
        let mut n = 0;
        let pubs: Vec<_> = lock(&self.pubs).values().cloned().collect();
        for p in pubs {
            let args = vec![p.topic.as_str().into(), p.ty.as_str().into(), me.clone()];
            n += usize::from(self.master("registerPublisher", args).is_ok());
        }
        let subs: Vec<_> = lock(&self.subs).values().cloned().collect();
        for s in subs {
            let args = vec![s.topic.as_str().into(), s.ty.as_str().into(), me.clone()];
            if let Ok(v) = self.master("registerSubscriber", args) {
                add_publishers(self, &s, &uri_list(&v));
                n += 1;
            }
        }
        let services: Vec<String> = lock(&self.services).keys().cloned().collect();
        for name in services {
            let args = vec![name.as_str().into(), self.service_uri().into(), me.clone()];
            n += usize::from(self.master("registerService", args).is_ok());
        }
        n
    }
}
