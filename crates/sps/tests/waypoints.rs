//! Rules I4, O13, O14 and gotcha G1: waypoints on the input-link, their id types and
//! formulas, and the commands that manage them.

mod common;
use common::*;
use skipper_sps::tree::Val;

fn waypoint(rig: &Rig, n: usize) -> u32 {
    rig.all(&["self", "waypoints"], "waypoint")[n]
}

#[test]
fn i4_o13_id_types_are_kept_and_formulas_hold() {
    let mut rig = Rig::new();
    rig.pose = (1.0, 1.0, 90.0); // facing +y
    let a = rig.cmd(
        "add-waypoint",
        &[("id", i(1)), ("x", f(2.0)), ("y", f(2.0))],
    );
    let b = rig.cmd(
        "add-waypoint",
        &[("id", f(2.5)), ("x", i(0)), ("y", f(1.0))],
    );
    let c = rig.cmd(
        "add-waypoint",
        &[("id", s("home")), ("x", s("1.0")), ("y", f(0.0))],
    );
    rig.run(vec![a.clone(), b, c]);
    assert_eq!(rig.statuses(a.tt), ["accepted", "complete"]);
    let w = [waypoint(&rig, 0), waypoint(&rig, 1), waypoint(&rig, 2)];
    assert_eq!(rig.child_value(w[0], &["id"]), Some(Val::Int(1)));
    assert_eq!(rig.child_value(w[1], &["id"]), Some(Val::Float(2.5)));
    assert_eq!(rig.child_value(w[2], &["id"]), Some(Val::str("home")));
    assert_eq!(
        rig.child_value(w[1], &["x"]),
        Some(Val::Float(0.0)),
        "x stored as a float"
    );
    assert_eq!(rig.child_value(w[0], &["z"]), Some(Val::Float(0.0)));
    // (2,2) from (1,1) facing +y: 45 deg, to the right by 45
    let Some(Val::Float(d)) = rig.child_value(w[0], &["distance"]) else {
        panic!()
    };
    assert!((d - 2f64.sqrt()).abs() < 1e-12);
    let fl = |rig: &Rig, k: usize, a: &str| match rig.child_value(w[k], &[a]) {
        Some(Val::Float(v)) => v,
        o => panic!("{a}: {o:?}"),
    };
    assert!((fl(&rig, 0, "yaw") - 45.0).abs() < 1e-9);
    assert!(
        (fl(&rig, 0, "relative-bearing") + 45.0).abs() < 1e-9,
        "negative: to the right"
    );
    assert!((fl(&rig, 0, "abs-relative-bearing") - 45.0).abs() < 1e-9);
    // (0,1) from (1,1): yaw 180, bearing +90 (turn left)
    assert!((fl(&rig, 1, "yaw") - 180.0).abs() < 1e-9);
    assert!((fl(&rig, 1, "relative-bearing") - 90.0).abs() < 1e-9);
    // values follow the robot each cycle
    rig.pose = (2.0, 1.0, 90.0);
    rig.run(vec![]);
    assert!((fl(&rig, 0, "distance") - 1.0).abs() < 1e-12);
    assert!((fl(&rig, 0, "relative-bearing") - 0.0).abs() < 1e-9);
}

#[test]
fn o13_missing_coordinates_default_to_the_offset_pose() {
    let mut rig = Rig::new();
    rig.pose = (3.0, -1.0, 0.0);
    let cfg = rig.cmd("configure", &[("offset-x", f(1.0)), ("offset-y", f(1.0))]);
    rig.run(vec![cfg]);
    let c = rig.cmd("add-waypoint", &[("id", s("here"))]);
    rig.run(vec![c]);
    let w = waypoint(&rig, 0);
    assert_eq!(rig.child_value(w, &["x"]), Some(Val::Float(4.0)));
    assert_eq!(rig.child_value(w, &["y"]), Some(Val::Float(0.0)));
    assert_eq!(rig.child_value(w, &["distance"]), Some(Val::Float(0.0)));
}

#[test]
fn g1_identifier_valued_coordinates_count_as_absent() {
    let mut rig = Rig::new();
    rig.pose = (0.5, 0.25, 0.0);
    let c = rig.cmd(
        "add-waypoint",
        &[("id", s("one")), ("x", id("X1")), ("y", id("Y1"))],
    );
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "complete"]);
    let w = waypoint(&rig, 0);
    assert_eq!(rig.child_value(w, &["x"]), Some(Val::Float(0.5)));
    assert_eq!(rig.child_value(w, &["y"]), Some(Val::Float(0.25)));
}

#[test]
fn o13_adding_an_existing_id_replaces_it() {
    let mut rig = Rig::new();
    let a = rig.cmd(
        "add-waypoint",
        &[("id", s("a")), ("x", f(1.0)), ("y", f(0.0))],
    );
    rig.run(vec![a]);
    let old = waypoint(&rig, 0);
    let b = rig.cmd(
        "add-waypoint",
        &[("id", s("a")), ("x", f(5.0)), ("y", f(0.0))],
    );
    let u = rig.run(vec![b]).clone();
    assert!(u.diff.removes.contains(&old));
    let ws = rig.all(&["self", "waypoints"], "waypoint");
    assert_eq!(ws.len(), 1);
    assert_eq!(rig.child_value(ws[0], &["x"]), Some(Val::Float(5.0)));
    assert!(rig.cmd("add-waypoint", &[]).attrs.is_empty());
    let bad = rig.cmd("add-waypoint", &[("x", f(1.0))]);
    rig.run(vec![bad.clone()]);
    assert_eq!(rig.statuses(bad.tt), ["error"]);
    let bad = rig.cmd("add-waypoint", &[("id", id("I9"))]);
    rig.run(vec![bad.clone()]);
    assert_eq!(rig.statuses(bad.tt), ["error"]);
}

#[test]
fn o14_remove_disable_enable_and_unknown_ids() {
    let mut rig = Rig::new();
    let a = rig.cmd(
        "add-waypoint",
        &[("id", i(7)), ("x", f(1.0)), ("y", f(1.0))],
    );
    rig.run(vec![a]);
    // looked up by string form: int 7 and "7" are the same waypoint here
    let d = rig.cmd("disable-waypoint", &[("id", s("7"))]);
    rig.run(vec![d.clone()]);
    assert_eq!(rig.statuses(d.tt), ["accepted", "complete"]);
    assert!(rig.all(&["self", "waypoints"], "waypoint").is_empty());
    assert_eq!(rig.link.waypoints().len(), 1, "kept while disabled");
    let e = rig.cmd("enable-waypoint", &[("id", i(7))]);
    rig.run(vec![e]);
    assert_eq!(rig.all(&["self", "waypoints"], "waypoint").len(), 1);
    let r = rig.cmd("remove-waypoint", &[("id", i(7))]);
    rig.run(vec![r]);
    assert!(rig.link.waypoints().is_empty());
    assert!(rig.all(&["self", "waypoints"], "waypoint").is_empty());
    for name in ["remove-waypoint", "enable-waypoint", "disable-waypoint"] {
        let c = rig.cmd(name, &[("id", s("nope"))]);
        rig.run(vec![c.clone()]);
        assert_eq!(rig.statuses(c.tt), ["error"], "{name}");
        assert!(rig.message(c.tt).unwrap().contains("no waypoint"));
        let c = rig.cmd(name, &[]);
        rig.run(vec![c.clone()]);
        assert_eq!(rig.statuses(c.tt), ["error"], "{name} without id");
    }
}
