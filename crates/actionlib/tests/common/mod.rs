//! Test rig: a manual clock, a recording sink that keeps everything a server publishes,
//! and helpers to build goals and cancels.
#![allow(dead_code)]

use skipper_actionlib::transport::ServerSink;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::actionlib_msgs::{
    ActionFeedback, ActionGoal, ActionResult, StatusList,
};
use skipper_ros1_wire::msg::test_actions::{Test, TestFeedback, TestGoal, TestResult};
use std::sync::{Arc, Mutex};

/// What a server published, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    Status(Vec<(String, StatusCode, String)>),
    Result(String, StatusCode, String, i32),
    Feedback(String, StatusCode, i32),
}

#[derive(Default)]
pub struct Recorder(pub Mutex<Vec<Out>>);

impl Recorder {
    pub fn take(&self) -> Vec<Out> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
    pub fn results(&self) -> Vec<(String, StatusCode, String, i32)> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|o| match o {
                Out::Result(a, b, c, d) => Some((a.clone(), *b, c.clone(), *d)),
                _ => None,
            })
            .collect()
    }
    pub fn last_status(&self) -> Vec<(String, StatusCode, String)> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .rev()
            .find_map(|o| match o {
                Out::Status(s) => Some(s.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }
    /// Every status a goal showed in the status lists, without repeats.
    pub fn wire_statuses(&self, id: &str) -> Vec<StatusCode> {
        let mut v: Vec<StatusCode> = Vec::new();
        for o in self.0.lock().unwrap().iter() {
            let s = match o {
                Out::Status(l) => l.iter().find(|x| x.0 == id).map(|x| x.1),
                Out::Result(g, s, _, _) if g == id => Some(*s),
                _ => None,
            };
            if let Some(s) = s {
                if v.last() != Some(&s) {
                    v.push(s);
                }
            }
        }
        v
    }
}

fn code(s: &GoalStatus) -> StatusCode {
    s.code().unwrap()
}

impl ServerSink<Test> for Recorder {
    fn publish_status(&self, list: &StatusList<'_>) {
        let msg = list.to_array().expect("the server's status list decodes");
        self.0.lock().unwrap().push(Out::Status(
            msg.status_list
                .iter()
                .map(|s| (s.goal_id.id.clone(), code(s), s.text.clone()))
                .collect(),
        ));
    }
    fn publish_result(&self, msg: ActionResult<TestResult>) {
        self.0.lock().unwrap().push(Out::Result(
            msg.status.goal_id.id.clone(),
            code(&msg.status),
            msg.status.text.clone(),
            msg.result.result,
        ));
    }
    fn publish_feedback(&self, msg: ActionFeedback<TestFeedback>) {
        self.0.lock().unwrap().push(Out::Feedback(
            msg.status.goal_id.id.clone(),
            code(&msg.status),
            msg.feedback.feedback,
        ));
    }
}

pub fn t(secs: u32) -> Time {
    Time::new(secs, 0)
}

pub fn goal(id: &str, stamp: Time, g: i32) -> ActionGoal<TestGoal> {
    ActionGoal {
        goal_id: GoalId {
            stamp,
            id: id.into(),
        },
        goal: TestGoal { goal: g },
        ..Default::default()
    }
}

pub fn cancel(id: &str, stamp: Time) -> GoalId {
    GoalId {
        stamp,
        id: id.into(),
    }
}

/// A started server at t = 100 s with a recorder attached.
pub fn server() -> (ActionServer<Test>, Arc<ManualClock>, Arc<Recorder>) {
    let clock = Arc::new(ManualClock::at(t(100)));
    let s = ActionServer::<Test>::new(
        ServerConfig {
            node_name: "/srv".into(),
            ..Default::default()
        },
        clock.clone(),
    );
    let rec = Arc::new(Recorder::default());
    s.connect(rec.clone());
    (s, clock, rec)
}
