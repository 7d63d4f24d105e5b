//! Driving: straight lines under the acceleration limit, turning in place, odometry.

mod common;
use common::*;
use skipper_core::{Drive, Rotation, Translation};

const ROOM: &str = "box 0 0 40 40\nrobot r 0 0 0\n";

#[test]
fn straight_at_half_a_metre_per_second_for_ten_seconds() {
    let mut b = Bench::new(world(ROOM));
    b.act_then_wait(drive(Drive::velocity(0.5, 0.0)), 100);
    // 0.5 m/s reached after 0.5/0.3 s of acceleration at 0.3 m/s²: 5 m less the ramp's lag
    let expected = 0.5 * 10.0 - 0.5 * 0.5 / (2.0 * 0.3);
    let x = b.f("truth.x");
    assert!(
        (x - expected).abs() < 0.02,
        "travelled {x}, expected {expected}"
    );
    assert!(b.f("truth.y").abs() < 1e-9);
    assert!(
        (b.f("pose.x") - x).abs() < 1e-9,
        "noise-free odometry is exact"
    );
    assert!((b.f("velocity.linear") - 0.5).abs() < 1e-12);
    // encoders: 128 ticks per mm on each wheel
    assert!((b.i("encoder.left") as f64 - x * 1000.0 * 128.0).abs() < 200.0);
}

#[test]
fn odometry_with_noise_stays_within_tolerance_and_is_seeded() {
    let text = format!("set odometry_noise 0.02\n{ROOM}");
    let run = |seed| {
        let spec = skipper_sim::parse_world(&text, "t.world", None).unwrap();
        let mut b = Bench::new(skipper_sim::GroundWorld::new(&spec, seed).unwrap());
        b.act_then_wait(drive(Drive::velocity(0.5, 0.0)), 100);
        (b.f("pose.x"), b.f("pose.y"), b.f("truth.x"))
    };
    let (ox, oy, tx) = run(1);
    assert!((ox - tx).abs() < 0.05 * tx, "odometry {ox} vs truth {tx}");
    assert!(oy.abs() < 0.5);
    assert_ne!((ox, oy), (tx, 0.0), "noise must show");
    assert_eq!(run(1), run(1), "same seed, same run");
    assert_ne!(run(1).0, run(2).0, "different seed, different noise");
}

#[test]
fn turns_in_place_to_a_heading() {
    let mut b = Bench::new(world(ROOM));
    b.act_then_wait(drive(Drive::heading(90f64.to_radians(), 0.0)), 60);
    let yaw = b.f("truth.yaw").to_degrees();
    assert!((yaw - 90.0).abs() < 0.5, "yaw {yaw}");
    assert!(
        b.f("truth.x").abs() < 1e-9 && b.f("truth.y").abs() < 1e-9,
        "turned in place"
    );
    assert!(b.f("velocity.angular").abs() < 0.01);
    // the compass measures clockwise from north (+y): facing +y is 0
    assert!(b.f("compass.heading").min(360.0 - b.f("compass.heading")) < 0.5);
}

#[test]
fn turning_at_a_rate_sweeps_the_expected_angle() {
    let mut b = Bench::new(world(ROOM));
    let w = 45f64.to_radians();
    b.act_then_wait(drive(Drive::velocity(0.0, w)), 20);
    // 45°/s reached after 0.45 s at 100°/s²; 2 s in all
    let expected = 45.0 * 2.0 - 45.0 * 45.0 / (2.0 * 100.0);
    let yaw = b.f("truth.yaw").to_degrees();
    assert!(
        (yaw - expected).abs() < 0.5,
        "yaw {yaw} expected {expected}"
    );
}

#[test]
fn relative_move_stops_at_the_distance() {
    let mut b = Bench::new(world(ROOM));
    let a = drive(Drive::Channels {
        translation: Some(Translation::Move(1.0)),
        rotation: Some(Rotation::Velocity(0.0)),
    });
    b.act_then_wait(a, 80);
    assert!((b.f("truth.x") - 1.0).abs() < 0.01, "{}", b.f("truth.x"));
    assert_eq!(b.f("velocity.linear"), 0.0);
}

#[test]
fn stop_decelerates_and_estop_is_immediate() {
    let mut b = Bench::new(world(ROOM));
    b.act_then_wait(drive(Drive::velocity(0.6, 0.0)), 30);
    b.cycle(&drive(Drive::Stop));
    assert!(b.f("velocity.linear") > 0.4, "stop is graceful");
    b.act_then_wait(drive(Drive::velocity(0.6, 0.0)), 30);
    b.cycle(&drive(Drive::Estop));
    assert_eq!(b.f("velocity.linear"), 0.0);
    assert!(b.b("estop"));
    let x = b.f("truth.x");
    b.act_then_wait(Default::default(), 10);
    assert_eq!(b.f("truth.x"), x, "estop holds");
}

#[test]
fn motors_disabled_do_not_move() {
    let mut b = Bench::new(world(ROOM));
    let mut a = drive(Drive::velocity(0.5, 0.0));
    a.motors_enabled = Some(false);
    b.act_then_wait(a, 20);
    assert_eq!(b.f("truth.x"), 0.0);
    assert!(!b.b("motors.enabled"));
}

#[test]
fn a_splinter_tops_out_at_half_a_metre_per_second_and_stops_short() {
    // the same command on both models: ask for 1 m/s for 5 s, then stop
    let run = |model: &str| {
        let text = format!("box 0 0 40 40\nrobot r 0 0 0 model={model}\n");
        let mut b = Bench::new(world(&text));
        b.act_then_wait(drive(Drive::velocity(1.0, 0.0)), 50);
        let top = b.f("velocity.linear");
        let at_stop = b.f("truth.x");
        b.act_then_wait(drive(Drive::velocity(0.0, 0.0)), 50);
        (top, b.f("truth.x") - at_stop)
    };
    let (p3dx_top, p3dx_brake) = run("p3dx");
    let (splinter_top, splinter_brake) = run("splinter");
    assert!((p3dx_top - 1.0).abs() < 1e-9, "p3dx {p3dx_top}");
    assert!((splinter_top - 0.5).abs() < 1e-9, "splinter {splinter_top}");
    // braking distance v²/2a: 1/(2·0.3) = 1.67 m for the Pioneer, 0.25/(2·2.1) = 6 cm
    assert!((p3dx_brake - 1.0 / 0.6).abs() < 0.11, "p3dx {p3dx_brake}");
    assert!(splinter_brake < 0.1, "splinter {splinter_brake}");
}

#[test]
fn a_splinter_turns_at_most_180_degrees_a_second() {
    let mut b = Bench::new(world("box 0 0 40 40\nrobot r 0 0 0 model=splinter\n"));
    b.act_then_wait(drive(Drive::velocity(0.0, 300f64.to_radians())), 10);
    assert!((b.f("velocity.angular").to_degrees() - 180.0).abs() < 1e-9);
}

#[test]
fn an_unknown_model_is_an_error_that_lists_splinter() {
    let e = skipper_sim::parse_world("robot r 0 0 0 model=roomba\n", "t.world", None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("unknown model `roomba`") && e.contains("splinter"),
        "{e}"
    );
}
