//! Seeds mean something: the simulated Pioneer's sensors and odometry are noisy by
//! default (MobileSim's levels), so two seeds give two runs and one seed one run; exact
//! settings give the same run whatever the seed.

mod common;
use common::*;
use skipper_core::{Drive, World};
use skipper_sim::{parse_world, GroundWorld, Settings};

const ROOM: &str = "box 0 0 20 20\nwall 3 -5 3 5\nrobot r 0 0 0\n";

/// Odometry x after 10 s at 0.5 m/s, and the first laser beam and sonar, with `seed`.
fn drive(seed: u64, exact: bool) -> (f64, f64, f64) {
    let mut spec = parse_world(ROOM, "t.world", None).unwrap();
    if exact {
        spec.settings.exact();
    }
    let mut b = Bench::new(GroundWorld::new(&spec, seed).unwrap());
    b.act_then_wait(drive_cmd(), 100);
    (b.f("pose.x"), b.f("laser.90"), b.f("sonar.3"))
}

fn drive_cmd() -> skipper_core::Actuation {
    common::drive(Drive::velocity(0.5, 0.0))
}

#[test]
fn noise_is_on_by_default_at_mobilesims_levels() {
    let s = Settings::default();
    assert_eq!(
        (s.odometry_noise, s.sonar_noise, s.laser_noise),
        (0.0075, 0.0005, 0.005)
    );
    assert_eq!(
        s.noise_summary(),
        "odometry 0.75%, sonar 0.5 mm, laser 5 mm"
    );
    let mut e = s.clone();
    e.exact();
    assert!(!e.noisy());
    assert_eq!(e.noise_summary(), "none");
}

#[test]
fn two_seeds_give_two_runs_and_one_seed_one() {
    let a = drive(0, false);
    let b = drive(1, false);
    assert_ne!(a.0, b.0, "odometry");
    assert_ne!(a.1, b.1, "laser");
    assert_eq!(a, drive(0, false));
    // without noise the seed changes nothing
    assert_eq!(drive(0, true), drive(1, true));
}

#[test]
fn the_summary_says_which_noise_and_seed() {
    let spec = parse_world(ROOM, "t.world", None).unwrap();
    let w = GroundWorld::new(&spec, 7).unwrap();
    let mut out = serde_json::Map::new();
    w.summary(&mut out);
    assert_eq!(out["noise"], "odometry 0.75%, sonar 0.5 mm, laser 5 mm");
    assert_eq!(out["seed"], 7);
    let mut spec = spec;
    spec.settings.exact();
    let mut out = serde_json::Map::new();
    GroundWorld::new(&spec, 7).unwrap().summary(&mut out);
    assert_eq!(out["noise"], "none");
}
