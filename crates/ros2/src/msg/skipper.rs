//! `skipper_msgs` (the interface package `interfaces/ros2/skipper_msgs`): the goal
//! actions Goto, RunOption, RunMission and the AUV's Depth and WaterProperties.

use super::std::Header;
use serde::{Deserialize, Serialize};

/// `skipper_msgs/msg/Depth`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Depth {
    /// stamp and frame
    pub header: Header,
    /// m below the surface
    pub depth: f64,
    /// m above the sea floor (NaN: unknown)
    pub altitude: f64,
}

/// `skipper_msgs/msg/WaterProperties`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WaterProperties {
    /// stamp and frame
    pub header: Header,
    /// degC
    pub temperature: f64,
    /// PSU
    pub salinity: f64,
}

/// `skipper_msgs/action/Goto` goal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GotoGoal {
    /// m
    pub x: f64,
    /// m
    pub y: f64,
    /// m (0: the vehicle's default)
    pub tolerance: f64,
}

/// `skipper_msgs/action/Goto` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GotoResult {
    /// m
    pub x: f64,
    /// m
    pub y: f64,
    /// rad
    pub yaw: f64,
}

/// `skipper_msgs/action/Goto` feedback.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GotoFeedback {
    /// m left
    pub distance: f64,
}

/// `skipper_msgs/action/RunOption` goal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOptionGoal {
    /// the option
    pub option: String,
    /// its parameters, a JSON object
    pub parameters: String,
}

/// `skipper_msgs/action/RunOption` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOptionResult {
    /// the option reached a target state
    pub reached_target_state: bool,
}

/// `skipper_msgs/action/RunOption` feedback.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOptionFeedback {
    /// `option.state > option.state ...`
    pub active_path: String,
}

/// `skipper_msgs/action/RunMission` goal.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunMissionGoal {
    /// the mission script's path on the robot's machine
    pub mission: String,
}

/// `skipper_msgs/action/RunMission` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunMissionResult {
    /// completed, timed_out, preempted, canceled, error, run_ended
    pub outcome: String,
}

/// `skipper_msgs/action/RunMission` feedback.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunMissionFeedback {
    /// the running items in priority order, comma separated
    pub active_items: String,
}

super::ros_type! {
    Depth => "skipper_msgs" / "Depth",
    WaterProperties => "skipper_msgs" / "WaterProperties",
    GotoGoal => "skipper_msgs" / "Goto_Goal",
    GotoResult => "skipper_msgs" / "Goto_Result",
    GotoFeedback => "skipper_msgs" / "Goto_Feedback",
    RunOptionGoal => "skipper_msgs" / "RunOption_Goal",
    RunOptionResult => "skipper_msgs" / "RunOption_Result",
    RunOptionFeedback => "skipper_msgs" / "RunOption_Feedback",
    RunMissionGoal => "skipper_msgs" / "RunMission_Goal",
    RunMissionResult => "skipper_msgs" / "RunMission_Result",
    RunMissionFeedback => "skipper_msgs" / "RunMission_Feedback",
}
