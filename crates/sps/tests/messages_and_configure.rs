//! Rules I6, I7, O15–O18: received messages, send-message (speech, delivery between
//! agents, broadcast, unknown names, malformed word lists), remove-message,
//! clear-messages, configure with yaw-format and offsets.

mod common;
use common::*;
use skipper_sps::tree::Val;
use skipper_sps::{IdTableExt, PostOffice, Step};

fn words(rig: &Rig, msg: u32) -> Vec<String> {
    let t = rig.link.tree();
    let mut out = vec![];
    let mut at = t.child(msg, "first");
    while let Some(n) = at {
        if let Some(Val::Str(w)) = t.child(n, "word").and_then(|w| t.value(w).cloned()) {
            out.push(w.to_string());
        }
        let next = t.child(n, "next").unwrap();
        match t.value(next) {
            Some(Val::Id) => at = Some(next),
            Some(Val::Str(s)) if &**s == "nil" => at = None,
            o => panic!("bad next {o:?}"),
        }
    }
    out
}

fn send(rig: &mut Rig, dest: Option<&str>, list: &[&str]) -> (Step, i64) {
    let mut a = vec![];
    if let Some(d) = dest {
        a.push(("destination", s(d)));
    }
    a.push(("first", id("N0")));
    let c = rig.cmd("send-message", &a);
    let tt = c.tt;
    let mut step = Step {
        commands: vec![c],
        ..Default::default()
    };
    step.ids.add_word_list("N0", list);
    (step, tt)
}

#[test]
fn o15_say_speaks_the_words() {
    let mut rig = Rig::new();
    let (step, tt) = send(&mut rig, Some("say"), &["hello", "", "world"]);
    rig.run_step(step);
    assert_eq!(rig.statuses(tt), ["accepted", "complete"]);
    assert_eq!(
        rig.actuation.say,
        vec![std::sync::Arc::<str>::from("hello world")]
    );
}

#[test]
fn several_says_in_one_cycle_are_one_utterance_each_in_order() {
    let mut rig = Rig::new();
    let mut step = Step::default();
    for (k, list) in [["one", "two"], ["three", "four"], ["five", "six"]]
        .iter()
        .enumerate()
    {
        let list_id = format!("L{k}");
        let c = rig.cmd(
            "send-message",
            &[("destination", s("say")), ("first", id(&list_id))],
        );
        step.commands.push(c);
        step.ids.add_word_list(&list_id, list);
    }
    rig.run_step(step);
    let said: Vec<&str> = rig.actuation.say.iter().map(|t| &**t).collect();
    assert_eq!(said, ["one two", "three four", "five six"]);
}

#[test]
fn o15_i7_delivery_broadcast_and_unknown_names() {
    let post = PostOffice::new();
    let mut a = Rig::with_post("alpha", &post);
    let mut b = Rig::with_post("bravo", &post);
    let mut c = Rig::with_post("charlie", &post);
    let (step, tt) = send(&mut a, Some("bravo"), &["go", "north"]);
    a.run_step(step);
    assert_eq!(a.statuses(tt), ["accepted", "complete"]);
    let (step, _) = send(&mut a, None, &["all", "stop"]);
    a.run_step(step);
    let (step, tt) = send(&mut a, Some("zulu"), &["x"]);
    a.run_step(step);
    assert_eq!(a.statuses(tt), ["error"]);
    assert!(a
        .message(tt)
        .unwrap()
        .contains("unknown destination `zulu`"));
    // sent in cycles 1 and 2: bravo has them at its updates of cycles 2 and 3
    b.run(vec![]);
    assert!(b.all(&["self", "received-messages"], "message").is_empty());
    b.run(vec![]);
    b.run(vec![]);
    c.run(vec![]);
    c.run(vec![]);
    c.run(vec![]);
    let msgs = b.all(&["self", "received-messages"], "message");
    assert_eq!(msgs.len(), 2);
    assert_eq!(b.child_value(msgs[0], &["from"]), Some(Val::str("alpha")));
    assert_eq!(b.child_value(msgs[0], &["id"]), Some(Val::Int(0)));
    assert_eq!(b.child_value(msgs[1], &["id"]), Some(Val::Int(1)));
    assert_eq!(words(&b, msgs[0]), ["go", "north"]);
    assert_eq!(words(&b, msgs[1]), ["all", "stop"]);
    let mc = c.all(&["self", "received-messages"], "message");
    assert_eq!(mc.len(), 1, "broadcast reaches everyone else");
    assert!(
        a.all(&["self", "received-messages"], "message").is_empty(),
        "not the sender"
    );
}

#[test]
fn o15_malformed_word_lists_are_errors() {
    let mut rig = Rig::new();
    let cases: Vec<(Vec<(&str, A)>, &str)> = vec![
        (vec![("N0", vec![("next", s("nil"))])], "no ^word"),
        (vec![("N0", vec![("word", s("a"))])], "no ^next"),
        (
            vec![("N0", vec![("word", s("a")), ("next", s("more"))])],
            "expected an identifier or nil",
        ),
        (
            vec![("N0", vec![("word", s("")), ("next", s("nil"))])],
            "no words",
        ),
        (
            vec![
                ("N0", vec![("word", s("a")), ("next", id("N1"))]),
                ("N1", vec![("word", s("b")), ("next", id("N0"))]),
            ],
            "loops",
        ),
        (
            vec![("N0", vec![("word", id("W")), ("next", s("nil"))])],
            "identifier",
        ),
    ];
    for (nodes, why) in cases {
        let c = rig.cmd(
            "send-message",
            &[("destination", s("say")), ("first", id("N0"))],
        );
        let tt = c.tt;
        let mut step = Step {
            commands: vec![c],
            ..Default::default()
        };
        for (n, a) in nodes {
            step.ids.insert(n.to_string(), attrs(&a));
        }
        rig.run_step(step);
        assert_eq!(rig.statuses(tt), ["error"], "{why}");
        assert!(
            rig.message(tt).unwrap().contains(why),
            "{why}: {:?}",
            rig.message(tt)
        );
        assert!(rig.actuation.say.is_empty());
    }
    let c = rig.cmd("send-message", &[("destination", s("say"))]);
    rig.run(vec![c.clone()]);
    assert!(rig.message(c.tt).unwrap().contains("missing ^first"));
}

#[test]
fn i7_o16_o17_message_ids_are_never_reused_and_removal_works() {
    let post = PostOffice::new();
    let mut rig = Rig::with_post("robot1", &post);
    post.tell("robot1", None, "one").unwrap();
    post.tell("robot1", Some("base"), "two words").unwrap();
    post.tell("robot1", None, "   ").unwrap(); // empty: dropped
    rig.run(vec![]);
    let m = rig.all(&["self", "received-messages"], "message");
    assert_eq!(m.len(), 2);
    assert_eq!(rig.child_value(m[0], &["from"]), Some(Val::str("http")));
    assert_eq!(rig.child_value(m[1], &["from"]), Some(Val::str("base")));
    let r = rig.cmd("remove-message", &[("id", i(0))]);
    rig.run(vec![r.clone()]);
    assert_eq!(rig.statuses(r.tt), ["accepted", "complete"]);
    for bad in [i(0), s("x"), f(1.0)] {
        let r = rig.cmd("remove-message", &[("id", bad)]);
        rig.run(vec![r.clone()]);
        assert_eq!(rig.statuses(r.tt), ["error"]);
    }
    let r = rig.cmd("remove-message", &[]);
    rig.run(vec![r.clone()]);
    assert_eq!(rig.statuses(r.tt), ["error"]);
    post.tell("robot1", None, "three").unwrap();
    rig.run(vec![]);
    let m = rig.all(&["self", "received-messages"], "message");
    assert_eq!(
        rig.child_value(m[1], &["id"]),
        Some(Val::Int(2)),
        "ids are never reused"
    );
    let c = rig.cmd("clear-messages", &[]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "complete"]);
    assert!(rig
        .all(&["self", "received-messages"], "message")
        .is_empty());
}

#[test]
fn i6_yaw_format_int_rounds_and_recreates_angle_wmes() {
    let mut rig = Rig::new();
    rig.pose = (0.0, 0.0, 10.5);
    let before = rig
        .link
        .tree()
        .path(skipper_sps::tree::ROOT, &["self", "pose", "yaw"])
        .unwrap();
    let a = rig.cmd(
        "add-waypoint",
        &[("id", s("f")), ("x", f(1.0)), ("y", f(1.0))],
    );
    rig.run(vec![a]);
    let c = rig.cmd("configure", &[("yaw-format", s("int"))]);
    let u = rig.run(vec![c.clone()]).clone();
    assert_eq!(rig.statuses(c.tt), ["accepted", "complete"]);
    assert!(
        u.diff.removes.contains(&before),
        "pose.yaw destroyed and recreated"
    );
    assert_eq!(
        rig.value(&["self", "pose", "yaw"]),
        Some(Val::Int(11)),
        "10.5 rounds half up"
    );
    assert_eq!(
        rig.value(&["configuration", "yaw-format"]),
        Some(Val::str("int"))
    );
    let r = rig.all(&["ranges"], "range")[0];
    assert_eq!(rig.child_value(r, &["start"]), Some(Val::Int(-90)));
    assert_eq!(
        rig.child_value(r, &["distance"]),
        Some(Val::Float(8.0)),
        "distance stays a float"
    );
    // the float waypoint keeps floats; one added now has ints
    let b = rig.cmd(
        "add-waypoint",
        &[("id", s("i")), ("x", f(1.0)), ("y", f(1.0))],
    );
    rig.run(vec![b]);
    let ws = rig.all(&["self", "waypoints"], "waypoint");
    assert_eq!(rig.child_value(ws[0], &["yaw"]), Some(Val::Float(45.0)));
    assert_eq!(rig.child_value(ws[1], &["yaw"]), Some(Val::Int(45)));
    assert_eq!(
        rig.child_value(ws[1], &["relative-bearing"]),
        Some(Val::Int(35))
    );
    assert_eq!(
        rig.child_value(ws[1], &["abs-relative-bearing"]),
        Some(Val::Int(35))
    );
    let bad = rig.cmd("configure", &[("yaw-format", s("degrees"))]);
    rig.run(vec![bad.clone()]);
    assert_eq!(rig.statuses(bad.tt), ["error"]);
    let back = rig.cmd("configure", &[("yaw-format", s("float"))]);
    rig.run(vec![back]);
    assert_eq!(rig.value(&["self", "pose", "yaw"]), Some(Val::Float(10.5)));
}

#[test]
fn o18_offsets_one_given_resets_the_other_and_errors() {
    let mut rig = Rig::new();
    let c = rig.cmd("configure", &[("offset-x", f(1.0)), ("offset-y", f(2.0))]);
    rig.run(vec![c]);
    assert_eq!(rig.link.offset(), [1.0, 2.0, 0.0]);
    let c = rig.cmd("configure", &[("offset-y", f(5.0))]);
    rig.run(vec![c]);
    assert_eq!(rig.link.offset(), [0.0, 5.0, 0.0]);
    let c = rig.cmd("configure", &[]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["accepted", "complete"]);
    assert_eq!(
        rig.link.offset(),
        [0.0, 5.0, 0.0],
        "empty configure changes nothing"
    );
    let c = rig.cmd("configure", &[("offset-x", s("east"))]);
    rig.run(vec![c.clone()]);
    assert_eq!(rig.statuses(c.tt), ["error"]);
    assert_eq!(rig.link.offset(), [0.0, 5.0, 0.0]);
    // distances use the new offset from the next update
    let w = rig.cmd(
        "add-waypoint",
        &[("id", s("o")), ("x", f(0.0)), ("y", f(5.0))],
    );
    rig.run(vec![w]);
    let ws = rig.all(&["self", "waypoints"], "waypoint");
    assert_eq!(rig.child_value(ws[0], &["distance"]), Some(Val::Float(0.0)));
}
