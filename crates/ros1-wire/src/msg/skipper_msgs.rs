//! Skipper's own actions and messages (`skipper_msgs`, shipped as a ROS package in
//! `interfaces/ros1/skipper_msgs`): `Goto`, `RunOption`, `RunMission`; a ground robot's
//! `BumperState` and `GripperState`, an AUV's `WaterProperties`.

use super::common::Header;
use crate::{action_type, ros_message};

ros_message! {
    /// Bumper segments, true while pressed (RosAria's `rosaria/BumperState` fields).
    pub struct BumperState = "skipper_msgs/BumperState" {
        pub header: Header,
        pub front_bumpers: Vec<bool>,
        pub rear_bumpers: Vec<bool>,
    }
}
ros_message! {
    /// A P2OS gripper: the GRIPPERpac state byte, the paddle position and lift height
    /// (0..1 as the `gripper.*` signals have them, NaN when not reported), whether
    /// something is held.
    pub struct GripperState = "skipper_msgs/GripperState" {
        pub header: Header,
        pub state: u8,
        pub paddles: f32,
        pub lift: f32,
        pub holding: bool,
    }
}
ros_message! {
    /// The water around an AUV: temperature (°C) and salinity (PSU), NaN until sampled.
    pub struct WaterProperties = "skipper_msgs/WaterProperties" {
        pub header: Header,
        pub temperature: f64,
        pub salinity: f64,
    }
}

ros_message! {
    /// Drive to (x, y) (m, odometry frame) until within `tolerance` m (0: default).
    pub struct GotoGoal = "skipper_msgs/GotoGoal" { pub x: f64, pub y: f64, pub tolerance: f64 }
}
ros_message! {
    /// Where the robot stopped.
    pub struct GotoResult = "skipper_msgs/GotoResult" { pub x: f64, pub y: f64, pub yaw: f64 }
}
ros_message! {
    /// Distance left (m).
    pub struct GotoFeedback = "skipper_msgs/GotoFeedback" { pub distance: f64 }
}
action_type! {
    /// `skipper_msgs/Goto`: drive the robot to a point.
    pub Goto = "skipper_msgs/Goto" { goal: GotoGoal, result: GotoResult, feedback: GotoFeedback }
}

ros_message! {
    /// Run an XABSL option with parameters (a JSON object).
    pub struct RunOptionGoal = "skipper_msgs/RunOptionGoal" { pub option: String, pub parameters: String }
}
ros_message! {
    /// Whether the option reached a target state.
    pub struct RunOptionResult = "skipper_msgs/RunOptionResult" { pub reached_target_state: bool }
}
ros_message! {
    /// The active option/state path.
    pub struct RunOptionFeedback = "skipper_msgs/RunOptionFeedback" { pub active_path: String }
}
action_type! {
    /// `skipper_msgs/RunOption`: run an XABSL option.
    pub RunOption = "skipper_msgs/RunOption" { goal: RunOptionGoal, result: RunOptionResult, feedback: RunOptionFeedback }
}

ros_message! {
    /// Run a mission script.
    pub struct RunMissionGoal = "skipper_msgs/RunMissionGoal" { pub mission: String }
}
ros_message! {
    /// How the mission ended.
    pub struct RunMissionResult = "skipper_msgs/RunMissionResult" { pub outcome: String }
}
ros_message! {
    /// The running mission items.
    pub struct RunMissionFeedback = "skipper_msgs/RunMissionFeedback" { pub active_items: String }
}
action_type! {
    /// `skipper_msgs/RunMission`: run a Tethys mission script.
    pub RunMission = "skipper_msgs/RunMission" { goal: RunMissionGoal, result: RunMissionResult, feedback: RunMissionFeedback }
}
