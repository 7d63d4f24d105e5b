//! The executive and the simulated AUV allocate nothing per cycle: the whole spec mission
//! (yo-yos, waypoints, surfacings, GPS fixes, comms, every state transition) runs after a
//! short warm-up without touching the heap.

use skipper::controllers::mission;
use skipper_core::alloc_count::allocations_in;
use skipper_core::{Actuation, Events, Signals, World};
use skipper_mission::{Executive, MissionStatus};
use std::path::Path;
use std::time::Duration;

#[global_allocator]
static GLOBAL: skipper_core::alloc_count::CountingAllocator =
    skipper_core::alloc_count::CountingAllocator;

#[test]
fn the_spec_mission_runs_without_heap_allocation() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/missions/test_mission.lua");
    let m = mission::load(&path).unwrap();
    let mut world = mission::world(&m, None, 0).unwrap();
    let mut exec = Executive::new(m);
    let mut signals = Signals::new();
    let mut events = Events::new();
    let mut act = Actuation::default();
    let dt = Duration::from_millis(200);
    let mut now = Duration::ZERO;
    let mut cycles = 0u64;
    let mut step = |world: &mut skipper_sim::AuvWorld, now: &mut Duration| {
        signals.begin_cycle();
        let v = world.vehicle_mut(0).unwrap();
        v.sense(*now, &mut signals, &mut events);
        act.auv = Some(exec.tick(*now, &signals));
        let v = world.vehicle_mut(0).unwrap();
        v.act(*now, &act, &mut events);
        world.advance(*now, dt, &mut events);
        *now += dt;
        (exec.status(), exec.counters().transitions)
    };
    for _ in 0..10 {
        step(&mut world, &mut now);
    }
    let (_, t0) = step(&mut world, &mut now);
    let mut status = MissionStatus::Running;
    let mut transitions = t0;
    let ((), allocs) = allocations_in(|| {
        while status == MissionStatus::Running && cycles < 200_000 {
            (status, transitions) = step(&mut world, &mut now);
            cycles += 1;
        }
    });
    assert_eq!(status, MissionStatus::Completed);
    assert!(
        transitions > t0 + 50,
        "state changes happened: {t0} -> {transitions}"
    );
    assert!(world.auv().counts().0 >= 1, "GPS fixes happened");
    assert_eq!(allocs, 0, "heap allocations in {cycles} cycles");
}
