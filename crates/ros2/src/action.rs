//! Goals as ROS 2 actions: an action type ([`ActionType`]: Goto, RunOption, RunMission),
//! the binding a controller's goal kind fills ([`GoalTarget`]), and [`GoalServer`], which
//! serves one action on the ROS 2 graph (send_goal, cancel_goal and get_result services,
//! feedback and status topics) under the SimpleActionServer policy, mapped onto ROS 2's
//! goal states:
//!
//! | SimpleActionServer (spec)              | ROS 2 action                                     |
//! | -------------------------------------- | ------------------------------------------------ |
//! | a new goal is accepted (acceptNewGoal) | goal response `accepted`, status EXECUTING       |
//! | a goal the robot cannot take (bad field, too long a text) | goal response not accepted (ROS 2 can reject) |
//! | the target refuses it when it starts   | ABORTED at once, the reason on `/rosout`         |
//! | a newer goal preempts the active one   | the old goal ABORTED (ROS 2 has no PREEMPTED; as nav2's simple action server), the new one EXECUTING, the robot turns to it without stopping |
//! | cancel (preempt request by the client) | CANCELING, then CANCELED when the robot stopped  |
//! | setSucceeded / setAborted              | SUCCEEDED / ABORTED with the result              |
//! | the run ends                           | ABORTED                                          |
//!
//! Only one goal is active at a time. A cancel request names a goal, all goals (zero id
//! and stamp) or all goals accepted at or before a stamp (zero id), as
//! action_msgs/CancelGoal says. Finished goals keep their results for
//! [`RESULT_KEEP`] (at most [`MAX_FINISHED`] of them), like rclpy's result timeout.

use crate::cdr::Bounded;
use crate::msg::skipper::*;
use crate::reply::{ClientType, Outbox, Peers, Reply};
use ros2_client::action::{
    ActionServer, CancelGoalResponse, GetResultResponse, GoalId, GoalInfo, SendGoalResponse,
};
use ros2_client::action_msgs::{CancelGoalResponseEnum, GoalStatus, GoalStatusArray};
use ros2_client::builtin_interfaces::Time as RosTime;
use ros2_client::dds::rustdds::mio1;
use ros2_client::{Message, RmwRequestId};
use skipper_core::goals::Ending;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long a finished goal's result is kept for `get_result`.
pub const RESULT_KEEP: Duration = Duration::from_secs(900);
/// At most this many finished goals are kept (the oldest go first).
pub const MAX_FINISHED: usize = 100;

/// A ROS 2 action type: its name and its goal, result and feedback messages. Compiled
/// types ([`Goto`], ...) are unit structs; a type made at run time from a goal kind
/// ([`crate::dynamic::KindAction`]) carries its names and lends its fields to decoding.
pub trait ActionType: Send + 'static {
    /// The goal.
    type Goal: Message + Clone + Bounded + Send + std::fmt::Debug + 'static;
    /// The result.
    type Result: Message + Clone + Send + 'static;
    /// The feedback.
    type Feedback: Message + Clone + Send + 'static;
    /// The package (`skipper_msgs`).
    fn package(&self) -> &str;
    /// The action (`Goto`).
    fn name(&self) -> &str;
    /// The result of a goal that ended without its target ending it.
    fn ending_result(&self, how: Ending) -> Self::Result;
    /// Run `f`, which decodes this type's messages (run-time types are read inside it).
    fn decoding<R>(&self, f: impl FnOnce() -> R) -> R {
        f()
    }
    /// The types an action client of it has, with their hashes, when known: a client
    /// that announces other hashes is refused ([`crate::reply::Peers::check_client`]).
    fn client_types(&self) -> &[ClientType] {
        &[]
    }
}

macro_rules! action_type {
    ($($t:ident => $name:literal: $g:ty, $r:ty, $f:ty);* $(;)?) => {$(
        #[doc = concat!("`skipper_msgs/action/", $name, "`, compiled.")]
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        pub struct $t;
        impl ActionType for $t {
            type Goal = $g;
            type Result = $r;
            type Feedback = $f;
            fn package(&self) -> &str {
                "skipper_msgs"
            }
            fn name(&self) -> &str {
                $name
            }
            fn ending_result(&self, _: Ending) -> $r {
                <$r>::default()
            }
        }
    )*};
}

action_type! {
    Goto => "Goto": GotoGoal, GotoResult, GotoFeedback;
    RunOption => "RunOption": RunOptionGoal, RunOptionResult, RunOptionFeedback;
    RunMission => "RunMission": RunMissionGoal, RunMissionResult, RunMissionFeedback;
}

pub use ros2_client::action::GoalStatusEnum;

/// A goal status as ROS 2 tools print it (`SUCCEEDED`).
pub fn status_name(s: GoalStatusEnum) -> &'static str {
    match s {
        GoalStatusEnum::Unknown => "UNKNOWN",
        GoalStatusEnum::Accepted => "ACCEPTED",
        GoalStatusEnum::Executing => "EXECUTING",
        GoalStatusEnum::Canceling => "CANCELING",
        GoalStatusEnum::Succeeded => "SUCCEEDED",
        GoalStatusEnum::Canceled => "CANCELED",
        GoalStatusEnum::Aborted => "ABORTED",
    }
}

/// The ros2-client action server of action `A`.
pub type RawServer<A> =
    ActionServer<<A as ActionType>::Goal, <A as ActionType>::Result, <A as ActionType>::Feedback>;

/// Where a goal is, as its target says.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress<A: ActionType> {
    /// Not taken up yet.
    Pending,
    /// Running; new feedback if there is any since the last poll.
    Active(Option<A::Feedback>),
    /// Done as asked.
    Succeeded(A::Result),
    /// Given up (the text says why).
    Aborted(A::Result, String),
    /// Stopped after a cancel.
    Canceled(A::Result),
}

/// What a goal does on the robot: one of a controller's goal kinds, bound to a robot.
/// The transport calls it from its own thread.
pub trait GoalTarget<A: ActionType>: Send {
    /// Whether `goal` may be accepted at all (`Err`: rejected with the reason, before
    /// it is accepted): what the type's bounds cannot say (a frame this robot does not
    /// have).
    fn admit(&self, goal: &A::Goal) -> Result<(), String> {
        let _ = goal;
        Ok(())
    }
    /// Take up `goal` (it replaces any goal of this target still running: the robot
    /// turns to the new one without stopping). `Err` with a reason if it cannot.
    fn start(&mut self, goal: &A::Goal) -> Result<u64, String>;
    /// Where goal `id` is. Feedback is returned once per change.
    fn poll(&mut self, id: u64) -> Progress<A>;
    /// A client canceled goal `id`: stop the robot.
    fn cancel(&mut self, id: u64);
    /// The run ends while goal `id` runs.
    fn end(&mut self, id: u64) {
        self.cancel(id);
    }
}

/// A goal as the server tracks it.
struct Tracked<A: ActionType> {
    info: GoalInfo,
    status: GoalStatusEnum,
    target_id: Option<u64>,
    result: A::Result,
    waiting: Vec<RmwRequestId>,
    finished: Option<Instant>,
}

/// What the server did, for logs (`/rosout`) and counters.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerEvent {
    /// A goal was rejected at once (bad field, oversized text).
    Rejected(String),
    /// A goal ended ABORTED, with the reason.
    Aborted(String),
    /// A request could not be decoded (counted and dropped).
    Malformed(String),
    /// Answers dropped because their clients' readers were never discovered.
    Unanswered(String),
}

/// One action served on the ROS 2 graph under the single-goal policy.
pub struct GoalServer<A: ActionType> {
    ty: A,
    server: RawServer<A>,
    target: Box<dyn GoalTarget<A>>,
    goals: Vec<Tracked<A>>,
    active: Option<usize>,
    events: Vec<ServerEvent>,
    status_dirty: bool,
    outbox: Outbox<A>,
}

impl<A: ActionType> GoalServer<A> {
    /// Serve `target` as action `ty` through `server` (made by
    /// [`crate::node::Ros2Node::action_server`]).
    pub fn new(ty: A, server: RawServer<A>, target: Box<dyn GoalTarget<A>>) -> Self {
        Self {
            ty,
            server,
            target,
            goals: Vec::new(),
            active: None,
            events: Vec::new(),
            status_dirty: false,
            outbox: Outbox::new(None),
        }
    }

    /// Answer each request only once this node has discovered the client's response
    /// reader (as Fast DDS servers do; see [`crate::reply`]).
    pub fn answer_after_discovery(mut self, peers: Peers) -> Self {
        self.outbox = Outbox::new(Some(peers));
        self
    }

    /// Register the server's three services with a poll loop, under `tokens`.
    pub fn register(
        &mut self,
        registry: &mio1::Registry,
        tokens: [mio1::Token; 3],
    ) -> std::io::Result<()> {
        let i = mio1::Interest::READABLE;
        registry.register(self.server.goal_server(), tokens[0], i)?;
        registry.register(self.server.cancel_server(), tokens[1], i)?;
        registry.register(self.server.result_server(), tokens[2], i)
    }

    /// Whether a goal is running or an answer is held (the server then needs
    /// [`Self::tick`] each cycle).
    pub fn is_busy(&self) -> bool {
        self.active.is_some() || self.outbox.is_holding()
    }

    /// Events since the last call.
    pub fn take_events(&mut self) -> Vec<ServerEvent> {
        std::mem::take(&mut self.events)
    }

    /// Answer every pending request (goals, cancels, result requests), then follow the
    /// active goal.
    pub fn serve(&mut self) {
        self.take_goals();
        self.take_cancels();
        self.take_result_requests();
        self.tick();
    }

    /// Follow the active goal: feedback, and its end.
    pub fn tick(&mut self) {
        if let Some(i) = self.active {
            self.follow(i);
        }
        let dropped = self.outbox.flush(&mut self.server);
        if dropped > 0 {
            self.events.push(ServerEvent::Unanswered(format!(
                "{dropped} {} answer(s) dropped: the client's reader was not discovered within {:?}",
                self.ty.name(),
                crate::reply::HOLD_MAX
            )));
        }
        self.expire();
        if self.status_dirty {
            self.publish_status();
        }
    }

    /// The run ends: the active goal is ABORTED.
    pub fn shutdown(&mut self) {
        if let Some(i) = self.active.take() {
            if let Some(id) = self.goals[i].target_id {
                self.target.end(id);
            }
            let r = self.ty.ending_result(Ending::RunEnded);
            self.finish(i, GoalStatusEnum::Aborted, r);
            self.events
                .push(ServerEvent::Aborted("the run ended".into()));
        }
        if self.status_dirty {
            self.publish_status();
        }
    }

    fn take_goals(&mut self) {
        loop {
            let (ty, server) = (&self.ty, &self.server);
            match ty.decoding(|| server.receive_goal()) {
                Ok(Some((req, goal))) => self.on_goal(req, goal.goal_id, goal.goal),
                Ok(None) => break,
                Err(e) => self.events.push(ServerEvent::Malformed(e.to_string())),
            }
        }
    }

    fn on_goal(&mut self, req: RmwRequestId, goal_id: GoalId, goal: A::Goal) {
        let stamp = now_stamp();
        let refused = goal
            .check()
            .and_then(|()| self.target.admit(&goal))
            .and_then(|()| self.same_type(&req));
        if let Err(why) = refused {
            self.reply_goal(req, false, stamp);
            self.events.push(ServerEvent::Rejected(format!(
                "{} goal rejected: {why}",
                self.ty.name()
            )));
            return;
        }
        if self.goals.iter().any(|g| g.info.goal_id == goal_id) {
            self.reply_goal(req, false, stamp);
            self.events
                .push(ServerEvent::Rejected("a goal with this id exists".into()));
            return;
        }
        self.reply_goal(req, true, stamp);
        // the newer goal preempts the active one: ABORTED, and the target turns to the
        // new goal without stopping the robot
        if let Some(old) = self.active.take() {
            let r = self.ty.ending_result(Ending::Preempted);
            self.finish(old, GoalStatusEnum::Aborted, r);
            self.events.push(ServerEvent::Aborted(format!(
                "{} goal {:?} preempted by a newer goal",
                self.ty.name(),
                self.goals[old].info.goal_id
            )));
        }
        self.goals.push(Tracked {
            info: GoalInfo { goal_id, stamp },
            status: GoalStatusEnum::Executing,
            target_id: None,
            result: self.ty.ending_result(Ending::Refused),
            waiting: Vec::new(),
            finished: None,
        });
        let i = self.goals.len() - 1;
        self.status_dirty = true;
        match self.target.start(&goal) {
            Ok(id) => {
                self.goals[i].target_id = Some(id);
                self.active = Some(i);
                self.follow(i);
            }
            Err(why) => {
                let r = self.ty.ending_result(Ending::Refused);
                self.finish(i, GoalStatusEnum::Aborted, r);
                self.events.push(ServerEvent::Aborted(format!(
                    "{} goal aborted: {why}",
                    self.ty.name()
                )));
            }
        }
    }

    /// `Err` if the client announced other type hashes than this type's (its interface
    /// package was built from other fields).
    fn same_type(&mut self, req: &RmwRequestId) -> Result<(), String> {
        let types = self.ty.client_types();
        if types.is_empty() {
            return Ok(());
        }
        let action = self.server.name().to_string();
        self.outbox
            .check_client(req, &action, types)
            .map_err(|why| {
                format!(
                    "{why}: the client's interface package was built from other fields than this goal kind's; build it again from the kind (skipper interfaces)"
                )
            })
    }

    fn reply_goal(&mut self, req: RmwRequestId, accepted: bool, stamp: RosTime) {
        let r = SendGoalResponse { accepted, stamp };
        self.outbox.send(&mut self.server, req, Reply::Goal(r));
    }

    fn follow(&mut self, i: usize) {
        let Some(id) = self.goals[i].target_id else {
            return;
        };
        let canceling = self.goals[i].status == GoalStatusEnum::Canceling;
        match self.target.poll(id) {
            Progress::Pending | Progress::Active(None) => {}
            Progress::Active(Some(f)) => {
                let _ = self.server.send_feedback(self.goals[i].info.goal_id, f);
            }
            Progress::Succeeded(r) => self.end_active(i, GoalStatusEnum::Succeeded, r),
            Progress::Canceled(r) => self.end_active(i, GoalStatusEnum::Canceled, r),
            Progress::Aborted(r, why) if canceling => {
                let _ = why;
                self.end_active(i, GoalStatusEnum::Canceled, r)
            }
            Progress::Aborted(r, why) => {
                self.events.push(ServerEvent::Aborted(format!(
                    "{} goal aborted: {why}",
                    self.ty.name()
                )));
                self.end_active(i, GoalStatusEnum::Aborted, r)
            }
        }
    }

    fn end_active(&mut self, i: usize, status: GoalStatusEnum, result: A::Result) {
        if self.active == Some(i) {
            self.active = None;
        }
        self.finish(i, status, result);
    }

    fn finish(&mut self, i: usize, status: GoalStatusEnum, result: A::Result) {
        let g = &mut self.goals[i];
        g.status = status;
        g.result = result;
        g.finished = Some(Instant::now());
        for req in std::mem::take(&mut g.waiting) {
            let r = GetResultResponse {
                status,
                result: g.result.clone(),
            };
            self.outbox.send(&mut self.server, req, Reply::Result(r));
        }
        self.status_dirty = true;
    }

    fn take_cancels(&mut self) {
        loop {
            match self.server.receive_cancel_request() {
                Ok(Some((req, cancel))) => {
                    let resp = match crate::cdr::cancel_target(&cancel) {
                        Some(c) => self.on_cancel(c),
                        None => CancelGoalResponse {
                            return_code: CancelGoalResponseEnum::Rejected,
                            goals_canceling: Vec::new(),
                        },
                    };
                    self.outbox.send(&mut self.server, req, Reply::Cancel(resp));
                }
                Ok(None) => break,
                Err(e) => self.events.push(ServerEvent::Malformed(e.to_string())),
            }
        }
    }

    fn on_cancel(&mut self, c: GoalInfo) -> CancelGoalResponse {
        let all = c.goal_id == GoalId::ZERO;
        let by_stamp = c.stamp.to_nanos() != 0;
        let mut canceling = Vec::new();
        let mut found = false;
        for i in 0..self.goals.len() {
            let g = &self.goals[i];
            let hit = (all && (!by_stamp || g.info.stamp.to_nanos() <= c.stamp.to_nanos()))
                || g.info.goal_id == c.goal_id
                || (!all && by_stamp && g.info.stamp.to_nanos() <= c.stamp.to_nanos());
            if !hit {
                continue;
            }
            found = true;
            if g.status == GoalStatusEnum::Executing || g.status == GoalStatusEnum::Accepted {
                canceling.push(g.info.clone());
                self.goals[i].status = GoalStatusEnum::Canceling;
                self.status_dirty = true;
                if let Some(id) = self.goals[i].target_id {
                    self.target.cancel(id);
                }
                self.follow(i);
            }
        }
        let return_code = if !canceling.is_empty() {
            CancelGoalResponseEnum::None
        } else if !all && !found {
            CancelGoalResponseEnum::UnknownGoal
        } else if found {
            CancelGoalResponseEnum::GoalTerminated
        } else {
            CancelGoalResponseEnum::None
        };
        CancelGoalResponse {
            return_code,
            goals_canceling: canceling,
        }
    }

    fn take_result_requests(&mut self) {
        loop {
            match self.server.receive_result_request() {
                Ok(Some((req, r))) => {
                    let answer = match self.goals.iter_mut().find(|g| g.info.goal_id == r.goal_id) {
                        Some(g) if g.finished.is_some() => GetResultResponse {
                            status: g.status,
                            result: g.result.clone(),
                        },
                        Some(g) => {
                            g.waiting.push(req);
                            continue;
                        }
                        None => GetResultResponse {
                            status: GoalStatusEnum::Unknown,
                            result: self.ty.ending_result(Ending::Refused),
                        },
                    };
                    self.outbox
                        .send(&mut self.server, req, Reply::Result(answer));
                }
                Ok(None) => break,
                Err(e) => self.events.push(ServerEvent::Malformed(e.to_string())),
            }
        }
    }

    fn expire(&mut self) {
        let finished = self.goals.iter().filter(|g| g.finished.is_some()).count();
        let mut drop_oldest = finished.saturating_sub(MAX_FINISHED);
        let before = self.goals.len();
        let active_id = self.active.map(|i| self.goals[i].info.goal_id);
        self.goals.retain(|g| match g.finished {
            Some(t) if drop_oldest > 0 => {
                drop_oldest -= 1;
                let _ = t;
                false
            }
            Some(t) => t.elapsed() < RESULT_KEEP,
            None => true,
        });
        if self.goals.len() != before {
            self.active =
                active_id.and_then(|id| self.goals.iter().position(|g| g.info.goal_id == id));
            self.status_dirty = true;
        }
    }

    fn publish_status(&mut self) {
        let status_list = self
            .goals
            .iter()
            .map(|g| GoalStatus {
                goal_info: g.info.clone(),
                status: g.status,
            })
            .collect();
        let _ = self
            .server
            .send_goal_statuses(GoalStatusArray { status_list });
        self.status_dirty = false;
    }
}

fn now_stamp() -> RosTime {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    RosTime::from_nanos(i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}
