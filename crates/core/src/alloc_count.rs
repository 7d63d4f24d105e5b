//! A counting global allocator for zero-allocation tests: a test installs it and asks how
//! many heap allocations (and reallocations) a piece of code made on the test's own thread.
//! Only the measuring thread counts, and each thread counts for itself, so the test
//! harness's other threads (and other tests measuring at the same time) cannot change the
//! count.
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: skipper_core::alloc_count::CountingAllocator =
//!     skipper_core::alloc_count::CountingAllocator;
//!
//! let ((), n) = skipper_core::alloc_count::allocations_in(|| step(&mut world));
//! assert_eq!(n, 0);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the allocations of threads that measure.
pub struct CountingAllocator;

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: a thread being torn down has no thread-locals left, and counts nothing
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: every call is passed on to the system allocator unchanged; counting touches
// only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(l) }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(p, l, n) }
    }
}

/// Run `f` and count the heap allocations and reallocations this thread made meanwhile
/// (with [`CountingAllocator`] installed as the global allocator; without it, 0).
pub fn allocations_in<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = COUNT.with(Cell::get);
    let was = MEASURING.with(|m| m.replace(true));
    let r = f();
    MEASURING.with(|m| m.set(was));
    (r, COUNT.with(Cell::get) - before)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[global_allocator]
    static GLOBAL: CountingAllocator = CountingAllocator;

    #[test]
    fn counts_this_threads_allocations_only() {
        let (v, n) = allocations_in(|| std::hint::black_box(vec![1u8; 100]));
        assert_eq!((v.len(), n), (100, 1));
        let (_, n) = allocations_in(|| {
            let mut s = String::with_capacity(1);
            s.push_str("grows past its capacity");
            std::hint::black_box(s)
        });
        assert_eq!(n, 2, "an allocation and a reallocation");
        let (_, n) = allocations_in(|| {
            std::thread::scope(|t| {
                t.spawn(|| std::hint::black_box(vec![0u64; 1000]));
            })
        });
        // spawning allocates on this thread; what the other thread does is not counted
        let (_, spawn_only) = allocations_in(|| {
            std::thread::scope(|t| {
                t.spawn(|| ());
            })
        });
        assert_eq!(n, spawn_only);
        let ((), n) = allocations_in(|| {});
        assert_eq!(n, 0);
    }
}
