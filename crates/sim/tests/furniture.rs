//! A robot or a goal inside furniture (a place walls close off within the floor) or a
//! goal inside a wall is refused with file:line:col and a caret; the example worlds have
//! none.

use skipper_sim::{load_world, parse_world, GroundWorld, WorldErrors};
use std::path::Path;

const OFFICE: &str = "box 0 0 20 10\nwall 0 -5 0 3\nbox 6 2 2 1\n";

fn refused(text: &str) -> WorldErrors {
    let spec = parse_world(text, "f.world", None).unwrap();
    match GroundWorld::new(&spec, 0) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn a_goal_inside_furniture_is_refused_at_its_name() {
    let e = refused(&format!("{OFFICE}robot r -5 0 0\ngoal cupboard 6.2 2.1\n")).to_string();
    assert!(
        e.starts_with("f.world:5:6: error: goal `cupboard` at (6.20, 2.10) is inside furniture"),
        "{e}"
    );
    assert!(
        e.contains("5 | goal cupboard 6.2 2.1\n  |      ^^^^^^^^"),
        "{e}"
    );
}

#[test]
fn a_robot_inside_furniture_is_refused() {
    let e = refused(&format!("{OFFICE}robot r -5 0 0\nrobot stuck 6 2 0\n")).to_string();
    assert!(
        e.contains("f.world:5:7: error: robot `stuck` at (6.00, 2.00) is inside furniture"),
        "{e}"
    );
    // the only robot, inside furniture on a floor: still refused
    let e = refused(&format!("{OFFICE}robot stuck 6 2 0\n")).to_string();
    assert!(e.contains("robot `stuck`"), "{e}");
}

#[test]
fn a_goal_no_robot_fits_on_is_inside_a_wall() {
    let e = refused(&format!("{OFFICE}robot r -5 0 0\ngoal door 0.1 -1\n")).to_string();
    assert!(
        e.contains("f.world:5:6: error: goal `door` at (0.10, -1.00) is inside a wall: a wall passes 0.10 m from it"),
        "{e}"
    );
}

#[test]
fn furniture_without_a_room_around_it_is_still_furniture() {
    // no outer walls: the robots stand outside everything, the goal is in the box
    let e = refused("box 6 2 2 1\nrobot r 0 0 0\ngoal cupboard 6 2\n").to_string();
    assert!(e.contains("goal `cupboard`"), "{e}");
}

#[test]
fn goals_and_robots_on_the_floor_are_fine() {
    let text =
        format!("{OFFICE}robot r -5 0 0\nrobot s 5 -3 0\ngoal beside 6 3.5\ngoal room 5 0\n");
    let spec = parse_world(&text, "f.world", None).unwrap();
    assert!(GroundWorld::new(&spec, 0).is_ok());
}

#[test]
fn the_example_worlds_have_nothing_inside_furniture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for w in [
        "worlds/office.world",
        "worlds/empty.world",
        "worlds/soccer.world",
        "worlds/soar-tour.world",
        "worlds/soar-patrol.world",
        "worlds/lab.map",
        "xabsl/turn_and_release/field.world",
    ] {
        let spec = load_world(&root.join(w)).unwrap_or_else(|e| panic!("{w}: {e}"));
        GroundWorld::new(&spec, 0).unwrap_or_else(|e| panic!("{w}: {e}"));
    }
}
