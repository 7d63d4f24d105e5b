//! A run log served by the replay without reading it into memory: one pass over the file
//! keeps each robot's track (decimated), where each chunk starts, and a few keyframes
//! (the run's [`Moment`] at the start of some chunks, at most [`MAX_KEYFRAMES`]); a frame
//! at time t then starts from the keyframe (or the moment last served) before t and reads
//! the chunks from there to t. Playing forward reads each chunk once; a jump reads at
//! most the chunks between two keyframes.
//!
//! What it holds grows with the number of robots and keyframes, not with the log.

use crate::moment::Moment;
use serde_json::Value;
use skipper_runlog::message::{self, Message, PoseSample, RobotInfo, SignalFilter};
use skipper_runlog::stream::{self, Channels, Outcome, Raw, Scratch, Visit};
use skipper_runlog::track::Track;
use skipper_runlog::Error;
use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Mutex;

/// Keyframes kept at most (spread evenly over the run).
pub const MAX_KEYFRAMES: usize = 128;
/// Trail points per robot at most.
const TRAIL_POINTS: usize = 3000;

/// Where a top-level record with messages (a chunk) is, and the time it starts at.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ChunkRef {
    at: u64,
    start_ns: u64,
}

/// The run at the start of chunk `chunk`: every chunk before it applied.
#[derive(Debug, Clone)]
struct Keyframe {
    chunk: usize,
    moment: Moment,
}

/// Where the last frame was made from: the moment after every chunk before `chunk`.
struct Cursor {
    src: BufReader<File>,
    channels: Channels,
    scratch: Scratch,
    chunk: usize,
    moment: Moment,
}

/// What the first pass found.
#[derive(Debug, Clone, Default)]
pub struct RunInfo {
    /// The world (`/world`'s `world`).
    pub world: Value,
    /// The robots, in order.
    pub robots: Vec<RobotInfo>,
    /// The cycle period (s), if the log says.
    pub period_s: Option<f64>,
    /// The summary at the end, if the run got there.
    pub summary: Option<Value>,
    /// The last time in the log (s).
    pub end_t: f64,
    /// Why the log ends early, if it does.
    pub truncated: Option<String>,
}

/// A run log, indexed for frames at any time.
pub struct LogIndex {
    info: RunInfo,
    names: HashMap<String, usize>,
    tracks: Vec<Track>,
    first_poses: Vec<Option<PoseSample>>,
    chunks: Vec<ChunkRef>,
    keyframes: Vec<Keyframe>,
    keep: fn(&str) -> bool,
    cursor: Mutex<Cursor>,
}

/// The first pass: tracks, chunks, keyframes.
struct FirstPass {
    info: RunInfo,
    names: HashMap<String, usize>,
    tracks: Vec<Track>,
    first_poses: Vec<Option<PoseSample>>,
    chunks: Vec<ChunkRef>,
    keyframes: Vec<Keyframe>,
    /// a keyframe every this many chunks
    spacing: usize,
    live: Moment,
    keep: fn(&str) -> bool,
}

impl FirstPass {
    fn robot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.names.get(name) {
            return i;
        }
        let i = self.info.robots.len();
        self.info.robots.push(RobotInfo {
            name: name.to_string(),
            ..RobotInfo::default()
        });
        self.names.insert(name.to_string(), i);
        self.tracks.push(Track::new(TRAIL_POINTS));
        self.first_poses.push(None);
        self.live.robots.push(Default::default());
        i
    }

    fn keyframe(&mut self) {
        let chunk = self.chunks.len();
        if chunk % self.spacing != 0 {
            return;
        }
        self.keyframes.push(Keyframe {
            chunk,
            moment: self.live.clone(),
        });
        if self.keyframes.len() > MAX_KEYFRAMES {
            self.spacing *= 2;
            let spacing = self.spacing;
            self.keyframes.retain(|k| k.chunk % spacing == 0);
        }
    }

    fn take(&mut self, msg: Message<'_>) {
        if let Some(t) = msg.t().filter(|t| t.is_finite() && *t > self.info.end_t) {
            self.info.end_t = t;
        }
        match &msg {
            Message::World(w) => {
                self.info.world = w.world.clone();
                self.info.period_s = w.period_s;
                for r in &w.robots {
                    let i = self.robot(&r.name);
                    if let Some(slot) = self.info.robots.get_mut(i) {
                        *slot = r.clone();
                    }
                }
            }
            Message::Summary(v) => self.info.summary = Some(v.clone()),
            Message::Pose(name, p) => {
                let i = self.robot(name);
                if let Some(t) = self.tracks.get_mut(i) {
                    t.push(p.t, p.x, p.y);
                }
                if let Some(f) = self.first_poses.get_mut(i) {
                    f.get_or_insert(*p);
                }
            }
            Message::Signals(name, ..)
            | Message::Controller(name, ..)
            | Message::Event(name, ..) => {
                self.robot(name);
            }
            _ => {}
        }
        self.live.apply(msg, &self.names);
    }
}

impl Visit for FirstPass {
    fn record(&mut self, at: u64, start_ns: Option<u64>) {
        self.keyframe();
        let start_ns = start_ns.unwrap_or_else(|| self.chunks.last().map_or(0, |c| c.start_ns));
        self.chunks.push(ChunkRef { at, start_ns });
    }

    fn message(&mut self, m: Raw<'_>) {
        // scans are read when a frame needs them
        if m.topic == "/scan" {
            return;
        }
        if let Some(msg) = message::decode(m.topic, m.data, &self.keep) {
            self.take(msg);
        }
    }
}

/// Applies the messages of a chunk read again to a moment, up to a time.
struct Apply<'a> {
    moment: &'a mut Moment,
    names: &'a HashMap<String, usize>,
    keep: SignalFilter<'a>,
    until_ns: u64,
    only_scans: bool,
}

impl Visit for Apply<'_> {
    fn message(&mut self, m: Raw<'_>) {
        if m.log_time > self.until_ns || (self.only_scans && m.topic != "/scan") {
            return;
        }
        if let Some(msg) = message::decode(m.topic, m.data, self.keep) {
            self.moment.apply(msg, self.names);
        }
    }
}

fn ns(t: f64) -> u64 {
    if t.is_finite() && t > 0.0 {
        (t * 1e9).min(u64::MAX as f64) as u64
    } else {
        0
    }
}

impl LogIndex {
    /// Read the log at `path` once; `keep` says which signals frames use.
    pub fn open(path: &Path, keep: fn(&str) -> bool) -> Result<Self, Error> {
        let mut pass = FirstPass {
            info: RunInfo::default(),
            names: HashMap::new(),
            tracks: Vec::new(),
            first_poses: Vec::new(),
            chunks: Vec::new(),
            keyframes: Vec::new(),
            spacing: 1,
            live: Moment::new(0),
            keep,
        };
        let (channels, outcome): (Channels, Outcome) = stream::read_file(path, &mut pass)?;
        pass.info.truncated = outcome.truncated;
        let file = File::open(path).map_err(|e| Error::io("read", path, e))?;
        let n = pass.info.robots.len();
        let cursor = Cursor {
            src: BufReader::new(file),
            channels,
            scratch: Scratch::default(),
            chunk: 0,
            moment: Moment::new(n),
        };
        Ok(Self {
            info: pass.info,
            names: pass.names,
            tracks: pass.tracks,
            first_poses: pass.first_poses,
            chunks: pass.chunks,
            keyframes: pass.keyframes,
            keep,
            cursor: Mutex::new(cursor),
        })
    }

    /// What the first pass found.
    pub fn info(&self) -> &RunInfo {
        &self.info
    }

    /// Robot `i`'s first pose (a frame before it shows the robot there).
    pub fn first_pose(&self, i: usize) -> Option<PoseSample> {
        self.first_poses.get(i).copied().flatten()
    }

    /// Each robot's track up to time `t`.
    pub fn trails(&self, t: f64) -> Vec<Vec<(f64, f64)>> {
        self.tracks
            .iter()
            .map(|tr| {
                tr.points_until(t)
                    .map(|p| (f64::from(p.x), f64::from(p.y)))
                    .collect()
            })
            .collect()
    }

    /// How many keyframes it keeps.
    pub fn keyframes(&self) -> usize {
        self.keyframes.len()
    }

    /// The run at time `t`.
    pub fn moment_at(&self, t: f64) -> Moment {
        let until = ns(t);
        // chunks that start at or before t; the last of them may run past it
        let upto = self.chunks.partition_point(|c| c.start_ns <= until);
        let full = upto.saturating_sub(1);
        let Ok(mut c) = self.cursor.lock() else {
            return Moment::new(self.info.robots.len());
        };
        let kf = self.keyframes.iter().rev().find(|k| k.chunk <= full);
        if let Some(k) = kf.filter(|k| c.chunk > full || k.chunk > c.chunk) {
            c.chunk = k.chunk;
            c.moment = k.moment.clone();
            c.moment
                .robots
                .resize(self.info.robots.len(), Default::default());
            // the scans of the chunk before: a frame just after the keyframe draws them
            if let Some(prev) = k.chunk.checked_sub(1) {
                self.read_into(&mut c, prev, until, true);
            }
        }
        while c.chunk < full {
            let k = c.chunk;
            self.read_into(&mut c, k, u64::MAX, false);
            c.chunk += 1;
        }
        let mut m = c.moment.clone();
        if upto > 0 {
            self.read(&mut c, full, until, false, &mut m);
        }
        m.t = t;
        m
    }

    /// Apply chunk `k` (messages up to `until_ns`; only scans if `only_scans`) to the
    /// cursor's own moment.
    fn read_into(&self, c: &mut Cursor, k: usize, until_ns: u64, only_scans: bool) {
        let mut m = std::mem::take(&mut c.moment);
        self.read(c, k, until_ns, only_scans, &mut m);
        c.moment = m;
    }

    /// Apply chunk `k` (messages up to `until_ns`; only scans if `only_scans`) to `m`.
    fn read(&self, c: &mut Cursor, k: usize, until_ns: u64, only_scans: bool, m: &mut Moment) {
        let Some(chunk) = self.chunks.get(k) else {
            return;
        };
        let keep = self.keep;
        let mut v = Apply {
            moment: m,
            names: &self.names,
            keep: &keep,
            until_ns,
            only_scans,
        };
        stream::read_record_at(
            &mut c.src,
            chunk.at,
            &mut c.channels,
            &mut c.scratch,
            &mut v,
        );
    }
}
