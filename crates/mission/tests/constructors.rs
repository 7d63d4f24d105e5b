//! §2: both constructor forms, substack modifiers, units as values and tokens, positions,
//! configuration tables, paths (rule 43).

use skipper_mission::model::{Body, Constant, Guard, Repeat, SettingValue};
use skipper_mission::{load_str, Mission};

fn load(src: &str) -> Mission {
    match load_str(src, "t.lua") {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn builder_and_table_forms_give_the_same_item() {
    let a = load(
        "NAME = 'a'
         STACK = {
           BEHAVIOR(Guidance.DepthEnvelope)
             :SET(Guidance.DepthEnvelope.MIN_DEPTH, Units.METER, 5)
             :SET(Guidance.DepthEnvelope.MAX_DEPTH, Units.FOOT(100))
             :WHEN(UniversalURI.DEPTH:GT(Units.METER(1)))
             :UNTIL(false);
         }",
    );
    let b = load(
        "NAME = 'b'
         STACK = {
           { BEHAVIOR = Guidance.DepthEnvelope,
             Guidance.DepthEnvelope.MIN_DEPTH:SET(Units.METER, 5),
             Guidance.DepthEnvelope.MAX_DEPTH:SET(Units.FOOT(100)),
             WHEN = UniversalURI.DEPTH:GT(Units.METER(1)),
             UNTIL = false };
         }",
    );
    let (x, y) = (&a.items[1], &b.items[1]);
    assert_eq!(x.body, y.body);
    assert_eq!(x.guard, y.guard);
    assert_eq!(x.until, y.until);
    let l = x.leaf().unwrap();
    assert_eq!(l.number("MIN_DEPTH"), Some(5.0));
    assert!((l.number("MAX_DEPTH").unwrap() - 30.48).abs() < 1e-9);
    assert!(matches!(x.guard, Guard::When(_)));
}

#[test]
fn substack_modifiers_and_paths() {
    let m = load(
        "NAME = 'm'
         STACK = {
           BEHAVIOR(Guidance.YoYo);
           { ID = 'outer'; REPEAT = 3; WITHIN = Units.MINUTE(30); PREEMPTIVE = true;
             UNTIL = UniversalURI.DEPTH:LT(Units.METER(2));
             { WHILE = true; COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND(1)) };
             COMMAND(Guidance.GoToSurface);
           };
           { REPEAT = math.huge; COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND(1)) };
         }",
    );
    let paths: Vec<_> = m.items.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "STACK",
            "1",
            "outer",
            "outer/1",
            "outer/1/1",
            "outer/2",
            "3",
            "3/1"
        ]
    );
    let outer = &m.items[2];
    assert_eq!(outer.repeat, Repeat::Times(3));
    assert_eq!(outer.within, Some(1800.0));
    assert!(outer.preemptive.is_some() && outer.until.is_some());
    let Body::Stack {
        sequence,
        children,
        id,
    } = &outer.body
    else {
        panic!()
    };
    assert_eq!(id.as_deref(), Some("outer"));
    assert_eq!(children, &vec![3, 5]);
    assert_eq!(sequence, &vec![5], "the WHILE substack is out of sequence");
    assert_eq!(m.items[6].repeat, Repeat::Forever);
    assert_eq!(outer.end, 6);
}

#[test]
fn positions_units_and_configuration() {
    let m = load(
        "NAME = 'p'
         lat = workSite.latitude; lon = workSite.longitude
         here = Units.DEGREE(lat, lon - 0.01)
         STACK = {
           COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.WAYPOINT, here)
             :SET(Guidance.Waypoint.SPEED, Units.METER_PER_SECOND, Control.SpeedControl.SPEED_SLOW)
             :SET(Guidance.Waypoint.CAPTURE_RADIUS, Units.kilometer(0.1));
           COMMAND(Guidance.ReadSensor):SET(Guidance.ReadSensor.URI, UniversalURI.PLATFORM_LOCATION_FIX);
           BEHAVIOR(Guidance.Circle):SET(Guidance.Circle.CENTER, here):SET(Guidance.Circle.TURN_TO_PORT, true);
         }",
    );
    let wp = m.items[1].leaf().unwrap();
    let (lat, lon) = wp.position("WAYPOINT").unwrap();
    assert_eq!(lat, 36.8);
    assert!((lon + 121.91).abs() < 1e-9);
    assert_eq!(wp.number("SPEED"), Some(0.7));
    assert!((wp.number("CAPTURE_RADIUS").unwrap() - 100.0).abs() < 1e-9);
    assert!(matches!(
        m.items[2].leaf().unwrap().settings[0],
        Some(SettingValue::Uri(_))
    ));
    assert_eq!(m.items[3].leaf().unwrap().flag("TURN_TO_PORT"), Some(true));
    let _ = Constant::Bool(true);
}

#[test]
fn the_spec_mission_loads_with_its_structure() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/missions/test_mission.lua");
    let m = skipper_mission::load_file(&path, Default::default()).unwrap();
    assert_eq!(m.name, "Test Mission");
    assert_eq!(m.items.len(), 19);
    for p in [
        "NeedSatFix",
        "NeedSatFix/SurfOps",
        "NeedSatFix/SurfOps/2",
        "RepeatOps",
        "RepeatOps/1",
        "RepeatOps/7",
    ] {
        assert!(m.find(p).is_some(), "{p}");
    }
    let root = &m.items[0];
    let Body::Stack { sequence, .. } = &root.body else {
        panic!()
    };
    assert_eq!(
        sequence,
        &vec![m.find("RepeatOps").unwrap()],
        "NeedSatFix is WHEN-guarded"
    );
    let rep = &m.items[m.find("RepeatOps").unwrap()];
    assert_eq!(rep.repeat, Repeat::Times(2));
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    // the WHEN clause is ((fix ≥ 1h ∨ comms ≥ 1h) ∧ pitch > 15°) ∨ fix ≥ 2h ∨ comms ≥ 2h
    let Guard::When(c) = &m.items[m.find("NeedSatFix").unwrap()].guard else {
        panic!()
    };
    use skipper_mission::model::Clause::*;
    let Or(left, _comms2h) = c else {
        panic!("{c:?}")
    };
    let Or(left, _fix2h) = &**left else { panic!() };
    assert!(matches!(&**left, And(..)), "{left:?}");
}

#[test]
fn waypoint_and_circle_places_are_in_the_controller_state() {
    use skipper_core::Controller;
    let m = std::sync::Arc::new(load(
        "NAME = 'places'
         STACK = {
           BEHAVIOR(Guidance.Circle)
             :SET(Guidance.Circle.CENTER, Units.DEGREE(36.81, -121.90))
             :SET(Guidance.Circle.RADIUS, Units.METER, 250);
           COMMAND(Guidance.Waypoint)
             :SET(Guidance.Waypoint.WAYPOINT, Units.DEGREE(36.80, -121.89));
           COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.MINUTE, 1);
         }",
    ));
    // without the local frame's origin: latitude and longitude only
    let plain = skipper_mission::MissionController::new(m.clone());
    let s = plain.state().unwrap();
    let items = s["items"].as_array().unwrap();
    let places: Vec<&serde_json::Value> = items.iter().filter_map(|i| i.get("place")).collect();
    assert_eq!(places.len(), 2, "{s}");
    assert!(places.iter().all(|p| p.get("x").is_none()));
    // with it: metres east and north of the origin, the radii as set or by default
    let c = skipper_mission::MissionController::new(m).with_origin(36.80, -121.90);
    let s = c.state().unwrap();
    let circle = s["items"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|i| i.get("place").filter(|p| p["kind"] == "circle"))
        .unwrap()
        .clone();
    assert!(circle["x"].as_f64().unwrap().abs() < 1e-6);
    let north = circle["y"].as_f64().unwrap();
    assert!((north - 1111.95).abs() < 0.1, "{north}");
    assert_eq!(circle["radius"], 250.0);
    let wp = s["items"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|i| i.get("place").filter(|p| p["kind"] == "waypoint"))
        .unwrap()
        .clone();
    let east = wp["x"].as_f64().unwrap();
    assert!((east - 890.4).abs() < 1.0, "{east}");
    assert!(wp["y"].as_f64().unwrap().abs() < 1e-6);
    assert_eq!(wp["capture_radius"], 10.0);
}
