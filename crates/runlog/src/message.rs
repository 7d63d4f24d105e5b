//! The run log's messages, decoded from their JSON: [`decode`] turns a message of a known
//! topic into a [`Message`] with the fields readers use, and leaves the rest unread.
//!
//! The frequent ones (`/pose`, `/signals`) are decoded without building a JSON tree: their
//! members are found by the crate's JSON member scanner (with `serde_json` as the
//! fallback for anything it does not expect), the robot's name is borrowed from the payload, and of `/signals` only
//! the values the caller keeps are decoded. A message that does not decode is `None`,
//! never a panic.

use crate::scan;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// Which signals to keep (they can be many).
pub type SignalFilter<'a> = &'a dyn Fn(&str) -> bool;

/// One robot of the run, as `/world` lists it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RobotInfo {
    /// Its name.
    pub name: String,
    /// `ground` or `auv` (or whatever the vehicle said).
    pub kind: String,
    /// Its model (`p3dx`, ...).
    pub model: String,
    /// The sensors its vehicle said it carries (`None` in a log that does not say).
    pub sensors: Option<SensorsInfo>,
}

/// A robot's sensors as `/world` lists them (m, rad, in the robot's frame).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SensorsInfo {
    /// Each sonar's (x, y, heading), in signal order (`sonar.0`, ...).
    pub sonar: Vec<[f64; 3]>,
}

impl SensorsInfo {
    /// From `/world`'s `sensors` of one robot; `None` unless it is an object whose
    /// sonars, if any, all have finite `x`, `y` and `yaw`.
    fn of(v: &Value) -> Option<Self> {
        let obj = v.as_object()?;
        let number =
            |s: &Value, k: &str| s.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
        let sonar = match obj.get("sonar") {
            Some(Value::Array(a)) => a
                .iter()
                .map(|s| Some([number(s, "x")?, number(s, "y")?, number(s, "yaw")?]))
                .collect::<Option<Vec<_>>>()?,
            _ => Vec::new(),
        };
        Some(Self { sonar })
    }
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
    /// Where the laser was (m).
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

/// `/world`: the world, the robots, the period.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WorldMsg {
    /// The world (walls, goals, bounds, ...), `Null` if absent.
    pub world: Value,
    /// The robots, in order.
    pub robots: Vec<RobotInfo>,
    /// The cycle period (s), if it says.
    pub period_s: Option<f64>,
}

/// A message, decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum Message<'a> {
    /// `/world`
    World(WorldMsg),
    /// `/pose`
    Pose(Cow<'a, str>, PoseSample),
    /// `/scan`
    Scan(Cow<'a, str>, ScanSample),
    /// `/signals`: the robot, the time and the values kept.
    Signals(Cow<'a, str>, f64, Vec<(String, Value)>),
    /// `/controller`: the robot, the time, the controller's name and its state.
    Controller(Cow<'a, str>, f64, String, Value),
    /// `/events`: the robot, the time, the kind and the data.
    Event(Cow<'a, str>, f64, String, Value),
    /// `/objects`: the time and the objects.
    Objects(f64, Value),
    /// `/summary`
    Summary(Value),
    /// Any other topic (`/actuation`, topics of newer versions): its time, if it has one.
    Other(Option<f64>),
}

impl Message<'_> {
    /// The simulated time it carries, if any.
    pub fn t(&self) -> Option<f64> {
        match self {
            Message::World(_) => Some(0.0),
            Message::Pose(_, p) => Some(p.t),
            Message::Scan(_, s) => Some(s.t),
            Message::Signals(_, t, _)
            | Message::Controller(_, t, _, _)
            | Message::Event(_, t, _, _)
            | Message::Objects(t, _) => Some(*t),
            Message::Summary(v) => v.get("t").and_then(Value::as_f64),
            Message::Other(t) => *t,
        }
    }
}

/// A name borrowed from the payload when it has no escapes.
struct Name<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Name<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Name<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a name")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(Name(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Name(Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
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

fn yaw_of(q: &Quat) -> f64 {
    (2.0 * (q.w * q.z + q.x * q.y)).atan2(1.0 - 2.0 * (q.y * q.y + q.z * q.z))
}

#[derive(Deserialize)]
struct PoseBody {
    position: Vec3,
    orientation: Quat,
}

#[derive(Deserialize)]
struct PoseMsg<'a> {
    #[serde(borrow)]
    robot: Name<'a>,
    t: f64,
    pose: PoseBody,
}

#[derive(Deserialize)]
struct ScanMsg<'a> {
    #[serde(borrow)]
    robot: Name<'a>,
    t: f64,
    pose: PoseBody,
    start_angle: f64,
    end_angle: f64,
    ranges: Vec<Option<f64>>,
}

#[derive(Deserialize)]
struct TimeOnly {
    t: Option<f64>,
}

/// Decode a message of `topic`; `None` if it does not decode. Of `/signals`, only the
/// values whose name `keep` accepts are decoded.
pub fn decode<'a>(topic: &str, data: &'a [u8], keep: SignalFilter<'_>) -> Option<Message<'a>> {
    match topic {
        "/pose" => fast_pose(data).or_else(|| decode_pose(data)),
        "/signals" => fast_signals(data, keep).or_else(|| decode_signals(data, keep)),
        "/scan" => decode_scan(data),
        "/world" | "/controller" | "/events" | "/objects" | "/summary" => {
            decode_json(topic, serde_json::from_slice(data).ok()?)
        }
        _ => {
            let t: TimeOnly = serde_json::from_slice(data).ok()?;
            Some(Message::Other(t.t))
        }
    }
}

/// `/pose` as the writer writes it, members found by [`scan`].
fn fast_pose(data: &[u8]) -> Option<Message<'_>> {
    let mut m = scan::members(data)?;
    let (mut robot, mut t, mut pose) = (None, None, None);
    while let Some(k) = m.next_key()? {
        match k {
            "robot" => robot = Some(scan::plain_string(m.value()?)?),
            "t" => t = Some(scan::number(m.value()?)?),
            "pose" => pose = Some(m.object(fast_pose_body)?),
            _ => {
                m.value()?;
            }
        }
    }
    if !m.at_end() {
        return None;
    }
    let ([x, y, z], q) = pose?;
    let sample = PoseSample {
        t: t?,
        x,
        y,
        z,
        yaw: yaw_of(&q),
    };
    Some(Message::Pose(Cow::Borrowed(robot?), sample))
}

/// A pose's position and orientation, read in place.
fn fast_pose_body(m: &mut scan::Members<'_>) -> Option<([f64; 3], Quat)> {
    let (mut position, mut orientation) = (None, None);
    while let Some(k) = m.next_key()? {
        match k {
            "position" => position = Some(m.object(fast_xyzw)?),
            "orientation" => orientation = Some(m.object(fast_xyzw)?),
            _ => {
                m.value()?;
            }
        }
    }
    let [x, y, z, _] = position?;
    let [qx, qy, qz, w] = orientation?;
    Some((
        [x, y, z],
        Quat {
            x: qx,
            y: qy,
            z: qz,
            w,
        },
    ))
}

/// An object's `x`, `y`, `z` (default 0) and `w` (default 1), read in place.
fn fast_xyzw(m: &mut scan::Members<'_>) -> Option<[f64; 4]> {
    let mut out = [0.0, 0.0, 0.0, 1.0];
    while let Some((k, v)) = m.next_member()? {
        let slot = match k {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            "w" => 3,
            _ => continue,
        };
        if let Some(o) = out.get_mut(slot) {
            *o = scan::number(v)?;
        }
    }
    Some(out)
}

/// `/signals` as the writer writes it: only the kept values are parsed.
fn fast_signals<'a>(data: &'a [u8], keep: SignalFilter<'_>) -> Option<Message<'a>> {
    let mut m = scan::members(data)?;
    let (mut robot, mut t, mut values) = (None, None, None);
    while let Some(k) = m.next_key()? {
        match k {
            "robot" => robot = Some(scan::plain_string(m.value()?)?),
            "t" => t = Some(scan::number(m.value()?)?),
            "values" => values = Some(m.object(|o| fast_values(o, keep))?),
            _ => {
                m.value()?;
            }
        }
    }
    if !m.at_end() {
        return None;
    }
    Some(Message::Signals(
        Cow::Borrowed(robot?),
        t.unwrap_or(0.0),
        values?,
    ))
}

/// The kept values of a `/signals` message's `values`, read in place.
fn fast_values(m: &mut scan::Members<'_>, keep: SignalFilter<'_>) -> Option<Vec<(String, Value)>> {
    let mut out = Vec::new();
    while let Some((k, v)) = m.next_member()? {
        if keep(k) {
            out.push((k.to_string(), serde_json::from_slice(v).ok()?));
        }
    }
    Some(out)
}

fn decode_pose(data: &[u8]) -> Option<Message<'_>> {
    let p: PoseMsg<'_> = serde_json::from_slice(data).ok()?;
    let yaw = yaw_of(&p.pose.orientation);
    let pos = p.pose.position;
    let sample = PoseSample {
        t: p.t,
        x: pos.x,
        y: pos.y,
        z: pos.z,
        yaw,
    };
    Some(Message::Pose(p.robot.0, sample))
}

fn decode_signals<'a>(data: &'a [u8], keep: SignalFilter<'_>) -> Option<Message<'a>> {
    let mut d = serde_json::Deserializer::from_slice(data);
    let s = SignalsSeed { keep }.deserialize(&mut d).ok()?;
    d.end().ok()?;
    Some(Message::Signals(s.robot?, s.t.unwrap_or(0.0), s.values?))
}

fn decode_scan(data: &[u8]) -> Option<Message<'_>> {
    let p: ScanMsg<'_> = serde_json::from_slice(data).ok()?;
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
    Some(Message::Scan(p.robot.0, s))
}

fn decode_json(topic: &str, mut v: Value) -> Option<Message<'static>> {
    if !v.is_object() {
        return None;
    }
    let t = v.get("t").and_then(Value::as_f64).unwrap_or(0.0);
    let mut take = |k: &str| v.get_mut(k).map(Value::take);
    let text = |v: Option<Value>| match v {
        Some(Value::String(s)) => Some(s),
        _ => None,
    };
    Some(match topic {
        "/world" => {
            let world = take("world").unwrap_or(Value::Null);
            let period_s = take("period_s").and_then(|p| p.as_f64());
            let robots = robots_of(take("robots").unwrap_or(Value::Array(Vec::new())))?;
            Message::World(WorldMsg {
                world,
                robots,
                period_s,
            })
        }
        "/controller" => {
            let robot = text(take("robot"))?;
            let controller = text(take("controller")).unwrap_or_default();
            let state = take("state").unwrap_or(Value::Null);
            Message::Controller(Cow::Owned(robot), t, controller, state)
        }
        "/events" => {
            let robot = text(take("robot"))?;
            let kind = text(take("kind"))?;
            let data = take("data").unwrap_or(Value::Null);
            Message::Event(Cow::Owned(robot), t, kind, data)
        }
        "/objects" => Message::Objects(t, take("objects")?),
        _ => Message::Summary(v),
    })
}

fn robots_of(v: Value) -> Option<Vec<RobotInfo>> {
    let Value::Array(a) = v else { return None };
    a.iter()
        .map(|r| {
            let text = |k: &str| {
                r.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            let name = r.get("name").and_then(Value::as_str)?.to_string();
            Some(RobotInfo {
                name,
                kind: text("kind"),
                model: text("model"),
                sensors: r.get("sensors").and_then(SensorsInfo::of),
            })
        })
        .collect()
}

/// `/signals` with only the kept values decoded.
struct SignalsSeed<'f> {
    keep: SignalFilter<'f>,
}

#[derive(Default)]
struct SignalsMsg<'a> {
    robot: Option<Cow<'a, str>>,
    t: Option<f64>,
    values: Option<Vec<(String, Value)>>,
}

impl<'de> DeserializeSeed<'de> for SignalsSeed<'_> {
    type Value = SignalsMsg<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for SignalsSeed<'_> {
    type Value = SignalsMsg<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a /signals message")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut out = SignalsMsg::default();
        while let Some(key) = m.next_key::<Name<'de>>()? {
            match key.0.as_ref() {
                "robot" => out.robot = Some(m.next_value::<Name<'de>>()?.0),
                "t" => out.t = Some(m.next_value()?),
                "values" => out.values = Some(m.next_value_seed(ValuesSeed { keep: self.keep })?),
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }
}

/// The `values` object: the kept values, the others skipped.
struct ValuesSeed<'f> {
    keep: SignalFilter<'f>,
}

impl<'de> DeserializeSeed<'de> for ValuesSeed<'_> {
    type Value = Vec<(String, Value)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ValuesSeed<'_> {
    type Value = Vec<(String, Value)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of signal values")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(key) = m.next_key::<Name<'de>>()? {
            if (self.keep)(&key.0) {
                out.push((key.0.into_owned(), m.next_value()?));
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pose_borrows_its_robot_name() {
        let m = br#"{"frame_id":"world","pose":{"orientation":{"w":0.707107,"x":0,"y":0,"z":0.707107},"position":{"x":1.5,"y":-2,"z":0}},"robot":"robot1","t":0.1,"timestamp":{"nsec":100000000,"sec":0}}"#;
        let Some(Message::Pose(name, p)) = decode("/pose", m, &|_| true) else {
            panic!("a pose")
        };
        assert!(matches!(name, Cow::Borrowed("robot1")));
        assert_eq!((p.t, p.x, p.y), (0.1, 1.5, -2.0));
        assert!((p.yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-5);
    }

    #[test]
    fn signals_keep_what_is_asked() {
        let m = br#"{"robot":"r\"1","t":2.5,"values":{"sonar.0":1.2,"velocity.linear":0.3,"x":{"a":[1,2]}}}"#;
        let keep = |n: &str| n == "velocity.linear";
        let Some(Message::Signals(name, t, values)) = decode("/signals", m, &keep) else {
            panic!("signals")
        };
        assert_eq!(name, "r\"1");
        assert_eq!(t, 2.5);
        assert_eq!(
            values,
            vec![("velocity.linear".into(), serde_json::json!(0.3))]
        );
    }

    #[test]
    fn the_fast_path_and_serde_agree() {
        let keep = |n: &str| n.starts_with('v');
        for (topic, m) in [
            ("/pose", &br#"{"frame_id":"world","pose":{"orientation":{"w":0.9,"x":0,"y":0,"z":0.43589},"position":{"x":1.5,"y":-2,"z":0.25}},"robot":"robot1","t":0.1,"timestamp":{"nsec":100000000,"sec":0}}"#[..]),
            ("/pose", br#"{"pose":{"position":{"x":1},"orientation":{}},"robot":"r","t":3}"#),
            ("/signals", br#"{"robot":"robot1","t":2.5,"values":{"sonar.0":1.2,"velocity.linear":0.3,"v.s":"text","w":[1,{"a":"}"}]}}"#),
            ("/signals", br#"{"robot":"a","values":{}}"#),
        ] {
            let slow = match topic {
                "/pose" => decode_pose(m),
                _ => decode_signals(m, &keep),
            };
            let fast = match topic {
                "/pose" => fast_pose(m),
                _ => fast_signals(m, &keep),
            };
            assert!(fast.is_some(), "{}", String::from_utf8_lossy(m));
            assert_eq!(fast, slow);
        }
        // what the fast path does not expect goes to serde
        let escaped = br#"{"robot":"r\u0031","t":1,"pose":{"position":{},"orientation":{}}}"#;
        assert!(fast_pose(escaped).is_none());
        let Some(Message::Pose(name, _)) = decode("/pose", escaped, &keep) else {
            panic!("serde reads it")
        };
        assert_eq!(name, "r1");
    }

    #[test]
    fn bad_messages_are_none() {
        let keep = |_: &str| true;
        for topic in [
            "/pose",
            "/signals",
            "/scan",
            "/world",
            "/events",
            "/actuation",
        ] {
            assert!(decode(topic, b"{\"robot\":", &keep).is_none(), "{topic}");
            assert!(decode(topic, b"[1,2]", &keep).is_none(), "{topic}");
        }
        assert!(decode("/signals", br#"{"robot":"a","values":{}} x"#, &keep).is_none());
        assert_eq!(
            decode("/actuation", br#"{"t":3}"#, &keep),
            Some(Message::Other(Some(3.0)))
        );
    }
}
