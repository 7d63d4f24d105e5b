//! The run log's writer: [`RunLog`], a runner observer that writes every cycle's
//! changes to the MCAP file on a thread of its own.

use crate::naming::{self, Created, Destination};
use crate::robot::RobotLog;
use crate::sink::Sink;
use crate::{json, mcap_file, schemas, Error};
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunConfig, RunReport, Vehicle, World};
use std::fs::File;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone, Copy)]
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

/// The zstd level of the log's chunks: the fastest (the log's text is rounded and
/// repetitive, so a higher level gains little; measured in docs/run-log.md).
const ZSTD_LEVEL: i32 = 1;

/// The MCAP run log, as a runner observer.
pub struct RunLog {
    sink: Sink,
    ch: Channels,
    robots: Vec<RobotLog>,
    last_state: Vec<Option<String>>,
    /// per robot: the controller's state version last written (see `Controller::state_version`)
    last_version: Vec<Option<u64>>,
    last_objects: Option<String>,
    /// reused buffers (the actuation's encoding and a float's)
    scratch: Vec<u8>,
    tmp: Vec<u8>,
}

fn secs(t: Duration) -> f64 {
    t.as_secs_f64()
}

impl RunLog {
    /// Create the log file (and its directory), replacing a file of that name, and start
    /// its writer thread.
    pub fn create(path: &Path) -> Result<(Self, Arc<Mutex<LogStatus>>), Error> {
        let (file, _) = naming::create(&Destination::Exactly(path.to_path_buf()), "", 0)?;
        Self::start(file, path)
    }

    /// Create the log file `destination` says for a run of `controller` starting now (a
    /// name of its own unless it names a file: see [`naming`]) and start its writer
    /// thread; what was created says where.
    pub fn create_at(
        destination: &Destination,
        controller: &str,
    ) -> Result<(Self, Created, Arc<Mutex<LogStatus>>), Error> {
        let (file, created) = naming::create(destination, controller, naming::now_epoch_s())?;
        let (log, status) = Self::start(file, &created.path)?;
        Ok((log, created, status))
    }

    /// Start writing the log to `file` (at `path`, for messages).
    fn start(file: File, path: &Path) -> Result<(Self, Arc<Mutex<LogStatus>>), Error> {
        // compressed on the log's own thread, one zstd call per chunk (zstd's workers
        // would make the bytes depend on the machine's core count)
        let mut w = mcap_file::McapFile::new(file, "", "skipper", ZSTD_LEVEL)
            .map_err(|e| Error::io("start the MCAP file", path, e))?;
        let mut add = |topic: &str, name: &str, schema: &str| -> std::io::Result<u16> {
            let sid = w.add_schema(name, "jsonschema", schema.as_bytes())?;
            w.add_channel(sid, topic, "json")
        };
        let mut add = |topic: &str, name: &str, schema: &str| {
            add(topic, name, schema).map_err(|e| Error::io("start the MCAP file", path, e))
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
        let sink = Sink::start(w, status.clone())
            .map_err(|e| Error::io("start the writer of", path, e))?;
        Ok((
            Self {
                sink,
                ch,
                robots: Vec::new(),
                last_state: Vec::new(),
                last_version: Vec::new(),
                last_objects: None,
                scratch: Vec::new(),
                tmp: Vec::new(),
            },
            status,
        ))
    }

    /// Write a JSON value as one message (for the rare ones: world, events' data,
    /// controller states, objects, summary).
    fn write_value(&mut self, channel: u16, t: Duration, msg: &serde_json::Value) {
        self.sink.message(channel, t, |out| {
            // writing to a Vec cannot fail
            serde_json::to_writer(out, msg).is_ok()
        });
    }

    fn write_events(&mut self, v: &CycleView<'_>) {
        for e in v.events {
            let tag = self.robots.get(e.robot).map_or("?", |r| r.name());
            self.sink.message(self.ch.events, e.time.max(v.now), |out| {
                out.extend_from_slice(b"{\"data\":");
                let ok = serde_json::to_writer(&mut *out, &e.data).is_ok();
                out.extend_from_slice(b",\"kind\":");
                json::string(out, &e.kind);
                out.extend_from_slice(b",\"robot\":");
                json::string(out, tag);
                out.extend_from_slice(b",\"t\":");
                json::duration(out, e.time);
                out.push(b'}');
                ok
            });
        }
    }

    fn write_controllers(&mut self, v: &CycleView<'_>) {
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
            let name = self.robots.get(i).map_or("?", |r| r.name());
            self.sink.message(self.ch.controller, v.now, |out| {
                out.extend_from_slice(b"{\"controller\":");
                json::string(out, c.name());
                out.extend_from_slice(b",\"robot\":");
                json::string(out, name);
                out.extend_from_slice(b",\"state\":");
                out.extend_from_slice(text.as_bytes());
                out.extend_from_slice(b",\"t\":");
                json::duration(out, v.now);
                out.push(b'}');
                true
            });
            if let Some(slot) = self.last_state.get_mut(i) {
                *slot = Some(text);
            }
        }
    }

    fn write_objects(&mut self, v: &CycleView<'_>, next: Duration) {
        let objects = v.world.objects();
        if objects.is_null() {
            return;
        }
        let text = objects.to_string();
        if self.last_objects.as_deref() != Some(text.as_str()) {
            self.sink.message(self.ch.objects, next, |out| {
                out.extend_from_slice(b"{\"objects\":");
                out.extend_from_slice(text.as_bytes());
                out.extend_from_slice(b",\"t\":");
                json::duration(out, next);
                out.push(b'}');
                true
            });
            self.last_objects = Some(text);
        }
    }
}

/// A robot as `/world` lists it: its identity and the sensors it says it carries.
fn robot_description(v: &dyn Vehicle) -> serde_json::Value {
    let mut robot = serde_json::to_value(v.info()).unwrap_or_default();
    if let Some(m) = robot.as_object_mut() {
        m.insert(
            "sensors".into(),
            serde_json::to_value(v.sensors()).unwrap_or_default(),
        );
    }
    robot
}

impl Observer for RunLog {
    fn on_start(&mut self, world: &dyn World, config: &RunConfig) {
        let vehicles: Vec<_> = (0..world.len()).filter_map(|i| world.vehicle(i)).collect();
        self.robots = vehicles
            .iter()
            .map(|v| RobotLog::new(&v.info().name, v.pose()))
            .collect();
        for r in &self.robots {
            self.sink.robot(r.tag());
        }
        self.last_state = vec![None; self.robots.len()];
        self.last_version = vec![None; self.robots.len()];
        let robots: Vec<_> = vehicles.iter().map(|v| robot_description(*v)).collect();
        let msg = serde_json::json!({
            "t": 0.0,
            "world": world.describe(),
            "robots": robots,
            "period_s": secs(config.period),
        });
        self.write_value(self.ch.world, Duration::ZERO, &msg);
    }

    fn on_cycle(&mut self, v: &CycleView<'_>) {
        let t = v.now;
        let ch = self.ch;
        let sink = &mut self.sink;
        for (i, (r, sig)) in self.robots.iter_mut().zip(v.signals).enumerate() {
            r.learn(sig, |key, decimals| sink.key(i, key, decimals));
            sink.signals(ch.signals, i, t, |values| r.signals(values, sig));
            sink.message(ch.scan, t, |out| r.scan(out, sig, t));
        }
        let (scratch, tmp) = (&mut self.scratch, &mut self.tmp);
        for (r, a) in self.robots.iter_mut().zip(v.actuation) {
            self.sink
                .message(ch.actuation, t, |out| r.actuation(out, a, t, scratch, tmp));
        }
        self.write_events(v);
        self.write_controllers(v);
        let next = t + v.dt;
        for (i, r) in self.robots.iter_mut().enumerate() {
            if let Some(veh) = v.world.vehicle(i) {
                let p = veh.pose();
                r.moved_to(p);
                self.sink.pose(ch.pose, i, next, p);
            }
        }
        self.write_objects(v, next);
    }

    fn on_end(&mut self, _world: &dyn World, report: &RunReport) {
        let mut summary = report.summary_json(false);
        if let Some(m) = summary.as_object_mut() {
            let names: Vec<String> = self.robots.iter().map(|r| r.name().to_string()).collect();
            m.insert("robots".into(), names.into());
        }
        self.write_value(self.ch.summary, report.sim_time, &summary);
        self.sink.close();
    }
}
