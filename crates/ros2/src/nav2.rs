//! nav2's `NavigateToPose` action (`nav2_msgs/action/NavigateToPose`, as Jazzy defines
//! it) on a ground robot's goto goals: what nav2_simple_commander's `goToPose`, rviz2's
//! Nav2 goal tool and fleet managers send to `<robot>/navigate_to_pose`.
//!
//! - goal: `pose` (the target's position; Skipper's goto drives to a point, the final
//!   orientation is not steered) and `behavior_tree` (must be empty: Skipper runs no
//!   behavior trees);
//! - a pose in a frame other than `odom`, `map` (Skipper has no localization: `map` is
//!   the odometry frame) or the robot's own `<robot>/odom` is rejected, the reason on
//!   `/rosout`;
//! - feedback, with each new distance of the goto: `current_pose` (the robot's latest
//!   pose, in its odometry frame `<robot>/odom`, stamped in the run's time),
//!   `navigation_time` since the goal was accepted, `estimated_time_remaining` (distance
//!   over the current speed, 0 when standing), `number_of_recoveries` 0,
//!   `distance_remaining`;
//! - result: `error_code` 0 (`NONE`, the one code Jazzy defines) and `error_msg` empty
//!   on success, the goal layer's reason otherwise.
//!
//! The single-goal policy is the goto's: a newer goal preempts (the older ABORTED, as
//! nav2's own server does), a cancel stops the robot.

use crate::action::{ActionType, GoalTarget, Progress};
use crate::cdr::{Bounded, MAX_TEXT};
use crate::msg::geometry::{Pose, PoseStamped, Quaternion};
use crate::msg::std::{Header, RosDuration, Time};
use serde::{Deserialize, Serialize};
use skipper_core::goals::{Ending, GoalKind, GoalPort, GoalState, Record};
use std::sync::{Arc, Mutex};

/// The action's goal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NavigateToPoseGoal {
    /// where to go
    pub pose: PoseStamped,
    /// a behavior tree to navigate with (empty: the default)
    pub behavior_tree: String,
}

/// The action's result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NavigateToPoseResult {
    /// 0: `NONE`
    pub error_code: u16,
    /// why it failed
    pub error_msg: String,
}

/// The action's feedback.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NavigateToPoseFeedback {
    /// where the robot is
    pub current_pose: PoseStamped,
    /// since the goal was accepted
    pub navigation_time: RosDuration,
    /// at the current speed
    pub estimated_time_remaining: RosDuration,
    /// recoveries so far
    pub number_of_recoveries: i16,
    /// m
    pub distance_remaining: f32,
}

crate::msg::ros_type! {
    NavigateToPoseGoal => "nav2_msgs" / "NavigateToPose_Goal",
    NavigateToPoseResult => "nav2_msgs" / "NavigateToPose_Result",
    NavigateToPoseFeedback => "nav2_msgs" / "NavigateToPose_Feedback",
}

/// `nav2_msgs/action/NavigateToPose`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct NavigateToPose;

impl ActionType for NavigateToPose {
    type Goal = NavigateToPoseGoal;
    type Result = NavigateToPoseResult;
    type Feedback = NavigateToPoseFeedback;
    fn package(&self) -> &str {
        "nav2_msgs"
    }
    fn name(&self) -> &str {
        "NavigateToPose"
    }
    fn ending_result(&self, how: Ending) -> NavigateToPoseResult {
        let why = match how {
            Ending::Preempted => "preempted by a newer goal",
            Ending::Canceled => "canceled",
            Ending::Refused => "refused",
            Ending::RunEnded => "the run ended",
        };
        failed(why)
    }
}

fn failed(why: &str) -> NavigateToPoseResult {
    NavigateToPoseResult {
        error_code: 0,
        error_msg: why.to_string(),
    }
}

impl Bounded for NavigateToPoseGoal {
    fn check(&self) -> Result<(), String> {
        self.pose.check()?;
        if self.behavior_tree.len() > MAX_TEXT {
            return Err(format!(
                "behavior_tree is {} bytes long, more than {MAX_TEXT}",
                self.behavior_tree.len()
            ));
        }
        Ok(())
    }
}

/// A robot's latest pose, written by the cycle and read by the action's thread.
#[derive(Debug, Clone, Default)]
pub struct LatestPose(Arc<Mutex<Option<PoseFix>>>);

/// One pose of a robot.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PoseFix {
    /// the run's time
    pub stamp: Time,
    /// m
    pub x: f64,
    /// m
    pub y: f64,
    /// rad
    pub yaw: f64,
    /// forward speed (m/s)
    pub speed: f64,
}

impl LatestPose {
    /// The robot is at `p`.
    pub fn set(&self, p: PoseFix) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some(p);
        }
    }
    /// The latest pose, if any yet.
    pub fn get(&self) -> Option<PoseFix> {
        self.0.lock().ok().and_then(|g| *g)
    }
}

/// A goal being driven: its goal-layer id, when it started, the feedback sequence seen.
#[derive(Debug, Clone, Copy)]
struct Driving {
    id: u64,
    since: Option<Time>,
    seq: u64,
}

/// `navigate_to_pose` goals of one robot, sent as goto goals through its goal port.
pub struct Navigate {
    port: Arc<dyn GoalPort>,
    goto: &'static GoalKind,
    frames: Vec<String>,
    odom: String,
    pose: LatestPose,
    driving: Option<Driving>,
}

impl Navigate {
    /// Goals for the goto kind `goto` of `port`; the robot's frames are named
    /// `<frame_prefix>/...`, its pose read from `pose`.
    pub fn new(
        port: Arc<dyn GoalPort>,
        goto: &'static GoalKind,
        frame_prefix: &str,
        pose: LatestPose,
    ) -> Self {
        let odom = format!("{frame_prefix}/odom");
        Self {
            port,
            goto,
            frames: vec!["odom".into(), "map".into(), odom.clone()],
            odom,
            pose,
            driving: None,
        }
    }

    fn feedback(&self, d: &Driving, distance: f64) -> NavigateToPoseFeedback {
        let now = self.pose.get();
        let p = now.unwrap_or_default();
        let elapsed = match (d.since, now) {
            (Some(a), Some(b)) => b.stamp.as_secs_f64() - a.as_secs_f64(),
            _ => 0.0,
        };
        let speed = p.speed.abs();
        let remaining = if speed > 0.01 { distance / speed } else { 0.0 };
        let mut pose = Pose::default();
        pose.position.x = p.x;
        pose.position.y = p.y;
        pose.orientation = Quaternion::from_yaw(p.yaw);
        NavigateToPoseFeedback {
            current_pose: PoseStamped {
                header: Header {
                    stamp: p.stamp,
                    frame_id: self.odom.as_str().into(),
                },
                pose,
            },
            navigation_time: RosDuration::from_secs_f64(elapsed),
            estimated_time_remaining: RosDuration::from_secs_f64(remaining),
            number_of_recoveries: 0,
            distance_remaining: distance as f32,
        }
    }
}

impl GoalTarget<NavigateToPose> for Navigate {
    fn admit(&self, goal: &NavigateToPoseGoal) -> Result<(), String> {
        let frame: &str = &goal.pose.header.frame_id;
        if !self.frames.iter().any(|f| f == frame) {
            return Err(format!(
                "a goal pose in frame `{frame}`: this robot takes goal poses in {}",
                self.frames.join(", ")
            ));
        }
        if !goal.behavior_tree.is_empty() {
            return Err(
                "behavior_tree must be empty: Skipper drives to the pose with its own pilot and runs no behavior trees"
                    .into(),
            );
        }
        Ok(())
    }
    fn start(&mut self, goal: &NavigateToPoseGoal) -> Result<u64, String> {
        let p = goal.pose.pose.position;
        let record = Record::defaults(self.goto.goal)
            .with("x", p.x)
            .with("y", p.y);
        let id = self
            .port
            .send(self.goto.name, record)
            .map_err(|e| e.to_string())?;
        self.driving = Some(Driving {
            id,
            since: self.pose.get().map(|p| p.stamp),
            seq: 0,
        });
        Ok(id)
    }
    fn poll(&mut self, id: u64) -> Progress<NavigateToPose> {
        let Some(u) = self.port.update(id) else {
            return Progress::Aborted(failed("the goal was forgotten"), String::new());
        };
        let text = u.text.clone();
        match u.state {
            GoalState::Pending => Progress::Pending,
            GoalState::Active => {
                let d = match self.driving {
                    Some(d) if d.id == id && d.seq != u.seq && u.feedback.is_some() => d,
                    _ => return Progress::Active(None),
                };
                self.driving = Some(Driving { seq: u.seq, ..d });
                let distance = u
                    .feedback
                    .as_ref()
                    .map_or(f64::NAN, |f| f.float("distance"));
                Progress::Active(Some(self.feedback(&d, distance)))
            }
            GoalState::Succeeded => Progress::Succeeded(NavigateToPoseResult::default()),
            GoalState::Canceled => Progress::Canceled(failed(&text)),
            GoalState::Aborted | GoalState::Preempted => Progress::Aborted(failed(&text), text),
        }
    }
    fn cancel(&mut self, id: u64) {
        self.port.cancel(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cdr::decode;

    fn encode<T: Serialize>(v: &T) -> Vec<u8> {
        let mut out = vec![0, 1, 0, 0];
        out.extend(
            ros2_client::dds::rustdds::cdr_encoding::to_vec::<_, byteorder::LittleEndian>(v)
                .unwrap(),
        );
        out
    }

    #[test]
    fn the_feedback_is_jazzys_layout() {
        // PoseStamped (stamp 8, frame "a" 4+2 pad 2, pose 56), two Durations (16),
        // int16, pad 2, float32
        let f = NavigateToPoseFeedback {
            current_pose: PoseStamped {
                header: Header {
                    stamp: Time::default(),
                    frame_id: "a".into(),
                },
                pose: Pose::default(),
            },
            number_of_recoveries: 3,
            distance_remaining: 1.5,
            ..Default::default()
        };
        let b = encode(&f);
        assert_eq!(b.len(), 4 + 8 + 8 + 56 + 16 + 2 + 2 + 4);
        assert_eq!(&b[b.len() - 8..b.len() - 6], &3i16.to_le_bytes());
        assert_eq!(&b[b.len() - 4..], &1.5f32.to_le_bytes());
    }

    #[test]
    fn goals_are_bounded() {
        let mut g = NavigateToPoseGoal::default();
        g.pose.header.frame_id = "map".into();
        assert!(decode::<NavigateToPoseGoal>(&encode(&g)).is_ok());
        g.pose.pose.position.x = f64::INFINITY;
        assert!(decode::<NavigateToPoseGoal>(&encode(&g)).is_err());
        g.pose.pose.position.x = 0.0;
        g.behavior_tree = "x".repeat(MAX_TEXT + 1);
        assert!(decode::<NavigateToPoseGoal>(&encode(&g)).is_err());
    }

    #[test]
    fn durations_saturate_and_never_go_negative() {
        assert_eq!(RosDuration::from_secs_f64(-1.0), RosDuration::default());
        assert_eq!(RosDuration::from_secs_f64(f64::NAN), RosDuration::default());
        assert_eq!(RosDuration::from_secs_f64(1e300).sec, i32::MAX);
        let d = RosDuration::from_secs_f64(2.25);
        assert_eq!((d.sec, d.nanosec), (2, 250_000_000));
    }
}
