//! One robot's part of the run log: what was last written, so that only what changed at
//! the log's resolution is written again, and the encoders of its per-cycle messages.
//! `/actuation` and `/scan` are encoded on the cycle's thread straight into the log's
//! buffer; `/signals` (the changed values, rounded and compared here) and `/pose` are
//! encoded by the writer thread with [`signals`] and [`pose`].

use crate::json;
use serde::Serialize;
use skipper_core::vocabulary::ground;
use skipper_core::{Actuation, AuvSetpoints, Pose3, SignalId, Signals};
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

/// How one signal is logged (its key and decimals are also the writer's: see
/// [`signals`]).
struct SignalSlot {
    /// decimals of a float value (`None`: in full)
    decimals: Option<u8>,
    /// laser ranges go to `/scan`
    laser: bool,
    /// the quantum of the float last written (`None`: not a rounded float)
    last: Option<i64>,
}

/// One signal value of a `/signals` message, as the cycle hands it to the writer: the
/// signal's slot (its index among the robot's signals) and its value.
pub enum Datum {
    /// a float at its slot's decimals, as its quantum (see [`json::quantum`])
    Rounded(u32, i64),
    /// any other value, written as it is (floats at the slot's decimals, if any)
    Plain(u32, skipper_core::Value),
}

/// One robot's change tracking and what it last wrote.
pub struct RobotLog {
    name: String,
    /// `"robot":"NAME"`, encoded once
    tag: Vec<u8>,
    signals: Vec<SignalSlot>,
    /// the ids of `laser.0`, `laser.1`, ... (empty without a laser)
    lasers: Vec<SignalId>,
    /// the actuation last written, encoded without `robot` and `t` (`{}`: none yet)
    last_actuation: Vec<u8>,
    /// the last actuation seen without a one-shot request: its encoding is
    /// `last_actuation`, so one logged alike is not written (and need not be encoded)
    last_request: Option<Actuation>,
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
            last_request: None,
            sensed_at: pose,
        }
    }

    /// The robot's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `"robot":"NAME"`
    pub fn tag(&self) -> &[u8] {
        &self.tag
    }

    /// `"robot":"NAME","t":T`
    fn head(&self, out: &mut Vec<u8>, t: Duration) {
        head(out, &self.tag, t);
    }

    /// Learn the signals declared since the last cycle; `tell` gets each one's `"NAME":`
    /// key and decimals, in declaration order.
    pub fn learn(&mut self, sig: &Signals, mut tell: impl FnMut(&[u8], Option<u8>)) {
        if sig.len() == self.signals.len() {
            return;
        }
        let mut key = Vec::new();
        for (id, name, _) in sig.iter().skip(self.signals.len()) {
            key.clear();
            json::string(&mut key, name);
            key.push(b':');
            let decimals = json::decimals_of(sig.unit(id));
            tell(&key, decimals);
            self.signals.push(SignalSlot {
                decimals,
                laser: ground::LASER.matches(name),
                last: None,
            });
        }
        self.lasers = (0..).map_while(|k| ground::LASER.id(sig, k)).collect();
    }

    /// `/signals`: the signals whose logged value changed, into `values` (the signals
    /// learnt first); `false` if none did.
    pub fn signals(&mut self, values: &mut Vec<Datum>, sig: &Signals) -> bool {
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
            any = true;
            let at = u32::try_from(id.index()).unwrap_or(u32::MAX);
            values.push(match quantum {
                Some(n) => Datum::Rounded(at, n),
                None => Datum::Plain(at, value.clone()),
            });
        }
        any
    }

    /// The robot is at `p` at the end of the cycle: where the next cycle senses.
    pub fn moved_to(&mut self, p: Pose3) {
        self.sensed_at = p;
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
        let one_shot = !a.say.is_empty() || a.reset_odometry;
        if !one_shot
            && self
                .last_request
                .as_ref()
                .is_some_and(|last| logged_alike(last, a))
        {
            return false;
        }
        scratch.clear();
        let mut ser = serde_json::Serializer::with_formatter(
            &mut *scratch,
            Rounded {
                tmp,
                decimals: SETPOINT_DECIMALS,
            },
        );
        if a.serialize(&mut ser).is_err() {
            self.last_request = None;
            return false;
        }
        if one_shot {
            // its encoding (with `say`) is not that of a later equal request without one
            self.last_request = None;
        } else {
            match &mut self.last_request {
                // no `say` here: cloning allocates nothing
                Some(last) => last.clone_from(a),
                None => self.last_request = Some(a.clone()),
            }
            if *scratch == self.last_actuation {
                return false;
            }
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

/// `"robot":"NAME","t":T` for the robot's `tag`.
fn head(out: &mut Vec<u8>, tag: &[u8], t: Duration) {
    out.extend_from_slice(tag);
    out.extend_from_slice(b",\"t\":");
    json::duration(out, t);
}

/// A `/signals` message of the robot with `tag`: `values` (from [`RobotLog::signals`]),
/// each under its slot's key and at its decimals (`keys`, in the order
/// [`RobotLog::learn`] told them).
pub fn signals(
    out: &mut Vec<u8>,
    tag: &[u8],
    keys: &[(Vec<u8>, Option<u8>)],
    values: &[Datum],
    t: Duration,
) {
    out.push(b'{');
    head(out, tag, t);
    out.extend_from_slice(b",\"values\":{");
    for (k, d) in values.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        let at = match d {
            Datum::Rounded(at, _) | Datum::Plain(at, _) => *at as usize,
        };
        let (key, decimals) = keys
            .get(at)
            .map_or((&b"\"?\":"[..], None), |(k, d)| (&k[..], *d));
        out.extend_from_slice(key);
        match (d, decimals) {
            (Datum::Rounded(_, n), Some(dec)) => json::quantum_at(out, *n, dec),
            (Datum::Rounded(_, n), None) => json::signed(out, *n),
            (Datum::Plain(_, v), _) => json::value(out, v, decimals),
        }
    }
    out.extend_from_slice(b"}}");
}

/// `/pose` of the robot with `tag`: a Foxglove `PoseInFrame` at `next` (the end of the
/// cycle), plus `robot` and `t`.
pub fn pose(out: &mut Vec<u8>, tag: &[u8], p: Pose3, next: Duration) {
    out.extend_from_slice(b"{\"frame_id\":\"world\",\"pose\":");
    frame(out, p, p.x, p.y);
    out.push(b',');
    head(out, tag, next);
    timestamp(out, next);
    out.push(b'}');
}

/// Whether `a` and `b` are encoded alike in `/actuation`: equal, but for AUV setpoints
/// that are equal at the log's resolution. (Every field is named, so that a new one
/// cannot be forgotten here.)
fn logged_alike(a: &Actuation, b: &Actuation) -> bool {
    let Actuation {
        drive,
        limits,
        motors_enabled,
        reset_odometry,
        gripper,
        digital_out,
        analog_select,
        sonar_enabled,
        bump_stall,
        say,
        auv,
    } = a;
    *drive == b.drive
        && *limits == b.limits
        && *motors_enabled == b.motors_enabled
        && *reset_odometry == b.reset_odometry
        && *gripper == b.gripper
        && *digital_out == b.digital_out
        && *analog_select == b.analog_select
        && *sonar_enabled == b.sonar_enabled
        && *bump_stall == b.bump_stall
        && *say == b.say
        && match (auv, &b.auv) {
            (Some(x), Some(y)) => setpoints_alike(x, y),
            (None, None) => true,
            _ => false,
        }
}

/// Whether two AUV setpoints are encoded alike (floats at [`SETPOINT_DECIMALS`]).
fn setpoints_alike(a: &AuvSetpoints, b: &AuvSetpoints) -> bool {
    let AuvSetpoints {
        heading,
        speed,
        depth,
        pitch,
        depth_rate,
        buoyancy,
        sample,
    } = a;
    let same = |x: &Option<f64>, y: &Option<f64>| match (x, y) {
        (Some(x), Some(y)) if x.to_bits() == y.to_bits() => true,
        (Some(x), Some(y)) => match json::quantum(*x, SETPOINT_DECIMALS) {
            Some(q) => json::quantum(*y, SETPOINT_DECIMALS) == Some(q),
            // written in full (or null): alike only if the very same
            None => x.to_bits() == y.to_bits(),
        },
        (None, None) => true,
        _ => false,
    };
    same(heading, &b.heading)
        && same(speed, &b.speed)
        && same(depth, &b.depth)
        && same(pitch, &b.pitch)
        && same(depth_rate, &b.depth_rate)
        && same(buoyancy, &b.buoyancy)
        && *sample == b.sample
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
