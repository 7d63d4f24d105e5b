//! A robot's track, decimated while the log is read: a pose is kept when the robot moved
//! a step from the last one kept; when the track is full, every other point goes and the
//! step doubles. The track then reaches from the start of the run to its end with at most
//! its capacity of points, spread evenly along the way, whatever the length of the run;
//! the last pose is kept apart so that the track always ends where the robot did.
//!
//! The report draws tracks from these and the replay draws trails up to a time.

/// A point of a track: when the robot was there (s) and where (m).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TrackPoint {
    /// Simulated time (s).
    pub t: f64,
    /// Position (m).
    pub x: f32,
    /// Position (m).
    pub y: f32,
}

/// One robot's track.
#[derive(Debug, Clone)]
pub struct Track {
    points: Vec<TrackPoint>,
    /// the last pose given, if it was not kept
    last: Option<TrackPoint>,
    /// the least distance between two kept points (m)
    step: f64,
    capacity: usize,
}

impl Track {
    /// The step a track starts with (m).
    pub const FIRST_STEP: f64 = 0.02;

    /// An empty track of at most `capacity` points (at least 4).
    pub fn new(capacity: usize) -> Self {
        Self {
            points: Vec::new(),
            last: None,
            step: Self::FIRST_STEP,
            capacity: capacity.max(4),
        }
    }

    /// The robot is at (x, y) at time t: keep it if it moved a step.
    pub fn push(&mut self, t: f64, x: f64, y: f64) {
        if !(x.is_finite() && y.is_finite()) {
            return;
        }
        let p = TrackPoint {
            t,
            x: x as f32,
            y: y as f32,
        };
        let far = self
            .points
            .last()
            .is_none_or(|l| (f64::from(l.x) - x).hypot(f64::from(l.y) - y) >= self.step);
        if !far {
            self.last = Some(p);
            return;
        }
        if self.points.len() >= self.capacity {
            self.thin();
        }
        self.points.push(p);
        self.last = None;
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
        let spacing = match (self.points.get(n.wrapping_sub(2)), self.points.last()) {
            (Some(a), Some(b)) => f64::from(b.x - a.x).hypot(f64::from(b.y - a.y)),
            _ => 0.0,
        };
        self.step = (self.step * 2.0).max(spacing);
    }

    /// The points, oldest first, ending with the last pose given.
    pub fn points(&self) -> impl Iterator<Item = TrackPoint> + '_ {
        self.points.iter().copied().chain(self.last)
    }

    /// The points up to time `t`.
    pub fn points_until(&self, t: f64) -> impl Iterator<Item = TrackPoint> + '_ {
        self.points().take_while(move |p| p.t <= t)
    }

    /// How many points it has.
    pub fn len(&self) -> usize {
        self.points.len() + usize::from(self.last.is_some())
    }

    /// `true` before the first point.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_track_keeps_its_ends_within_capacity() {
        let mut t = Track::new(1000);
        for k in 0..=50_000 {
            t.push(f64::from(k) * 0.1, f64::from(k) * 0.2, 0.0);
        }
        assert!(t.len() <= 1001, "{}", t.len());
        assert!(t.len() > 400, "{}", t.len());
        let pts: Vec<TrackPoint> = t.points().collect();
        assert_eq!(pts.first().map(|p| p.x), Some(0.0));
        assert_eq!(pts.last().map(|p| p.x), Some(10_000.0));
        assert!(pts.windows(2).all(|w| w[0].t < w[1].t));
        assert_eq!(
            t.points_until(100.0).last().map(|p| p.t <= 100.0),
            Some(true)
        );
    }

    #[test]
    fn standing_still_adds_nothing_but_the_last_pose() {
        let mut t = Track::new(10);
        for k in 0..10 {
            t.push(f64::from(k), 1.0, 2.0);
        }
        assert_eq!(t.len(), 2);
        t.push(11.0, f64::NAN, 0.0);
        assert_eq!(t.len(), 2);
    }
}
