//! A steady-state simulator step allocates nothing: physics, sensing, and writing signals.

use skipper_core::alloc_count::allocations_in;
use skipper_core::{Actuation, Drive, Events, Signals, World};
use skipper_sim::{parse_world, GroundWorld};
use std::time::Duration;

#[global_allocator]
static GLOBAL: skipper_core::alloc_count::CountingAllocator =
    skipper_core::alloc_count::CountingAllocator;

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
    let ((), allocs) = allocations_in(|| {
        for _ in 0..100 {
            step(&mut w, &mut signals, &mut events, &mut now, false);
        }
    });
    assert!(
        events.is_empty(),
        "no collisions in this run: {:?}",
        events.as_slice()
    );
    assert_eq!(allocs, 0, "heap allocations in 100 steady-state steps");
    // the counter does count this thread's allocations
    let ((), probe) = allocations_in(|| drop(std::hint::black_box(vec![0u8; 64])));
    assert!(probe > 0, "the counter counts");
    // and the robots did move
    assert!(signals[0].get_named("truth.x").unwrap().as_f64().unwrap() > 1.0);
}
