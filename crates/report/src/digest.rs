//! What the report keeps of a run log, collected while the log is read as a stream
//! ([`Digest::open`]): per robot its track and series decimated to what a page draws, its
//! lanes, envelopes and counts, and for the run the world, the summary, the waypoints and
//! the first events. What it takes grows with the number of robots and the picture, not
//! with the length of the log.

use crate::decimate::{Counts, Series};
use crate::lanes::{Lane, RobotLanes};
use crate::series::{self, EnvelopeBound, Envelopes, Role, Waypoint};
use serde_json::Value;
use skipper_runlog::message::{self, Message, PoseSample, RobotInfo};
use skipper_runlog::stream::{self, Outcome, Raw, Visit};
use skipper_runlog::track::Track;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Buckets of each time series (a plot is about 800 pixels wide).
const SERIES_BUCKETS: usize = 500;
/// Points of each track at most.
const TRACK_POINTS: usize = 2000;
/// Events kept for the run's events table.
pub const EVENTS_KEPT: usize = 1000;
/// Events kept per robot for its own section.
pub const ROBOT_EVENTS_KEPT: usize = 50;
/// Names of controllers kept per robot.
const CONTROLLERS_KEPT: usize = 8;

/// An event as the tables show it.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRow {
    /// Index of the robot.
    pub robot: usize,
    /// Simulated time (s).
    pub t: f64,
    /// Its kind.
    pub kind: String,
    /// Its data.
    pub data: Value,
}

/// The latest value of each signal the report reads, and the name it came from.
#[derive(Debug, Clone, Default)]
struct Latest {
    values: BTreeMap<Role, (String, f64)>,
}

impl Latest {
    fn set(&mut self, role: Role, name: &str, v: f64) {
        // one signal per role: the first name in order (as a reader would pick one)
        match self.values.get_mut(&role) {
            Some((n, x)) if n.as_str() == name => *x = v,
            Some((n, _)) if n.as_str() < name => {}
            _ => {
                self.values.insert(role, (name.to_string(), v));
            }
        }
    }
    fn get(&self, role: Role) -> Option<f64> {
        self.values.get(&role).map(|(_, v)| *v)
    }
}

/// What the report keeps of one robot.
#[derive(Debug, Clone)]
pub struct RobotDigest {
    /// Who it is.
    pub info: RobotInfo,
    /// Its controllers' names, in the order they came.
    pub controllers: Vec<String>,
    /// Its track, decimated.
    pub track: Track,
    /// Its first and last pose.
    pub first: Option<PoseSample>,
    /// Its last pose.
    pub last: Option<PoseSample>,
    /// Distance along its track (m, in 3D: an AUV's dives and climbs count, as they do in
    /// the summary's `distance_m`).
    pub distance: f64,
    /// Distance so far over time (m).
    pub distance_series: Series,
    speed_signal: Series,
    speed_track: Series,
    max_speed_signal: f64,
    max_speed_track: f64,
    /// Heading over time (deg, -180..180 counter-clockwise from +x).
    pub heading: Series,
    depth_signal: Series,
    depth_pose: Series,
    /// Altitude above the sea floor over time (m), where it had a reading.
    pub altitude: Series,
    seafloor_signal: Series,
    seafloor_altitude: Series,
    latest: Latest,
    /// Its lanes, being built.
    pub lanes: RobotLanes,
    /// Its envelopes, being followed.
    pub envelopes: Envelopes,
    /// Events of each kind.
    pub kinds: BTreeMap<String, u64>,
    /// Collisions over time.
    pub collisions: Counts,
    /// Goals reached over time (`goal` events that succeeded).
    pub goals: Counts,
    /// Its first events.
    pub events: Vec<EventRow>,
}

impl RobotDigest {
    fn new(index: usize, info: RobotInfo) -> Self {
        let s = || Series::new(SERIES_BUCKETS);
        Self {
            info,
            controllers: Vec::new(),
            track: Track::new(TRACK_POINTS),
            first: None,
            last: None,
            distance: 0.0,
            distance_series: s(),
            speed_signal: s(),
            speed_track: s(),
            max_speed_signal: 0.0,
            max_speed_track: 0.0,
            heading: s(),
            depth_signal: s(),
            depth_pose: s(),
            altitude: s(),
            seafloor_signal: s(),
            seafloor_altitude: s(),
            latest: Latest::default(),
            lanes: RobotLanes::new(index),
            envelopes: Envelopes::default(),
            kinds: BTreeMap::new(),
            collisions: Counts::new(SERIES_BUCKETS),
            goals: Counts::new(SERIES_BUCKETS),
            events: Vec::new(),
        }
    }

    fn pose(&mut self, p: PoseSample) {
        if let Some(a) = self.last {
            let step = (p.x - a.x).hypot(p.y - a.y);
            let d = step.hypot(p.z - a.z);
            if d.is_finite() {
                self.distance += d;
            }
            let dt = p.t - a.t;
            if dt > 0.0 {
                let v = step / dt;
                self.speed_track.push(p.t, v);
                if v.is_finite() {
                    self.max_speed_track = self.max_speed_track.max(v);
                }
            }
        }
        self.first.get_or_insert(p);
        self.last = Some(p);
        self.track.push(p.t, p.x, p.y);
        self.distance_series.push(p.t, self.distance);
        self.heading.push(p.t, p.yaw.to_degrees());
        self.sample_signals(p);
    }

    /// The signals' latest values, sampled at the time of a pose (every cycle).
    fn sample_signals(&mut self, p: PoseSample) {
        let t = p.t;
        if let Some(v) = self.latest.get(Role::Speed) {
            self.speed_signal.push(t, v);
            self.max_speed_signal = self.max_speed_signal.max(v.abs());
        }
        let depth_signal = self.latest.get(Role::Depth);
        if let Some(d) = depth_signal {
            self.depth_signal.push(t, d);
        }
        self.depth_pose.push(t, -p.z);
        let depth = depth_signal.unwrap_or(-p.z);
        if let Some(f) = self.latest.get(Role::SeaFloor).filter(|f| *f > 0.0) {
            self.seafloor_signal.push(t, f);
        }
        if let Some(a) = self.latest.get(Role::Altitude).filter(|a| *a >= 0.0) {
            self.altitude.push(t, a);
            self.seafloor_altitude.push(t, depth + a);
        }
    }

    fn signals(&mut self, values: &[(String, Value)]) {
        for (name, v) in values {
            if let (Some(role), Some(x)) = (series::role_of(name), v.as_f64()) {
                self.latest.set(role, name, x);
            }
        }
    }

    fn controller(&mut self, t: f64, name: &str, state: &Value) {
        if self.controllers.last().map(String::as_str) != Some(name)
            && self.controllers.len() < CONTROLLERS_KEPT
        {
            self.controllers.push(name.to_string());
        }
        self.lanes.state(t, state);
        self.envelopes.state(t, state);
    }

    /// Its speed over time (m/s): its `velocity.linear` signal when it has one, else from
    /// its track.
    pub fn speed(&self) -> &Series {
        if self.speed_signal.is_empty() {
            &self.speed_track
        } else {
            &self.speed_signal
        }
    }

    /// Its top speed (m/s), from the same source as [`RobotDigest::speed`].
    pub fn max_speed(&self) -> f64 {
        if self.speed_signal.is_empty() {
            self.max_speed_track
        } else {
            self.max_speed_signal
        }
    }

    /// Its mean speed (m/s): distance over the time between its first and last pose.
    pub fn mean_speed(&self) -> f64 {
        let t = match (self.first, self.last) {
            (Some(a), Some(b)) => b.t - a.t,
            _ => 0.0,
        };
        if t > 0.0 {
            self.distance / t
        } else {
            0.0
        }
    }

    /// Is it an underwater vehicle (or does it report a depth)?
    pub fn is_underwater(&self) -> bool {
        self.info.kind == "auv" || !self.depth_signal.is_empty()
    }

    /// Depth over time (m, down): its depth signal, else minus the height of its pose.
    pub fn depth(&self) -> &Series {
        if self.depth_signal.is_empty() {
            &self.depth_pose
        } else {
            &self.depth_signal
        }
    }

    /// The sea floor under it over time (m, down): reported, else depth + altitude where
    /// the altimeter had a reading.
    pub fn seafloor(&self) -> &Series {
        if self.seafloor_signal.is_empty() {
            &self.seafloor_altitude
        } else {
            &self.seafloor_signal
        }
    }

    /// Events of any kind.
    pub fn event_count(&self) -> u64 {
        self.kinds.values().sum()
    }
}

/// What the report keeps of a run.
#[derive(Debug, Clone, Default)]
pub struct Digest {
    /// The file it came from.
    pub path: PathBuf,
    /// The world (`/world`'s `world`), `Null` if absent.
    pub world: Value,
    /// The cycle period (s), if the log says.
    pub period_s: Option<f64>,
    /// The summary written at the end, if the run got there.
    pub summary: Option<Value>,
    /// Per robot, in the order of `/world`.
    pub robots: Vec<RobotDigest>,
    index: HashMap<String, usize>,
    /// The run's first events, in time order.
    pub events: Vec<EventRow>,
    /// Events of each kind, over all robots.
    pub kinds: BTreeMap<String, u64>,
    /// The world's goals and the waypoints found in states and events.
    pub waypoints: Vec<Waypoint>,
    /// Balls and cans where the run left them (the last `/objects`).
    pub objects: Option<Value>,
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

impl Digest {
    /// Read the run log at `path` as a stream.
    pub fn open(path: &Path) -> Result<Self, skipper_runlog::Error> {
        let mut d = Digest {
            path: path.to_path_buf(),
            ..Digest::default()
        };
        let (_, outcome) = stream::read_file(path, &mut d)?;
        d.finish(outcome);
        Ok(d)
    }

    /// Read a run log from its bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, skipper_runlog::Error> {
        let mut d = Digest::default();
        let (_, outcome) = stream::read(bytes, Some(bytes.len() as u64), &mut d)?;
        d.finish(outcome);
        Ok(d)
    }

    fn finish(&mut self, outcome: Outcome) {
        self.skipped += outcome.skipped;
        self.truncated = outcome.truncated;
        self.schemas = outcome.schemas;
    }

    /// Every robot's lanes, robot by robot.
    pub fn lanes(&self) -> Vec<Lane> {
        self.robots
            .iter()
            .flat_map(|r| r.lanes.finish(self.end_t))
            .collect()
    }

    /// Robot `i`'s envelope bounds.
    pub fn envelopes(&self, i: usize) -> Vec<EnvelopeBound> {
        self.robots
            .get(i)
            .map(|r| r.envelopes.finish(self.end_t))
            .unwrap_or_default()
    }

    /// Robot `i`'s name.
    pub fn robot_name(&self, i: usize) -> &str {
        self.robots.get(i).map_or("?", |r| r.info.name.as_str())
    }

    /// All events.
    pub fn event_count(&self) -> u64 {
        self.kinds.values().sum()
    }

    /// The world's walls as `[x1, y1, x2, y2]`.
    pub fn walls(&self) -> Vec<[f64; 4]> {
        let walls = self.world.get("walls").and_then(Value::as_array);
        walls
            .into_iter()
            .flatten()
            .filter_map(|w| {
                let a = w.as_array()?;
                let n = |k: usize| a.get(k).and_then(Value::as_f64);
                Some([n(0)?, n(1)?, n(2)?, n(3)?])
            })
            .collect()
    }

    /// The world's bounds `[xmin, ymin, xmax, ymax]`, if it has any.
    pub fn bounds(&self) -> Option<[f64; 4]> {
        let a = self.world.get("bounds")?.as_array()?;
        let n = |k: usize| a.get(k).and_then(Value::as_f64).filter(|v| v.is_finite());
        let b = [n(0)?, n(1)?, n(2)?, n(3)?];
        (b[2] > b[0] && b[3] > b[1]).then_some(b)
    }

    fn robot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.robots.len();
        let info = RobotInfo {
            name: name.to_string(),
            ..RobotInfo::default()
        };
        self.robots.push(RobotDigest::new(i, info));
        self.index.insert(name.to_string(), i);
        i
    }

    fn robot_mut(&mut self, name: &str) -> Option<&mut RobotDigest> {
        let i = self.robot(name);
        self.robots.get_mut(i)
    }

    fn take(&mut self, msg: Message<'_>) {
        if let Some(t) = msg.t().filter(|t| t.is_finite() && *t > self.end_t) {
            self.end_t = t;
        }
        match msg {
            Message::World(w) => {
                self.waypoints = series::world_goals(&w.world);
                self.world = w.world;
                self.period_s = w.period_s;
                for info in w.robots {
                    let name = info.name.clone();
                    if let Some(r) = self.robot_mut(&name) {
                        r.info = info;
                    }
                }
            }
            Message::Pose(robot, p) => {
                if let Some(r) = self.robot_mut(&robot) {
                    r.pose(p);
                }
            }
            Message::Signals(robot, _, values) => {
                if let Some(r) = self.robot_mut(&robot) {
                    r.signals(&values);
                }
            }
            Message::Controller(robot, t, controller, state) => {
                series::add_waypoints(&state, &mut self.waypoints);
                if let Some(r) = self.robot_mut(&robot) {
                    r.controller(t, &controller, &state);
                }
            }
            Message::Event(robot, t, kind, data) => self.event(&robot, t, kind, data),
            Message::Objects(_, objects) => self.objects = Some(objects),
            Message::Summary(v) => self.summary = Some(v),
            Message::Scan(..) | Message::Other(_) => {}
        }
    }

    fn event(&mut self, robot: &str, t: f64, kind: String, data: Value) {
        series::add_waypoints(&data, &mut self.waypoints);
        let i = self.robot(robot);
        *self.kinds.entry(kind.clone()).or_default() += 1;
        let row = EventRow {
            robot: i,
            t,
            kind,
            data,
        };
        if let Some(r) = self.robots.get_mut(i) {
            *r.kinds.entry(row.kind.clone()).or_default() += 1;
            if row.kind == "collision" {
                r.collisions.add(t);
            }
            if goal_reached(&row.kind, &row.data) {
                r.goals.add(t);
            }
            r.lanes.event(t, &row.kind, &row.data);
            if r.events.len() < ROBOT_EVENTS_KEPT {
                r.events.push(row.clone());
            }
        }
        if self.events.len() < EVENTS_KEPT {
            self.events.push(row);
        }
    }
}

/// A `goal` event that says the goal succeeded (or was reached).
pub fn goal_reached(kind: &str, data: &Value) -> bool {
    kind == "goal"
        && matches!(
            data.get("status").and_then(Value::as_str),
            Some("succeeded" | "reached")
        )
}

impl Visit for Digest {
    fn message(&mut self, m: Raw<'_>) {
        stream::count(&mut self.counts, m.topic);
        if m.topic == "/scan" || m.topic == "/actuation" {
            // laser ranges and actuation are not in the report: not decoded
            return;
        }
        match message::decode(m.topic, m.data, &series::keep_signal) {
            Some(msg) => self.take(msg),
            None => self.skipped += 1,
        }
    }
}
