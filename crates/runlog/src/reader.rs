//! Reading a run log back: the MCAP file of a run, decoded into per-robot tracks,
//! signals, laser scans, controller states and events, for the report and the replay.
//!
//! Reading is forgiving: a message that does not decode is counted in
//! [`Recording::skipped`] and left out, and a log cut short (a run that was killed) is
//! read up to where it ends ([`Recording::truncated`] says why it stopped). Signals can be
//! many (every sonar of every robot every cycle), so the caller says which ones to keep.

use crate::message::{self, Message};
pub use crate::message::{PoseSample, RobotInfo, ScanSample, SignalFilter};
use crate::stream::{self, Raw, Visit};
use crate::Error;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A controller's state when it changed, from `/controller`.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerSample {
    /// Simulated time (s).
    pub t: f64,
    /// The controller's name.
    pub controller: String,
    /// Its state, as the engine reported it.
    pub state: Value,
}

/// An event, from `/events`.
#[derive(Debug, Clone, PartialEq)]
pub struct EventSample {
    /// Index of the robot in [`Recording::robots`].
    pub robot: usize,
    /// Simulated time (s).
    pub t: f64,
    /// Its kind (`collision`, `goal`, `transition`, ...).
    pub kind: String,
    /// Its data.
    pub data: Value,
}

/// Everything one robot left in the log.
#[derive(Debug, Clone, Default)]
pub struct RobotLog {
    /// Who it is.
    pub info: RobotInfo,
    /// Its true poses, in time order.
    pub poses: Vec<PoseSample>,
    /// The signals kept, by name: (time, value) each time it changed.
    pub signals: BTreeMap<String, Vec<(f64, Value)>>,
    /// Its laser scans.
    pub scans: Vec<ScanSample>,
    /// Its controller's states.
    pub controller: Vec<ControllerSample>,
}

impl RobotLog {
    /// The pose at time `t`: the last one at or before it (the first if `t` is earlier).
    pub fn pose_at(&self, t: f64) -> Option<PoseSample> {
        at_or_before(&self.poses, t, |p| p.t).copied()
    }
    /// The value of signal `name` at time `t`.
    pub fn signal_at(&self, name: &str, t: f64) -> Option<&Value> {
        let s = self.signals.get(name)?;
        at_or_before_strict(s, t, |(ts, _)| *ts).map(|(_, v)| v)
    }
    /// The last scan at or before `t`.
    pub fn scan_at(&self, t: f64) -> Option<&ScanSample> {
        at_or_before_strict(&self.scans, t, |s| s.t)
    }
    /// The controller state at or before `t`.
    pub fn controller_at(&self, t: f64) -> Option<&ControllerSample> {
        at_or_before_strict(&self.controller, t, |s| s.t)
    }
}

/// The item at or before `t`, or the first one if all are later.
fn at_or_before<T>(items: &[T], t: f64, time: impl Fn(&T) -> f64) -> Option<&T> {
    let n = items.partition_point(|i| time(i) <= t);
    items.get(n.saturating_sub(1))
}

/// The item at or before `t`, or none if all are later.
fn at_or_before_strict<T>(items: &[T], t: f64, time: impl Fn(&T) -> f64) -> Option<&T> {
    let n = items.partition_point(|i| time(i) <= t);
    n.checked_sub(1).and_then(|k| items.get(k))
}

/// A run log, read back.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// The file it came from.
    pub path: PathBuf,
    /// The world (`/world`'s `world`: walls, goals, bounds, ...), `Null` if absent.
    pub world: Value,
    /// The cycle period (s), if the log says.
    pub period_s: Option<f64>,
    /// Per robot, in the order of `/world`.
    pub robots: Vec<RobotLog>,
    /// All events, in time order.
    pub events: Vec<EventSample>,
    /// Balls and cans: (time, `objects` array) whenever they moved.
    pub objects: Vec<(f64, Value)>,
    /// The summary written at the end, if the run got there.
    pub summary: Option<Value>,
    /// Messages per topic.
    pub counts: BTreeMap<String, u64>,
    /// Schema name per topic.
    pub schemas: BTreeMap<String, String>,
    /// Messages that did not decode and were left out.
    pub skipped: u64,
    /// Why reading stopped before the end of the file, if it did.
    pub truncated: Option<String>,
    /// The last time seen in any message (s).
    pub end_t: f64,
}

/// Builds a [`Recording`] from the messages of a stream.
struct Keep<'f> {
    rec: Recording,
    index: BTreeMap<String, usize>,
    keep: SignalFilter<'f>,
}

impl Visit for Keep<'_> {
    fn message(&mut self, m: Raw<'_>) {
        stream::count(&mut self.rec.counts, m.topic);
        match message::decode(m.topic, m.data, self.keep) {
            Some(msg) => self.take(msg),
            None => self.rec.skipped += 1,
        }
    }
}

impl Keep<'_> {
    fn robot(&mut self, name: &str) -> &mut RobotLog {
        let i = self.rec.robot_index(&mut self.index, name);
        &mut self.rec.robots[i]
    }

    fn take(&mut self, msg: Message<'_>) {
        if let Some(t) = msg.t() {
            self.rec.seen(t);
        }
        match msg {
            Message::World(w) => {
                self.rec.world = w.world;
                self.rec.period_s = w.period_s;
                for info in w.robots {
                    let name = info.name.clone();
                    self.robot(&name).info = info;
                }
            }
            Message::Pose(robot, p) => self.robot(&robot).poses.push(p),
            Message::Scan(robot, s) => self.robot(&robot).scans.push(s),
            Message::Signals(robot, t, values) => {
                let log = self.robot(&robot);
                for (name, v) in values {
                    log.signals.entry(name).or_default().push((t, v));
                }
            }
            Message::Controller(robot, t, controller, state) => {
                self.robot(&robot).controller.push(ControllerSample {
                    t,
                    controller,
                    state,
                });
            }
            Message::Event(robot, t, kind, data) => {
                let i = self.rec.robot_index(&mut self.index, &robot);
                self.rec.events.push(EventSample {
                    robot: i,
                    t,
                    kind,
                    data,
                });
            }
            Message::Objects(t, objects) => self.rec.objects.push((t, objects)),
            Message::Summary(v) => self.rec.summary = Some(v),
            Message::Other(_) => {}
        }
    }
}

impl Recording {
    /// Read a run log from a file (all of it, into memory: for small logs; the report
    /// and the replay read large ones as a stream, see [`crate::stream`]).
    pub fn open(path: &Path, keep: SignalFilter<'_>) -> Result<Self, Error> {
        let mut k = Self::keeper(keep);
        let (_, outcome) = stream::read_file(path, &mut k)?;
        Ok(k.finish(Some(path), outcome))
    }

    /// Read a run log from its bytes.
    pub fn from_bytes(bytes: &[u8], keep: SignalFilter<'_>) -> Result<Self, Error> {
        let mut k = Self::keeper(keep);
        let (_, outcome) = stream::read(bytes, Some(bytes.len() as u64), &mut k)?;
        Ok(k.finish(None, outcome))
    }

    fn keeper(keep: SignalFilter<'_>) -> Keep<'_> {
        Keep {
            rec: Recording::default(),
            index: BTreeMap::new(),
            keep,
        }
    }

    fn robot_index(&mut self, index: &mut BTreeMap<String, usize>, name: &str) -> usize {
        if let Some(&i) = index.get(name) {
            return i;
        }
        let i = self.robots.len();
        self.robots.push(RobotLog {
            info: RobotInfo {
                name: name.to_string(),
                ..RobotInfo::default()
            },
            ..RobotLog::default()
        });
        index.insert(name.to_string(), i);
        i
    }

    fn seen(&mut self, t: f64) {
        if t.is_finite() && t > self.end_t {
            self.end_t = t;
        }
    }

    /// The objects at time `t`.
    pub fn objects_at(&self, t: f64) -> Option<&Value> {
        at_or_before_strict(&self.objects, t, |(ts, _)| *ts).map(|(_, v)| v)
    }

    /// The world's walls as `[x1, y1, x2, y2]`.
    pub fn walls(&self) -> Vec<[f64; 4]> {
        self.world
            .get("walls")
            .and_then(Value::as_array)
            .map(|ws| {
                ws.iter()
                    .filter_map(|w| {
                        let a = w.as_array()?;
                        let n = |k: usize| a.get(k).and_then(Value::as_f64);
                        Some([n(0)?, n(1)?, n(2)?, n(3)?])
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The world's bounds `[xmin, ymin, xmax, ymax]`, if it has any.
    pub fn bounds(&self) -> Option<[f64; 4]> {
        let a = self.world.get("bounds")?.as_array()?;
        let n = |k: usize| a.get(k).and_then(Value::as_f64).filter(|v| v.is_finite());
        let b = [n(0)?, n(1)?, n(2)?, n(3)?];
        (b[2] > b[0] && b[3] > b[1]).then_some(b)
    }

    /// Robot `i`'s name.
    pub fn robot_name(&self, i: usize) -> &str {
        self.robots.get(i).map_or("?", |r| r.info.name.as_str())
    }
}

impl Keep<'_> {
    fn finish(self, path: Option<&Path>, outcome: stream::Outcome) -> Recording {
        let mut rec = self.rec;
        if let Some(p) = path {
            rec.path = p.to_path_buf();
        }
        rec.skipped += outcome.skipped;
        rec.truncated = outcome.truncated;
        rec.schemas = outcome.schemas;
        rec
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let keep = |_: &str| true;
        assert!(Recording::from_bytes(b"", &keep).is_err());
        assert!(Recording::from_bytes(b"not an mcap file at all", &keep).is_err());
        let mut bytes = mcap::MAGIC.to_vec();
        bytes.extend_from_slice(&[0xff; 40]);
        let _ = Recording::from_bytes(&bytes, &keep);
    }

    #[test]
    fn lookups_by_time() {
        let ps: Vec<PoseSample> = (0..5)
            .map(|k| PoseSample {
                t: f64::from(k),
                x: f64::from(k),
                ..PoseSample::default()
            })
            .collect();
        let r = RobotLog {
            poses: ps,
            ..RobotLog::default()
        };
        assert_eq!(r.pose_at(-1.0).map(|p| p.x), Some(0.0));
        assert_eq!(r.pose_at(2.5).map(|p| p.x), Some(2.0));
        assert_eq!(r.pose_at(9.0).map(|p| p.x), Some(4.0));
        assert!(r.controller_at(1.0).is_none());
    }
}
