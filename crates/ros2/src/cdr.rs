//! Decoding what Skipper receives, with bounds: every message type a Skipper node reads
//! (velocity commands, goal poses, action goal/cancel/result requests; the goals of
//! run-time types in [`crate::dynamic::decode_shaped`]) is decoded from
//! CDR the way the node's readers decode it ([`decode`], the fuzz target's entry), and
//! checked against [`Bounded`] limits before it reaches a robot. A sample that does not
//! decode, or breaks a limit, is counted ([`Dropped`]) and dropped, never a panic.

use crate::action::ActionType;
use crate::msg::geometry::{PoseStamped, Twist, TwistStamped};
use crate::msg::skipper::{GotoGoal, RunMissionGoal, RunOptionGoal};
use crate::nav2::NavigateToPoseGoal;
use ros2_client::action::{CancelGoalRequest, GoalInfo};
use ros2_client::dds::rustdds::cdr_encoding;
use serde::de::DeserializeOwned;
use std::sync::atomic::{AtomicU64, Ordering};

/// The longest text a goal field may carry (option names, parameters, mission paths).
pub const MAX_TEXT: usize = 64 * 1024;

/// Limits a received message must keep.
pub trait Bounded {
    /// `Err` with a sentence if a field is out of bounds.
    fn check(&self) -> Result<(), String>;
}

fn text(name: &str, s: &str) -> Result<(), String> {
    if s.len() > MAX_TEXT {
        return Err(format!(
            "{name} is {} bytes long, more than {MAX_TEXT}",
            s.len()
        ));
    }
    Ok(())
}

fn finite(name: &str, v: f64) -> Result<(), String> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(format!("{name} must be a finite number, not {v}"))
    }
}

impl Bounded for GotoGoal {
    fn check(&self) -> Result<(), String> {
        finite("x", self.x)?;
        finite("y", self.y)?;
        finite("tolerance", self.tolerance)?;
        if self.tolerance < 0.0 {
            return Err(format!(
                "tolerance must not be negative, not {}",
                self.tolerance
            ));
        }
        Ok(())
    }
}

impl Bounded for RunOptionGoal {
    fn check(&self) -> Result<(), String> {
        text("option", &self.option)?;
        text("parameters", &self.parameters)
    }
}

impl Bounded for RunMissionGoal {
    fn check(&self) -> Result<(), String> {
        text("mission", &self.mission)
    }
}

impl Bounded for Twist {
    fn check(&self) -> Result<(), String> {
        let (l, a) = (self.linear, self.angular);
        for (n, v) in [("linear.x", l.x), ("linear.y", l.y), ("linear.z", l.z)]
            .into_iter()
            .chain([("angular.x", a.x), ("angular.y", a.y), ("angular.z", a.z)])
        {
            finite(n, v)?;
        }
        Ok(())
    }
}

impl Bounded for TwistStamped {
    fn check(&self) -> Result<(), String> {
        text("frame_id", &self.header.frame_id)?;
        self.twist.check()
    }
}

impl Bounded for PoseStamped {
    fn check(&self) -> Result<(), String> {
        text("frame_id", &self.header.frame_id)?;
        let p = self.pose.position;
        let q = self.pose.orientation;
        for (n, v) in [
            ("x", p.x),
            ("y", p.y),
            ("z", p.z),
            ("qx", q.x),
            ("qy", q.y),
            ("qz", q.z),
            ("qw", q.w),
        ] {
            finite(n, v)?;
        }
        Ok(())
    }
}

/// Counts of received samples dropped, per cause.
#[derive(Debug, Default)]
pub struct Dropped {
    /// did not decode (malformed CDR, truncated, a sequence longer than its sample)
    pub malformed: AtomicU64,
    /// decoded but broke a limit ([`Bounded`]: too long a text, a number not finite)
    pub out_of_bounds: AtomicU64,
}

impl Dropped {
    /// Count one malformed sample.
    pub fn malformed(&self) {
        self.malformed.fetch_add(1, Ordering::Relaxed);
    }
    /// Count one sample out of bounds.
    pub fn out_of_bounds(&self) {
        self.out_of_bounds.fetch_add(1, Ordering::Relaxed);
    }
    /// (malformed, out of bounds) so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.malformed.load(Ordering::Relaxed),
            self.out_of_bounds.load(Ordering::Relaxed),
        )
    }
}

/// Why a sample was dropped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    /// Shorter than the 4-byte encapsulation header, or not CDR.
    #[error("not a CDR sample: {0}")]
    Encapsulation(String),
    /// The payload does not decode as the type.
    #[error("malformed CDR: {0}")]
    Malformed(String),
    /// Decoded, but out of bounds.
    #[error("out of bounds: {0}")]
    OutOfBounds(String),
}

/// Decode a serialized sample (4-byte encapsulation header, CDR_BE or CDR_LE, then the
/// payload) as `T`, as a Skipper node's readers do, and check its bounds.
pub fn decode<T: DeserializeOwned + Bounded>(sample: &[u8]) -> Result<T, DecodeError> {
    let (head, body) = sample
        .split_at_checked(4)
        .ok_or_else(|| DecodeError::Encapsulation(format!("{} bytes", sample.len())))?;
    let v: T = match head[..2] {
        [0, 0] => cdr_encoding::from_bytes::<T, byteorder_be::BigEndian>(body),
        [0, 1] => cdr_encoding::from_bytes::<T, byteorder_be::LittleEndian>(body),
        _ => {
            return Err(DecodeError::Encapsulation(format!(
                "representation {:02x}{:02x}",
                head[0], head[1]
            )))
        }
    }
    .map(|(v, _)| v)
    .map_err(|e| DecodeError::Malformed(e.to_string()))?;
    v.check().map_err(DecodeError::OutOfBounds)?;
    Ok(v)
}

mod byteorder_be {
    pub use byteorder::{BigEndian, LittleEndian};
}

/// The message types a Skipper node receives, by name, for the fuzz target.
pub const RECEIVED: &[&str] = &[
    "geometry_msgs/msg/Twist",
    "geometry_msgs/msg/TwistStamped",
    "geometry_msgs/msg/PoseStamped",
    "skipper_msgs/action/Goto_SendGoal_Request",
    "skipper_msgs/action/RunOption_SendGoal_Request",
    "skipper_msgs/action/RunMission_SendGoal_Request",
    "action_msgs/srv/CancelGoal_Request",
    "skipper_msgs/action/*_GetResult_Request",
    "nav2_msgs/action/NavigateToPose_SendGoal_Request",
];

/// A goal request of action `A` (goal id, then the goal).
#[derive(serde::Deserialize)]
struct SendGoal<G> {
    #[allow(dead_code)]
    goal_id: [u8; 16],
    goal: G,
}

impl<G: Bounded> Bounded for SendGoal<G> {
    fn check(&self) -> Result<(), String> {
        self.goal.check()
    }
}

/// A cancel or result request (no bounds beyond its fixed size).
#[derive(serde::Deserialize)]
struct Fixed<T>(T);

impl<T> Bounded for Fixed<T> {
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// `action_msgs/srv/CancelGoal_Request` with readable fields.
#[derive(serde::Serialize, serde::Deserialize)]
struct CancelInfo {
    goal_id: [u8; 16],
    sec: i32,
    nanosec: u32,
}

/// Decode `sample` as the `k`-th of [`RECEIVED`]: the fuzz target's entry. `Ok` if it
/// was accepted, `Err` why it was dropped.
pub fn decode_received(k: usize, sample: &[u8]) -> Result<(), DecodeError> {
    match k % RECEIVED.len() {
        0 => decode::<Twist>(sample).map(drop),
        1 => decode::<TwistStamped>(sample).map(drop),
        2 => decode::<PoseStamped>(sample).map(drop),
        3 => decode::<SendGoal<GotoGoal>>(sample).map(drop),
        4 => decode::<SendGoal<RunOptionGoal>>(sample).map(drop),
        5 => decode::<SendGoal<RunMissionGoal>>(sample).map(drop),
        6 => decode::<Fixed<CancelInfo>>(sample).map(drop),
        7 => decode::<Fixed<[u8; 16]>>(sample).map(drop),
        _ => decode_goal_request::<NavigateToPoseGoal>(sample),
    }
}

/// Decode `sample` as a goal request (goal id, then the goal `G`), with bounds.
pub fn decode_goal_request<G: DeserializeOwned + Bounded>(
    sample: &[u8],
) -> Result<(), DecodeError> {
    decode::<SendGoal<G>>(sample).map(drop)
}

/// The goal a cancel request names (ros2-client keeps its fields private: they are read
/// back through their CDR form). `None` if it does not round-trip.
pub fn cancel_target(c: &CancelGoalRequest) -> Option<GoalInfo> {
    let bytes = cdr_encoding::to_vec::<_, byteorder::LittleEndian>(c).ok()?;
    let (info, _) = cdr_encoding::from_bytes::<GoalInfo, byteorder::LittleEndian>(&bytes).ok()?;
    Some(info)
}

/// Check a goal of action `A` against its bounds.
pub fn check_goal<A: ActionType>(g: &A::Goal) -> Result<(), String> {
    g.check()
}
