//! Rules 16-21, 23: UNTIL, WITHIN, REPEAT and their interplay; the mission-level WITHIN.

mod common;
use common::{mission, Bench, WAIT};
use skipper_mission::executive::EndReason;
use skipper_mission::{ItemState, MissionStatus};

#[test]
fn until_inside_repeat_three_exits_after_the_first_iteration() {
    let mut b = Bench::new(&mission(&format!(
        "{{ ID = \"loop\"; REPEAT = 3; UNTIL = UniversalURI.DEPTH:GT(Units.METER(100));
            {WAIT}3); }};
         {WAIT}1000);"
    )));
    b.ticks(4); // t=0..3: iteration 1 done at t=3
    assert_eq!(b.exec.progress(1), Some((0, 1)));
    b.set("DEPTH", 150.0);
    b.tick();
    assert_eq!(b.state("loop"), ItemState::Completed);
    assert!(b
        .transitions()
        .contains(&"loop:active>completed".to_string()));
    assert_eq!(b.state("2"), ItemState::Active);
}

#[test]
fn repeat_two_runs_the_sequence_twice() {
    let mut b = Bench::new(&mission(&format!(
        "{{ ID = \"r\"; REPEAT = 2; {WAIT}2); {WAIT}2); }};"
    )));
    b.ticks(5); // t=0..4: first iteration done at t=4
    assert_eq!(b.exec.progress(1), Some((0, 1)));
    assert_eq!(b.exec.status(), MissionStatus::Running);
    b.ticks(5); // t=5..9: second iteration starts at t=5, ends at t=9
    assert_eq!(b.exec.status(), MissionStatus::Completed);
    assert_eq!(b.exec.completions(2), 2);
}

#[test]
fn repeat_zero_is_skipped_with_a_warning() {
    let src = mission(&format!(
        "{{ ID = \"never\"; REPEAT = 0; {WAIT}100); }};
         {WAIT}1);"
    ));
    let m = skipper_mission::load_str(&src, "t.lua").unwrap();
    assert!(m.warnings.iter().any(|w| w.message.contains("skipped")));
    let mut b = Bench::new(&src);
    b.tick();
    assert_eq!(b.state("never"), ItemState::Completed);
    assert_eq!(b.state("never/1"), ItemState::Inactive);
    assert_eq!(b.state("2"), ItemState::Active);
}

#[test]
fn repeat_on_a_command_re_executes_it() {
    let mut b = Bench::new(&mission(&format!("{WAIT}2):REPEAT(3);")));
    b.ticks(6);
    assert_eq!(b.exec.status(), MissionStatus::Running);
    b.tick();
    assert_eq!(b.exec.status(), MissionStatus::Completed);
}

#[test]
fn within_expiry_gives_up_logs_timed_out_and_advances() {
    let mut b = Bench::new(&mission(&format!(
        "{{ ID = \"slow\"; WITHIN = Units.SECOND(5); {WAIT}100); }};
         {WAIT}100);"
    )));
    b.ticks(5);
    assert_eq!(b.state("slow"), ItemState::Active);
    b.tick(); // t=5
    assert_eq!(b.state("slow"), ItemState::TimedOut);
    let t = b
        .exec
        .transitions()
        .iter()
        .find(|t| t.item == 1)
        .copied()
        .unwrap();
    assert_eq!(t.reason, Some(EndReason::Within));
    assert_eq!(b.state("2"), ItemState::Active);
}

#[test]
fn within_bounds_all_repetitions_and_counts_suspended_time() {
    let mut b = Bench::new(&mission(&format!(
        "{{ ID = \"r\"; REPEAT = 10; WITHIN = Units.SECOND(7);
            WHILE = UniversalURI.DEPTH:GT(Units.METER(5)); {WAIT}2); }};
         {WAIT}100);"
    )));
    b.ticks(3);
    b.set("DEPTH", 1.0); // suspended: its WITHIN keeps counting
    b.ticks(5);
    b.set("DEPTH", 10.0);
    b.tick(); // t=8 > 7: times out as soon as it runs again
    assert_eq!(b.state("r"), ItemState::TimedOut);
}

#[test]
fn a_mission_level_within_ends_the_mission() {
    let src = format!("NAME = \"t\"\nSTACK = {{ WITHIN = Units.MINUTE(1); {WAIT}3600); }}");
    let mut b = Bench::new(&src);
    b.ticks(60);
    assert_eq!(b.exec.status(), MissionStatus::Running);
    b.tick();
    assert_eq!(b.exec.status(), MissionStatus::TimedOut);
    assert_eq!(b.last.buoyancy, Some(1.0), "default mission");
}

#[test]
fn until_on_a_command_ends_it_as_completed() {
    let mut b = Bench::new(&mission(&format!(
        "{WAIT}100):UNTIL(UniversalURI.DEPTH:LT(Units.METER(2)));
         {WAIT}100);"
    )));
    b.ticks(3);
    b.set("DEPTH", 1.0);
    b.tick();
    assert_eq!(b.state("1"), ItemState::Completed);
    assert_eq!(b.state("2"), ItemState::Active);
}

#[test]
fn a_mission_without_within_ends_at_the_default_mission_timeout() {
    let src = mission(&format!("{WAIT}1000000);"));
    let mut b = Bench::new(&src);
    assert_eq!(
        b.exec.timeout(),
        Some(skipper_mission::executive::DEFAULT_MISSION_TIMEOUT)
    );
    b.exec.set_timeout(100.0);
    b.ticks(100);
    assert_eq!(b.exec.status(), MissionStatus::Running);
    b.tick(); // t = 100
    assert_eq!(b.exec.status(), MissionStatus::Timeout);
    assert_eq!(b.state("STACK"), ItemState::TimedOut);
    assert_eq!(b.last.buoyancy, Some(1.0), "default mission");
    let t = b
        .exec
        .transitions()
        .iter()
        .find(|t| t.item == 0)
        .copied()
        .unwrap();
    assert_eq!(
        t.reason,
        Some(skipper_mission::executive::EndReason::Timeout)
    );
}

#[test]
fn the_built_in_mission_timeout_is_24_hours_and_the_configuration_changes_it() {
    let src = mission(&format!("{WAIT}1000000);"));
    let mut b = Bench::new(&src);
    b.ticks(24 * 3600);
    assert_eq!(b.exec.status(), MissionStatus::Running);
    b.tick();
    assert_eq!(b.exec.status(), MissionStatus::Timeout);
    let mut b = Bench::with_control(&src, "MissionTimeout = 2 minute;");
    assert_eq!(b.exec.timeout(), Some(120.0));
    b.ticks(121);
    assert_eq!(b.exec.status(), MissionStatus::Timeout);
}

#[test]
fn a_missions_own_within_bounds_it_instead_of_the_default() {
    let src = format!("NAME = \"t\"\nSTACK = {{ WITHIN = Units.HOUR(30); {WAIT}1000000); }}");
    let mut b = Bench::new(&src);
    assert_eq!(b.exec.timeout(), None);
    b.exec.set_timeout(10.0);
    b.ticks(20);
    assert_eq!(b.exec.status(), MissionStatus::Running);
}
