//! Driving into walls and robots: the robot stops, wheels stall, bumpers close.

mod common;
use common::*;
use skipper_core::Drive;

#[test]
fn driving_into_a_wall_stops_and_sets_stall_and_bumper_bits() {
    // wall at x = 2 across the robot's path
    let mut b = Bench::new(world("box 0 0 20 20\nwall 2 -3 2 3\nrobot r 0 0 0\n"));
    b.act_then_wait(drive(Drive::velocity(0.5, 0.0)), 80);
    let x = b.f("truth.x");
    assert!(
        x < 2.0 - 0.25 + 1e-6 && x > 2.0 - 0.25 - 0.01,
        "stopped at the wall: x = {x}"
    );
    assert!(b.b("stall.left") && b.b("stall.right"));
    // straight ahead is the middle of the five front segments
    assert_eq!(b.i("bumper.front"), 0b00100);
    assert_eq!(b.i("bumper.rear"), 0);
    assert_eq!(b.f("velocity.linear"), 0.0);
    let collisions: Vec<_> = b
        .events
        .as_slice()
        .iter()
        .filter(|e| e.kind == "collision")
        .collect();
    assert!(
        collisions.is_empty(),
        "the collision was reported when it happened, not every cycle"
    );
    use skipper_core::Vehicle;
    assert_eq!(b.world.robots()[0].collisions(), 1);
    // backing off frees the wheels and the bumper
    b.act_then_wait(drive(Drive::velocity(-0.3, 0.0)), 10);
    assert!(!b.b("stall.left"));
    assert_eq!(b.i("bumper.front"), 0);
    assert!(b.f("truth.x") < x);
}

#[test]
fn backing_into_a_wall_uses_the_rear_bumper() {
    let mut b = Bench::new(world("box 0 0 20 20\nwall -1 -3 -1 3\nrobot r 0 0 0\n"));
    b.act_then_wait(drive(Drive::velocity(-0.4, 0.0)), 40);
    assert!(b.b("stall.left"));
    assert_eq!(b.i("bumper.front"), 0);
    assert_eq!(b.i("bumper.rear"), 0b00100);
}

#[test]
fn a_collision_event_names_what_was_hit() {
    let mut b = Bench::new(world("box 0 0 20 20\nrobot r 0 0 0\nrobot other 1.5 0 0\n"));
    let mut seen = None;
    b.cycle(&drive(Drive::velocity(0.5, 0.0)));
    for _ in 0..60 {
        if let Some(e) = b.events.as_slice().iter().find(|e| e.kind == "collision") {
            seen = Some(e.data["with"].as_str().unwrap().to_string());
        }
        b.cycle(&Default::default());
    }
    assert_eq!(seen.as_deref(), Some("robot:other"));
    let gap = b.world.robots()[1].true_pose().x - b.world.robots()[0].true_pose().x;
    assert!(
        (0.5 - 1e-6..0.51).contains(&gap),
        "robots touch but do not overlap: {gap}"
    );
}

#[test]
fn turning_against_a_wall_is_allowed() {
    let mut b = Bench::new(world("box 0 0 20 20\nwall 2 -3 2 3\nrobot r 0 0 0\n"));
    b.act_then_wait(drive(Drive::velocity(0.5, 0.0)), 60);
    b.act_then_wait(drive(Drive::heading(180f64.to_radians(), 0.0)), 60);
    let yaw = b.f("truth.yaw").to_degrees();
    assert!(
        (yaw.abs() - 180.0).abs() < 0.5,
        "yaw {yaw} x {}",
        b.f("truth.x")
    );
    b.act_then_wait(drive(Drive::velocity(0.5, 0.0)), 20);
    assert!(b.f("truth.x") < 1.5, "drives away after turning");
}
