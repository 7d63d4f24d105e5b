//! One robot's part of the run log: its per-cycle messages (`/signals`, `/actuation`,
//! `/pose`, `/scan`) encoded straight into the log's buffer, and what was last written,
//! so that only what changed at the log's resolution is written again.

use super::json;
use serde::Serialize;
use skipper_core::vocabulary::ground;
use skipper_core::{Actuation, Pose3, SignalId, Signals};
use std::time::Duration;

/// Laser beams: the first at -90 degrees, one per degree (the simulated LMS-200).
const LASER_FIRST_DEG: f64 = -90.0;
/// The laser sits this far ahead of the robot's centre (m).
const LASER_X: f64 = 0.018;
/// Positions in `/pose` and `/scan`, and laser ranges: to the millimetre.
const POSITION_DECIMALS: u8 = 3;
/// Quaternion components: to 1e-6 (about 2e-6 rad, finer than the 1e-4 rad of angles).
const QUATERNION_DECIMALS: u8 = 6;
/// Actuation setpoints (m, m/s, rad, rad/s, fractions): to 1e-4 of their unit.
const SETPOINT_DECIMALS: u8 = 4;

/// How one signal is logged.
struct SignalSlot {
    /// `"NAME":`, encoded once
    key: Vec<u8>,
    /// decimals of a float value (`None`: in full)
    decimals: Option<u8>,
    /// laser ranges go to `/scan`
    laser: bool,
    /// the quantum of the float last written (`None`: not a rounded float)
    last: Option<i64>,
}

/// One robot's encoders and what it last wrote.
pub struct RobotLog {
    name: String,
    /// `"robot":"NAME"`, encoded once
    tag: Vec<u8>,
    signals: Vec<SignalSlot>,
    /// the ids of `laser.0`, `laser.1`, ... (empty without a laser)
    lasers: Vec<SignalId>,
    /// the actuation last written, encoded without `robot` and `t` (`{}`: none yet)
    last_actuation: Vec<u8>,
    /// where it was when it last sensed (the pose at the start of the cycle: the end of
    /// the last one, or the start of the run)
    sensed_at: Pose3,
}

impl RobotLog {
    /// The log of robot `name`, which starts at `pose`.
    pub fn new(name: &str, pose: Pose3) -> Self {
        let mut tag = b"\"robot\":".to_vec();
        json::string(&mut tag, name);
        Self {
            name: name.to_string(),
            tag,
            signals: Vec::new(),
            lasers: Vec::new(),
            last_actuation: b"{}".to_vec(),
            sensed_at: pose,
        }
    }

    /// The robot's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `"robot":"NAME","t":T`
    fn head(&self, out: &mut Vec<u8>, t: Duration) {
        out.extend_from_slice(&self.tag);
        out.extend_from_slice(b",\"t\":");
        json::duration(out, t);
    }

    /// Learn the signals declared since the last cycle.
    fn learn(&mut self, sig: &Signals) {
        if sig.len() == self.signals.len() {
            return;
        }
        for (id, name, _) in sig.iter().skip(self.signals.len()) {
            let mut key = Vec::with_capacity(name.len() + 3);
            json::string(&mut key, name);
            key.push(b':');
            self.signals.push(SignalSlot {
                key,
                decimals: json::decimals_of(sig.unit(id)),
                laser: ground::LASER.matches(name),
                last: None,
            });
        }
        self.lasers = (0..).map_while(|k| ground::LASER.id(sig, k)).collect();
    }

    /// `/signals`: the signals whose logged value changed; `false` if none did.
    pub fn signals(&mut self, out: &mut Vec<u8>, sig: &Signals, t: Duration) -> bool {
        self.learn(sig);
        out.push(b'{');
        self.head(out, t);
        out.extend_from_slice(b",\"values\":{");
        let mut any = false;
        for (id, _, value) in sig.changed() {
            let Some(slot) = self.signals.get_mut(id.index()) else {
                continue;
            };
            if slot.laser {
                continue;
            }
            let quantum = match (value, slot.decimals) {
                (skipper_core::Value::Float(f), Some(d)) => json::quantum(*f, d),
                _ => None,
            };
            if quantum.is_some() && quantum == slot.last {
                continue; // the same at the log's resolution
            }
            slot.last = quantum;
            if any {
                out.push(b',');
            }
            any = true;
            out.extend_from_slice(&slot.key);
            json::value(out, value, slot.decimals);
        }
        out.extend_from_slice(b"}}");
        any
    }

    /// `/actuation`: what the controller asked, when it differs from what was last
    /// written or carries a one-shot request (`say`, `reset_odometry`); `false` if not.
    /// `scratch` and `tmp` are reused buffers.
    pub fn actuation(
        &mut self,
        out: &mut Vec<u8>,
        a: &Actuation,
        t: Duration,
        scratch: &mut Vec<u8>,
        tmp: &mut Vec<u8>,
    ) -> bool {
        scratch.clear();
        let mut ser = serde_json::Serializer::with_formatter(
            &mut *scratch,
            Rounded {
                tmp,
                decimals: SETPOINT_DECIMALS,
            },
        );
        if a.serialize(&mut ser).is_err() {
            return false;
        }
        let one_shot = !a.say.is_empty() || a.reset_odometry;
        if !one_shot && *scratch == self.last_actuation {
            return false;
        }
        std::mem::swap(&mut self.last_actuation, scratch);
        out.push(b'{');
        self.head(out, t);
        match self.last_actuation.get(1..) {
            Some(rest) if rest != b"}" => {
                out.push(b',');
                out.extend_from_slice(rest);
            }
            _ => out.push(b'}'),
        }
        true
    }

    /// `/pose`: a Foxglove `PoseInFrame` at `next` (the end of the cycle), plus `robot`
    /// and `t`; the pose is also where the next cycle senses.
    pub fn pose(&mut self, out: &mut Vec<u8>, p: Pose3, next: Duration) -> bool {
        self.sensed_at = p;
        out.extend_from_slice(b"{\"frame_id\":\"world\",\"pose\":");
        frame(out, p, p.x, p.y);
        out.push(b',');
        self.head(out, next);
        timestamp(out, next);
        out.push(b'}');
        true
    }

    /// `/scan`, if the laser scanned this cycle: a Foxglove `LaserScan` with the pose and
    /// time the ranges were cast at (the start of the cycle), ranges to the millimetre.
    pub fn scan(&self, out: &mut Vec<u8>, sig: &Signals, now: Duration) -> bool {
        let ids = &self.lasers;
        if ids.is_empty() || !ids.iter().any(|&id| sig.changed_this_cycle(id)) {
            return false;
        }
        let p = self.sensed_at;
        let (s, c) = p.yaw.sin_cos();
        let step = 1f64.to_radians();
        let first = LASER_FIRST_DEG.to_radians();
        out.extend_from_slice(b"{\"end_angle\":");
        json::full(out, first + step * (ids.len().saturating_sub(1)) as f64);
        out.extend_from_slice(b",\"frame_id\":\"world\",\"intensities\":[],\"pose\":");
        frame(out, p, p.x + c * LASER_X, p.y + s * LASER_X);
        out.extend_from_slice(b",\"ranges\":[");
        for (k, &id) in ids.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            json::fixed(out, sig.f64(id).unwrap_or(f64::NAN), POSITION_DECIMALS);
        }
        out.extend_from_slice(b"],");
        self.head(out, now);
        out.extend_from_slice(b",\"start_angle\":");
        json::full(out, first);
        timestamp(out, now);
        out.push(b'}');
        true
    }
}

/// `{"orientation":{...},"position":{...}}` of `p`, placed at `x`, `y`.
fn frame(out: &mut Vec<u8>, p: Pose3, x: f64, y: f64) {
    let q = p.quaternion();
    out.extend_from_slice(b"{\"orientation\":{\"w\":");
    json::fixed(out, q[3], QUATERNION_DECIMALS);
    for (key, v) in [
        (&b",\"x\":"[..], q[0]),
        (b",\"y\":", q[1]),
        (b",\"z\":", q[2]),
    ] {
        out.extend_from_slice(key);
        json::fixed(out, v, QUATERNION_DECIMALS);
    }
    out.extend_from_slice(b"},\"position\":{\"x\":");
    json::fixed(out, x, POSITION_DECIMALS);
    out.extend_from_slice(b",\"y\":");
    json::fixed(out, y, POSITION_DECIMALS);
    out.extend_from_slice(b",\"z\":");
    json::fixed(out, p.z, POSITION_DECIMALS);
    out.extend_from_slice(b"}}");
}

/// `,"timestamp":{"nsec":N,"sec":S}`
fn timestamp(out: &mut Vec<u8>, t: Duration) {
    out.extend_from_slice(b",\"timestamp\":{\"nsec\":");
    json::unsigned(out, u64::from(t.subsec_nanos()));
    out.extend_from_slice(b",\"sec\":");
    json::unsigned(out, t.as_secs());
    out.push(b'}');
}

/// serde_json's compact output with floats rounded to `decimals`.
struct Rounded<'a> {
    tmp: &'a mut Vec<u8>,
    decimals: u8,
}

impl serde_json::ser::Formatter for Rounded<'_> {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        self.tmp.clear();
        json::fixed(self.tmp, v, self.decimals);
        w.write_all(self.tmp)
    }

    fn write_f32<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f32) -> std::io::Result<()> {
        self.write_f64(w, f64::from(v))
    }
}
