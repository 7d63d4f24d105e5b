//! Rules 3-7, 22, 29: commands and substacks in sequence, same-tick advance, behaviors that
//! do not block completion, empty sequences, the end of the mission and the default mission.

mod common;
use common::{mission, Bench, WAIT};
use skipper_mission::{ItemState, MissionStatus};

#[test]
fn three_waits_complete_in_order_and_behaviors_do_not_block() {
    let mut b = Bench::new(&mission(&format!(
        "BEHAVIOR(Guidance.YoYo);
         {WAIT}2);
         {WAIT}3);
         {WAIT}1);"
    )));
    b.tick(); // t=0
    assert_eq!(b.state("1"), ItemState::Active);
    assert_eq!(b.state("2"), ItemState::Active);
    assert_eq!(b.state("3"), ItemState::Inactive);
    b.ticks(2); // t=1, t=2: the first wait is done at t=2 and the second starts at once
    assert_eq!(b.state("2"), ItemState::Completed);
    assert_eq!(b.state("3"), ItemState::Active);
    assert!(
        b.transitions().contains(&"3:inactive>active".to_string()),
        "{:?}",
        b.transitions()
    );
    b.ticks(3); // t=3..5
    assert_eq!(b.state("3"), ItemState::Completed);
    assert_eq!(b.state("4"), ItemState::Active);
    assert_eq!(b.exec.status(), MissionStatus::Running);
    b.tick(); // t=6
    assert_eq!(b.exec.status(), MissionStatus::Completed);
    assert_eq!(b.state("STACK"), ItemState::Completed);
    // the behavior was stopped with its stack
    assert_eq!(b.state("1"), ItemState::Inactive);
}

#[test]
fn the_default_mission_surfaces_floats_and_reads_gps_and_comms() {
    let mut b = Bench::new(&mission(&format!("{WAIT}1);")));
    b.set("DEPTH", 40.0);
    b.ticks(2);
    assert_eq!(b.exec.status(), MissionStatus::Completed);
    let sp = b.last;
    assert!(sp.pitch.unwrap() > 0.0 && sp.speed == Some(1.0) && sp.buoyancy == Some(1.0));
    use skipper_core::actuation::auv_sensor::{COMMS, GPS};
    assert_eq!(sp.sample, GPS | COMMS);
    b.set("DEPTH", 0.2);
    let sp = b.tick();
    assert_eq!(sp.speed, Some(0.0), "propeller off at the surface");
}

#[test]
fn a_substack_runs_in_sequence_with_commands() {
    let mut b = Bench::new(&mission(&format!(
        "{WAIT}1);
         {{ ID = \"inner\"; {WAIT}2); {WAIT}2); }};
         {WAIT}1);"
    )));
    b.ticks(2);
    assert_eq!(b.state("inner"), ItemState::Active);
    assert_eq!(b.state("inner/1"), ItemState::Active);
    b.ticks(2);
    assert_eq!(b.state("inner/2"), ItemState::Active);
    b.ticks(2);
    assert_eq!(b.state("inner"), ItemState::Completed);
    assert_eq!(b.state("3"), ItemState::Active);
}

#[test]
fn a_substack_without_commands_never_completes_and_is_warned_about() {
    let src = mission(&format!(
        "{{ BEHAVIOR(Guidance.YoYo) }};
         {WAIT}1);"
    ));
    let m = skipper_mission::load_str(&src, "t.lua").unwrap();
    assert!(
        m.warnings
            .iter()
            .any(|w| w.message.contains("never completes")),
        "{:?}",
        m.warnings
    );
    let mut b = Bench::new(&src);
    b.ticks(100);
    assert_eq!(b.state("1"), ItemState::Active);
    assert_eq!(b.state("2"), ItemState::Inactive);
}

#[test]
fn the_mission_waits_for_a_latched_when_item_before_it_ends() {
    // rule 7: an in-progress surfacing may finish
    let mut b = Bench::new(&mission(&format!(
        "{{ WHEN = UniversalURI.DEPTH:GT(Units.METER(50)); {WAIT}10); }};
         {WAIT}3);"
    )));
    b.set("DEPTH", 60.0);
    b.ticks(4); // t=0..3: the WHEN item latched at t=0, the wait ends at t=3
    assert_eq!(b.state("1"), ItemState::Active);
    assert_eq!(b.exec.status(), MissionStatus::Running);
    b.ticks(7); // t=4..10
    assert_eq!(b.exec.status(), MissionStatus::Completed);
}

#[test]
fn reactivated_commands_start_fresh() {
    // rule 29: each activation of a Wait starts a new timer (REPEAT re-runs the substack)
    let mut b = Bench::new(&mission(&format!("{{ REPEAT = 2; {WAIT}5); }};")));
    b.ticks(6); // t=0..5: first run done at t=5, the second iteration begins next tick
    assert_eq!(b.exec.progress(1), Some((0, 1)));
    b.ticks(5);
    assert_eq!(b.exec.status(), MissionStatus::Running);
    b.ticks(2);
    assert_eq!(b.exec.status(), MissionStatus::Completed);
}
