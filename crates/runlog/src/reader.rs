//! Reading a run log back: the MCAP file of a run, decoded into per-robot tracks,
//! signals, laser scans, controller states and events, for the report and the replay.
//!
//! Reading is forgiving: a message that does not decode is counted in
//! [`Recording::skipped`] and left out, and a log cut short (a run that was killed) is
//! read up to where it ends ([`Recording::truncated`] says why it stopped). Signals can be
//! many (every sonar of every robot every cycle), so the caller says which ones to keep.

use crate::Error;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One robot of the run, as `/world` lists it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RobotInfo {
    /// Its name.
    pub name: String,
    /// `ground` or `auv` (or whatever the vehicle said).
    pub kind: String,
    /// Its model (`p3dx`, ...).
    pub model: String,
}

/// A pose of a robot at a time, from `/pose`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PoseSample {
    /// Simulated time (s).
    pub t: f64,
    /// Position (m).
    pub x: f64,
    /// Position (m).
    pub y: f64,
    /// Height (m); negative under water.
    pub z: f64,
    /// Heading (rad, counter-clockwise from +x).
    pub yaw: f64,
}

/// A laser scan, from `/scan`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScanSample {
    /// Simulated time (s).
    pub t: f64,
    /// Where the laser was (m) and its heading (rad).
    pub x: f64,
    /// Where the laser was (m).
    pub y: f64,
    /// The laser's heading (rad).
    pub yaw: f64,
    /// Bearing of the first beam relative to the heading (rad).
    pub start_angle: f64,
    /// Bearing of the last beam (rad).
    pub end_angle: f64,
    /// Ranges (m); `NaN` where the log had none.
    pub ranges: Vec<f64>,
}

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

#[derive(Deserialize)]
struct Vec3 {
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    #[serde(default)]
    z: f64,
}

#[derive(Deserialize)]
struct Quat {
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    #[serde(default)]
    z: f64,
    #[serde(default = "one")]
    w: f64,
}

fn one() -> f64 {
    1.0
}

#[derive(Deserialize)]
struct PoseBody {
    position: Vec3,
    orientation: Quat,
}

#[derive(Deserialize)]
struct PoseMsg {
    robot: String,
    t: f64,
    pose: PoseBody,
}

#[derive(Deserialize)]
struct ScanMsg {
    robot: String,
    t: f64,
    pose: PoseBody,
    start_angle: f64,
    end_angle: f64,
    ranges: Vec<Option<f64>>,
}

fn yaw_of(q: &Quat) -> f64 {
    (2.0 * (q.w * q.z + q.x * q.y)).atan2(1.0 - 2.0 * (q.y * q.y + q.z * q.z))
}

/// A little-endian reader over a record's bytes: every read is checked against what is
/// left, so a bad length is an error, never a large allocation or a panic.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = rest;
        Some(head)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn string(&mut self) -> Option<String> {
        let n = usize::try_from(self.u32()?).ok()?;
        std::str::from_utf8(self.take(n)?).ok().map(str::to_string)
    }
}

/// An MCAP Schema record: its id and name.
fn parse_schema(data: &[u8]) -> Option<(u16, String)> {
    let mut b = Bytes(data);
    Some((b.u16()?, b.string()?))
}

/// An MCAP Channel record: its id, its schema's id, its topic.
fn parse_channel(data: &[u8]) -> Option<(u16, u16, String)> {
    let mut b = Bytes(data);
    Some((b.u16()?, b.u16()?, b.string()?))
}

/// An MCAP Message record: its channel id and its payload (after sequence, log time and
/// publish time).
fn parse_message(data: &[u8]) -> Option<(u16, &[u8])> {
    let mut b = Bytes(data);
    let channel = b.u16()?;
    b.take(4 + 8 + 8)?;
    Some((channel, b.0))
}

/// The largest chunk decompressed (writers use chunks of about a megabyte).
const CHUNK_LIMIT: u64 = 256 << 20;

/// The records of an MCAP Chunk record, decompressed (zstd, or none) and checked against
/// the size the chunk declares; `None` for a bad chunk or another compression. (We read
/// chunks ourselves: the mcap crate's reader overflows on some malformed chunks.)
fn chunk_records(data: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    use std::io::Read;
    let mut b = Bytes(data);
    b.take(8 + 8)?; // message start and end times
    let size = b.u64()?;
    b.u32()?; // uncompressed CRC
    let compression = b.string()?;
    let n = usize::try_from(b.u64()?).ok()?;
    let records = b.take(n)?;
    match compression.as_str() {
        "" if records.len() as u64 == size => Some(std::borrow::Cow::Borrowed(records)),
        "zstd" if size <= CHUNK_LIMIT => {
            // reserve what the compressed bytes announce only up to their own size; the
            // buffer grows with what really decompresses (at most `size`)
            let reserve = size.min(records.len() as u64).min(1 << 24);
            let mut out = Vec::with_capacity(usize::try_from(reserve).ok()?);
            zstd::stream::read::Decoder::new(records)
                .ok()?
                .take(size)
                .read_to_end(&mut out)
                .ok()?;
            (out.len() as u64 == size).then_some(std::borrow::Cow::Owned(out))
        }
        _ => None,
    }
}

/// The records (opcode, body) in a chunk's records; stops at the first bad length.
fn records_in(mut b: Bytes<'_>) -> impl Iterator<Item = (u8, &[u8])> {
    std::iter::from_fn(move || {
        let opcode = *b.take(1)?.first()?;
        let len = usize::try_from(b.u64()?).ok()?;
        Some((opcode, b.take(len)?))
    })
}

/// What reading a run log keeps track of besides the recording: schema and channel ids.
#[derive(Default)]
struct Reading {
    schemas: BTreeMap<u16, String>,
    channels: BTreeMap<u16, String>,
    messages: u64,
}

impl Reading {
    /// One record, at the top level or in a chunk.
    fn record(
        &mut self,
        r: &mut Recording,
        opcode: u8,
        data: &[u8],
        index: &mut BTreeMap<String, usize>,
        keep: SignalFilter<'_>,
    ) {
        match opcode {
            mcap::records::op::SCHEMA => match parse_schema(data) {
                Some((id, name)) => {
                    self.schemas.insert(id, name);
                }
                None => r.skipped += 1,
            },
            mcap::records::op::CHANNEL => match parse_channel(data) {
                Some((id, schema_id, topic)) => {
                    if let Some(name) = self.schemas.get(&schema_id) {
                        r.schemas.insert(topic.clone(), name.clone());
                    }
                    self.channels.insert(id, topic);
                }
                None => r.skipped += 1,
            },
            mcap::records::op::MESSAGE => {
                self.messages += 1;
                let Some((channel, payload)) = parse_message(data) else {
                    r.skipped += 1;
                    return;
                };
                let Some(topic) = self.channels.get(&channel) else {
                    r.skipped += 1;
                    return;
                };
                *r.counts.entry(topic.clone()).or_default() += 1;
                if r.take(topic, payload, index, keep).is_none() {
                    r.skipped += 1;
                }
            }
            // the header, indexes, statistics, metadata... are not needed
            _ => {}
        }
    }
}

/// Which signals to keep (they can be many).
pub type SignalFilter<'a> = &'a dyn Fn(&str) -> bool;

impl Recording {
    /// Read a run log from a file.
    pub fn open(path: &Path, keep: SignalFilter<'_>) -> Result<Self, Error> {
        let bytes = std::fs::read(path).map_err(|e| Error::io("read", path, e))?;
        let mut r = Self::from_bytes(&bytes, keep).map_err(|e| Error::NotARunLog {
            path: path.to_path_buf(),
            source: Box::new(e),
        })?;
        r.path = path.to_path_buf();
        Ok(r)
    }

    /// Read a run log from its bytes.
    pub fn from_bytes(bytes: &[u8], keep: SignalFilter<'_>) -> Result<Self, Error> {
        use mcap::sans_io::linear_reader::{LinearReadEvent, LinearReader, LinearReaderOptions};
        if !bytes.starts_with(mcap::MAGIC) {
            return Err(Error::NotMcap);
        }
        let mut r = Recording::default();
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        // no record is longer than the file: this bounds what a bad length can ask for
        let mut reader = LinearReader::new_with_options(
            LinearReaderOptions::default()
                .with_record_length_limit(bytes.len().max(4096))
                .with_skip_end_magic(true)
                .with_emit_chunks(true),
        );
        let mut state = Reading::default();
        let mut pos = 0usize;
        while let Some(event) = reader.next_event() {
            match event {
                Err(e) => {
                    r.truncated = Some(e.to_string());
                    break;
                }
                Ok(LinearReadEvent::ReadRequest(need)) => {
                    let rest = bytes.get(pos..).unwrap_or_default();
                    let n = need.min(rest.len());
                    let buf = reader.insert(n);
                    buf.copy_from_slice(rest.get(..n).unwrap_or_default());
                    reader.notify_read(n);
                    pos += n;
                }
                Ok(LinearReadEvent::Record {
                    opcode: mcap::records::op::CHUNK,
                    data,
                }) => match chunk_records(data) {
                    Some(records) => {
                        for (opcode, data) in records_in(Bytes(&records)) {
                            state.record(&mut r, opcode, data, &mut index, keep);
                        }
                    }
                    None => r.skipped += 1,
                },
                Ok(LinearReadEvent::Record { opcode, data }) => {
                    state.record(&mut r, opcode, data, &mut index, keep);
                }
            }
        }
        let messages = state.messages;
        if messages == 0 {
            return Err(Error::NoMessages(r.truncated));
        }
        Ok(r)
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

    /// Take one message; `None` if it did not decode.
    fn take(
        &mut self,
        topic: &str,
        data: &[u8],
        index: &mut BTreeMap<String, usize>,
        keep: SignalFilter<'_>,
    ) -> Option<()> {
        match topic {
            "/pose" => {
                let p: PoseMsg = serde_json::from_slice(data).ok()?;
                let i = self.robot_index(index, &p.robot);
                self.seen(p.t);
                let s = PoseSample {
                    t: p.t,
                    x: p.pose.position.x,
                    y: p.pose.position.y,
                    z: p.pose.position.z,
                    yaw: yaw_of(&p.pose.orientation),
                };
                self.robots.get_mut(i)?.poses.push(s);
            }
            "/scan" => {
                let p: ScanMsg = serde_json::from_slice(data).ok()?;
                let i = self.robot_index(index, &p.robot);
                self.seen(p.t);
                let s = ScanSample {
                    t: p.t,
                    x: p.pose.position.x,
                    y: p.pose.position.y,
                    yaw: yaw_of(&p.pose.orientation),
                    start_angle: p.start_angle,
                    end_angle: p.end_angle,
                    ranges: p
                        .ranges
                        .into_iter()
                        .map(|r| r.unwrap_or(f64::NAN))
                        .collect(),
                };
                self.robots.get_mut(i)?.scans.push(s);
            }
            _ => {
                let v: Value = serde_json::from_slice(data).ok()?;
                self.take_json(topic, v, index, keep)?;
            }
        }
        Some(())
    }

    fn take_json(
        &mut self,
        topic: &str,
        mut v: Value,
        index: &mut BTreeMap<String, usize>,
        keep: SignalFilter<'_>,
    ) -> Option<()> {
        let t = v.get("t").and_then(Value::as_f64).unwrap_or(0.0);
        self.seen(t);
        let robot = v.get("robot").and_then(Value::as_str).map(str::to_string);
        match topic {
            "/world" => {
                self.world = v.get_mut("world").map(Value::take).unwrap_or(Value::Null);
                self.period_s = v.get("period_s").and_then(Value::as_f64);
                for r in v.get("robots").and_then(Value::as_array)? {
                    let name = r.get("name").and_then(Value::as_str)?;
                    let i = self.robot_index(index, name);
                    let text = |k: &str| {
                        r.get(k)
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string()
                    };
                    let info = RobotInfo {
                        name: name.to_string(),
                        kind: text("kind"),
                        model: text("model"),
                    };
                    self.robots.get_mut(i)?.info = info;
                }
            }
            "/signals" => {
                let i = self.robot_index(index, &robot?);
                let log = self.robots.get_mut(i)?;
                let Value::Object(values) = v.get_mut("values").map(Value::take)? else {
                    return None;
                };
                for (name, val) in values {
                    if keep(&name) {
                        log.signals.entry(name).or_default().push((t, val));
                    }
                }
            }
            "/controller" => {
                let i = self.robot_index(index, &robot?);
                let controller = v
                    .get("controller")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let state = v.get_mut("state").map(Value::take).unwrap_or(Value::Null);
                self.robots.get_mut(i)?.controller.push(ControllerSample {
                    t,
                    controller,
                    state,
                });
            }
            "/events" => {
                let i = self.robot_index(index, &robot?);
                let kind = v.get("kind").and_then(Value::as_str)?.to_string();
                let data = v.get_mut("data").map(Value::take).unwrap_or(Value::Null);
                self.events.push(EventSample {
                    robot: i,
                    t,
                    kind,
                    data,
                });
            }
            "/objects" => {
                let objects = v.get_mut("objects").map(Value::take)?;
                self.objects.push((t, objects));
            }
            "/summary" => self.summary = Some(v),
            // topics of newer versions are counted and otherwise left alone
            _ => {}
        }
        Some(())
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
