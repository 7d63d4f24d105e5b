//! Rules 9-15: WHEN latches and re-arms, WHILE suspends and resumes, a completed WHILE item
//! waits for its parent to re-enter.

mod common;
use common::{mission, Bench, WAIT};
use skipper_mission::ItemState;

#[test]
fn when_latches_for_one_true_tick_and_re_arms_after_completing() {
    let mut b = Bench::new(&mission(&format!(
        "{{ ID = \"w\"; WHEN = UniversalURI.DEPTH:GT(Units.METER(50)); {WAIT}5); }};
         {WAIT}1000);"
    )));
    b.tick();
    assert_eq!(b.state("w"), ItemState::Armed);
    b.set("DEPTH", 60.0);
    b.tick(); // t=1: latches
    assert_eq!(b.state("w"), ItemState::Active);
    b.set("DEPTH", 10.0); // the clause goes false: the latch holds
    b.ticks(4); // t=2..5
    assert_eq!(b.state("w"), ItemState::Active);
    b.tick(); // t=6: the wait ends
    assert_eq!(b.state("w"), ItemState::Armed);
    assert_eq!(b.exec.completions(1), 1);
    let t = b.transitions();
    assert!(t.contains(&"w:active>completed".to_string()), "{t:?}");
    assert!(t.contains(&"w:completed>armed".to_string()), "{t:?}");
    b.ticks(3);
    assert_eq!(b.state("w"), ItemState::Armed);
    b.set("DEPTH", 70.0);
    b.tick(); // it triggers again
    assert_eq!(b.state("w"), ItemState::Active);
}

#[test]
fn while_suspends_and_resumes_the_same_waypoint() {
    let mut b = Bench::new(&mission(
        "{ ID = \"route\"; WHILE = UniversalURI.DEPTH:GT(Units.METER(5));
           COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.81, -121.9));
           COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.82, -121.9)); };
         COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.HOUR, 10);",
    ));
    b.tick();
    assert_eq!(b.state("route/1"), ItemState::Active);
    // reach the first waypoint
    b.set("LATITUDE", 36.81);
    b.tick();
    assert_eq!(b.state("route/2"), ItemState::Active);
    assert_eq!(b.exec.counters().waypoints_reached, 1);
    // the clause drops: suspended, no steering
    b.set("DEPTH", 2.0);
    b.set("LATITUDE", 36.805);
    b.tick();
    assert_eq!(b.state("route"), ItemState::Suspended);
    assert_eq!(b.exec.winners().horizontal, None);
    // back: the same (second) waypoint, not the first
    b.set("DEPTH", 20.0);
    b.tick();
    assert_eq!(b.state("route"), ItemState::Active);
    assert_eq!(b.state("route/2"), ItemState::Active);
    assert_eq!(b.state("route/1"), ItemState::Completed);
    assert_eq!(b.exec.winners().horizontal, Some(b.index("route/2")));
    let h = b.last.heading.unwrap();
    assert!((h - std::f64::consts::FRAC_PI_2).abs() < 1e-3, "north: {h}");
}

#[test]
fn a_completed_while_item_waits_for_its_parent_to_re_enter() {
    let mut b = Bench::new(&mission(&format!(
        "{{ REPEAT = 2;
            {{ ID = \"w\"; WHILE = true; {WAIT}1); }};
            {WAIT}5); }};"
    )));
    b.ticks(3);
    assert_eq!(b.state("1/w"), ItemState::Completed);
    b.ticks(3); // t=3..5: the iteration ends at t=5
    b.tick(); // t=6: the second iteration re-armed it and it runs again
    assert_eq!(b.state("1/w"), ItemState::Active);
}

#[test]
fn when_behaviors_latch_until_their_parent_ends() {
    let mut b = Bench::new(&mission(&format!(
        "BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.DEPTH, Units.METER, 30):WHEN(UniversalURI.DEPTH:GT(Units.METER(50)));
         {WAIT}10);"
    )));
    b.tick();
    assert_eq!(b.state("1"), ItemState::Armed);
    b.set("DEPTH", 55.0);
    b.tick();
    b.set("DEPTH", 20.0);
    b.ticks(3);
    assert_eq!(b.state("1"), ItemState::Active);
    assert_eq!(b.last.depth, Some(30.0));
}

#[test]
fn the_children_of_a_suspended_substack_show_suspended_and_items_have_names() {
    let mut b = Bench::new(&mission(&format!(
        "{{ ID = \"ops\"; WHILE = UniversalURI.DEPTH:GT(Units.METER(5));
            BEHAVIOR(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_SALINITY);
            {WAIT}100); }};
         {WAIT}1000);"
    )));
    b.tick();
    assert_eq!(b.state("ops/1"), ItemState::Active);
    b.set("DEPTH", 1.0);
    b.tick();
    assert_eq!(b.state("ops"), ItemState::Suspended);
    assert_eq!(b.state("ops/1"), ItemState::Suspended);
    assert_eq!(b.state("ops/2"), ItemState::Suspended);
    let s = b.exec.state_json();
    let names: Vec<&str> = s["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "STACK",
            "ops",
            "ReadSensor(SEA_WATER_SALINITY)",
            "Wait(100 s)",
            "Wait(1000 s)"
        ]
    );
    b.set("DEPTH", 10.0);
    b.tick();
    assert_eq!(b.state("ops/1"), ItemState::Active, "resumed");
}
