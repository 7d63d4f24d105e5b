//! The run log: one MCAP file per run, JSON messages with JSON Schemas, one channel per
//! topic.
//!
//! | topic | when | content |
//! | --- | --- | --- |
//! | `/world` | once, at the start | the world (walls, goals, ...), the robots, the period |
//! | `/signals` | every cycle, per robot | the signals that changed |
//! | `/actuation` | per robot, when the controller asked something | the actuation |
//! | `/events` | as they happen | speech, collisions, statuses, transitions, goals, estop |
//! | `/controller` | per robot, when it changed | the engine's state |
//! | `/pose` | every cycle, per robot | a Foxglove `PoseInFrame` (plus `robot`, `t`) |
//! | `/scan` | per robot, when its laser scanned | a Foxglove `LaserScan` (ranges to the mm), instead of `laser.*` in `/signals`, with the pose and time the ranges were cast at (the cycle's start) |
//! | `/objects` | when balls or cans moved | their positions |
//! | `/summary` | once, at the end | the summary, without wall time |
//!
//! Every message carries the simulated time `t` (s); the MCAP log and publish times are
//! the simulated time in nanoseconds. Nothing depends on the wall clock, so equal runs
//! give byte-identical files.

pub mod schemas;

use anyhow::Context;
use mcap::records::MessageHeader;
use skipper_core::runner::CycleView;
use skipper_core::vocabulary::ground;
use skipper_core::{Observer, RunConfig, RunReport, World};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Channels {
    world: u16,
    signals: u16,
    actuation: u16,
    events: u16,
    controller: u16,
    pose: u16,
    scan: u16,
    objects: u16,
    summary: u16,
}

/// What became of the log, readable after the run.
#[derive(Debug, Default, Clone)]
pub struct LogStatus {
    /// The first write error, if any.
    pub error: Option<String>,
    /// Messages written.
    pub messages: u64,
}

/// The MCAP run log, as a runner observer.
pub struct RunLog {
    writer: Option<mcap::Writer<BufWriter<File>>>,
    ch: Channels,
    seq: u32,
    robots: Vec<String>,
    last_state: Vec<Option<String>>,
    /// per robot: the controller's state version last written (see `Controller::state_version`)
    last_version: Vec<Option<u64>>,
    last_objects: Option<String>,
    /// per robot: the ids of `laser.0`, `laser.1`, ... (empty without a laser)
    lasers: Vec<Vec<skipper_core::SignalId>>,
    /// per robot: where it was when it last sensed (the pose at the start of the cycle:
    /// the end of the last one, or the start of the run)
    sensed_at: Vec<skipper_core::Pose3>,
    status: Arc<Mutex<LogStatus>>,
}

/// Laser beams: the first at -90 degrees, one per degree (the simulated LMS-200).
const LASER_FIRST_DEG: f64 = -90.0;
/// The laser sits this far ahead of the robot's centre (m).
const LASER_X: f64 = 0.018;

fn secs(t: Duration) -> f64 {
    t.as_secs_f64()
}

impl RunLog {
    /// Create the log file (and its directory).
    pub fn create(path: &Path) -> anyhow::Result<(Self, Arc<Mutex<LogStatus>>)> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the log directory {}", dir.display()))?;
        }
        let file = File::create(path)
            .with_context(|| format!("cannot create the run log {}", path.display()))?;
        let mut w = mcap::WriteOptions::new()
            .compression(Some(mcap::Compression::Zstd))
            .profile("")
            .library("skipper")
            .create(BufWriter::new(file))
            .context("cannot start the MCAP file")?;
        let meta = BTreeMap::new();
        let mut add = |topic: &str, name: &str, schema: &str| -> anyhow::Result<u16> {
            let sid = w.add_schema(name, "jsonschema", schema.as_bytes())?;
            Ok(w.add_channel(sid, topic, "json", &meta)?)
        };
        let ch = Channels {
            world: add("/world", "skipper.World", schemas::WORLD)?,
            signals: add("/signals", "skipper.Signals", schemas::SIGNALS)?,
            actuation: add("/actuation", "skipper.Actuation", schemas::ACTUATION)?,
            events: add("/events", "skipper.Event", schemas::EVENT)?,
            controller: add(
                "/controller",
                "skipper.ControllerState",
                schemas::CONTROLLER,
            )?,
            pose: add("/pose", "foxglove.PoseInFrame", schemas::POSE)?,
            scan: add("/scan", "foxglove.LaserScan", schemas::SCAN)?,
            objects: add("/objects", "skipper.Objects", schemas::OBJECTS)?,
            summary: add("/summary", "skipper.Summary", schemas::SUMMARY)?,
        };
        let status = Arc::new(Mutex::new(LogStatus::default()));
        Ok((
            Self {
                writer: Some(w),
                ch,
                seq: 0,
                robots: Vec::new(),
                last_state: Vec::new(),
                last_version: Vec::new(),
                last_objects: None,
                lasers: Vec::new(),
                sensed_at: Vec::new(),
                status: status.clone(),
            },
            status,
        ))
    }

    fn write(&mut self, channel: u16, t: Duration, msg: &serde_json::Value) {
        let Some(w) = self.writer.as_mut() else {
            return;
        };
        let data = match serde_json::to_vec(msg) {
            Ok(d) => d,
            Err(e) => return self.fail(format!("cannot encode a log message: {e}")),
        };
        self.seq = self.seq.wrapping_add(1);
        let ns = u64::try_from(t.as_nanos()).unwrap_or(u64::MAX);
        let header = MessageHeader {
            channel_id: channel,
            sequence: self.seq,
            log_time: ns,
            publish_time: ns,
        };
        match w.write_to_known_channel(&header, &data) {
            Ok(()) => {
                if let Ok(mut s) = self.status.lock() {
                    s.messages += 1;
                }
            }
            Err(e) => self.fail(format!("cannot write the run log: {e}")),
        }
    }

    fn fail(&mut self, msg: String) {
        tracing::error!("{msg}");
        self.writer = None;
        if let Ok(mut s) = self.status.lock() {
            s.error.get_or_insert(msg);
        }
    }

    fn write_scan(&mut self, i: usize, sig: &skipper_core::Signals, v: &CycleView<'_>) {
        let Some(ids) = self.lasers.get(i) else {
            return;
        };
        if ids.is_empty() || !ids.iter().any(|&id| sig.changed_this_cycle(id)) {
            return;
        }
        // the ranges were cast when the robot sensed, at the start of the cycle: the scan
        // has that pose and that time (the /pose of the cycle before says the same)
        let Some(p) = self.sensed_at.get(i).copied() else {
            return;
        };
        let ranges: Vec<f64> = ids
            .iter()
            .map(|&id| {
                sig.f64(id)
                    .map_or(f64::NAN, |r| (r * 1000.0).round() / 1000.0)
            })
            .collect();
        let q = p.quaternion();
        let (s, c) = p.yaw.sin_cos();
        let next = v.now;
        let step = 1f64.to_radians();
        let first = LASER_FIRST_DEG.to_radians();
        let msg = serde_json::json!({
            "timestamp": {"sec": next.as_secs(), "nsec": next.subsec_nanos()},
            "frame_id": "world",
            "pose": {"position": {"x": p.x + c * LASER_X, "y": p.y + s * LASER_X, "z": p.z}, "orientation": {"x": q[0], "y": q[1], "z": q[2], "w": q[3]}},
            "start_angle": first,
            "end_angle": first + step * (ranges.len().saturating_sub(1)) as f64,
            "ranges": ranges,
            "intensities": [],
            "robot": self.robot(i),
            "t": secs(next),
        });
        self.write(self.ch.scan, next, &msg);
    }

    fn robot(&self, i: usize) -> &str {
        self.robots.get(i).map_or("?", String::as_str)
    }
}

impl Observer for RunLog {
    fn on_start(&mut self, world: &dyn World, config: &RunConfig) {
        self.robots = (0..world.len())
            .filter_map(|i| world.vehicle(i).map(|v| v.info().name.clone()))
            .collect();
        self.last_state = vec![None; self.robots.len()];
        self.last_version = vec![None; self.robots.len()];
        self.sensed_at = (0..world.len())
            .filter_map(|i| world.vehicle(i).map(|v| v.pose()))
            .collect();
        let robots: Vec<_> = (0..world.len())
            .filter_map(|i| world.vehicle(i))
            .map(|v| serde_json::to_value(v.info()).unwrap_or_default())
            .collect();
        let msg = serde_json::json!({
            "t": 0.0,
            "world": world.describe(),
            "robots": robots,
            "period_s": secs(config.period),
        });
        self.write(self.ch.world, Duration::ZERO, &msg);
    }

    fn on_cycle(&mut self, v: &CycleView<'_>) {
        let t = v.now;
        let ts = secs(t);
        if self.lasers.len() != v.signals.len() {
            self.lasers = v
                .signals
                .iter()
                .map(|s| (0..).map_while(|k| ground::LASER.id(s, k)).collect())
                .collect();
        }
        for (i, sig) in v.signals.iter().enumerate() {
            let values: serde_json::Map<String, serde_json::Value> = sig
                .changed()
                .filter(|(_, n, _)| !ground::LASER.matches(n))
                .map(|(_, n, val)| (n.to_string(), serde_json::to_value(val).unwrap_or_default()))
                .collect();
            if !values.is_empty() {
                let msg = serde_json::json!({"robot": self.robot(i), "t": ts, "values": values});
                self.write(self.ch.signals, t, &msg);
            }
            self.write_scan(i, sig, v);
        }
        for (i, a) in v.actuation.iter().enumerate() {
            if a.is_empty() {
                continue;
            }
            let mut msg = serde_json::to_value(a).unwrap_or_default();
            if let Some(m) = msg.as_object_mut() {
                m.insert("robot".into(), self.robot(i).into());
                m.insert("t".into(), ts.into());
            }
            self.write(self.ch.actuation, t, &msg);
        }
        for e in v.events {
            let msg = serde_json::json!({"robot": self.robot(e.robot), "t": secs(e.time), "kind": e.kind, "data": e.data});
            self.write(self.ch.events, e.time.max(t), &msg);
        }
        for (i, c) in v.controllers.iter().enumerate() {
            let Some(c) = c else { continue };
            // a controller that versions its state: nothing to build while it is the same
            let version = c.state_version();
            if version.is_some() && self.last_version.get(i).copied().flatten() == version {
                continue;
            }
            if let Some(slot) = self.last_version.get_mut(i) {
                *slot = version;
            }
            let Some(state) = c.state() else { continue };
            let text = state.to_string();
            if self
                .last_state
                .get(i)
                .is_some_and(|l| l.as_deref() == Some(text.as_str()))
            {
                continue;
            }
            let msg = serde_json::json!({"robot": self.robot(i), "t": ts, "controller": c.name(), "state": state});
            self.write(self.ch.controller, t, &msg);
            if let Some(slot) = self.last_state.get_mut(i) {
                *slot = Some(text);
            }
        }
        let next = t + v.dt;
        for i in 0..v.world.len() {
            let Some(veh) = v.world.vehicle(i) else {
                continue;
            };
            let p = veh.pose();
            if let Some(slot) = self.sensed_at.get_mut(i) {
                *slot = p; // where the next cycle senses
            }
            let q = p.quaternion();
            let msg = serde_json::json!({
                "timestamp": {"sec": next.as_secs(), "nsec": next.subsec_nanos()},
                "frame_id": "world",
                "pose": {"position": {"x": p.x, "y": p.y, "z": p.z}, "orientation": {"x": q[0], "y": q[1], "z": q[2], "w": q[3]}},
                "robot": self.robot(i),
                "t": secs(next),
            });
            self.write(self.ch.pose, next, &msg);
        }
        let objects = v.world.objects();
        if !objects.is_null() {
            let text = objects.to_string();
            if self.last_objects.as_deref() != Some(text.as_str()) {
                self.write(
                    self.ch.objects,
                    next,
                    &serde_json::json!({"t": secs(next), "objects": objects}),
                );
                self.last_objects = Some(text);
            }
        }
    }

    fn on_end(&mut self, _world: &dyn World, report: &RunReport) {
        let mut summary = report.summary_json(false);
        if let Some(m) = summary.as_object_mut() {
            m.insert("robots".into(), self.robots.clone().into());
        }
        self.write(self.ch.summary, report.sim_time, &summary);
        if let Some(mut w) = self.writer.take() {
            if let Err(e) = w.finish() {
                self.fail(format!("cannot finish the run log: {e}"));
            }
        }
    }
}

/// The default log path: `runs/<controller>-<UTC time>.mcap`.
pub fn default_path(controller: &str) -> PathBuf {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    PathBuf::from("runs").join(format!("{controller}-{}.mcap", utc_stamp(now)))
}

/// `YYYYMMDDTHHMMSSZ` for seconds since the Unix epoch.
pub fn utc_stamp(epoch_s: u64) -> String {
    let days = (epoch_s / 86_400) as i64;
    let rem = epoch_s % 86_400;
    // civil date from days since 1970-01-01 (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_stamps() {
        assert_eq!(utc_stamp(0), "19700101T000000Z");
        assert_eq!(utc_stamp(951_782_400), "20000229T000000Z");
        assert_eq!(utc_stamp(1_796_009_767), "20261130T033607Z");
    }
}
