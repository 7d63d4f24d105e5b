//! The gripper grasps a ball placed between its paddles, and the state byte follows the
//! P2OS manual's Table 10 bit for bit.

mod common;
use common::*;
use skipper_core::{Actuation, Drive, GripperCommand};

const GRIP_LIMIT: i64 = 1 << 0;
const LIFT_LIMIT: i64 = 1 << 1;
const OUTER_BEAM: i64 = 1 << 2;
const INNER_BEAM: i64 = 1 << 3;
const LEFT_PADDLE: i64 = 1 << 4;
const RIGHT_PADDLE: i64 = 1 << 5;
const LIFT_MOVING: i64 = 1 << 6;
const GRIP_MOVING: i64 = 1 << 7;

fn grip(c: GripperCommand) -> Actuation {
    Actuation {
        gripper: Some(c),
        ..Default::default()
    }
}

#[test]
fn grasps_lifts_carries_and_releases_a_ball() {
    // a ball between the paddles, across the inner beam (x = 0.26) and not the outer (0.34)
    let mut b = Bench::new(world("box 0 0 20 20\nrobot r 0 0 0\nball 0.26 0\n"));
    let s = b.i("gripper.state");
    // open (bit 0 = 0), lift down (bit 1 = 0), outer clear (1), inner obstructed (0),
    // paddles not grasping (1, 1), nothing moving (0, 0)
    assert_eq!(s, OUTER_BEAM | LEFT_PADDLE | RIGHT_PADDLE, "{s:#010b}");

    b.cycle(&grip(GripperCommand::Close));
    let s = b.i("gripper.state");
    assert_eq!(s & GRIP_MOVING, GRIP_MOVING, "paddles moving: {s:#010b}");
    assert_eq!(s & GRIP_LIMIT, GRIP_LIMIT, "no longer fully open");
    for _ in 0..30 {
        b.cycle(&Actuation::default());
    }
    let s = b.i("gripper.state");
    assert_eq!(
        s & (LEFT_PADDLE | RIGHT_PADDLE),
        0,
        "both paddles grasping: {s:#010b}"
    );
    assert_eq!(s & GRIP_MOVING, 0, "stopped on the ball");
    assert_eq!(s & GRIP_LIMIT, GRIP_LIMIT);
    assert_eq!(s & INNER_BEAM, 0, "the ball still breaks the inner beam");
    assert!(b.b("gripper.holding"));
    let paddles = b.f("gripper.paddles");
    assert!(
        paddles > 0.5 && paddles < 0.7,
        "stopped at the ball's width: {paddles}"
    );

    b.cycle(&grip(GripperCommand::LiftUp));
    let s = b.i("gripper.state");
    assert_eq!(
        s & (LIFT_MOVING | LIFT_LIMIT),
        LIFT_MOVING | LIFT_LIMIT,
        "lift moving, between limits: {s:#010b}"
    );
    for _ in 0..35 {
        b.cycle(&Actuation::default());
    }
    let s = b.i("gripper.state");
    assert_eq!(
        s & (LIFT_MOVING | LIFT_LIMIT),
        0,
        "lift up at its limit: {s:#010b}"
    );
    assert_eq!(s & INNER_BEAM, 0, "the held ball rides with the beams");

    // carry it 1 m
    b.act_then_wait(drive(Drive::velocity(0.4, 0.0)), 40);
    let ball = &b.world.objects()[0];
    assert!(
        (ball.pos.x - (b.f("truth.x") + 0.26)).abs() < 1e-9,
        "carried: ball at {:?}",
        ball.pos
    );
    assert!(ball.z > 0.09);
    b.act_then_wait(drive(Drive::Stop), 20);

    b.act_then_wait(grip(GripperCommand::Deploy), 60);
    let s = b.i("gripper.state");
    assert!(!b.b("gripper.holding"));
    assert_eq!(
        s & (LEFT_PADDLE | RIGHT_PADDLE),
        LEFT_PADDLE | RIGHT_PADDLE,
        "released: {s:#010b}"
    );
    assert_eq!(s & GRIP_LIMIT, 0, "fully open again");
    assert_eq!(b.world.objects()[0].z, 0.0);
}

#[test]
fn driving_onto_a_ball_breaks_the_outer_then_the_inner_beam() {
    let mut b = Bench::new(world("box 0 0 20 20\nrobot r 0 0 0\nball 0.7 0\n"));
    assert_eq!(
        b.i("gripper.state") & (OUTER_BEAM | INNER_BEAM),
        OUTER_BEAM | INNER_BEAM
    );
    b.cycle(&drive(Drive::velocity(0.15, 0.0)));
    let mut outer_first = None;
    for _ in 0..60 {
        let s = b.i("gripper.state");
        if s & OUTER_BEAM == 0 && outer_first.is_none() {
            outer_first = Some(s & INNER_BEAM != 0);
        }
        if s & INNER_BEAM == 0 {
            break;
        }
        b.cycle(&Actuation::default());
    }
    assert_eq!(
        outer_first,
        Some(true),
        "the outer beam breaks before the inner one"
    );
    assert_eq!(b.i("gripper.state") & INNER_BEAM, 0);
}

#[test]
fn store_closes_then_lifts() {
    let mut b = Bench::new(world("box 0 0 20 20\nrobot r 0 0 0\n"));
    b.act_then_wait(grip(GripperCommand::Store), 60);
    assert_eq!(b.f("gripper.paddles"), 1.0);
    assert_eq!(b.f("gripper.lift"), 1.0);
    assert_eq!(
        b.i("gripper.state") & (GRIP_LIMIT | LIFT_LIMIT | LIFT_MOVING | GRIP_MOVING),
        GRIP_LIMIT
    );
}

#[test]
fn a_robot_pushes_a_ball_it_drives_into() {
    let mut b = Bench::new(world(
        "box 0 0 20 20\nrobot r 0 0 0 gripper=no\nball 1 0.05\n",
    ));
    b.act_then_wait(drive(Drive::velocity(0.5, 0.0)), 40);
    let ball = &b.world.objects()[0];
    assert!(
        ball.pos.x > b.f("truth.x") + 0.2,
        "ball pushed ahead: {:?}",
        ball.pos
    );
}
