//! How far a round robot can drive along an arc before it comes too close to any of a
//! set of obstacle points (robot frame: x forward, y left): the measure the wander demo
//! picks its way by.
//!
//! An arc of curvature κ (1/m, left positive; 0 is straight ahead) starts at the robot's
//! centre heading along +x. A point stops it where the centre first comes within the
//! clearance radius of the point; points behind the robot, or that the arc passes wide of,
//! do not.

use std::f64::consts::TAU;

/// Distance (m) the centre travels along the arc of curvature `kappa` before it comes
/// within `radius` of `p`, or `None` if it never does within one turn.
pub fn free_distance(p: (f64, f64), kappa: f64, radius: f64) -> Option<f64> {
    let (px, py) = p;
    if kappa.abs() < 1e-6 {
        // straight ahead: the band |y| < radius, points ahead of the centre
        if py.abs() >= radius || px <= 0.0 {
            return None;
        }
        return Some((px - (radius * radius - py * py).sqrt()).max(0.0));
    }
    let r = 1.0 / kappa.abs();
    // the centre of the turn: left of the robot for a left turn
    let cy = 1.0 / kappa;
    let (dx, dy) = (px, py - cy);
    let d = (dx * dx + dy * dy).sqrt();
    let off = (d - r).abs();
    if off >= radius {
        return None;
    }
    // angles around the turn's centre: the robot starts at -90° (left turn) or +90°
    let phi = dy.atan2(dx);
    let start = if kappa > 0.0 {
        -std::f64::consts::FRAC_PI_2
    } else {
        std::f64::consts::FRAC_PI_2
    };
    let swept = if kappa > 0.0 {
        phi - start
    } else {
        start - phi
    }
    .rem_euclid(TAU);
    // a point beside or behind the start (more than three quarters of a turn ahead) is
    // one the robot is leaving, not one it drives into
    if swept > 0.75 * TAU && (px * px + py * py).sqrt() < 2.0 * radius {
        return None;
    }
    let half = (radius * radius - off * off).sqrt();
    Some((r * swept - half).max(0.0))
}

/// The least free distance along the arc over all `points`, at most `horizon`. The
/// points come with their distance from the robot's centre, nearest first: the room a
/// point leaves is at least its distance less twice the radius (the chord to it, less how
/// far it is off the arc and the half-width of the band), so a point further than the
/// room found so far and that much cannot shorten it, nor can any after it.
pub fn free_along(points: &[(f64, f64, f64)], kappa: f64, radius: f64, horizon: f64) -> f64 {
    let mut room = horizon;
    for &(x, y, d) in points {
        if d - 2.0 * radius >= room {
            break;
        }
        if let Some(f) = free_distance((x, y), kappa, radius) {
            room = room.min(f);
        }
    }
    room
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_ahead_stops_at_the_first_point_in_the_band() {
        assert_eq!(free_distance((2.0, 0.0), 0.0, 0.5), Some(1.5));
        let d = free_distance((2.0, 0.3), 0.0, 0.5).unwrap();
        assert!((d - 1.6).abs() < 1e-9, "{d}");
        assert_eq!(free_distance((2.0, 0.6), 0.0, 0.5), None);
        assert_eq!(free_distance((-1.0, 0.0), 0.0, 0.5), None);
    }

    #[test]
    fn a_turn_meets_points_on_its_circle_and_misses_others() {
        // a left turn of radius 1: its centre at (0, 1); the point (1, 1) is a quarter turn on
        let d = free_distance((1.0, 1.0), 1.0, 0.1).unwrap();
        assert!(
            (d - (std::f64::consts::FRAC_PI_2 - 0.1)).abs() < 1e-9,
            "{d}"
        );
        // the same point is far off a right turn
        assert_eq!(free_distance((1.0, 1.0), -1.0, 0.1), None);
        // mirrored for a right turn
        let d = free_distance((1.0, -1.0), -1.0, 0.1).unwrap();
        assert!(
            (d - (std::f64::consts::FRAC_PI_2 - 0.1)).abs() < 1e-9,
            "{d}"
        );
        // straight ahead of a gentle turn is met sooner than beside it
        assert!(free_distance((1.0, 0.0), 0.2, 0.3).unwrap() < 1.0);
    }

    #[test]
    fn points_behind_do_not_stop_a_turn() {
        assert_eq!(free_distance((-0.3, 0.0), 1.0, 0.4), None);
        let d = |x: f64, y: f64| (x, y, (x * x + y * y).sqrt());
        assert_eq!(free_along(&[d(-0.3, 0.0), d(3.0, 5.0)], 0.5, 0.4, 3.0), 3.0);
        // nearest first: the far point ahead is not reached once a near one stops the arc
        assert_eq!(free_along(&[d(1.0, 0.0), d(2.0, 0.0)], 0.0, 0.4, 3.0), 0.6);
    }
}
