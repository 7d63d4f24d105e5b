//! A steady-state link cycle allocates nothing: reading the pose, checking the running
//! command, updating 10 waypoints, 5 ranges and 10 messages, taking the diff and
//! encoding it as a JSON line.

mod common;
use common::*;
use skipper_link::wire::encode_input;
use skipper_link::PostOffice;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // only this test's thread counts (the test harness's own thread may allocate)
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn steady_state_cycles_do_not_allocate() {
    let post = PostOffice::new();
    let mut rig = Rig::with_post("robot1", &post);
    let mut cmds = vec![];
    for k in 0..10 {
        cmds.push(rig.cmd(
            "add-waypoint",
            &[("id", i(k)), ("x", f(k as f64)), ("y", f(1.0))],
        ));
    }
    for k in 0..10 {
        post.tell("robot1", None, &format!("message number {k}"))
            .unwrap();
    }
    let h = rig.cmd("set-heading", &[("yaw", f(170.0))]);
    cmds.push(h);
    rig.run(cmds);
    assert_eq!(rig.link.waypoints().len(), 10);
    assert_eq!(rig.link.messages().len(), 10);
    let mut line = Vec::with_capacity(1 << 16);
    // warm up
    for k in 0..5 {
        rig.pose = (0.01 * k as f64, 0.0, k as f64);
        rig.run(vec![]);
        encode_input(&mut line, rig.cycle, &rig.update.statuses, &rig.update.diff);
    }
    COUNTING.with(|c| c.set(true));
    let before = ALLOCS.load(Ordering::SeqCst);
    for k in 5..105 {
        rig.pose = (0.01 * k as f64, 0.002 * k as f64, k as f64 * 0.5);
        rig.laser[k % 180] = 1.0 + (k % 7) as f64;
        rig.run(vec![]);
        encode_input(&mut line, rig.cycle, &rig.update.statuses, &rig.update.diff);
    }
    let allocs = ALLOCS.load(Ordering::SeqCst) - before;
    COUNTING.with(|c| c.set(false));
    assert_eq!(allocs, 0, "heap allocations in 100 steady-state cycles");
    // and the cycles did something: poses, waypoint bearings and ranges changed
    assert!(
        rig.update.diff.updates.len() > 40,
        "{}",
        rig.update.diff.updates.len()
    );
    assert!(line.len() > 1000);
    assert!(rig.link.running().is_some(), "set-heading still running");
}
