//! A steady-state link cycle allocates nothing: reading the pose, checking the running
//! command, updating 10 waypoints, 5 ranges and 10 messages, taking the diff and
//! encoding it as a JSON line; and the same with a new `set-velocity` command (and the
//! removal of the previous one) every cycle.
//!
//! This test has its own `main` (`harness = false`): the process runs on this one
//! thread, so the counting allocator counts *every* allocation of the process, not only
//! those of a thread it chose to watch. A non-zero count fails with the number.

mod common;
use common::*;
use skipper_sps::wire::encode_input;
use skipper_sps::{Param, PostOffice, Step};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A rig with 10 waypoints, 10 received messages and a running set-heading.
fn loaded_rig() -> Rig {
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
    cmds.push(rig.cmd("set-heading", &[("yaw", f(170.0))]));
    rig.run(cmds);
    assert_eq!(rig.link.waypoints().len(), 10);
    assert_eq!(rig.link.messages().len(), 10);
    rig
}

/// Cycles with no new command: the robot moves, the laser changes.
fn steady_state_cycles_do_not_allocate() {
    let mut rig = loaded_rig();
    let mut line = Vec::with_capacity(1 << 16);
    let empty = Step::default();
    let cycle = |rig: &mut Rig, k: usize, line: &mut Vec<u8>| {
        rig.pose = (0.01 * k as f64, 0.002 * k as f64, k as f64 * 0.5);
        rig.laser[k % 180] = 1.0 + (k % 7) as f64;
        rig.run_ref(&empty);
        encode_input(line, rig.cycle, &rig.update.statuses, &rig.update.diff);
    };
    for k in 0..5 {
        cycle(&mut rig, k, &mut line); // warm up
    }
    let before = ALLOCS.load(Ordering::SeqCst);
    for k in 5..105 {
        cycle(&mut rig, k, &mut line);
    }
    let allocs = ALLOCS.load(Ordering::SeqCst) - before;
    assert_eq!(allocs, 0, "heap allocations in 100 steady-state cycles");
    // and the cycles did something: poses, waypoint bearings and ranges changed
    assert!(
        rig.update.diff.updates.len() > 40,
        "{}",
        rig.update.diff.updates.len()
    );
    assert!(line.len() > 1000);
    assert!(rig.link.running().is_some(), "set-heading still running");
    println!("steady state: 0 allocations in 100 cycles");
}

/// Cycles that each bring a new set-velocity command (and drop the previous one from
/// the output-link): the previous one is completed, the new one accepted and executing.
fn command_cycles_do_not_allocate() {
    let mut rig = loaded_rig();
    let mut line = Vec::with_capacity(1 << 16);
    let mut step = Step::default();
    step.commands.push(rig.cmd(
        "set-velocity",
        &[("linear-velocity", f(0.3)), ("angular-velocity", f(10.0))],
    ));
    step.removed.push(0);
    let cycle = |rig: &mut Rig, step: &mut Step, k: usize, line: &mut Vec<u8>| {
        let tt = 10_000 + k as i64;
        if let (Some(c), Some(r)) = (step.commands.first_mut(), step.removed.first_mut()) {
            c.tt = tt;
            *r = tt - 1;
            if let Some((_, Param::Float(v))) = c.attrs.first_mut() {
                *v = 0.1 + (k % 5) as f64 * 0.05;
            }
        }
        rig.pose = (0.01 * k as f64, 0.0, k as f64 * 0.2);
        rig.run_ref(step);
        encode_input(line, rig.cycle, &rig.update.statuses, &rig.update.diff);
    };
    for k in 0..5 {
        cycle(&mut rig, &mut step, k, &mut line); // warm up
    }
    let before = ALLOCS.load(Ordering::SeqCst);
    for k in 5..105 {
        cycle(&mut rig, &mut step, k, &mut line);
    }
    let allocs = ALLOCS.load(Ordering::SeqCst) - before;
    assert_eq!(
        allocs, 0,
        "heap allocations in 100 cycles with a command each"
    );
    let tt = 10_000 + 104;
    assert_eq!(rig.statuses(tt), ["accepted", "executing"]);
    assert_eq!(rig.statuses(tt - 1), ["complete"]);
    println!("a command per cycle: 0 allocations in 100 cycles");
}

fn main() {
    // the counter counts (so a zero below means something)
    let before = ALLOCS.load(Ordering::SeqCst);
    let v = std::hint::black_box(vec![1u8; 64]);
    assert!(ALLOCS.load(Ordering::SeqCst) > before && v.len() == 64);
    steady_state_cycles_do_not_allocate();
    command_cycles_do_not_allocate();
    println!("2 passed, 0 failed");
}
