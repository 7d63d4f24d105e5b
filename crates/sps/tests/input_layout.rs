//! Rules I1–I3, I5, I8 and the layout of section 1.1: the input-link tree, its update
//! cadence, time, pose and velocities, ranges, configuration.

mod common;
use common::*;
use skipper_sps::tree::{Val, ROOT};

#[test]
fn layout_is_the_references() {
    let rig = Rig::new();
    let t = rig.link.tree();
    let top: Vec<_> = t.children(ROOT).filter_map(|c| t.attr(c)).collect();
    assert_eq!(top, ["configuration", "time", "self", "ranges"]);
    let cfg = t.child(ROOT, "configuration").unwrap();
    let cfg: Vec<_> = t.children(cfg).filter_map(|c| t.attr(c)).collect();
    assert_eq!(cfg, ["yaw-format", "offset-x", "offset-y", "offset-z"]);
    let me = t.child(ROOT, "self").unwrap();
    let me: Vec<_> = t.children(me).filter_map(|c| t.attr(c)).collect();
    assert_eq!(me, ["name", "pose", "waypoints", "received-messages"]);
    let pose = t.path(ROOT, &["self", "pose"]).unwrap();
    let pose: Vec<_> = t.children(pose).filter_map(|c| t.attr(c)).collect();
    assert_eq!(
        pose,
        [
            "x",
            "y",
            "z",
            "yaw",
            "x-velocity",
            "y-velocity",
            "speed",
            "yaw-velocity"
        ]
    );
    assert_eq!(rig.value(&["self", "name"]), Some(Val::str("robot1")));
    assert_eq!(
        rig.value(&["configuration", "yaw-format"]),
        Some(Val::str("float"))
    );
    // waypoints and messages under self, not under the input-link
    assert!(t.child(ROOT, "waypoints").is_none());
    assert!(t.child(ROOT, "received-messages").is_none());
}

#[test]
fn i1_equal_values_are_not_re_added() {
    let mut rig = Rig::new();
    let d = rig.run(vec![]).diff.clone();
    // only time changes when nothing moves
    assert!(d.adds.is_empty() && d.removes.is_empty());
    let t = rig.link.tree();
    let changed: Vec<_> = d.updates.iter().filter_map(|(w, _)| t.attr(*w)).collect();
    assert_eq!(changed, ["microseconds"]);
}

#[test]
fn i1_input_reflects_this_cycles_commands() {
    // the waypoint added in a cycle is on the input-link that cycle's update sends
    let mut rig = Rig::new();
    let c = rig.cmd(
        "add-waypoint",
        &[("id", s("a")), ("x", f(1.0)), ("y", f(0.0))],
    );
    let u = rig.run(vec![c]);
    assert!(u.diff.adds.iter().any(|a| a.attr == "waypoint"));
    assert_eq!(rig.all(&["self", "waypoints"], "waypoint").len(), 1);
}

#[test]
fn i2_time_is_simulated_seconds_and_microseconds() {
    let mut rig = Rig::new();
    for _ in 0..25 {
        rig.run(vec![]);
    }
    // 25 x 50 ms = 1.25 s
    assert_eq!(rig.value(&["time", "seconds"]), Some(Val::Int(1)));
    assert_eq!(
        rig.value(&["time", "microseconds"]),
        Some(Val::Int(250_000))
    );
}

#[test]
fn i3_pose_velocities_and_exact_zero_when_still() {
    let mut rig = Rig::new();
    rig.pose = (1.0, 2.0, 90.0);
    rig.run(vec![]);
    rig.pose = (1.1, 2.05, 100.0); // moved 0.1, 0.05 in 50 ms, turned 10 deg
    rig.run(vec![]);
    assert_eq!(rig.float(&["self", "pose", "x"]), 1.1);
    assert_eq!(rig.float(&["self", "pose", "yaw"]), 100.0000000000000);
    assert!((rig.float(&["self", "pose", "x-velocity"]) - 2.0).abs() < 1e-9);
    assert!((rig.float(&["self", "pose", "y-velocity"]) - 1.0).abs() < 1e-9);
    assert!((rig.float(&["self", "pose", "speed"]) - 5f64.sqrt()).abs() < 1e-9);
    assert!((rig.float(&["self", "pose", "yaw-velocity"]) - 200.0).abs() < 1e-6);
    // still: exactly 0.0
    rig.run(vec![]);
    for v in ["x-velocity", "y-velocity", "speed", "yaw-velocity"] {
        assert_eq!(
            rig.float(&["self", "pose", v]).to_bits(),
            0f64.to_bits(),
            "{v}"
        );
    }
}

#[test]
fn i3_yaw_velocity_wraps_across_180() {
    let mut rig = Rig::new();
    rig.pose = (0.0, 0.0, 179.0);
    rig.run(vec![]);
    rig.pose = (0.0, 0.0, -179.0);
    rig.run(vec![]);
    // +2 degrees in 50 ms, not -358
    assert!((rig.float(&["self", "pose", "yaw-velocity"]) - 40.0).abs() < 1e-6);
    assert!((rig.float(&["self", "pose", "yaw"]) + 179.0).abs() < 1e-9);
}

#[test]
fn i5_five_ranges_from_the_laser() {
    let mut rig = Rig::new();
    rig.laser[100] = 0.7; // bearing +10 deg: slice id 0
    rig.laser[5] = 0.3; // -85 deg: slice id -2 (rightmost)
    rig.run(vec![]);
    let ranges = rig.all(&["ranges"], "range");
    assert_eq!(ranges.len(), 5);
    let got: Vec<_> = ranges
        .iter()
        .map(|&r| {
            (
                rig.child_value(r, &["id"]),
                rig.child_value(r, &["start"]),
                rig.child_value(r, &["end"]),
                rig.child_value(r, &["distance"]),
            )
        })
        .collect();
    let want = [
        (-2, -90.0, -55.0, 0.3),
        (-1, -54.0, -19.0, 8.0),
        (0, -18.0, 17.0, 0.7),
        (1, 18.0, 53.0, 8.0),
        (2, 54.0, 89.0, 8.0),
    ];
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.0, Some(Val::Int(w.0)));
        assert_eq!(g.1, Some(Val::Float(w.1)));
        assert_eq!(g.2, Some(Val::Float(w.2)));
        assert_eq!(g.3, Some(Val::Float(w.3)));
    }
}

#[test]
fn i5_ranges_have_only_ids_before_the_first_scan() {
    let mut signals = skipper_core::Signals::new();
    signals.declare("pose.x", None);
    signals.declare("pose.y", None);
    signals.declare("pose.yaw", None);
    for k in 0..180 {
        signals.declare(&format!("laser.{k}"), None);
    }
    let mut link = skipper_sps::Link::new(skipper_sps::LinkConfig::new("r"));
    link.start(&signals, std::time::Duration::ZERO).unwrap();
    let t = link.tree();
    let r = t.path(ROOT, &["ranges", "range"]).unwrap();
    let attrs: Vec<_> = t.children(r).filter_map(|c| t.attr(c)).collect();
    assert_eq!(attrs, ["id"]);
}

#[test]
fn i8_configuration_reflects_offsets() {
    let mut rig = Rig::new();
    let c = rig.cmd("configure", &[("offset-x", f(2.0)), ("offset-z", i(1))]);
    rig.pose = (1.0, 1.0, 0.0);
    rig.run(vec![c]);
    assert_eq!(rig.float(&["configuration", "offset-x"]), 2.0);
    assert_eq!(rig.float(&["configuration", "offset-y"]), 0.0);
    assert_eq!(rig.float(&["configuration", "offset-z"]), 1.0);
    // offsets move position only, never yaw (I3)
    assert_eq!(rig.float(&["self", "pose", "x"]), 3.0);
    assert_eq!(rig.float(&["self", "pose", "y"]), 1.0);
    assert_eq!(rig.float(&["self", "pose", "z"]), 1.0);
    assert_eq!(rig.float(&["self", "pose", "yaw"]), 0.0);
}

#[test]
fn missing_pose_signals_are_an_error() {
    let signals = skipper_core::Signals::new();
    let mut link = skipper_sps::Link::new(skipper_sps::LinkConfig::new("r"));
    let e = link.start(&signals, std::time::Duration::ZERO).unwrap_err();
    assert!(e.to_string().contains("pose.x"), "{e}");
}
