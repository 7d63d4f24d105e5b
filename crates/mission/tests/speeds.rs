//! Default speeds (the `speed` module): a moving behavior that names no speed drives at
//! its default speed from the vehicle configuration; its own SPEED, a SetSpeed behavior
//! and a SetSpeed command's cruise speed come first; `mission check` warns about items
//! that can never move the vehicle.

mod common;
use common::{mission, Bench};
use skipper_mission::{load, load_str, parse_config, LoadOptions};

const WP: &str =
    "COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.9, -121.9))";

#[test]
fn a_waypoint_without_any_speed_drives_at_the_built_in_default() {
    let mut b = Bench::new(&mission(&format!("{WP};")));
    let sp = b.tick();
    assert_eq!(sp.speed, Some(1.0));
    assert_eq!(b.exec.winners().speed, Some(b.index("1")));
    assert!(
        b.exec.mission().warnings.is_empty(),
        "{:?}",
        b.exec.mission().warnings
    );
}

#[test]
fn the_vehicle_configuration_sets_each_behaviors_default() {
    let src = mission(&format!(
        "BEHAVIOR(Guidance.Circle):SET(Guidance.Circle.CENTER, Units.DEGREE(36.8, -121.9)):WHILE(UniversalURI.DEPTH:GT(Units.METER(50)));
         {WP};"
    ));
    let mut b = Bench::with_control(
        &src,
        "DefaultSpeed.Waypoint = 0.6 m/s;\nDefaultSpeed.Circle = 2 knot;\n",
    );
    assert_eq!(b.tick().speed, Some(0.6));
    b.set("DEPTH", 60.0); // the circle runs, above the waypoint: its default counts
    let s = b.tick().speed.unwrap();
    assert!((s - 2.0 * 1852.0 / 3600.0).abs() < 1e-9, "{s}");
    assert_eq!(b.exec.winners().speed, Some(b.index("1")));
}

#[test]
fn set_speed_and_the_items_own_speed_come_before_the_default() {
    // a SetSpeed command's cruise speed
    let mut b = Bench::new(&mission(&format!(
        "COMMAND(Guidance.SetSpeed):SET(Guidance.SetSpeed.SPEED, Units.METER_PER_SECOND, 0.4);
         {WP};"
    )));
    assert_eq!(b.tick().speed, Some(0.4));
    // a SetSpeed behavior below the waypoint
    let mut b = Bench::new(&mission(&format!(
        "{WP};
         BEHAVIOR(Guidance.SetSpeed):SET(Guidance.SetSpeed.SPEED, Units.METER_PER_SECOND, 0.3);"
    )));
    assert_eq!(b.tick().speed, Some(0.3));
    // the waypoint's own SPEED
    let mut b = Bench::new(&mission(&format!(
        "{WP}:SET(Guidance.Waypoint.SPEED, Units.METER_PER_SECOND, 0.8);"
    )));
    assert_eq!(b.tick().speed, Some(0.8));
}

#[test]
fn go_to_surface_takes_its_default_from_the_configuration() {
    let mut b = Bench::with_control(
        &mission("COMMAND(Guidance.GoToSurface);"),
        "DefaultSpeed.GoToSurface = 0.7 m/s;",
    );
    assert_eq!(b.tick().speed, Some(0.7));
}

fn warnings(src: &str, control: Option<&str>) -> Vec<String> {
    let opts = LoadOptions {
        control: control.map(|c| parse_config(c, "Control.cfg").unwrap()),
        ..LoadOptions::default()
    };
    let m = load(src, "t.lua", &opts).expect("loads");
    m.warnings
        .iter()
        .map(|w| format!("{}: {}", w.line, w.message))
        .collect()
}

#[test]
fn mission_check_warns_where_an_item_can_never_move_the_vehicle() {
    // its own speed is 0
    let w = warnings(
        &mission(&format!(
            "{WP}:SET(Guidance.Waypoint.SPEED, Units.METER_PER_SECOND, 0);"
        )),
        None,
    );
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("3: Guidance.Waypoint can never move the vehicle: its speed is 0"),
        "{w:?}"
    );
    // no speed, a default of 0, no SetSpeed
    let src = mission(&format!("{WP};"));
    let w = warnings(&src, Some("DefaultSpeed.Waypoint = 0 m/s;"));
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("DefaultSpeed.Waypoint is 0 m/s"), "{w:?}");
    // ... unless a SetSpeed gives one
    let src = mission(&format!(
        "COMMAND(Guidance.SetSpeed):SET(Guidance.SetSpeed.SPEED, Units.METER_PER_SECOND, 1);\n{WP};"
    ));
    assert!(warnings(&src, Some("DefaultSpeed.Waypoint = 0 m/s;")).is_empty());
    // a SetSpeed behavior of 0 above it, for as long as it runs
    let src = mission(&format!(
        "BEHAVIOR(Guidance.SetSpeed):SET(Guidance.SetSpeed.SPEED, Units.METER_PER_SECOND, 0);
         {{ {WP}:SET(Guidance.Waypoint.SPEED, Units.METER_PER_SECOND, 1); }};"
    ));
    let w = warnings(&src, None);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("4: Guidance.Waypoint can never move the vehicle: the SetSpeed behavior of 0 m/s on line 3"), "{w:?}");
    // a guarded one does not always hold it
    let src = mission(&format!(
        "BEHAVIOR(Guidance.SetSpeed):SET(Guidance.SetSpeed.SPEED, Units.METER_PER_SECOND, 0):WHILE(UniversalURI.DEPTH:GT(Units.METER(5)));
         {WP};"
    ));
    assert!(warnings(&src, None).is_empty());
}

#[test]
fn a_default_speed_that_is_not_a_speed_is_a_warning() {
    let w = warnings(
        &mission(&format!("{WP};")),
        Some("DefaultSpeed.Waypoint = 3 meter;"),
    );
    assert!(w.iter().any(|w| w.contains("is not a speed")), "{w:?}");
    let _ = load_str(&mission(&format!("{WP};")), "t.lua").unwrap();
}
