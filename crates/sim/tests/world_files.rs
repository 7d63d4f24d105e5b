//! World files and `.map` import: what loads, what is refused, and how errors read.

use skipper_sim::ground::populate;
use skipper_sim::{load_world, parse_world, GroundWorld, WorldErrors};
use std::path::Path;

fn errors(text: &str) -> WorldErrors {
    parse_world(text, "bad.world", None).expect_err("should not parse")
}

fn first_loc(e: &WorldErrors) -> (usize, usize) {
    let l = e.0[0].location().expect("a location");
    (l.line, l.col)
}

#[test]
fn a_bad_number_is_reported_at_its_line_and_column_with_a_caret() {
    let e = errors("box 0 0 10 10\nwall 0 0 abc 1\n");
    assert_eq!(first_loc(&e), (2, 10));
    let s = e.to_string();
    assert!(
        s.starts_with("bad.world:2:10: error: expected a number for x2, found `abc`"),
        "{s}"
    );
    assert!(s.contains("2 | wall 0 0 abc 1"), "{s}");
    assert!(s.ends_with("  |          ^^^"), "{s}");
}

#[test]
fn every_error_of_a_file_is_reported() {
    let e =
        errors("wal 0 0 1 1\nrobot r 0\nball 1 2 3 4\nset warp 9\nrobot r2 1 1 90 colour=red\n");
    let lines: Vec<usize> = e.0.iter().map(|x| x.location().unwrap().line).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5]);
    let s = e.to_string();
    assert!(s.contains("unknown keyword `wal`"), "{s}");
    assert!(s.contains("`robot` needs a name, x and y"), "{s}");
    assert!(s.contains("unexpected `4`"), "{s}");
    assert!(s.contains("unknown setting `warp`"), "{s}");
    assert!(s.contains("unknown robot option `colour`"), "{s}");
}

#[test]
fn duplicate_robot_names_are_refused() {
    let e = errors("robot a 0 0\nrobot a 1 1\n");
    assert_eq!(first_loc(&e), (2, 7));
    assert!(e.to_string().contains("already exists"));
}

#[test]
fn a_robot_inside_a_wall_is_refused_with_a_message() {
    let spec = parse_world(
        "box 0 0 10 10\nwall 2 -1 2 1\nrobot r 1.9 0 0\n",
        "w.world",
        None,
    )
    .unwrap();
    let e = GroundWorld::new(&spec, 0).err().expect("refused");
    let s = e.to_string();
    assert_eq!(first_loc(&e), (3, 7));
    assert!(
        s.contains("robot `r` at (1.90, 0.00) is inside a wall"),
        "{s}"
    );
    assert!(s.contains("move the robot away"), "{s}");
}

#[test]
fn overlapping_robots_and_a_world_without_robots_are_refused() {
    let spec = parse_world(
        "box 0 0 10 10\nrobot a 0 0\nrobot b 0.3 0\n",
        "w.world",
        None,
    )
    .unwrap();
    assert!(GroundWorld::new(&spec, 0)
        .err()
        .unwrap()
        .to_string()
        .contains("overlaps robot `a`"));
    // an error of no line names the file, not the world's name
    let spec = parse_world("world Office\nbox 0 0 10 10\n", "worlds/w.world", None).unwrap();
    let e = GroundWorld::new(&spec, 0).err().unwrap().to_string();
    assert!(
        e.starts_with("error: worlds/w.world: the world has no robot"),
        "{e}"
    );
}

/// `--robots N` in a world without robots places them around (0, 0); where none fits
/// there, the error says so instead of "room for only 0 robots".
#[test]
fn robots_placed_in_a_world_without_one_start_at_the_origin() {
    let mut spec = parse_world("box 0 0 10 10\n", "w.world", None).unwrap();
    populate(&mut spec, 3).unwrap();
    assert_eq!(spec.robots.len(), 3);
    let mut spec = parse_world("box 0 0 10 10\nwall -1 0 1 0\n", "w.world", None).unwrap();
    let e = populate(&mut spec, 3).unwrap_err();
    assert!(
        e.contains("none fits at or near (0, 0), where they start"),
        "{e}"
    );
    // a wall beside (0, 0), not across the floor around it: they are placed
    let mut spec = parse_world("box 0 0 10 10\nwall -1 0.25 1 0.25\n", "w.world", None).unwrap();
    populate(&mut spec, 3).unwrap();
    assert_eq!(spec.robots.len(), 3);
}

#[test]
fn options_and_settings_are_read() {
    let spec = parse_world(
        "set laser_range 12\nset odometry_noise 0.01\nrobot r 1 2 90 digin=0x0f analog3=512 battery=12.5 gripper=no laser=off model=p3dx-sh\n",
        "w.world",
        None,
    )
    .unwrap();
    let r = &spec.robots[0];
    assert_eq!(
        (r.digin, r.analog[3], r.battery, r.gripper, r.laser),
        (0x0f, 512, 12.5, false, false)
    );
    assert_eq!(r.model, "p3dx-sh");
    assert!((r.pose.yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    assert_eq!(spec.settings.laser_range, 12.0);
    assert_eq!(spec.settings.odometry_noise, 0.01);
}

const MAP: &str = "2D-Map-Ex4\nMinPos: 0 0\nMaxPos: 10000 5000\nNumLines: 3\n\
Cairn: RobotHome 5090 3580 54 \"\" ICON \"home\"\n\
Cairn: Goal 1000 2000 0 \"near the door\" ICON \"door\"\n\
Cairn: GoalWithHeading 8000 1000 90 \"\" ICON \"dock one\"\n\
LINES\n0 0 10000 0\n10000 0 10000 5000\n0 5000 10000 5000\nDATA\n100 200\n300 400\n";

#[test]
fn a_map_file_imports_with_its_lines_goals_and_home() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test.map");
    std::fs::write(&path, MAP).unwrap();
    let spec = load_world(&path).unwrap();
    assert_eq!(spec.walls.len(), 3);
    let w = spec.walls[1].segment;
    assert_eq!((w.a.x, w.a.y, w.b.x, w.b.y), (10.0, 0.0, 10.0, 5.0));
    assert_eq!(spec.points.len(), 2);
    assert!((spec.points[1].x - 0.3).abs() < 1e-12);
    let goals: Vec<_> = spec
        .goals
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.pos.x,
                g.pos.y,
                g.heading.map(f64::to_degrees),
            )
        })
        .collect();
    assert_eq!(
        goals,
        [("door", 1.0, 2.0, None), ("dock one", 8.0, 1.0, Some(90.0))]
    );
    let home = &spec.robots[0];
    assert_eq!(home.name, "robot1");
    assert!((home.pose.x - 5.09).abs() < 1e-12 && (home.pose.y - 3.58).abs() < 1e-12);
    assert!((home.pose.yaw.to_degrees() - 54.0).abs() < 1e-9);
    GroundWorld::new(&spec, 0).expect("the home is free");
    // and a world file can include it
    std::fs::write(dir.path().join("w.world"), "map test.map\nball 2 2\n").unwrap();
    let spec = load_world(&dir.path().join("w.world")).unwrap();
    assert_eq!(
        (spec.walls.len(), spec.robots.len(), spec.objects.len()),
        (3, 1, 1)
    );
}

#[test]
fn a_bad_map_reports_line_and_column() {
    let e = skipper_sim::map_file::parse_map("2D-Map\nLINES\n0 0 10 x\n", "bad.map").unwrap_err();
    assert_eq!(first_loc(&e), (3, 8));
    assert!(e.to_string().contains("expected a number for y2"));
    let e = skipper_sim::map_file::parse_map("hello\n", "bad.map").unwrap_err();
    assert!(e.to_string().contains("expected `2D-Map`"));
}

#[test]
fn the_example_worlds_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/worlds");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "world" || e == "map") {
            let spec = load_world(&p).unwrap_or_else(|e| panic!("{e}"));
            GroundWorld::new(&spec, 0).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            n += 1;
        }
    }
    assert!(n >= 4, "empty, office, soccer and a map");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn world_text_never_panics(s in "(?s)[a-z0-9 .=#\"\\-\n]{0,200}") {
            if let Ok(spec) = parse_world(&s, "f.world", None) {
                let _ = GroundWorld::new(&spec, 0);
            }
        }
        #[test]
        fn keyword_lines_never_panic(lines in proptest::collection::vec(
            ("(wall|box|ball|can|robot|goal|landmark|set|world)", proptest::collection::vec("(-?[0-9]{1,3}(\\.[0-9])?|x|inf|nan|[a-z]+=[0-9a-z]+)", 0..7)), 0..12)) {
            let text: String = lines.iter().map(|(k, a)| format!("{k} {}\n", a.join(" "))).collect();
            if let Ok(spec) = parse_world(&text, "f.world", None) {
                let _ = GroundWorld::new(&spec, 0);
            }
        }
        #[test]
        fn map_text_never_panics(s in "(?s)(2D-Map\n)?[A-Za-z0-9 :\"\\-\n]{0,200}") {
            let _ = skipper_sim::map_file::parse_map(&s, "f.map");
        }
    }
}

/// The fuzz corpora, replayed as a regular test: every input loads or fails cleanly.
#[test]
fn fuzz_corpora_replay_without_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let mut n = 0;
    for (target, map) in [("world_file", false), ("map_file", true)] {
        let Ok(dir) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for e in dir {
            let bytes = std::fs::read(e.unwrap().path()).unwrap();
            let Ok(text) = std::str::from_utf8(&bytes) else {
                continue;
            };
            let spec = if map {
                skipper_sim::map_file::parse_map(text, "c.map")
            } else {
                parse_world(text, "c.world", None)
            };
            if let Ok(spec) = spec {
                let _ = GroundWorld::new(&spec, 0);
            }
            n += 1;
        }
    }
    assert!(n >= 4, "the corpora hold at least the examples");
}
