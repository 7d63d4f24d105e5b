//! Rules 1, 2, 36-40: priority by document order, parallel behaviors, channel
//! subsumption, envelopes that constrain only the items below them.

mod common;
use common::{mission, Bench};
use skipper_mission::ItemState;

#[test]
fn the_higher_of_two_depth_requests_wins() {
    let mut b = Bench::new(&mission(
        "BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.DEPTH, Units.METER, 30);
         BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.DEPTH, Units.METER, 80);",
    ));
    let sp = b.tick();
    assert_eq!(sp.depth, Some(30.0));
    assert_eq!(b.exec.winners().vertical, Some(b.index("1")));
    // both behaviors run in parallel
    assert_eq!(b.state("1"), ItemState::Active);
    assert_eq!(b.state("2"), ItemState::Active);
}

#[test]
fn an_envelope_clamps_the_items_below_it_but_not_above_it() {
    // above: the Pitch behavior is not clamped by the envelope below it
    let mut b = Bench::new(&mission(
        "BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.DEPTH, Units.METER, 80);
         BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MAX_DEPTH, Units.METER, 50);",
    ));
    assert_eq!(b.tick().depth, Some(80.0));
    // below: clamped to the envelope's bound
    let mut b = Bench::new(&mission(
        "BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MAX_DEPTH, Units.METER, 50);
         BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.DEPTH, Units.METER, 80);",
    ));
    assert_eq!(b.tick().depth, Some(50.0));
    assert_eq!(b.exec.winners().vertical, Some(b.index("2")));
}

#[test]
fn a_diving_pitch_near_the_bound_becomes_a_depth_hold() {
    let mut b = Bench::new(&mission(
        "BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MAX_DEPTH, Units.METER, 50);
         BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.PITCH, Units.DEGREE, -20);",
    ));
    b.set("DEPTH", 20.0);
    let sp = b.tick();
    assert!((sp.pitch.unwrap() + 20f64.to_radians()).abs() < 1e-12);
    b.set("DEPTH", 49.5);
    assert_eq!(b.tick().depth, Some(50.0));
}

#[test]
fn an_envelope_outside_its_bounds_corrects_and_wins_over_lower_items() {
    let mut b = Bench::new(&mission(
        "BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MIN_DEPTH, Units.METER, 5);
         BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.PITCH, Units.DEGREE, 20);",
    ));
    b.set("DEPTH", 1.0);
    let sp = b.tick();
    assert_eq!(sp.depth, Some(7.0));
    assert_eq!(b.exec.winners().vertical, Some(b.index("1")));
}

#[test]
fn go_to_surface_above_a_min_depth_envelope_is_not_clamped() {
    // the spec's step 5: GoToSurface (higher) beats the 5 m DepthEnvelope (lower)
    let mut b = Bench::new(&mission(
        "COMMAND(Guidance.GoToSurface);
         BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MIN_DEPTH, Units.METER, 5);
         BEHAVIOR(Guidance.YoYo);",
    ));
    b.set("DEPTH", 3.0);
    let sp = b.tick();
    assert!(sp.pitch.unwrap() > 0.3, "{sp:?}");
    assert_eq!(sp.buoyancy, Some(1.0));
    assert_eq!(b.exec.winners().vertical, Some(b.index("1")));
}

#[test]
fn altitude_envelope_bounds_depth_from_the_sea_floor_and_is_inert_without_altitude() {
    let src = mission(
        "BEHAVIOR(Guidance.AltitudeEnvelope):SET(Guidance.AltitudeEnvelope.MIN_ALTITUDE, Units.METER, 20);
         BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.DEPTH, Units.METER, 200);",
    );
    let mut b = Bench::new(&src);
    b.set("DEPTH", 100.0);
    b.set("HEIGHT_ABOVE_SEA_FLOOR", 50.0); // floor at 150 m
    assert_eq!(b.tick().depth, Some(130.0));
    b.set("DEPTH", 100.0);
    b.invalidate("HEIGHT_ABOVE_SEA_FLOOR");
    assert_eq!(b.tick().depth, Some(200.0));
    // too low: corrective climb above the bound
    b.set("DEPTH", 135.0);
    b.set("HEIGHT_ABOVE_SEA_FLOOR", 15.0);
    assert_eq!(b.tick().depth, Some(128.0));
    assert_eq!(b.exec.winners().vertical, Some(b.index("1")));
}

#[test]
fn offshore_envelope_forbids_headings_toward_the_coast_near_its_bound() {
    let mut b = Bench::new(&mission(
        "BEHAVIOR(Guidance.OffshoreEnvelope):SET(Guidance.OffshoreEnvelope.MIN_OFFSHORE, Units.KILOMETER, 1);
         BEHAVIOR(Guidance.Circle):SET(Guidance.Circle.CENTER, Units.DEGREE(36.8, -121.8));",
    ));
    // the coast is to the east: away from it is west (270 degrees)
    b.set("DIRECTION_OFFSHORE", 270f64.to_radians());
    b.set("DISTANCE_OFFSHORE", 5000.0);
    let free = b.tick().heading.unwrap();
    // the circle's centre is east, far off: head east (math heading 0)
    assert!(free.abs() < 0.1, "{free}");
    b.set("DISTANCE_OFFSHORE", 1100.0);
    let h = b.tick().heading.unwrap();
    // clamped to along the coast (north or south): math heading ±90 degrees
    assert!((h.abs() - std::f64::consts::FRAC_PI_2).abs() < 1e-9, "{h}");
    b.set("DISTANCE_OFFSHORE", 900.0);
    let h = b.tick().heading.unwrap();
    assert!((h.abs() - std::f64::consts::PI).abs() < 1e-9, "west: {h}");
}

#[test]
fn channels_without_requests_take_their_defaults() {
    let mut b = Bench::new(&mission(
        "BEHAVIOR(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_TEMPERATURE);",
    ));
    b.set("PLATFORM_YAW_ANGLE", 0.0); // north
    let sp = b.tick();
    assert_eq!(sp.speed, Some(0.0));
    assert_eq!(sp.pitch, Some(0.0));
    assert_eq!(sp.buoyancy, None);
    assert!((sp.heading.unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    assert_eq!(sp.sample, skipper_core::actuation::auv_sensor::TEMPERATURE);
}

#[test]
fn conflicting_envelopes_keep_the_higher_one_and_note_it_once() {
    let mut b = Bench::new(&mission(
        "BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MAX_DEPTH, Units.METER, 3);
         BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MIN_DEPTH, Units.METER, 5);
         BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.DEPTH, Units.METER, 10);",
    ));
    b.set("DEPTH", 2.0);
    assert_eq!(b.tick().depth, Some(3.0));
    assert_eq!(b.exec.notes().len(), 1);
    b.set("DEPTH", 2.0);
    b.tick();
    assert!(b.exec.notes().is_empty(), "logged once per episode");
}
