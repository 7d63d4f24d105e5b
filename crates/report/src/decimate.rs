//! Time series kept at what a plot can draw, while the log is read: samples fall into
//! buckets of equal time width; each bucket keeps its first, lowest, highest and last
//! sample and the mean. When there are more buckets than the capacity, neighbours merge
//! and the width doubles, so a series of any length takes at most its capacity of
//! buckets, and a line drawn through them has the peaks and troughs of the samples.
//!
//! [`Counts`] does the same for counts of events (collisions, goals) over time.

/// The width a series starts with (s): the fastest cycle there is.
const FIRST_WIDTH: f64 = 0.01;

/// One bucket: the first, lowest, highest and last sample (t, v), and the sum and count.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bucket {
    first: (f64, f64),
    min: (f64, f64),
    max: (f64, f64),
    last: (f64, f64),
    sum: f64,
    n: u32,
}

impl Bucket {
    fn new(t: f64, v: f64) -> Self {
        Self {
            first: (t, v),
            min: (t, v),
            max: (t, v),
            last: (t, v),
            sum: v,
            n: 1,
        }
    }

    fn add(&mut self, t: f64, v: f64) {
        if t < self.first.0 {
            self.first = (t, v);
        }
        if t >= self.last.0 {
            self.last = (t, v);
        }
        if v < self.min.1 {
            self.min = (t, v);
        }
        if v > self.max.1 {
            self.max = (t, v);
        }
        self.sum += v;
        self.n = self.n.saturating_add(1);
    }

    fn merge(self, o: Bucket) -> Bucket {
        let pick = |a: (f64, f64), b: (f64, f64), better: bool| if better { b } else { a };
        Bucket {
            first: pick(self.first, o.first, o.first.0 < self.first.0),
            min: pick(self.min, o.min, o.min.1 < self.min.1),
            max: pick(self.max, o.max, o.max.1 > self.max.1),
            last: pick(self.last, o.last, o.last.0 >= self.last.0),
            sum: self.sum + o.sum,
            n: self.n.saturating_add(o.n),
        }
    }
}

/// Buckets of doubling width over time from 0: the common part of [`Series`] and
/// [`Counts`].
#[derive(Debug, Clone)]
struct Buckets<B> {
    slots: Vec<Option<B>>,
    width: f64,
    capacity: usize,
}

impl<B: Copy> Buckets<B> {
    fn new(capacity: usize) -> Self {
        Self {
            slots: Vec::new(),
            width: FIRST_WIDTH,
            capacity: capacity.max(2),
        }
    }

    /// The slot for time `t` (widening as needed); `None` for a time that is not one.
    fn slot(&mut self, t: f64, merge: impl Fn(B, B) -> B) -> Option<&mut Option<B>> {
        if !(t.is_finite() && t >= 0.0) {
            return None;
        }
        let mut k = (t / self.width) as usize;
        while k >= self.capacity {
            self.widen(&merge);
            k = (t / self.width) as usize;
        }
        if self.slots.len() <= k {
            self.slots.resize(k + 1, None);
        }
        self.slots.get_mut(k)
    }

    fn widen(&mut self, merge: &impl Fn(B, B) -> B) {
        let merged: Vec<Option<B>> = self
            .slots
            .chunks(2)
            .map(|pair| match pair {
                [Some(a), Some(b)] => Some(merge(*a, *b)),
                [Some(a), None] | [Some(a)] => Some(*a),
                [None, b] => *b,
                _ => None,
            })
            .collect();
        self.slots = merged;
        self.width *= 2.0;
    }

    fn iter(&self) -> impl Iterator<Item = (usize, &B)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(k, b)| b.as_ref().map(|b| (k, b)))
    }
}

/// A time series of (t, v), decimated.
#[derive(Debug, Clone)]
pub struct Series {
    buckets: Buckets<Bucket>,
}

impl Series {
    /// An empty series of at most `capacity` buckets.
    pub fn new(capacity: usize) -> Self {
        Self {
            buckets: Buckets::new(capacity),
        }
    }

    /// Add a sample (times before 0 and values that are not numbers are left out).
    pub fn push(&mut self, t: f64, v: f64) {
        if !v.is_finite() {
            return;
        }
        if let Some(slot) = self.buckets.slot(t, Bucket::merge) {
            match slot {
                Some(b) => b.add(t, v),
                None => *slot = Some(Bucket::new(t, v)),
            }
        }
    }

    /// `true` before the first sample.
    pub fn is_empty(&self) -> bool {
        self.buckets.iter().next().is_none()
    }

    /// The points to draw, in time order: each bucket's first, lowest, highest and last
    /// sample (fewer where they coincide).
    pub fn points(&self) -> Vec<(f64, f64)> {
        let mut out: Vec<(f64, f64)> = Vec::new();
        for (_, b) in self.buckets.iter() {
            let mut four = [b.first, b.min, b.max, b.last];
            four.sort_by(|a, b| a.0.total_cmp(&b.0));
            for p in four {
                if out.last() != Some(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// The mean of each bucket at its middle time: (t, mean).
    pub fn means(&self) -> Vec<(f64, f64)> {
        let w = self.buckets.width;
        self.buckets
            .iter()
            .map(|(k, b)| ((k as f64 + 0.5) * w, b.sum / f64::from(b.n.max(1))))
            .collect()
    }

    /// The mean of the samples in the bucket that holds time `t`, if it has any.
    pub fn mean_at(&self, t: f64) -> Option<f64> {
        if !(t.is_finite() && t >= 0.0) {
            return None;
        }
        let k = (t / self.buckets.width) as usize;
        let b = self.buckets.slots.get(k)?.as_ref()?;
        Some(b.sum / f64::from(b.n.max(1)))
    }

    /// The last sample at or before time `t` (at the resolution of the buckets).
    pub fn last_at(&self, t: f64) -> Option<f64> {
        let w = self.buckets.width;
        self.buckets
            .iter()
            .take_while(|(k, _)| *k as f64 * w <= t)
            .last()
            .map(|(_, b)| b.last.1)
    }

    /// The highest and lowest sample.
    pub fn range(&self) -> Option<(f64, f64)> {
        self.buckets.iter().fold(None, |acc, (_, b)| {
            let (lo, hi) = acc.unwrap_or((b.min.1, b.max.1));
            Some((lo.min(b.min.1), hi.max(b.max.1)))
        })
    }

    /// How many buckets hold samples.
    pub fn len(&self) -> usize {
        self.buckets.iter().count()
    }
}

/// Counts of events over time, decimated.
#[derive(Debug, Clone)]
pub struct Counts {
    buckets: Buckets<u64>,
    total: u64,
}

impl Counts {
    /// No events yet; at most `capacity` buckets.
    pub fn new(capacity: usize) -> Self {
        Self {
            buckets: Buckets::new(capacity),
            total: 0,
        }
    }

    /// One event at time `t`.
    pub fn add(&mut self, t: f64) {
        self.total += 1;
        let t = if t.is_finite() { t.max(0.0) } else { 0.0 };
        if let Some(slot) = self.buckets.slot(t, |a, b| a + b) {
            *slot = Some(slot.unwrap_or(0) + 1);
        }
    }

    /// All events counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// How many events came before the end of the bucket that holds `t` (at the
    /// resolution of the buckets).
    pub fn until(&self, t: f64) -> u64 {
        let w = self.buckets.width;
        self.buckets
            .iter()
            .take_while(|(k, _)| *k as f64 * w <= t)
            .map(|(_, n)| *n)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_series_stays_within_its_capacity_and_keeps_its_peaks() {
        let mut s = Series::new(100);
        for k in 0..100_000 {
            let t = f64::from(k) * 0.1;
            let v = if k == 54_321 { 50.0 } else { (t / 100.0).sin() };
            s.push(t, v);
        }
        assert!(s.len() <= 100 && s.len() > 50, "{}", s.len());
        let pts = s.points();
        assert!(pts.len() <= 400);
        assert!(pts.iter().any(|p| p.1 == 50.0), "the peak is kept");
        assert!(pts.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
        assert_eq!(pts.first(), Some(&(0.0, 0.0)));
        assert_eq!(pts.last().map(|p| p.0), Some(f64::from(99_999) * 0.1));
        assert_eq!(s.range().map(|r| r.1), Some(50.0));
        let means = s.means();
        assert!(
            means.iter().all(|m| m.1.abs() <= 1.01),
            "the mean of a bucket"
        );
    }

    #[test]
    fn bad_times_and_values_are_left_out() {
        let mut s = Series::new(10);
        s.push(f64::NAN, 1.0);
        s.push(-1.0, 1.0);
        s.push(1.0, f64::INFINITY);
        s.push(1e300, 1.0);
        assert_eq!(s.len(), 1);
        assert!(s.len() <= 10);
    }

    #[test]
    fn counts_add_up_over_time() {
        let mut c = Counts::new(10);
        for k in 0..1000 {
            c.add(f64::from(k));
        }
        assert_eq!(c.total(), 1000);
        assert_eq!(c.until(1e9), 1000);
        let half = c.until(500.0);
        // 10 buckets of 164 s: the events up to the end of the bucket that holds 500 s
        assert_eq!(half, 656);
        assert_eq!(c.until(-1.0), 0);
    }
}
