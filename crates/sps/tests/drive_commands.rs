//! Rules O1–O12: which commands are seen, statuses, unknown names, bad parameters, one
//! drive command per cycle, the preemption table, latching, and each drive command.

mod common;
use common::*;
use skipper_core::{Drive, Rotation, Translation};

#[test]
fn o1_each_command_is_processed_once() {
    let mut rig = Rig::new();
    let c = rig.cmd(
        "set-velocity",
        &[("linear-velocity", f(0.3)), ("angular-velocity", f(0.0))],
    );
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "executing"]);
    rig.run(vec![c.clone()]);
    assert!(rig.statuses(c.tt).is_empty(), "seen before: skipped");
    assert_eq!(rig.actuation.drive, None, "and not re-applied");
    assert_eq!(rig.link.counters().commands, 1);
}

#[test]
fn o2_statuses_are_added_in_the_same_cycle() {
    let mut rig = Rig::new();
    let c = rig.cmd("add-waypoint", &[("id", s("w"))]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "complete"]);
}

#[test]
fn o3_unknown_command_is_an_error_with_a_message() {
    let mut rig = Rig::new();
    let c = rig.cmd("fly", &[]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["error"]);
    assert!(rig.message(c.tt).unwrap().contains("unknown command: fly"));
}

#[test]
fn o4_bad_parameters_give_error_and_a_bad_drive_command_estops() {
    let cases: Vec<(&str, A, &str)> = vec![
        ("motor", vec![("left", f(0.5))], "missing ^right"),
        (
            "motor",
            vec![("left", s("fast")), ("right", f(0.5))],
            "not a number",
        ),
        (
            "set-velocity",
            vec![("linear-velocity", id("V1")), ("angular-velocity", f(0.0))],
            "identifier",
        ),
        ("set-heading", vec![], "missing ^yaw"),
        ("set-heading", vec![("yaw", s("nan"))], "finite"),
    ];
    for (name, a, why) in cases {
        let mut rig = Rig::new();
        let go = rig.cmd(
            "set-velocity",
            &[("linear-velocity", f(0.5)), ("angular-velocity", f(0.0))],
        );
        rig.run(vec![go.clone()]);
        let c = rig.cmd(name, &a);
        rig.run(vec![c.clone()]);
        assert_eq!(rig.statuses(c.tt), ["error"], "{name}");
        assert!(
            rig.message(c.tt).unwrap().contains(why),
            "{name}: {:?}",
            rig.message(c.tt)
        );
        assert_eq!(rig.actuation.drive, Some(Drive::Estop), "{name} e-stops");
        // the running command was interrupted first (set-velocity: complete)
        assert_eq!(rig.statuses(go.tt), ["complete"], "{name}");
    }
    // numbers are parsed from their string form
    let mut rig = Rig::new();
    let c = rig.cmd("motor", &[("left", s("0.25")), ("right", i(1))]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "executing"]);
    assert_eq!(
        rig.actuation.drive,
        Some(Drive::Motor {
            left: 0.25,
            right: 1.0
        })
    );
}

#[test]
fn o4_bad_non_drive_command_does_not_stop_the_robot() {
    let mut rig = Rig::new();
    let c = rig.cmd("add-waypoint", &[("id", s("a")), ("x", s("far"))]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["error"]);
    assert_eq!(rig.actuation.drive, None);
}

#[test]
fn o5_one_drive_command_per_cycle_and_a_later_estop_wins() {
    let mut rig = Rig::new();
    let a = rig.cmd(
        "set-velocity",
        &[("linear-velocity", f(0.2)), ("angular-velocity", f(0.0))],
    );
    let b = rig.cmd("motor", &[("left", f(1.0)), ("right", f(1.0))]);
    rig.run(vec![a.clone(), b.clone()]);
    assert_eq!(rig.statuses(a.tt), ["accepted", "executing"]);
    assert_eq!(rig.statuses(b.tt), ["error"]);
    assert!(rig
        .message(b.tt)
        .unwrap()
        .contains("already has a drive command"));
    assert_eq!(rig.actuation.drive, Some(Drive::velocity(0.2, 0.0)));

    let c = rig.cmd(
        "set-velocity",
        &[("linear-velocity", f(0.1)), ("angular-velocity", f(0.0))],
    );
    let e = rig.cmd("estop", &[]);
    rig.run(vec![c.clone(), e.clone()]);
    assert_eq!(rig.statuses(e.tt), ["error"]);
    assert_eq!(rig.actuation.drive, Some(Drive::Estop));
    // a bad drive command takes the cycle's slot too (with ESTOP)
    let bad = rig.cmd("motor", &[]);
    let good = rig.cmd(
        "set-velocity",
        &[("linear-velocity", f(0.1)), ("angular-velocity", f(0.0))],
    );
    rig.run(vec![bad.clone(), good.clone()]);
    assert_eq!(rig.statuses(bad.tt), ["error"]);
    assert_eq!(rig.statuses(good.tt), ["error"]);
    assert_eq!(rig.actuation.drive, Some(Drive::Estop));
}

/// Rule O6: the status a running command gets when a newer drive command arrives.
#[test]
fn o6_preemption_table() {
    let table: Vec<(&str, A, Vec<&str>)> = vec![
        (
            "motor",
            vec![("left", f(0.1)), ("right", f(0.1))],
            vec!["complete"],
        ),
        (
            "set-velocity",
            vec![("linear-velocity", f(0.1)), ("angular-velocity", f(5.0))],
            vec!["complete"],
        ),
        (
            "set-linear-velocity",
            vec![("linear-velocity", f(0.1))],
            vec!["complete"],
        ),
        (
            "set-angular-velocity",
            vec![("angular-velocity", f(5.0))],
            vec!["complete"],
        ),
        ("set-heading", vec![("yaw", f(90.0))], vec!["interrupted"]),
        (
            "set-heading-linear",
            vec![("yaw", f(90.0)), ("linear-velocity", f(0.1))],
            vec!["interrupted"],
        ),
        ("estop", vec![], vec!["complete"]),
    ];
    for (name, a, want) in table {
        let mut rig = Rig::new();
        let first = rig.cmd(name, &a);
        rig.run(vec![first.clone()]);
        let next = rig.cmd(
            "set-velocity",
            &[("linear-velocity", f(0.0)), ("angular-velocity", f(0.0))],
        );
        rig.run(vec![next.clone()]);
        assert_eq!(rig.statuses(first.tt), want, "{name} preempted");
        assert_eq!(rig.statuses(next.tt), ["accepted", "executing"]);
    }
    // stop, while still moving
    let mut rig = Rig::new();
    let st = rig.cmd("stop", &[]);
    rig.pose = (0.0, 0.0, 0.0);
    rig.run(vec![]);
    rig.pose = (0.05, 0.0, 0.0); // 1 m/s
    rig.run(vec![st.clone()]);
    assert_eq!(rig.statuses(st.tt), ["accepted", "executing"]);
    let next = rig.cmd("motor", &[("left", f(0.0)), ("right", f(0.0))]);
    rig.pose = (0.1, 0.0, 0.0);
    rig.run(vec![next]);
    assert_eq!(rig.statuses(st.tt), ["interrupted"]);
    // non-drive commands never interrupt
    let mut rig = Rig::new();
    let h = rig.cmd("set-heading", &[("yaw", f(90.0))]);
    rig.run(vec![h.clone()]);
    let w = rig.cmd("add-waypoint", &[("id", i(1))]);
    rig.run(vec![w]);
    assert!(rig.statuses(h.tt).is_empty());
    assert_eq!(rig.link.running().map(|r| r.tt), Some(h.tt));
}

#[test]
fn o7_the_drive_command_is_latched() {
    let mut rig = Rig::new();
    let c = rig.cmd(
        "set-velocity",
        &[("linear-velocity", f(0.3)), ("angular-velocity", f(0.0))],
    );
    rig.run(vec![c]);
    assert!(rig.actuation.drive.is_some());
    // the agent removed the command: nothing changes, the vehicle keeps it
    let step = skipper_sps::Step {
        removed: vec![101],
        ..Default::default()
    };
    rig.run_step(step);
    assert_eq!(rig.actuation.drive, None);
    assert_eq!(rig.link.latched_drive(), Some(Drive::velocity(0.3, 0.0)));
}

#[test]
fn o8_motor_clamps_throttles() {
    let mut rig = Rig::new();
    let c = rig.cmd("motor", &[("left", f(2.0)), ("right", f(-3.0))]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "executing"]);
    assert_eq!(
        rig.actuation.drive,
        Some(Drive::Motor {
            left: 1.0,
            right: -1.0
        })
    );
    rig.run(vec![]);
    assert!(rig.statuses(c.tt).is_empty(), "never completes by itself");
}

#[test]
fn o9_set_velocity_degrees_and_no_range_check() {
    let mut rig = Rig::new();
    let c = rig.cmd(
        "set-velocity",
        &[("linear-velocity", f(1.0)), ("angular-velocity", f(50.0))],
    );
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "executing"]);
    assert_eq!(
        rig.actuation.drive,
        Some(Drive::velocity(1.0, 50f64.to_radians()))
    );
}

#[test]
fn o10_set_heading_completes_within_3_degrees_of_the_wrapped_error() {
    let mut rig = Rig::new();
    rig.pose = (0.0, 0.0, 179.0);
    let c = rig.cmd("set-heading", &[("yaw", f(-179.0))]);
    rig.run(vec![c.clone()]);
    // 2 degrees apart across the wrap: complete at once
    assert_eq!(rig.statuses(c.tt), ["accepted", "complete"]);
    assert!(rig.link.running().is_none());

    let c = rig.cmd("set-heading", &[("yaw", f(450.0))]); // = 90
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "executing"]);
    let Some(Drive::Channels {
        rotation: Some(Rotation::Heading(h)),
        ..
    }) = rig.actuation.drive
    else {
        panic!("not a heading drive: {:?}", rig.actuation.drive)
    };
    assert!((h - 90f64.to_radians()).abs() < 1e-9);
    rig.pose = (0.0, 0.0, 80.0);
    rig.run(vec![]);
    assert!(rig.statuses(c.tt).is_empty(), "executing only once");
    rig.pose = (0.0, 0.0, 87.5);
    rig.run(vec![]);
    assert_eq!(rig.statuses(c.tt), ["complete"]);
}

#[test]
fn o10_set_heading_keeps_linear_velocity_unless_from_motor() {
    let mut rig = Rig::new();
    let v = rig.cmd(
        "set-velocity",
        &[("linear-velocity", f(0.4)), ("angular-velocity", f(0.0))],
    );
    rig.run(vec![v]);
    let h = rig.cmd("set-heading", &[("yaw", f(45.0))]);
    rig.run(vec![h]);
    let Some(Drive::Channels {
        translation: Some(Translation::Velocity(lin)),
        ..
    }) = rig.actuation.drive
    else {
        panic!()
    };
    assert_eq!(lin, 0.4);
    let m = rig.cmd("motor", &[("left", f(0.5)), ("right", f(0.5))]);
    rig.run(vec![m]);
    let h = rig.cmd("set-heading", &[("yaw", f(45.0))]);
    rig.run(vec![h]);
    assert_eq!(
        rig.actuation.drive,
        Some(Drive::heading(45f64.to_radians(), 0.0))
    );
}

#[test]
fn o11_stop_completes_below_a_centimetre_per_second() {
    let mut rig = Rig::new();
    rig.pose = (0.0, 0.0, 0.0);
    rig.run(vec![]);
    rig.pose = (0.02, 0.0, 0.0); // 0.4 m/s
    let c = rig.cmd("stop", &[]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "executing"]);
    assert_eq!(rig.actuation.drive, Some(Drive::Stop));
    rig.pose = (0.0204, 0.0, 0.0); // 0.008 m/s
    rig.run(vec![]);
    assert_eq!(rig.statuses(c.tt), ["complete"]);
    // already still: complete at once
    let c = rig.cmd("stop", &[]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "complete"]);
}

#[test]
fn o12_estop_completes_at_once_and_completes_again_when_preempted() {
    let mut rig = Rig::new();
    let e = rig.cmd("estop", &[]);
    rig.run(vec![e.clone()]);
    assert_eq!(rig.statuses(e.tt), ["accepted", "complete"]);
    assert_eq!(rig.actuation.drive, Some(Drive::Estop));
    let m = rig.cmd("motor", &[("left", f(0.1)), ("right", f(0.1))]);
    rig.run(vec![m]);
    assert_eq!(rig.statuses(e.tt), ["complete"]);
}
