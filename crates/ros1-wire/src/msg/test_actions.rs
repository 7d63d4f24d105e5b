//! The actions of ros/actionlib's own tests (`actionlib/Test`, `TestRequest`, `TwoInts`),
//! which Debian's python3-actionlib ships as Python classes: the interop tests use them.

use crate::time::RosDuration;
use crate::{action_type, ros_message};

ros_message! {
    /// `actionlib/TestGoal`.
    pub struct TestGoal = "actionlib/TestGoal" { pub goal: i32 }
}
ros_message! {
    /// `actionlib/TestResult`.
    pub struct TestResult = "actionlib/TestResult" { pub result: i32 }
}
ros_message! {
    /// `actionlib/TestFeedback`.
    pub struct TestFeedback = "actionlib/TestFeedback" { pub feedback: i32 }
}
action_type! {
    /// `actionlib/Test`.
    pub Test = "actionlib/Test" { goal: TestGoal, result: TestResult, feedback: TestFeedback }
}

ros_message! {
    /// `actionlib/TestRequestGoal`: tells a test server how to end the goal.
    pub struct TestRequestGoal = "actionlib/TestRequestGoal" {
        pub terminate_status: i32,
        pub ignore_cancel: bool,
        pub result_text: String,
        pub the_result: i32,
        pub is_simple_client: bool,
        pub delay_accept: RosDuration,
        pub delay_terminate: RosDuration,
        pub pause_status: RosDuration,
    }
}
impl TestRequestGoal {
    /// end SUCCEEDED
    pub const TERMINATE_SUCCESS: i32 = 0;
    /// end ABORTED
    pub const TERMINATE_ABORTED: i32 = 1;
    /// end REJECTED
    pub const TERMINATE_REJECTED: i32 = 2;
    /// forget the goal (the client sees LOST)
    pub const TERMINATE_LOSE: i32 = 3;
    /// return without a terminal state
    pub const TERMINATE_DROP: i32 = 4;
    /// fail with an error
    pub const TERMINATE_EXCEPTION: i32 = 5;
}
ros_message! {
    /// `actionlib/TestRequestResult`.
    pub struct TestRequestResult = "actionlib/TestRequestResult" { pub the_result: i32, pub is_simple_server: bool }
}
ros_message! {
    /// `actionlib/TestRequestFeedback` (empty).
    pub struct TestRequestFeedback = "actionlib/TestRequestFeedback" {}
}
action_type! {
    /// `actionlib/TestRequest`.
    pub TestRequest = "actionlib/TestRequest" { goal: TestRequestGoal, result: TestRequestResult, feedback: TestRequestFeedback }
}

ros_message! {
    /// `actionlib/TwoIntsGoal`.
    pub struct TwoIntsGoal = "actionlib/TwoIntsGoal" { pub a: i64, pub b: i64 }
}
ros_message! {
    /// `actionlib/TwoIntsResult`.
    pub struct TwoIntsResult = "actionlib/TwoIntsResult" { pub sum: i64 }
}
ros_message! {
    /// `actionlib/TwoIntsFeedback` (empty).
    pub struct TwoIntsFeedback = "actionlib/TwoIntsFeedback" {}
}
action_type! {
    /// `actionlib/TwoInts`.
    pub TwoInts = "actionlib/TwoInts" { goal: TwoIntsGoal, result: TwoIntsResult, feedback: TwoIntsFeedback }
}
