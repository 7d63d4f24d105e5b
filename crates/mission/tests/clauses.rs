//! Rules 30-35 and §2.4: ELAPSED, invalid values, truthiness, left-to-right chaining, the
//! boolean metatable.

mod common;
use common::{mission, Bench, WAIT};
use skipper_core::Value;
use skipper_mission::ItemState;

fn guarded(clause: &str) -> Bench {
    Bench::new(&mission(&format!(
        "{{ ID = \"g\"; WHILE = {clause}; {WAIT}1000); }};
         {WAIT}1000);"
    )))
}

#[test]
fn elapsed_on_a_never_updated_uri_is_true() {
    let mut b = guarded("UniversalURI.PLATFORM_LOCATION_FIX:ELAPSED(Units.HOUR(1))");
    b.tick();
    assert_eq!(b.state("g"), ItemState::Active);
}

#[test]
fn elapsed_counts_from_the_last_new_datum() {
    let mut b = guarded("UniversalURI.PLATFORM_COMMUNICATIONS:ELAPSED(Units.MINUTE(1))");
    b.set_value("PLATFORM_COMMUNICATIONS", Value::Bool(true));
    b.ticks(11); // updated 10 s ago
    assert_eq!(b.state("g"), ItemState::Armed);
    b.ticks(50); // t=60
    assert_eq!(b.state("g"), ItemState::Active);
    // the same value again is a new datum: ELAPSED restarts (rule 30)
    b.set_value("PLATFORM_COMMUNICATIONS", Value::Bool(true));
    b.tick();
    assert_eq!(b.state("g"), ItemState::Suspended);
}

#[test]
fn comparisons_with_an_invalid_altitude_are_all_false_and_not_is_true() {
    for (clause, expected) in [
        (
            "UniversalURI.HEIGHT_ABOVE_SEA_FLOOR:LT(Units.METER(10))",
            false,
        ),
        (
            "UniversalURI.HEIGHT_ABOVE_SEA_FLOOR:GT(Units.METER(10))",
            false,
        ),
        (
            "UniversalURI.HEIGHT_ABOVE_SEA_FLOOR:NE(Units.METER(10))",
            false,
        ),
        (
            "UniversalURI.HEIGHT_ABOVE_SEA_FLOOR:LT(Units.METER(10)):NOT()",
            true,
        ),
    ] {
        let mut b = guarded(clause);
        b.invalidate("HEIGHT_ABOVE_SEA_FLOOR");
        b.tick();
        assert_eq!(b.state("g") == ItemState::Active, expected, "{clause}");
    }
}

#[test]
fn comparisons_convert_units() {
    let mut b = guarded("UniversalURI.DEPTH:GT(Units.FOOT(1))");
    b.set("DEPTH", 0.31);
    b.tick();
    assert_eq!(b.state("g"), ItemState::Active);
    b.set("DEPTH", 0.30);
    b.tick();
    assert_eq!(b.state("g"), ItemState::Suspended);
    let mut b = guarded("UniversalURI.PLATFORM_PITCH_ANGLE:GT(Units.DEGREE(15))");
    b.set("PLATFORM_PITCH_ANGLE", 16f64.to_radians());
    b.tick();
    assert_eq!(b.state("g"), ItemState::Active);
}

#[test]
fn chains_are_left_associative() {
    // A = B = true, C = false: A:OR(B):AND(C) = (A or B) and C = false
    let a = "UniversalURI.DEPTH:GT(Units.METER(1))";
    let c = "UniversalURI.DEPTH:GT(Units.METER(100))";
    let mut b = guarded(&format!("{a}:OR({a}):AND({c})"));
    b.tick();
    assert_eq!(b.state("g"), ItemState::Armed);
    // and C:AND(A):OR(B) = (C and A) or B = true
    let mut b = guarded(&format!("{c}:AND({a}):OR({a})"));
    b.tick();
    assert_eq!(b.state("g"), ItemState::Active);
}

#[test]
fn boolean_literals_take_clause_methods() {
    let mut b = guarded("(false):OR(UniversalURI.DEPTH:GT(Units.METER(1)))");
    b.tick();
    assert_eq!(b.state("g"), ItemState::Active);
    let mut b = guarded("(true):AND(false)");
    b.tick();
    assert_eq!(b.state("g"), ItemState::Armed);
}

#[test]
fn bare_boolean_uris_are_truthy() {
    let mut b = guarded("UniversalURI.PLATFORM_AT_SURFACE");
    b.set_value("PLATFORM_AT_SURFACE", Value::Bool(false));
    b.tick();
    assert_eq!(b.state("g"), ItemState::Armed);
    b.set_value("PLATFORM_AT_SURFACE", Value::Bool(true));
    b.tick();
    assert_eq!(b.state("g"), ItemState::Active);
}

#[test]
fn positions_compare_only_for_equality() {
    let mut b = guarded("UniversalURI.PLATFORM_LOCATION_FIX:EQ(Units.DEGREE(36.8, -121.9))");
    b.set_value(
        "PLATFORM_LOCATION_FIX",
        Value::Position {
            lat: 36.8,
            lon: -121.9,
        },
    );
    b.tick();
    assert_eq!(b.state("g"), ItemState::Active);
    let e = skipper_mission::load_str(
        &mission(
            "COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND, 1):UNTIL(UniversalURI.PLATFORM_LOCATION_FIX:LT(Units.DEGREE(1, 2)))",
        ),
        "t.lua",
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("only be compared with EQ or NE"),
        "{e}"
    );
}
