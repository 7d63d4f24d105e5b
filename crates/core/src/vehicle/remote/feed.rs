//! What a remote robot's messages say, as its transport's threads deliver them: the
//! latest odometry, the latest scan turned into the base's beam order, each range
//! sensor's latest reading, the battery, and the transforms that place the sensors.
//!
//! Every message is checked before it is kept: numbers that must be finite are, a scan's
//! size matches its angles, a sensor's frame has a transform to the base. A message that
//! fails is counted by reason and skipped ([`Skips`]); the first of each reason is kept as
//! a note for the run log. A scan's ranges follow REP 117: `+inf` (nothing seen) reads
//! the range maximum, `-inf` (too close) the minimum, and NaN or a value below the
//! minimum (no valid reading) leaves that beam's last value.
//!
//! What the robot has is found while the robot is awaited and then fixed
//! ([`Feed::freeze`]): the beam count, the laser's and sonars' places, the battery.

use super::frames::{frame_name, FrameTree, Mount, Transform};
use crate::sensors::{LaserGeometry, SonarGeometry};
use crate::vocabulary::ground;
use std::collections::BTreeMap;
use std::time::Instant;

/// A robot's odometry: its pose in its odometry frame and its velocity in its base frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OdometryReading {
    /// the robot's stamp (s, its clock)
    pub stamp: f64,
    /// m
    pub x: f64,
    /// m
    pub y: f64,
    /// rad, counter-clockwise
    pub yaw: f64,
    /// forward speed (m/s)
    pub linear: f64,
    /// turn rate (rad/s)
    pub angular: f64,
}

/// A laser scan, as `sensor_msgs/LaserScan` has it.
#[derive(Debug, Clone, Copy)]
pub struct ScanReading<'a> {
    /// the robot's stamp (s)
    pub stamp: f64,
    /// the laser's frame
    pub frame: &'a str,
    /// the first beam's angle in the laser's frame (rad)
    pub angle_min: f64,
    /// the last beam's angle (rad)
    pub angle_max: f64,
    /// between beams (rad; negative: clockwise)
    pub angle_increment: f64,
    /// shortest valid range (m)
    pub range_min: f64,
    /// longest valid range (m)
    pub range_max: f64,
    /// the ranges (m)
    pub ranges: &'a [f32],
}

/// One range sensor's reading, as `sensor_msgs/Range` has it.
#[derive(Debug, Clone, Copy)]
pub struct RangeReading<'a> {
    /// the topic it came on (`/bot/sonar`), for messages
    pub topic: &'a str,
    /// the sensor's frame
    pub frame: &'a str,
    /// the cone's opening (rad)
    pub field_of_view: f64,
    /// shortest range (m)
    pub min_range: f64,
    /// longest range (m)
    pub max_range: f64,
    /// the range (m)
    pub range: f64,
}

/// A battery's state, as `sensor_msgs/BatteryState` has it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BatteryReading {
    /// V
    pub voltage: f64,
    /// 0 .. 1, NaN when unknown
    pub percentage: f64,
}

/// What a robot was found to have.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Equipment {
    /// its laser: beams, and where it is and what it sees, in the base's terms
    pub laser: Option<(usize, LaserGeometry)>,
    /// its range sensors, in `sonar.N` order
    pub sonars: Vec<SonarGeometry>,
    /// whether it reports its battery
    pub battery: bool,
}

/// Messages skipped, by reason.
#[derive(Debug, Clone, Default)]
pub struct Skips {
    counts: BTreeMap<&'static str, u64>,
    notes: Vec<String>,
}

impl Skips {
    /// Count one skipped message; the first of its reason leaves `detail` as a note.
    pub fn count(&mut self, reason: &'static str, detail: impl FnOnce() -> String) {
        let n = self.counts.entry(reason).or_insert(0);
        *n += 1;
        if *n == 1 && self.notes.len() < 64 {
            self.notes
                .push(format!("{}: skipped (later ones are counted)", detail()));
        }
    }
    /// The counts so far.
    pub fn counts(&self) -> &BTreeMap<&'static str, u64> {
        &self.counts
    }
    /// The notes not taken yet.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }
}

/// The latest odometry and when it arrived.
#[derive(Debug, Clone, Copy)]
pub struct Odometry {
    /// what it said
    pub reading: OdometryReading,
    /// when it arrived (this machine's monotonic clock)
    pub arrived: Instant,
}

#[derive(Debug, Default)]
struct Laser {
    /// the frame of the first scan, for messages while its transform is unknown
    frame: Option<String>,
    beams: Option<usize>,
    geometry: Option<LaserGeometry>,
    ranges: Vec<f64>,
    fresh: Vec<bool>,
    any_fresh: bool,
    mounted: bool,
}

#[derive(Debug, Clone)]
struct Sonar {
    topic: String,
    frame: String,
    geometry: SonarGeometry,
    range: f64,
    fresh: bool,
}

/// The readings of one robot.
#[derive(Debug)]
pub struct Feed {
    ns: String,
    base: Option<String>,
    odometry: Option<Odometry>,
    odometry_fresh: bool,
    odometry_count: u64,
    tree: FrameTree,
    laser: Laser,
    sonars: Vec<Sonar>,
    battery: Option<(BatteryReading, bool)>,
    frozen: bool,
    skips: Skips,
}

fn natural_key(s: &str) -> (String, u64) {
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (head, tail) = s.split_at(s.len() - digits);
    (head.to_string(), tail.parse().unwrap_or(0))
}

impl Feed {
    /// The readings of the robot in namespace `ns` (for messages: `/bot`).
    pub fn new(ns: &str) -> Self {
        Self {
            ns: ns.trim_end_matches('/').to_string(),
            base: None,
            odometry: None,
            odometry_fresh: false,
            odometry_count: 0,
            tree: FrameTree::default(),
            laser: Laser::default(),
            sonars: Vec::new(),
            battery: None,
            frozen: false,
            skips: Skips::default(),
        }
    }

    fn topic(&self, name: &str) -> String {
        format!("{}/{name}", self.ns)
    }

    /// An odometry message, whose pose is that of `child_frame` (the robot's base).
    pub fn odometry(&mut self, r: OdometryReading, child_frame: &str) {
        let all = [r.stamp, r.x, r.y, r.yaw, r.linear, r.angular];
        if !all.iter().all(|v| v.is_finite()) {
            let t = self.topic("odom");
            return self.skips.count("odometry not finite", || {
                format!("{t}: odometry with a number that is not finite ({r:?})")
            });
        }
        if let Some(o) = &self.odometry {
            if r.stamp < o.reading.stamp {
                let (t, last) = (self.topic("odom"), o.reading.stamp);
                return self.skips.count("odometry older than the last", || {
                    format!(
                        "{t}: odometry stamped {:.3} s after one stamped {last:.3} s",
                        r.stamp
                    )
                });
            }
        }
        let child = frame_name(child_frame);
        match &self.base {
            Some(b) if !child.is_empty() && b != child => {
                let (t, b) = (self.topic("odom"), b.clone());
                return self.skips.count("odometry of another frame", || {
                    format!("{t}: odometry of frame `{child}`, the robot's base is `{b}`")
                });
            }
            Some(_) => {}
            None => {
                self.base = Some(if child.is_empty() {
                    "base_link".to_string()
                } else {
                    child.to_string()
                })
            }
        }
        self.odometry = Some(Odometry {
            reading: r,
            arrived: Instant::now(),
        });
        self.odometry_fresh = true;
        self.odometry_count += 1;
    }

    /// Transforms from `/tf_static` or `/tf`: (parent, child, transform).
    pub fn transform(&mut self, parent: &str, child: &str, t: Transform) {
        if !self.tree.set(parent, child, t) {
            self.skips.count("transform not kept", || {
                format!("a transform {parent} -> {child} that is not finite, names one frame twice, or is one frame too many")
            });
        }
    }

    /// A laser scan.
    pub fn scan(&mut self, s: &ScanReading<'_>) {
        let topic = self.topic("scan");
        let t = || topic.clone();
        let n = s.ranges.len();
        let angles = [
            s.angle_min,
            s.angle_max,
            s.angle_increment,
            s.range_min,
            s.range_max,
        ];
        if !angles.iter().all(|v| v.is_finite()) || s.range_max <= 0.0 {
            let t = t();
            return self.skips.count("scan limits not finite", || {
                format!("{t}: a scan whose angles or range limits are not finite numbers")
            });
        }
        let expected = if s.angle_increment == 0.0 {
            1.0
        } else {
            ((s.angle_max - s.angle_min) / s.angle_increment).round() + 1.0
        };
        if n == 0 || n > ground::MAX_LASER_BEAMS || (expected - n as f64).abs() > 1.0 {
            let t = t();
            return self.skips.count("scan size does not match its angles", || {
                format!(
                    "{t}: {n} ranges, where its angles ({:.4} to {:.4} rad by {:.5}) make {expected} (at most {} beams are read)",
                    s.angle_min, s.angle_max, s.angle_increment, ground::MAX_LASER_BEAMS
                )
            });
        }
        if self.laser.frame.is_none() {
            self.laser.frame = Some(frame_name(s.frame).to_string());
        }
        let mount = match &self.base {
            Some(b) => self.tree.mount(s.frame, b),
            None => None,
        };
        let Some(m) = mount else {
            // while the robot is awaited its transforms may come after its first scans
            if self.frozen {
                let (t, f) = (t(), s.frame.to_string());
                let b = self.base.clone().unwrap_or_default();
                self.skips.count("scan frame without a transform", || {
                    format!("{t}: frame `{f}` has no transform to the base `{b}`")
                });
            }
            return;
        };
        if let Some(b) = self.laser.beams {
            if b != n {
                let t = t();
                return self.skips.count("scan of another beam count", || {
                    format!("{t}: {n} ranges, the robot's laser has {b}")
                });
            }
        }
        // beam k of the base's order: counter-clockwise from the rightmost
        let turn = s.angle_increment.signum() * if m.upside_down { -1.0 } else { 1.0 };
        let reversed = turn < 0.0;
        let dir = if m.upside_down { -1.0 } else { 1.0 };
        let first = if reversed {
            m.yaw + dir * (s.angle_min + s.angle_increment * (n as f64 - 1.0))
        } else {
            m.yaw + dir * s.angle_min
        };
        let geometry = LaserGeometry {
            x: m.x,
            angle_min: crate::geometry::wrap_rad(first),
            angle_increment: s.angle_increment.abs(),
            range_min: s.range_min.max(0.0),
            range_max: s.range_max,
        };
        if !self.frozen {
            self.laser.beams = Some(n);
            self.laser.geometry = Some(geometry);
            self.laser.mounted = true;
        }
        let l = &mut self.laser;
        l.ranges.resize(n, f64::INFINITY);
        l.fresh.resize(n, false);
        for (i, &r) in s.ranges.iter().enumerate() {
            let k = if reversed { n - 1 - i } else { i };
            let r = f64::from(r);
            let value = if r == f64::INFINITY || r > s.range_max {
                Some(s.range_max)
            } else if r == f64::NEG_INFINITY {
                Some(s.range_min.max(0.0))
            } else if r.is_nan() || r < s.range_min {
                None
            } else {
                Some(r)
            };
            if let (Some(v), Some(slot), Some(f)) = (value, l.ranges.get_mut(k), l.fresh.get_mut(k))
            {
                *slot = v;
                *f = true;
                l.any_fresh = true;
            }
        }
    }

    /// A range sensor's reading.
    pub fn range(&mut self, r: &RangeReading<'_>) {
        let frame = frame_name(r.frame);
        let limits = [r.field_of_view, r.min_range, r.max_range];
        if !limits.iter().all(|v| v.is_finite()) || r.range.is_nan() {
            let t = r.topic.to_string();
            return self.skips.count("range not finite", || {
                format!("{t}: a range reading of frame `{frame}` with a number that is NaN or limits that are not finite")
            });
        }
        // +inf: nothing within reach; -inf: too close (REP 117)
        let value = r.range.max(r.min_range).min(r.max_range);
        let k = self
            .sonars
            .iter()
            .position(|s| s.frame == frame && s.topic == r.topic);
        let k = match k {
            Some(k) => k,
            None if !self.frozen && self.sonars.len() < ground::SONARS => {
                self.sonars.push(Sonar {
                    topic: r.topic.to_string(),
                    frame: frame.to_string(),
                    geometry: SonarGeometry {
                        x: 0.0,
                        y: 0.0,
                        yaw: 0.0,
                        field_of_view: 0.0,
                        min_range: 0.0,
                        max_range: 0.0,
                    },
                    range: 0.0,
                    fresh: false,
                });
                self.sonars.len() - 1
            }
            None => {
                let t = r.topic.to_string();
                return self.skips.count("range of an unknown sensor", || {
                    format!("{t}: a range reading of frame `{frame}`, not one of the robot's range sensors (at most {} are read)", ground::SONARS)
                });
            }
        };
        if let Some(s) = self.sonars.get_mut(k) {
            s.range = value;
            s.fresh = true;
            s.geometry.field_of_view = r.field_of_view;
            s.geometry.min_range = r.min_range;
            s.geometry.max_range = r.max_range;
        }
    }

    /// A battery state.
    pub fn battery(&mut self, b: BatteryReading) {
        if !b.voltage.is_finite() || b.percentage.is_infinite() {
            let t = self.topic("battery_state");
            return self.skips.count("battery not finite", || {
                format!("{t}: a voltage that is not finite")
            });
        }
        self.battery = Some((b, true));
    }

    /// The latest odometry.
    pub fn latest_odometry(&self) -> Option<Odometry> {
        self.odometry
    }

    /// The robot's base frame (the odometry's child frame), once known.
    pub fn base_frame(&self) -> Option<&str> {
        self.base.as_deref()
    }

    /// Odometry messages kept so far.
    pub fn odometry_count(&self) -> u64 {
        self.odometry_count
    }

    /// Has a scan been placed on the base?
    pub fn scan_mounted(&self) -> bool {
        self.laser.mounted
    }

    /// Has a scan arrived (placed or not)?
    pub fn scan_seen(&self) -> bool {
        self.laser.frame.is_some()
    }

    /// Range sensors heard so far, and whether every one's frame is placed on the base.
    pub fn ranges_seen(&self) -> (usize, bool) {
        let placed = self.sonars.iter().all(|s| match &self.base {
            Some(b) => self.tree.mount(&s.frame, b).is_some(),
            None => false,
        });
        (self.sonars.len(), placed)
    }

    /// Has a battery state arrived?
    pub fn battery_seen(&self) -> bool {
        self.battery.is_some()
    }

    /// Fix what the robot has from what arrived: the beam count and the sensors'
    /// places. `Err` with a sentence when a sensor that reported cannot be placed.
    pub fn freeze(&mut self) -> Result<Equipment, String> {
        let Some(base) = self.base.clone() else {
            return Err(format!("no odometry on {}", self.topic("odom")));
        };
        if let (Some(f), false) = (&self.laser.frame, self.laser.mounted) {
            return Err(format!(
                "{}: the scan's frame `{f}` has no transform to the robot's base frame `{base}` (the odometry's child frame) on /tf_static or /tf",
                self.topic("scan")
            ));
        }
        self.sonars
            .sort_by_key(|s| (s.topic.clone(), natural_key(&s.frame)));
        for s in &mut self.sonars {
            let Some(m) = self.tree.mount(&s.frame, &base) else {
                return Err(format!(
                    "{}: the range sensor's frame `{}` has no transform to the robot's base frame `{base}` on /tf_static or /tf",
                    s.topic, s.frame
                ));
            };
            s.geometry.x = m.x;
            s.geometry.y = m.y;
            s.geometry.yaw = m.yaw;
        }
        self.frozen = true;
        Ok(Equipment {
            laser: self.laser.beams.zip(self.laser.geometry),
            sonars: self.sonars.iter().map(|s| s.geometry).collect(),
            battery: self.battery.is_some(),
        })
    }

    /// The odometry, if new since the last call.
    pub fn take_odometry(&mut self) -> Option<OdometryReading> {
        std::mem::take(&mut self.odometry_fresh)
            .then_some(self.odometry)
            .flatten()
            .map(|o| o.reading)
    }

    /// Each laser beam with a new value since the last call (base order index, m).
    pub fn take_beams(&mut self, mut beam: impl FnMut(usize, f64)) {
        let l = &mut self.laser;
        if std::mem::take(&mut l.any_fresh) {
            for (k, (r, f)) in l.ranges.iter().zip(l.fresh.iter_mut()).enumerate() {
                if std::mem::take(f) {
                    beam(k, *r);
                }
            }
        }
    }

    /// Each range sensor with a new value since the last call (`sonar.N` index, m).
    pub fn take_sonars(&mut self, mut sonar: impl FnMut(usize, f64)) {
        for (k, s) in self.sonars.iter_mut().enumerate() {
            if std::mem::take(&mut s.fresh) {
                sonar(k, s.range);
            }
        }
    }

    /// The battery, if new since the last call.
    pub fn take_battery(&mut self) -> Option<BatteryReading> {
        match &mut self.battery {
            Some((b, fresh)) if *fresh => {
                *fresh = false;
                Some(*b)
            }
            _ => None,
        }
    }

    /// The latest laser ranges, in the base's order (for views).
    pub fn laser_ranges(&self) -> &[f64] {
        &self.laser.ranges
    }

    /// The latest sonar ranges, in `sonar.N` order (for views).
    pub fn sonar_ranges(&self) -> impl Iterator<Item = f64> + '_ {
        self.sonars.iter().map(|s| s.range)
    }

    /// Messages skipped so far.
    pub fn skips(&mut self) -> &mut Skips {
        &mut self.skips
    }

    /// Where a frame sits on the base, if known (for tests and tools).
    pub fn mount(&self, frame: &str) -> Option<Mount> {
        self.tree.mount(frame, self.base.as_deref()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odom(stamp: f64, x: f64) -> OdometryReading {
        OdometryReading {
            stamp,
            x,
            y: 0.0,
            yaw: 0.0,
            linear: 0.0,
            angular: 0.0,
        }
    }

    fn scan<'a>(frame: &'a str, ranges: &'a [f32], inc: f64) -> ScanReading<'a> {
        let n = ranges.len() as f64;
        ScanReading {
            stamp: 1.0,
            frame,
            angle_min: -inc * (n - 1.0) / 2.0,
            angle_max: inc * (n - 1.0) / 2.0,
            angle_increment: inc,
            range_min: 0.1,
            range_max: 8.0,
            ranges,
        }
    }

    fn robot() -> Feed {
        let mut f = Feed::new("/bot");
        f.odometry(odom(1.0, 0.0), "base_link");
        f
    }

    fn beams(f: &mut Feed) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        f.take_beams(|k, r| out.push((k, r)));
        out
    }

    #[test]
    fn bad_odometry_is_counted_and_skipped() {
        let mut f = robot();
        f.odometry(odom(f64::NAN, 1.0), "base_link");
        f.odometry(odom(0.5, 1.0), "base_link");
        f.odometry(odom(2.0, 1.0), "other");
        assert_eq!(f.odometry_count(), 1);
        let c = f.skips().counts().clone();
        assert_eq!(c.values().sum::<u64>(), 3, "{c:?}");
        assert_eq!(f.skips().take_notes().len(), 3);
        f.odometry(odom(2.0, 1.0), "/base_link");
        assert_eq!(f.latest_odometry().unwrap().reading.x, 1.0);
    }

    #[test]
    fn a_scan_waits_for_its_transform_and_is_put_in_the_base_order() {
        let mut f = robot();
        let ranges = [1.0, f32::INFINITY, f32::NAN, f32::NEG_INFINITY, 0.05];
        f.scan(&scan("laser", &ranges, 0.5));
        assert!(f.scan_seen() && !f.scan_mounted());
        assert!(f.freeze().unwrap_err().contains("`laser` has no transform"));
        f.frozen = false;
        // upside down, turned to face behind: counter-clockwise becomes clockwise
        let q = [0.0, 1.0, 0.0, 0.0]; // pi about y: x backward, z down
        f.transform(
            "base_link",
            "laser",
            Transform {
                translation: [-0.1, 0.0, 0.3],
                rotation: q,
            },
        );
        f.scan(&scan("laser", &ranges, 0.5));
        let e = f.freeze().unwrap();
        let (n, g) = e.laser.unwrap();
        assert_eq!(n, 5);
        assert!((g.x + 0.1).abs() < 1e-9);
        // x backward (yaw pi) and flipped: base angle = pi - laser angle; first in base
        // order is the laser's last beam (laser +1 rad -> base pi - 1)
        assert!(
            (g.angle_min - (std::f64::consts::PI - 1.0)).abs() < 1e-9,
            "{g:?}"
        );
        assert_eq!(g.angle_increment, 0.5);
        // reversed: laser beam 0 (1.0 m) is base beam 4; inf reads 8; -inf the minimum;
        // NaN and below-minimum leave the beam alone
        assert_eq!(beams(&mut f), [(1, 0.1), (3, 8.0), (4, 1.0)]);
    }

    #[test]
    fn scans_that_do_not_match_their_angles_are_skipped() {
        let mut f = robot();
        f.transform("base_link", "laser", Transform::IDENTITY);
        let ranges = [1.0f32; 10];
        let mut s = scan("laser", &ranges, 0.1);
        s.angle_max += 0.5;
        f.scan(&s);
        let mut s = scan("laser", &ranges, 0.1);
        s.angle_increment = f64::INFINITY;
        f.scan(&s);
        f.scan(&scan("laser", &[], 0.1));
        assert!(!f.scan_mounted());
        assert_eq!(f.skips().counts().values().sum::<u64>(), 3);
        f.scan(&scan("laser", &ranges, 0.1));
        f.freeze().unwrap();
        f.scan(&scan("laser", &ranges[..9], 0.1));
        assert_eq!(f.skips().counts()["scan of another beam count"], 1);
    }

    #[test]
    fn range_sensors_are_numbered_in_natural_order_of_their_frames() {
        let mut f = robot();
        for k in [10, 2, 0] {
            let frame = format!("bot/sonar_{k}");
            f.transform("base_link", &frame, Transform::IDENTITY);
            f.range(&RangeReading {
                topic: "/bot/sonar",
                frame: &frame,
                field_of_view: 0.3,
                min_range: 0.1,
                max_range: 5.0,
                range: f64::from(k),
            });
        }
        assert_eq!(f.ranges_seen(), (3, true));
        let e = f.freeze().unwrap();
        assert_eq!(e.sonars.len(), 3);
        let mut got = Vec::new();
        f.take_sonars(|k, r| got.push((k, r)));
        assert_eq!(got, [(0, 0.1), (1, 2.0), (2, 5.0)]);
        f.range(&RangeReading {
            topic: "/bot/sonar",
            frame: "bot/sonar_3",
            field_of_view: 0.3,
            min_range: 0.1,
            max_range: 5.0,
            range: 1.0,
        });
        assert_eq!(f.skips().counts()["range of an unknown sensor"], 1);
    }
}
