//! A fleet at a glance: over time, the median and the spread (10th to 90th percentile)
//! over the robots of their speed, the distance they have covered, their collisions and
//! the goals they reached; and the robots that did worst on each.

use crate::digest::{Digest, RobotDigest};
use crate::plots::Band;

/// Points in time of the fleet's plots.
const CELLS: usize = 200;

/// The fleet's bands over time.
#[derive(Debug, Clone, PartialEq)]
pub struct Fleet {
    /// Speed (m/s): the mean of each robot's speed around each time.
    pub speed: Vec<Band>,
    /// Distance covered so far (m).
    pub distance: Vec<Band>,
    /// Collisions so far.
    pub collisions: Vec<Band>,
    /// Goals reached so far (empty if no robot reached one).
    pub goals: Vec<Band>,
}

/// The bands of the run `d`.
pub fn bands(d: &Digest) -> Fleet {
    let end = d.end_t.max(0.0);
    let times: Vec<f64> = (0..CELLS)
        .map(|k| (k as f64 + 0.5) * end / CELLS as f64)
        .collect();
    let band = |f: &dyn Fn(&RobotDigest, f64) -> Option<f64>| -> Vec<Band> {
        times
            .iter()
            .filter_map(|&t| {
                let mut v: Vec<f64> = d.robots.iter().filter_map(|r| f(r, t)).collect();
                quantiles(&mut v).map(|(lo, mid, hi)| Band { t, lo, mid, hi })
            })
            .collect()
    };
    let any_goals = d.robots.iter().any(|r| r.goals.total() > 0);
    Fleet {
        speed: band(&|r, t| r.speed().mean_at(t)),
        distance: band(&|r, t| r.distance_series.last_at(t)),
        collisions: band(&|r, t| r.first.map(|_| r.collisions.until(t) as f64)),
        goals: if any_goals {
            band(&|r, t| r.first.map(|_| r.goals.until(t) as f64))
        } else {
            Vec::new()
        },
    }
}

/// The 10th percentile, the median and the 90th percentile of `v` (sorted in place).
pub fn quantiles(v: &mut [f64]) -> Option<(f64, f64, f64)> {
    v.sort_by(f64::total_cmp);
    let q = |p: f64| -> Option<f64> {
        let last = v.len().checked_sub(1)?;
        let x = p * last as f64;
        let (i, frac) = (x.floor() as usize, x - x.floor());
        let a = *v.get(i)?;
        let b = *v.get((i + 1).min(last))?;
        Some(a + (b - a) * frac)
    };
    Some((q(0.1)?, q(0.5)?, q(0.9)?))
}

/// The robots that did worst on one measure.
#[derive(Debug, Clone, PartialEq)]
pub struct Worst {
    /// What was measured (`most collisions`).
    pub what: &'static str,
    /// Robot indices with their value as text, worst first.
    pub robots: Vec<(usize, String)>,
}

/// How many robots each measure names.
const NAMED: usize = 3;

/// The worst robots: most collisions, shortest distance, lowest mean speed, fewest goals
/// (when robots reached goals); measures on which every robot did the same are left out.
pub fn worst(d: &Digest) -> Vec<Worst> {
    let mut out = Vec::new();
    let mut rank = |what: &'static str,
                    key: &dyn Fn(&RobotDigest) -> f64,
                    high_is_bad: bool,
                    text: &dyn Fn(f64) -> String| {
        let mut v: Vec<(usize, f64)> = d
            .robots
            .iter()
            .enumerate()
            .filter(|(_, r)| r.first.is_some())
            .map(|(i, r)| (i, key(r)))
            .collect();
        let (lo, hi) = v
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, x)| {
                (lo.min(*x), hi.max(*x))
            });
        if v.is_empty() || lo == hi {
            return;
        }
        v.sort_by(|a, b| {
            let o = a.1.total_cmp(&b.1);
            if high_is_bad { o.reverse() } else { o }.then(a.0.cmp(&b.0))
        });
        let robots = v.iter().take(NAMED).map(|&(i, x)| (i, text(x))).collect();
        out.push(Worst { what, robots });
    };
    rank(
        "most collisions",
        &|r| r.collisions.total() as f64,
        true,
        &|x| format!("{x:.0}"),
    );
    rank("shortest distance", &|r| r.distance, false, &|x| {
        format!("{x:.1} m")
    });
    rank("lowest mean speed", &|r| r.mean_speed(), false, &|x| {
        format!("{x:.2} m/s")
    });
    if d.robots.iter().any(|r| r.goals.total() > 0) {
        rank(
            "fewest goals reached",
            &|r| r.goals.total() as f64,
            false,
            &|x| format!("{x:.0}"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_of_a_few() {
        let mut v = vec![5.0, 1.0, 3.0, 2.0, 4.0];
        let (lo, mid, hi) = quantiles(&mut v).unwrap();
        assert_eq!(mid, 3.0);
        assert!((lo - 1.4).abs() < 1e-9 && (hi - 4.6).abs() < 1e-9);
        assert_eq!(quantiles(&mut [7.0]), Some((7.0, 7.0, 7.0)));
        assert_eq!(quantiles(&mut []), None);
    }
}
