//! A steady-state simulator step allocates nothing: physics, sensing, and writing signals.

use skipper_core::{Actuation, Drive, Events, Signals, World};
use skipper_sim::{parse_world, GroundWorld};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Counts the allocations of threads that asked to be counted (the test's own thread), so
/// that the harness's other threads cannot make the count flaky.
struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn count() {
    if COUNTED.try_with(|c| c.get()).unwrap_or(false) {
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
fn steady_state_steps_do_not_allocate() {
    let text = "set odometry_noise 0.01\nset sonar_noise 0.01\nset laser_noise 0.01\nbox 0 0 30 30\nwall 3 -5 3 5\n\
                robot a 0 0 0\nrobot b 0 2 90\nrobot c -3 -3 45\nball 1 3\ncan -2 2\nlandmark post 5 5\n";
    let spec = parse_world(text, "t.world", None).unwrap();
    let mut w = GroundWorld::new(&spec, 7).unwrap();
    let n = w.len();
    let mut signals = vec![Signals::new(); n];
    let mut events = Events::new();
    let dt = Duration::from_millis(100);
    let mut now = Duration::ZERO;
    let cmds = [
        Drive::velocity(0.3, 0.1),
        Drive::velocity(0.2, -0.2),
        Drive::heading(1.0, 0.1),
    ];
    let step = |w: &mut GroundWorld,
                signals: &mut [Signals],
                events: &mut Events,
                now: &mut Duration,
                act: bool| {
        for i in 0..n {
            signals[i].begin_cycle();
            let v = w.vehicle_mut(i).unwrap();
            v.sense(*now, &mut signals[i], events);
            if act {
                let a = Actuation {
                    drive: Some(cmds[i]),
                    ..Default::default()
                };
                v.act(*now, &a, events);
            }
        }
        w.advance(*now, dt, events);
        *now += dt;
    };
    // warm up: signals are declared on the first sense, indexes sized on the first steps
    for _ in 0..5 {
        step(&mut w, &mut signals, &mut events, &mut now, true);
    }
    COUNTED.with(|c| c.set(true));
    let before = ALLOCS.load(Ordering::SeqCst);
    for _ in 0..100 {
        step(&mut w, &mut signals, &mut events, &mut now, false);
    }
    let allocs = ALLOCS.load(Ordering::SeqCst) - before;
    COUNTED.with(|c| c.set(false));
    assert!(
        events.is_empty(),
        "no collisions in this run: {:?}",
        events.as_slice()
    );
    assert_eq!(allocs, 0, "heap allocations in 100 steady-state steps");
    // the counter does count this thread's allocations
    COUNTED.with(|c| c.set(true));
    let probe = ALLOCS.load(Ordering::SeqCst);
    drop(std::hint::black_box(vec![0u8; 64]));
    assert!(ALLOCS.load(Ordering::SeqCst) > probe, "the counter counts");
    COUNTED.with(|c| c.set(false));
    // and the robots did move
    assert!(signals[0].get_named("truth.x").unwrap().as_f64().unwrap() > 1.0);
}
