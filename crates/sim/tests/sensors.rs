//! Sonar and laser ranges against known geometry; battery, compass, I/O.

mod common;
use common::*;
use skipper_core::Actuation;

/// The robot at the origin facing +x in a 10 m × 6 m box: walls at x = ±5, y = ±3.
const BOX: &str = "box 0 0 10 6\nrobot r 0 0 0 analog5=700 digin=0x0f\n";

fn sonar_expected(k: usize) -> f64 {
    let (x, y, h) = skipper_core::sensors::pioneer::P3DX_SONARS[k];
    let (x, y, h) = (x / 1000.0, y / 1000.0, h.to_radians());
    let (c, s) = (h.cos(), h.sin());
    // distance from the transducer to each wall along the beam
    let mut best = f64::INFINITY;
    for (n, wall) in [(c, 5.0 - x), (-c, 5.0 + x), (s, 3.0 - y), (-s, 3.0 + y)] {
        if n > 1e-9 {
            best = best.min(wall / n);
        }
    }
    best.min(5.0)
}

#[test]
fn sonar_ranges_match_the_geometry() {
    let b = Bench::new(world(BOX));
    for k in 0..16 {
        let got = b.f(&format!("sonar.{k}"));
        let want = sonar_expected(k);
        assert!((got - want).abs() < 1e-9, "sonar {k}: {got} vs {want}");
    }
    // sonar 0 looks left from y = 0.136: 3 - 0.136
    assert!((b.f("sonar.0") - 2.864).abs() < 1e-9);
    // sonar 3 looks 10° left of ahead from x = 0.166: beyond the 5 m range? (5-0.166)/cos10° = 4.909
    assert!((b.f("sonar.3") - (5.0 - 0.166) / 10f64.to_radians().cos()).abs() < 1e-9);
}

#[test]
fn laser_ranges_match_the_geometry() {
    let b = Bench::new(world(BOX));
    // beam 90 looks straight ahead from x = 0.018
    assert!((b.f("laser.90") - 4.982).abs() < 1e-9);
    // beam 0 looks right (-90°): the wall at y = -3
    assert!((b.f("laser.0") - 3.0).abs() < 1e-9);
    // beam 135 at +45°: hits y = 3 at 3/sin45 = 4.243 (before x = 5)
    assert!((b.f("laser.135") - 3.0 / 45f64.to_radians().sin()).abs() < 1e-9);
    // beam 179 at +89°
    assert!((b.f("laser.179") - 3.0 / 89f64.to_radians().sin()).abs() < 1e-9);
    assert!(b.signals.id("laser.180").is_none(), "180 beams");
}

#[test]
fn every_beam_reads_where_the_declared_geometry_points_it() {
    use skipper_core::World;
    let b = Bench::new(world(BOX));
    let g = b
        .world
        .vehicle(0)
        .unwrap()
        .sensors()
        .laser
        .expect("a laser");
    for k in 0..180 {
        // from the mount (g.x, 0) along the beam's direction to the first wall of the box
        let (c, s) = {
            let a = g.angle_min + k as f64 * g.angle_increment;
            (a.cos(), a.sin())
        };
        let mut expected = f64::INFINITY;
        for (n, wall) in [(c, 5.0 - g.x), (-c, 5.0 + g.x), (s, 3.0), (-s, 3.0)] {
            if n > 1e-9 {
                expected = expected.min(wall / n);
            }
        }
        let got = b.f(&format!("laser.{k}"));
        assert!(
            (got - expected).abs() < 1e-9,
            "beam {k}: {got} m, the geometry says {expected} m"
        );
    }
}

#[test]
fn a_free_beam_reads_its_maximum_range() {
    let b = Bench::new(world("box 0 0 40 40\nrobot r 0 0 0\n"));
    assert_eq!(b.f("sonar.3"), 5.0);
    assert_eq!(b.f("laser.90"), 8.0);
}

#[test]
fn rays_see_other_robots() {
    let b = Bench::new(world("box 0 0 40 40\nrobot r 0 0 0\nrobot other 2 0 0\n"));
    assert!((b.f("laser.90") - (2.0 - 0.25 - 0.018)).abs() < 1e-9);
}

#[test]
fn io_compass_battery_and_analog_select() {
    let mut b = Bench::new(world(BOX));
    assert_eq!(b.i("digin"), 0x0f);
    assert_eq!(b.i("analog.port"), 5);
    assert_eq!(b.i("analog.value"), 700);
    assert!(
        (b.f("compass.heading") - 90.0).abs() < 1e-9,
        "facing +x is east"
    );
    assert_eq!(b.f("compass.temperature"), 20.0);
    let v0 = b.f("battery.voltage");
    assert!(v0 > 12.0 && v0 <= 13.0);
    let a = Actuation {
        analog_select: Some(2),
        digital_out: Some((0b1010, 0xff)),
        ..Default::default()
    };
    b.cycle(&a);
    assert_eq!(b.i("analog.port"), 2);
    assert_eq!(b.i("analog.value"), 0);
    assert_eq!(b.i("digout"), 0b1010);
    b.cycle(&Actuation {
        digital_out: Some((0b0010, 0)),
        ..Default::default()
    });
    assert_eq!(b.i("digout"), 0b1000, "only masked bits change");
}

#[test]
fn speech_becomes_an_event() {
    let mut b = Bench::new(world(BOX));
    b.cycle(&Actuation {
        say: vec!["hello world".into()],
        ..Default::default()
    });
    let e = b
        .events
        .as_slice()
        .iter()
        .find(|e| e.kind == "speech")
        .expect("speech event");
    assert_eq!(e.data["text"], "hello world");
}

#[test]
fn landmarks_and_balls_are_perceived() {
    let b = Bench::new(world(
        "box 0 0 20 20\nrobot r 0 0 0\nlandmark goal 3 4\nball 2 0\n",
    ));
    assert!((b.f("landmark.goal.distance") - 5.0).abs() < 1e-9);
    assert!((b.f("landmark.goal.bearing") - 4f64.atan2(3.0).to_degrees()).abs() < 1e-9);
    assert!(b.b("ball.seen"));
    assert!((b.f("ball.distance") - 2.0).abs() < 1e-9);
    assert!(b.f("ball.bearing").abs() < 1e-9);
    assert!(!b.b("can.seen"));
}

#[test]
fn sonar_arrays_fire_one_transducer_every_40_ms() {
    let mut b = Bench::new(world(BOX));
    let ids: Vec<_> = (0..16)
        .map(|k| b.signals.id(&format!("sonar.{k}")).unwrap())
        .collect();
    let mut fired = [0u32; 16];
    for _ in 0..16 {
        b.cycle(&Actuation::default());
        let fresh: Vec<usize> = (0..16)
            .filter(|&k| b.signals.updated_at(ids[k]) == Some(b.now))
            .collect();
        // 100 ms per cycle: two or three pings per array
        let front = fresh.iter().filter(|&&k| k < 8).count();
        let rear = fresh.len() - front;
        assert!((2..=3).contains(&front) && front == rear, "{fresh:?}");
        for k in fresh {
            fired[k] += 1;
        }
    }
    // 1.6 s = 40 pings per array = 5 rounds of 8
    assert_eq!(fired, [5; 16]);
}

#[test]
fn sonar_period_zero_fires_every_sonar_every_cycle() {
    let mut b = Bench::new(world(&format!("set sonar_period 0\n{BOX}")));
    let ids: Vec<_> = (0..16)
        .map(|k| b.signals.id(&format!("sonar.{k}")).unwrap())
        .collect();
    b.cycle(&Actuation::default());
    assert!(ids
        .iter()
        .all(|&id| b.signals.updated_at(id) == Some(b.now)));
}

#[test]
fn a_laser_scan_at_any_resolution_matches_the_beams() {
    let b = Bench::new(world(BOX));
    // -90° .. +90° at half a degree: 361 beams; every whole degree is the sensed beam
    let mut scan = vec![0.0; 361];
    b.world.laser_scan(0, -90.0, 0.5, &mut scan).unwrap();
    for k in 0..180 {
        assert_eq!(
            scan[2 * k],
            b.f(&format!("laser.{k}")),
            "beam at {}°",
            k as f64 - 90.0
        );
    }
    // +90° looks left at the wall y = 3, from the laser 18 mm ahead of the centre
    assert!((scan[360] - 3.0).abs() < 1e-9);
    assert_eq!(b.world.laser_range(), 8.0);
    let no_laser = world("box 0 0 20 20\nrobot r 0 0 0 laser=no\n");
    assert!(no_laser.laser_scan(0, -90.0, 1.0, &mut scan).is_none());
    assert!(no_laser.laser_scan(1, -90.0, 1.0, &mut scan).is_none());
}
