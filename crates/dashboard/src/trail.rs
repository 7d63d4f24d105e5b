//! A robot's trail over the whole run, decimated: a point is kept when the robot moved
//! a step from the last one; when the trail is full, every other point goes and the step
//! doubles (or grows to the kept points' spacing). The trail then always reaches back to the start of the run with at most
//! [`Trail::CAPACITY`] points, spread evenly along the way (an AUV's 10-hour run and a
//! ground robot's minute alike).

use std::collections::VecDeque;

/// One robot's trail.
#[derive(Debug, Clone)]
pub struct Trail {
    points: VecDeque<[f32; 2]>,
    /// the least distance between two kept points (m)
    step: f64,
}

impl Trail {
    /// Points kept at most.
    pub const CAPACITY: usize = 3000;
    /// The step a trail starts with (m).
    pub const FIRST_STEP: f64 = 0.05;

    /// An empty trail.
    pub fn new() -> Self {
        Self {
            points: VecDeque::with_capacity(Self::CAPACITY),
            step: Self::FIRST_STEP,
        }
    }

    /// The robot is at (x, y): keep it if it moved a step.
    pub fn push(&mut self, x: f64, y: f64) {
        let far = self
            .points
            .back()
            .is_none_or(|l| (f64::from(l[0]) - x).hypot(f64::from(l[1]) - y) >= self.step);
        if !far {
            return;
        }
        if self.points.len() >= Self::CAPACITY {
            self.thin();
        }
        self.points.push_back([x as f32, y as f32]);
    }

    /// Keep every other point (the first always); the step at least doubles, and grows to
    /// the spacing the kept points have, so that new points come as far apart as old ones.
    fn thin(&mut self) {
        let mut k = 0;
        self.points.retain(|_| {
            k += 1;
            k % 2 == 1
        });
        let n = self.points.len();
        let spacing = match (self.points.get(n.wrapping_sub(2)), self.points.back()) {
            (Some(a), Some(b)) => f64::from(b[0] - a[0]).hypot(f64::from(b[1] - a[1])),
            _ => 0.0,
        };
        self.step = (self.step * 2.0).max(spacing);
    }

    /// The points, oldest first.
    pub fn points(&self) -> impl Iterator<Item = &[f32; 2]> {
        self.points.iter()
    }

    /// How many points it has.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// `true` before the first point.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

impl Default for Trail {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_run_keeps_its_start_and_its_end_within_capacity() {
        let mut t = Trail::new();
        // 10 km along x at 1 m/s, 5 Hz: 50 000 positions
        for k in 0..=50_000 {
            t.push(f64::from(k) * 0.2, 0.0);
        }
        assert!(t.len() <= Trail::CAPACITY, "{}", t.len());
        assert!(t.len() > Trail::CAPACITY / 2, "{}", t.len());
        let first = t.points().next().unwrap();
        assert_eq!(first, &[0.0, 0.0]);
        let last = t.points().last().unwrap();
        assert!(last[0] > 9_990.0, "{last:?}");
        // evenly spread: no gap more than twice the step
        let xs: Vec<f32> = t.points().map(|p| p[0]).collect();
        let gaps: Vec<f32> = xs.windows(2).map(|w| w[1] - w[0]).collect();
        let (lo, hi) = gaps
            .iter()
            .fold((f32::MAX, 0f32), |(lo, hi), g| (lo.min(*g), hi.max(*g)));
        assert!(hi <= 2.0 * lo + 0.5, "gaps {lo}..{hi}");
    }

    #[test]
    fn a_robot_that_stands_adds_nothing() {
        let mut t = Trail::new();
        for _ in 0..10 {
            t.push(1.0, 2.0);
        }
        assert_eq!(t.len(), 1);
    }
}
