//! The dashboard over a recorded run: frames at any time of the run log, so the page's
//! time slider can go anywhere. The page asks for the frame at a time and draws it; a
//! page that asks slowly just sees fewer frames.
//!
//! A frame at time t has each robot's pose at t, its sonar ranges (from `/signals`, drawn
//! with the sonar ring of its model) and its last laser scan (from `/scan`), its
//! controller's state at t, the objects at t, and the events of the last few seconds.

use crate::frame::{num, without_rays, RobotEntry, ALL_RAYS_UP_TO};
use crate::hub::Hub;
use crate::server::Backend;
use serde_json::{json, Value};
use skipper_runlog::reader::{Recording, RobotLog};
use std::sync::Arc;

/// Events of this many seconds before the frame's time go with it.
const EVENT_WINDOW_S: f64 = 10.0;
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

/// An AUV's facts at `t` as the live view gives them (depth, altitude, pitch, heading
/// clockwise from north, speed, buoyancy, at_surface); nothing for other vehicles.
fn auv_facts(r: &RobotLog, t: f64, view: &mut serde_json::Map<String, Value>) {
    if r.info.kind != "auv" {
        return;
    }
    if let Some(p) = r.pose_at(t) {
        view.insert("depth".into(), num(-p.z));
    }
    for (key, spec) in AUV_FACTS {
        match r.signal_at(spec.name, t) {
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

/// A recorded run, served.
pub struct Replay {
    rec: Recording,
    info: Value,
    /// per robot: the ids of `sonar.0`, `sonar.1`, ... it has
    sonars: Vec<Vec<String>>,
}

impl Replay {
    /// Serve this recording.
    pub fn new(rec: Recording) -> Self {
        let robots: Vec<Value> = rec
            .robots
            .iter()
            .map(|r| json!({"name": r.info.name, "kind": r.info.kind, "model": r.info.model}))
            .collect();
        let info = json!({
            "mode": "replay",
            "world": rec.world,
            "robots": robots,
            "period_s": rec.period_s,
            "end_t": num(rec.end_t),
            "log": rec.path.display().to_string(),
            "summary": rec.summary,
            "goto": rec.robots.iter().map(|_| false).collect::<Vec<_>>(),
        });
        let sonars = rec
            .robots
            .iter()
            .map(|r| {
                (0..)
                    .map(|k| format!("sonar.{k}"))
                    .take_while(|n| r.signals.contains_key(n))
                    .collect()
            })
            .collect();
        Self { rec, info, sonars }
    }

    /// The recording.
    pub fn recording(&self) -> &Recording {
        &self.rec
    }

    fn view(&self, i: usize, r: &RobotLog, t: f64) -> Value {
        let ring = sonar_ring(&r.info.model);
        let sonar: Vec<Value> = self
            .sonars
            .get(i)
            .map(|names| {
                names
                    .iter()
                    .zip(ring.iter())
                    .filter_map(|(n, g)| {
                        let range = r.signal_at(n, t)?.as_f64()?;
                        Some(json!([g.0, g.1, g.2, range]))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let laser = r
            .scan_at(t)
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
            "radius": radius(&r.info.model),
            "sonar": sonar,
            "laser": laser,
        });
        if let Some(m) = view.as_object_mut() {
            auv_facts(r, t, m);
        }
        view
    }
}

/// The sonar ring of a model: (x, y, heading) of each transducer (m, m, rad).
fn sonar_ring(model: &str) -> Vec<(f64, f64, f64)> {
    match model {
        m if pioneer_body(m) => skipper_sim::ground::params::SONAR_RING
            .iter()
            .map(|(x, y, h)| (x / 1000.0, y / 1000.0, h.to_radians()))
            .collect(),
        _ => Vec::new(),
    }
}

/// The simulator's models (and a log without a model) have the Pioneer's body.
fn pioneer_body(model: &str) -> bool {
    model.is_empty() || skipper_sim::ground::models::motion_model(model).is_some()
}

fn radius(model: &str) -> f64 {
    match model {
        m if pioneer_body(m) => skipper_sim::ground::params::RADIUS,
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
        let t = time_param(t.unwrap_or(self.rec.end_t), self.rec.end_t);
        let trails: Vec<Vec<[Value; 2]>> = self
            .rec
            .robots
            .iter()
            .map(|r| {
                let n = r.poses.partition_point(|p| p.t <= t);
                let upto = r.poses.get(..n).unwrap_or_default();
                let step = upto.len().div_ceil(TRAIL_POINTS).max(1);
                let mut pts: Vec<[Value; 2]> = upto
                    .iter()
                    .step_by(step)
                    .map(|p| [num(p.x), num(p.y)])
                    .collect();
                if let Some(p) = upto.last() {
                    pts.push([num(p.x), num(p.y)]);
                }
                pts
            })
            .collect();
        json!({ "trails": trails })
    }

    fn frame_at(&self, t: f64, selected: Option<usize>) -> Option<String> {
        let t = time_param(t, self.rec.end_t);
        let all_rays = self.rec.robots.len() <= ALL_RAYS_UP_TO;
        let robots: Vec<Value> = self
            .rec
            .robots
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let p = r.pose_at(t)?;
                let ctl = r.controller_at(t);
                let goal = ctl
                    .and_then(|c| c.state.get("goal"))
                    .filter(|g| !g.is_null())
                    .cloned();
                Some(
                    RobotEntry {
                        name: &r.info.name,
                        pose: (p.x, p.y, p.yaw),
                        view: if all_rays || selected == Some(i) {
                            self.view(i, r, t)
                        } else {
                            without_rays(self.view(i, r, t))
                        },
                        controller: ctl.map(|c| c.controller.as_str()),
                        state: ctl.map(|c| c.state.clone()),
                        goal,
                        target: None,
                    }
                    .to_json(),
                )
            })
            .collect();
        let from = self
            .rec
            .events
            .partition_point(|e| e.t <= t - EVENT_WINDOW_S);
        let to = self.rec.events.partition_point(|e| e.t <= t);
        let events: Vec<Value> = self
            .rec
            .events
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .map(|e| json!({"robot": self.rec.robot_name(e.robot), "t": num(e.t), "kind": e.kind, "data": e.data}))
            .collect();
        let frame = json!({
            "t": num(t),
            "robots": robots,
            "objects": self.rec.objects_at(t).cloned().unwrap_or(Value::Null),
            "events": events,
        });
        Some(frame.to_string())
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
    fn times_are_clamped() {
        assert_eq!(time_param(-3.0, 10.0), 0.0);
        assert_eq!(time_param(30.0, 10.0), 10.0);
        assert_eq!(time_param(f64::NAN, 10.0), 0.0);
    }

    #[test]
    fn an_auv_replays_with_its_depth_and_facts_and_a_ground_robot_without() {
        use skipper_core::vocabulary::auv as a;
        use skipper_runlog::reader::{PoseSample, RobotInfo};
        let mut r = RobotLog {
            info: RobotInfo {
                name: "tethys".into(),
                kind: "auv".into(),
                model: "lrauv".into(),
            },
            ..RobotLog::default()
        };
        r.poses.push(PoseSample {
            t: 1.0,
            z: -12.5,
            ..PoseSample::default()
        });
        r.signals
            .insert(a::PLATFORM_YAW_ANGLE.name.into(), vec![(1.0, json!(1.5))]);
        r.signals.insert(
            a::PLATFORM_AT_SURFACE.name.into(),
            vec![(1.0, json!(false))],
        );
        let mut m = serde_json::Map::new();
        auv_facts(&r, 2.0, &mut m);
        assert_eq!(m["depth"], json!(12.5));
        assert_eq!(m["heading"], json!(1.5));
        assert_eq!(m["at_surface"], json!(false));
        assert!(keep_signal(a::PLATFORM_SPEED_WRT_SEA_WATER.name));
        r.info.kind = "ground".into();
        let mut m = serde_json::Map::new();
        auv_facts(&r, 2.0, &mut m);
        assert!(m.is_empty());
    }
}
