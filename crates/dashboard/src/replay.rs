//! The dashboard over a recorded run: frames at any time of the run log, so the page's
//! time slider can go anywhere. The page asks for the frame at a time and draws it; a
//! page that asks slowly just sees fewer frames.
//!
//! A frame at time t has each robot's pose at t, its sonar ranges (from `/signals`, drawn
//! with the sonar ring of its model) and its last laser scan (from `/scan`), its
//! controller's state at t, the objects at t, and the events of the last few seconds:
//! the [`Moment`] at t. [`Replay::open`] reads the log as a stream and keeps an index of
//! it ([`LogIndex`]), so a fleet's long run is served in bounded memory; [`Replay::new`]
//! serves a [`Recording`] already read into memory.

use crate::frame::{num, without_rays, RobotEntry, ALL_RAYS_UP_TO};
use crate::hub::Hub;
use crate::log_index::{LogIndex, RunInfo};
use crate::moment::{Moment, RobotMoment};
use crate::server::Backend;
use serde_json::{json, Value};
use skipper_core::sensors::pioneer;
use skipper_runlog::message::{PoseSample, RobotInfo};
use skipper_runlog::reader::Recording;
use std::path::Path;
use std::sync::Arc;

/// A scan older than this is not drawn (s).
const SCAN_MAX_AGE_S: f64 = 0.5;
/// Trail points sent per robot at most.
const TRAIL_POINTS: usize = 3000;

/// The AUV's facts a replay shows beside its depth: (key of the live view, signal).
const AUV_FACTS: [(&str, &skipper_core::vocabulary::SignalSpec); 6] = {
    use skipper_core::vocabulary::auv as a;
    [
        ("altitude", &a::HEIGHT_ABOVE_SEA_FLOOR),
        ("pitch", &a::PLATFORM_PITCH_ANGLE),
        ("heading", &a::PLATFORM_YAW_ANGLE),
        ("speed", &a::PLATFORM_SPEED_WRT_SEA_WATER),
        ("buoyancy", &a::PLATFORM_BUOYANCY_POSITION),
        ("at_surface", &a::PLATFORM_AT_SURFACE),
    ]
};

/// The signals a replay keeps.
pub fn keep_signal(name: &str) -> bool {
    use skipper_core::vocabulary::ground as g;
    g::SONAR.matches(name)
        || [&g::VELOCITY_LINEAR, &g::VELOCITY_ANGULAR, &g::GRIPPER_STATE]
            .iter()
            .any(|spec| spec.name == name)
        || AUV_FACTS.iter().any(|(_, spec)| spec.name == name)
}

/// An AUV's facts at a moment as the live view gives them (depth, altitude, pitch,
/// heading clockwise from north, speed, buoyancy, at_surface); nothing for other vehicles.
fn auv_facts(info: &RobotInfo, r: &RobotMoment, view: &mut serde_json::Map<String, Value>) {
    if info.kind != "auv" {
        return;
    }
    if let Some(p) = r.pose {
        view.insert("depth".into(), num(-p.z));
    }
    for (key, spec) in AUV_FACTS {
        match r.signals.get(spec.name) {
            Some(Value::Bool(b)) => {
                view.insert(key.into(), Value::Bool(*b));
            }
            Some(v) => {
                if let Some(x) = v.as_f64() {
                    view.insert(key.into(), num(x));
                }
            }
            None => {}
        }
    }
}

/// Where a replay's moments come from.
enum History {
    /// A run log on disk, indexed.
    Log(Box<LogIndex>),
    /// A recording in memory.
    Memory(Box<Recording>),
}

/// A recorded run, served.
pub struct Replay {
    info: Value,
    run: RunInfo,
    history: History,
}

fn info_json(run: &RunInfo, log: &str) -> Value {
    let robots: Vec<Value> = run
        .robots
        .iter()
        .map(|r| json!({"name": r.name, "kind": r.kind, "model": r.model}))
        .collect();
    json!({
        "mode": "replay",
        "world": run.world,
        "robots": robots,
        "period_s": run.period_s,
        "end_t": num(run.end_t),
        "log": log,
        "summary": run.summary,
        "goto": run.robots.iter().map(|_| false).collect::<Vec<_>>(),
    })
}

impl Replay {
    /// Serve the run log at `path`, read as a stream and indexed (bounded memory, whatever
    /// the length of the log).
    pub fn open(path: &Path) -> Result<Self, skipper_runlog::Error> {
        let index = LogIndex::open(path, keep_signal)?;
        let run = index.info().clone();
        Ok(Self {
            info: info_json(&run, &path.display().to_string()),
            run,
            history: History::Log(Box::new(index)),
        })
    }

    /// Serve this recording (read into memory).
    pub fn new(rec: Recording) -> Self {
        let run = RunInfo {
            world: rec.world.clone(),
            robots: rec.robots.iter().map(|r| r.info.clone()).collect(),
            period_s: rec.period_s,
            summary: rec.summary.clone(),
            end_t: rec.end_t,
            truncated: rec.truncated.clone(),
        };
        Self {
            info: info_json(&run, &rec.path.display().to_string()),
            run,
            history: History::Memory(Box::new(rec)),
        }
    }

    /// What the log holds: world, robots, period, summary, end, whether it ends early.
    pub fn run(&self) -> &RunInfo {
        &self.run
    }

    /// The run at time `t`.
    pub fn moment_at(&self, t: f64) -> Moment {
        match &self.history {
            History::Log(index) => index.moment_at(t),
            History::Memory(rec) => Moment::of_recording(rec, &keep_signal, t),
        }
    }

    /// Robot `i`'s first pose.
    fn first_pose(&self, i: usize) -> Option<PoseSample> {
        match &self.history {
            History::Log(index) => index.first_pose(i),
            History::Memory(rec) => rec.robots.get(i)?.poses.first().copied(),
        }
    }

    fn view(info: &RobotInfo, r: &RobotMoment, t: f64) -> Value {
        let ring = sonar_ring(info);
        let sonar: Vec<Value> = (0..)
            .map_while(|k| r.signals.get(&format!("sonar.{k}")))
            .zip(ring.iter())
            .filter_map(|(v, g)| Some(json!([g.0, g.1, g.2, v.as_f64()?])))
            .collect();
        let laser = r
            .scan
            .as_ref()
            .filter(|s| t - s.t <= SCAN_MAX_AGE_S)
            .map_or(Value::Null, |s| {
                json!({
                    "x": 0.0,
                    "first": s.start_angle,
                    "step": if s.ranges.len() > 1 { (s.end_angle - s.start_angle) / (s.ranges.len() - 1) as f64 } else { 0.0 },
                    "ranges": s.ranges.iter().map(|&r| num(r)).collect::<Vec<_>>(),
                    // the scan's own origin, which the page uses when it is given
                    "origin": [s.x, s.y, s.yaw],
                })
            });
        let mut view = json!({
            "radius": radius(&info.model),
            "sonar": sonar,
            "laser": laser,
        });
        if let Some(m) = view.as_object_mut() {
            auv_facts(info, r, m);
        }
        view
    }

    /// The frame of moment `m` (at time `t`); rays only for robot `selected` in a crowd.
    fn frame(&self, m: &Moment, t: f64, selected: Option<usize>) -> Value {
        let all_rays = self.run.robots.len() <= ALL_RAYS_UP_TO;
        let robots: Vec<Value> = self
            .run
            .robots
            .iter()
            .enumerate()
            .filter_map(|(i, info)| {
                let r = m.robots.get(i)?;
                let p = r.pose.or_else(|| self.first_pose(i))?;
                let ctl = r.controller.as_ref();
                let goal = ctl
                    .and_then(|c| c.1.get("goal"))
                    .filter(|g| !g.is_null())
                    .cloned();
                let view = Self::view(info, r, t);
                Some(
                    RobotEntry {
                        name: &info.name,
                        pose: (p.x, p.y, p.yaw),
                        view: if all_rays || selected == Some(i) {
                            view
                        } else {
                            without_rays(view)
                        },
                        controller: ctl.map(|c| c.0.as_str()),
                        state: ctl.map(|c| c.1.clone()),
                        goal,
                        target: None,
                    }
                    .to_json(),
                )
            })
            .collect();
        let name = |i: usize| self.run.robots.get(i).map_or("?", |r| r.name.as_str());
        let events: Vec<Value> = m
            .events_before(t)
            .map(|e| json!({"robot": name(e.robot), "t": num(e.t), "kind": e.kind, "data": e.data}))
            .collect();
        json!({
            "t": num(t),
            "robots": robots,
            "objects": m.objects.clone().unwrap_or(Value::Null),
            "events": events,
        })
    }

    fn trail_points(&self, t: f64) -> Vec<Vec<(f64, f64)>> {
        match &self.history {
            History::Log(index) => index.trails(t),
            History::Memory(rec) => rec
                .robots
                .iter()
                .map(|r| {
                    let n = r.poses.partition_point(|p| p.t <= t);
                    let upto = r.poses.get(..n).unwrap_or_default();
                    let step = upto.len().div_ceil(TRAIL_POINTS).max(1);
                    let mut pts: Vec<(f64, f64)> =
                        upto.iter().step_by(step).map(|p| (p.x, p.y)).collect();
                    pts.extend(upto.last().map(|p| (p.x, p.y)));
                    pts
                })
                .collect(),
        }
    }
}

/// A robot's sonar ring: (x, y, heading) of each transducer (m, m, rad), as its vehicle
/// described it in the log; in a log that does not say, the Pioneer ring of its model
/// (the P3-DX's for the simulator's other models and a log without a model).
fn sonar_ring(info: &RobotInfo) -> Vec<(f64, f64, f64)> {
    if let Some(s) = &info.sensors {
        return s.sonar.iter().map(|&[x, y, yaw]| (x, y, yaw)).collect();
    }
    let ring = match pioneer::sonar_ring(&info.model) {
        Some(ring) => ring,
        None if pioneer_body(&info.model) => &pioneer::P3DX_SONARS,
        None => &[],
    };
    ring.iter()
        .map(|(x, y, h)| (x / 1000.0, y / 1000.0, h.to_radians()))
        .collect()
}

/// The simulator's models (and a log without a model) have the Pioneer's body.
fn pioneer_body(model: &str) -> bool {
    const SIMULATED: [&str; 8] = [
        "", "p3dx", "p3dx-sh", "p2dx", "p2de", "p3at", "p3at-sh", "splinter",
    ];
    SIMULATED.contains(&model)
}

fn radius(model: &str) -> f64 {
    match model {
        m if pioneer_body(m) => pioneer::BODY_RADIUS,
        _ => 0.3,
    }
}

fn time_param(t: f64, end: f64) -> f64 {
    if t.is_finite() {
        t.clamp(0.0, end.max(0.0))
    } else {
        0.0
    }
}

impl Backend for Replay {
    fn info(&self) -> Value {
        self.info.clone()
    }

    fn trails(&self, t: Option<f64>) -> Value {
        let end = self.run.end_t;
        let t = time_param(t.unwrap_or(end), end);
        let trails: Vec<Vec<[Value; 2]>> = self
            .trail_points(t)
            .into_iter()
            .map(|pts| pts.into_iter().map(|(x, y)| [num(x), num(y)]).collect())
            .collect();
        json!({ "trails": trails })
    }

    fn frame_at(&self, t: f64, selected: Option<usize>) -> Option<String> {
        let t = time_param(t, self.run.end_t);
        let m = self.moment_at(t);
        Some(self.frame(&m, t, selected).to_string())
    }

    fn hub(&self) -> Option<Arc<Hub>> {
        None
    }

    fn control(&self, _cmd: &Value) -> Result<Value, String> {
        Err("this is a replay: the page moves through the log itself, and there is no run to control".into())
    }

    fn stats(&self) -> Value {
        json!({"mode": "replay"})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_simulated_model_has_the_pioneer_body() {
        for m in skipper_sim::ground::models::NAMES {
            assert!(pioneer_body(m), "{m}");
        }
        assert!(!pioneer_body("turtlebot3"));
        assert_eq!(radius("splinter"), skipper_sim::ground::params::RADIUS);
    }

    #[test]
    fn times_are_clamped() {
        assert_eq!(time_param(-3.0, 10.0), 0.0);
        assert_eq!(time_param(30.0, 10.0), 10.0);
        assert_eq!(time_param(f64::NAN, 10.0), 0.0);
    }

    #[test]
    fn an_auv_replays_with_its_depth_and_facts_and_a_ground_robot_without() {
        use skipper_core::vocabulary::auv as a;
        let mut info = RobotInfo {
            name: "tethys".into(),
            kind: "auv".into(),
            model: "lrauv".into(),
            sensors: None,
        };
        let mut r = RobotMoment {
            pose: Some(PoseSample {
                t: 1.0,
                z: -12.5,
                ..PoseSample::default()
            }),
            ..RobotMoment::default()
        };
        r.signals
            .insert(a::PLATFORM_YAW_ANGLE.name.into(), json!(1.5));
        r.signals
            .insert(a::PLATFORM_AT_SURFACE.name.into(), json!(false));
        let mut m = serde_json::Map::new();
        auv_facts(&info, &r, &mut m);
        assert_eq!(m["depth"], json!(12.5));
        assert_eq!(m["heading"], json!(1.5));
        assert_eq!(m["at_surface"], json!(false));
        assert!(keep_signal(a::PLATFORM_SPEED_WRT_SEA_WATER.name));
        info.kind = "ground".into();
        let mut m = serde_json::Map::new();
        auv_facts(&info, &r, &mut m);
        assert!(m.is_empty());
    }

    #[test]
    fn sonar_rays_are_drawn_where_the_log_says_the_robot_carries_them() {
        use skipper_runlog::message::SensorsInfo;
        let mut r = RobotMoment::default();
        for (k, v) in [0.5, 1.25, 2.0].into_iter().enumerate() {
            r.signals.insert(format!("sonar.{k}"), json!(v));
        }
        let own = RobotInfo {
            name: "bot".into(),
            kind: "ground".into(),
            model: "p3at".into(),
            sensors: Some(SensorsInfo {
                sonar: vec![[0.147, 0.136, 1.5], [0.193, -0.119, -0.5]],
            }),
        };
        let view = Replay::view(&own, &r, 0.0);
        assert_eq!(
            view["sonar"],
            json!([[0.147, 0.136, 1.5, 0.5], [0.193, -0.119, -0.5, 1.25]])
        );
        let without = RobotInfo {
            sensors: Some(SensorsInfo::default()),
            ..own.clone()
        };
        assert_eq!(Replay::view(&without, &r, 0.0)["sonar"], json!([]));
        // a log that does not describe the sensors: the simulated Pioneer's ring
        let old = RobotInfo {
            model: "p3dx".into(),
            sensors: None,
            ..own
        };
        let ring = &Replay::view(&old, &r, 0.0)["sonar"];
        let first = pioneer::P3DX_SONARS[0];
        assert_eq!(ring.as_array().map(Vec::len), Some(3));
        assert_eq!(ring[0][0], json!(first.0 / 1000.0));
    }
}
