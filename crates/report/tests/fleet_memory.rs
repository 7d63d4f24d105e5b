//! The report digests a fleet's long run log in bounded memory: a log of many robots,
//! written by the run log's writer, is read with a counting allocator in this test
//! binary, and the digest's peak heap stays under a bound that is a fraction of what
//! keeping every sample of the log takes.

mod common;

use skipper_report::Digest;
use skipper_runlog::Recording;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the bytes allocated now and the most there were since [`reset_peak`].
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let now = NOW.fetch_add(l.size(), Ordering::Relaxed) + l.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller's layout is passed on unchanged
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        NOW.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: `p` was allocated by `System` with this layout
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if new >= l.size() {
            let now = NOW.fetch_add(new - l.size(), Ordering::Relaxed) + new - l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        } else {
            NOW.fetch_sub(l.size() - new, Ordering::Relaxed);
        }
        // SAFETY: as for `alloc`
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// The bytes allocated now, and the peak reset to it.
fn reset_peak() -> usize {
    let now = NOW.load(Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
    now
}

const ROBOTS: usize = 12;
/// Simulated time (s) at 10 Hz: 50 000 poses per robot, 25 times what a track keeps.
const SECONDS: u64 = 5000;
/// The digest's peak heap may grow by at most this much while it reads the log: 9.9 MB
/// measured (the reader's chunk buffers, and each robot's track and series at their
/// capacity, whatever the length of the run), with a margin. Keeping every sample takes
/// 98 MB: the test asserts at least four times the bound.
const BOUND: usize = 16 << 20;

#[test]
fn a_fleet_log_is_digested_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("fleet.mcap");
    common::fleet_log(&path, ROBOTS, SECONDS);

    let base = reset_peak();
    let d = Digest::open(&path).expect("the log reads");
    let peak = PEAK.load(Ordering::Relaxed) - base;
    let poses: u64 = d.counts.get("/pose").copied().unwrap_or(0);
    assert_eq!(d.robots.len(), ROBOTS);
    assert!(poses >= (ROBOTS as u64) * SECONDS * 10, "{poses} poses");
    assert!(
        peak <= BOUND,
        "the digest of {poses} poses peaked at {peak} bytes (bound {BOUND})"
    );

    // the reader that keeps every sample (of the signals the report reads) needs several
    // times the bound: a digest that kept them would fail
    let base = reset_peak();
    let rec = Recording::open(&path, &skipper_report::series::keep_signal).expect("it reads");
    let every = PEAK.load(Ordering::Relaxed) - base;
    assert_eq!(rec.robots.len(), ROBOTS);
    drop(rec);
    assert!(
        every >= 4 * BOUND,
        "keeping every sample peaked at {every} bytes, the bound is {BOUND}"
    );
    // and the page is made from it
    assert!(skipper_report::render(&d).contains("<figure id=\"map\">"));
}
