//! Decoding reserves no more memory than the bytes it is given can fill (a
//! crash fuzzing found): an element count is checked against the bytes left divided by the element's
//! smallest wire size before any capacity is reserved. A counting allocator measures the
//! largest single allocation a decode asks for.

use skipper_ros1_wire::msg::actionlib_msgs::{GoalStatus, GoalStatusArray};
use skipper_ros1_wire::msg::common::Header;
use skipper_ros1_wire::msg::Message;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The system allocator, remembering the largest request since the last reset.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);
/// one measurement at a time (the test harness runs tests on several threads)
static MEASURE: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LARGEST.fetch_max(l.size(), Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LARGEST.fetch_max(new, Ordering::Relaxed);
        System.realloc(p, l, new)
    }
}

#[global_allocator]
static A: Largest = Largest;

/// The largest allocation `f` makes.
fn largest_allocation(f: impl FnOnce()) -> usize {
    let _one = MEASURE.lock().unwrap_or_else(|p| p.into_inner());
    LARGEST.store(0, Ordering::SeqCst);
    f();
    LARGEST.load(Ordering::SeqCst)
}

/// A GoalStatusArray body whose status list claims `count` entries, followed by `n`
/// all-zero entries of 17 bytes (the smallest a GoalStatus can be).
fn status_frame(count: u32, n: usize) -> Vec<u8> {
    let mut b = Header::default().to_bytes();
    b.extend_from_slice(&count.to_le_bytes());
    b.resize(b.len() + 17 * n, 0);
    b
}

#[test]
fn a_status_list_count_of_the_bytes_left_is_refused_before_reserving() {
    let n = 60_000;
    let body = status_frame((17 * n) as u32, n);
    let largest = largest_allocation(|| {
        assert!(GoalStatusArray::decode(&body).is_err());
    });
    // on the unbounded decoder this reserved 17 * n GoalStatus (64 bytes each): 65 MB
    assert!(
        largest <= 8 * body.len(),
        "a {}-byte frame reserved {largest} bytes",
        body.len()
    );
}

#[test]
fn a_full_status_list_decodes_within_its_element_bound() {
    let n = 60_000;
    let body = status_frame(n as u32, n);
    let mut decoded = None;
    let largest = largest_allocation(|| decoded = Some(GoalStatusArray::decode(&body)));
    let a = decoded.unwrap().unwrap();
    assert_eq!(a.status_list.len(), n);
    assert_eq!(a.status_list[0], GoalStatus::default());
    // bytes left / 17 elements of size_of::<GoalStatus>() bytes each
    let bound = body.len() / 17 * std::mem::size_of::<GoalStatus>();
    assert!(largest <= bound, "{largest} > {bound}");
}
