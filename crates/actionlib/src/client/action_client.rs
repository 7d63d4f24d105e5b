//! The ActionClient (rules C-2..C-6, C-9): sends goals and cancels, tracks each goal's
//! [`CommState`] from the server's status lists, results and feedback, and declares a
//! goal LOST when the server's status list stops listing it.

use super::comm_state::{lost_if_missing, next, CommState, Next};
use crate::sync::Signal;
use crate::transport::ClientSink;
use skipper_ros1_wire::msg::actionlib_msgs::{
    Action, ActionFeedback, ActionGoal, ActionResult, GoalId, GoalStatus, GoalStatusArray,
    StatusCode,
};
use skipper_ros1_wire::msg::common::Header;
use skipper_ros1_wire::time::{Clock, Time};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// Called on every CommState transition of a goal, with the state entered.
pub type TransitionCallback<A> = Box<dyn Fn(&ClientGoalHandle<A>, CommState) + Send + Sync>;
/// Called with each feedback of a goal.
pub type FeedbackCallback<A> =
    Box<dyn Fn(&ClientGoalHandle<A>, &<A as Action>::Feedback) + Send + Sync>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

struct GoalInner<A: Action> {
    state: CommState,
    latest: GoalStatus,
    result: Option<A::Result>,
}

struct GoalShared<A: Action> {
    id: String,
    stamp: Time,
    inner: Mutex<GoalInner<A>>,
    transition_cb: Option<TransitionCallback<A>>,
    feedback_cb: Option<FeedbackCallback<A>>,
    client: Weak<ClientShared<A>>,
}

/// A goal the client sent; the client tracks it while a handle to it exists.
pub struct ClientGoalHandle<A: Action> {
    g: Arc<GoalShared<A>>,
}

impl<A: Action> Clone for ClientGoalHandle<A> {
    fn clone(&self) -> Self {
        Self { g: self.g.clone() }
    }
}

impl<A: Action> PartialEq for ClientGoalHandle<A> {
    fn eq(&self, o: &Self) -> bool {
        Arc::ptr_eq(&self.g, &o.g)
    }
}

impl<A: Action> std::fmt::Debug for ClientGoalHandle<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientGoalHandle")
            .field("id", &self.g.id)
            .field("state", &self.comm_state())
            .finish()
    }
}

struct ClientState {
    server: Option<String>,
}

pub(crate) struct ClientShared<A: Action> {
    action: A,
    caller_id: String,
    clock: Arc<dyn Clock>,
    sink: Mutex<Option<Arc<dyn ClientSink<A>>>>,
    goals: Mutex<Vec<Weak<GoalShared<A>>>>,
    state: Mutex<ClientState>,
    changed: Signal,
    /// signalled whenever any goal changes state
    goal_changed: Signal,
    goal_changed_lock: Mutex<u64>,
}

/// An action client (ros/actionlib's `ActionClient`); clones share the client.
pub struct ActionClient<A: Action> {
    shared: Arc<ClientShared<A>>,
}

impl<A: Action> Clone for ActionClient<A> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

static CLIENT_GOAL_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A client goal id: `<caller id>-<process-wide counter>-<secs with 3 decimals>` (C-2).
pub fn client_goal_id(caller_id: &str, now: Time) -> String {
    let n = CLIENT_GOAL_COUNTER.fetch_add(1, Ordering::SeqCst) + 1;
    // seconds with 3 decimals, rounded as Python's `%.3f` (without float formatting)
    let millis = (u64::from(now.nsecs) + 500_000) / 1_000_000;
    let (secs, millis) = (u64::from(now.secs) + millis / 1000, millis % 1000);
    format!("{caller_id}-{n}-{secs}.{millis:03}")
}

impl<A: Action + Default> ActionClient<A> {
    /// A client of a compiled-in action named `caller_id` (its node name), reading time
    /// from `clock`.
    pub fn new(caller_id: &str, clock: Arc<dyn Clock>) -> Self {
        Self::with_type(A::default(), caller_id, clock)
    }
}

impl<A: Action> ActionClient<A> {
    /// A client of the action type `action` (for a runtime type, a
    /// [`DynAction`](skipper_ros1_wire::msg::actionlib_msgs::DynAction)) named `caller_id`, reading
    /// time from `clock`.
    pub fn with_type(action: A, caller_id: &str, clock: Arc<dyn Clock>) -> Self {
        Self {
            shared: Arc::new(ClientShared {
                action,
                caller_id: caller_id.to_string(),
                clock,
                sink: Mutex::new(None),
                goals: Mutex::new(Vec::new()),
                state: Mutex::new(ClientState { server: None }),
                changed: Signal::default(),
                goal_changed: Signal::default(),
                goal_changed_lock: Mutex::new(0),
            }),
        }
    }

    /// The action type.
    pub fn action(&self) -> &A {
        &self.shared.action
    }

    /// Where goals and cancels go (a transport calls this).
    pub fn connect(&self, sink: Arc<dyn ClientSink<A>>) {
        *lock(&self.shared.sink) = Some(sink);
    }

    fn sink(&self) -> Option<Arc<dyn ClientSink<A>>> {
        lock(&self.shared.sink).clone()
    }

    /// The clock.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.shared.clock
    }

    /// The caller id of the server whose status this client follows, once known.
    pub fn server_id(&self) -> Option<String> {
        lock(&self.shared.state).server.clone()
    }

    /// C-9: `true` once a status list arrived from a server and the transport connects
    /// both ways to it.
    pub fn is_server_connected(&self) -> bool {
        let Some(server) = self.server_id() else {
            return false;
        };
        self.sink().is_some_and(|s| s.server_connected(&server))
    }

    /// Wait until [`is_server_connected`](Self::is_server_connected) (`None`: forever).
    pub fn wait_for_server(&self, timeout: Option<Duration>) -> bool {
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            if self.is_server_connected() {
                return true;
            }
            let step = Duration::from_millis(10);
            let wait = match deadline {
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        return false;
                    }
                    (d - now).min(step)
                }
                None => step,
            };
            let st = lock(&self.shared.state);
            drop(self.shared.changed.wait_timeout(st, wait));
        }
    }

    /// Send a goal (C-2); the client tracks it while the returned handle (or a clone)
    /// exists.
    pub fn send_goal(
        &self,
        goal: A::Goal,
        transition_cb: Option<TransitionCallback<A>>,
        feedback_cb: Option<FeedbackCallback<A>>,
    ) -> ClientGoalHandle<A> {
        let now = self.shared.clock.now();
        let id = client_goal_id(&self.shared.caller_id, now);
        let g = Arc::new(GoalShared {
            id: id.clone(),
            stamp: now,
            inner: Mutex::new(GoalInner {
                state: CommState::WaitingForGoalAck,
                latest: GoalStatus {
                    goal_id: GoalId {
                        stamp: now,
                        id: id.clone(),
                    },
                    status: StatusCode::Pending as u8,
                    text: String::new(),
                },
                result: None,
            }),
            transition_cb,
            feedback_cb,
            client: Arc::downgrade(&self.shared),
        });
        {
            let mut goals = lock(&self.shared.goals);
            goals.retain(|w| w.strong_count() > 0);
            goals.push(Arc::downgrade(&g));
        }
        if let Err(e) = self.shared.action.goal_type().check(&goal) {
            // the goal is never sent: its handle stays WAITING_FOR_GOAL_ACK
            tracing::error!("action client: not sending a goal of the wrong type: {e}");
        } else if let Some(sink) = self.sink() {
            sink.publish_goal(ActionGoal {
                header: Header {
                    seq: 0,
                    stamp: now,
                    frame_id: String::new(),
                },
                goal_id: GoalId { stamp: now, id },
                goal,
            });
        }
        ClientGoalHandle { g }
    }

    /// C-6: cancel every goal on the server (id "", stamp 0).
    pub fn cancel_all_goals(&self) {
        self.cancel(GoalId::default());
    }

    /// C-6: cancel every goal stamped at or before `t`.
    pub fn cancel_goals_at_and_before_time(&self, t: Time) {
        self.cancel(GoalId {
            stamp: t,
            id: String::new(),
        });
    }

    fn cancel(&self, msg: GoalId) {
        if let Some(sink) = self.sink() {
            sink.publish_cancel(msg);
        }
    }

    /// The live goal with this id.
    fn live_goal(&self, id: &str) -> Option<Arc<GoalShared<A>>> {
        lock(&self.shared.goals)
            .iter()
            .filter_map(Weak::upgrade)
            .find(|g| g.id == id)
    }

    fn live_goals(&self) -> Vec<Arc<GoalShared<A>>> {
        let mut goals = lock(&self.shared.goals);
        goals.retain(|w| w.strong_count() > 0);
        goals.iter().filter_map(Weak::upgrade).collect()
    }

    /// A status list arrived from the publisher `caller_id` (C-3, C-4).
    pub fn handle_status(&self, caller_id: &str, msg: &GoalStatusArray) {
        {
            let mut st = lock(&self.shared.state);
            if st.server.as_deref() != Some(caller_id) {
                if let Some(old) = &st.server {
                    tracing::warn!("action client: status now comes from {caller_id}, not {old}");
                }
                st.server = Some(caller_id.to_string());
            }
        }
        self.shared.changed.notify_all();
        for g in self.live_goals() {
            let found = msg.status_list.iter().find(|s| s.goal_id.id == g.id);
            g.update_status(found, false);
        }
    }

    /// A result arrived (C-5).
    pub fn handle_result(&self, msg: &ActionResult<A::Result>) {
        if let Some(g) = self.live_goal(&msg.status.goal_id.id) {
            g.update_result(msg);
        }
    }

    /// A feedback arrived (delivered unless the goal is DONE).
    pub fn handle_feedback(&self, msg: &ActionFeedback<A::Feedback>) {
        if let Some(g) = self.live_goal(&msg.status.goal_id.id) {
            if lock(&g.inner).state == CommState::Done {
                return;
            }
            if let Some(cb) = &g.feedback_cb {
                cb(&ClientGoalHandle { g: g.clone() }, &msg.feedback);
            }
        }
    }

    /// Wait until any goal of this client changes state or `timeout` passes.
    pub fn wait_any_change(&self, timeout: Duration) {
        let g = lock(&self.shared.goal_changed_lock);
        drop(self.shared.goal_changed.wait_timeout(g, timeout));
    }
}

impl<A: Action> GoalShared<A> {
    fn notify(&self) {
        if let Some(c) = self.client.upgrade() {
            let mut n = lock(&c.goal_changed_lock);
            *n += 1;
            c.goal_changed.notify_all();
        }
    }

    fn fire(self: &Arc<Self>, states: &[CommState]) {
        if let Some(cb) = &self.transition_cb {
            let h = ClientGoalHandle { g: self.clone() };
            for &s in states {
                cb(&h, s);
            }
        }
        if !states.is_empty() {
            self.notify();
        }
    }

    /// Apply a status (None: the goal is not in the list); `from_result` keeps a missing
    /// status from meaning LOST.
    fn update_status(self: &Arc<Self>, status: Option<&GoalStatus>, from_result: bool) {
        let mut fired: &'static [CommState] = &[];
        {
            let mut inner = lock(&self.inner);
            if inner.state == CommState::Done {
                return;
            }
            match status {
                None => {
                    if !from_result && lost_if_missing(inner.state) {
                        tracing::warn!(
                            "goal {} is missing from the server's status list: LOST",
                            self.id
                        );
                        inner.latest.status = StatusCode::Lost as u8;
                        inner.state = CommState::Done;
                        fired = &[CommState::Done];
                    }
                }
                Some(s) => {
                    inner.latest.assign(s);
                    match StatusCode::from_u8(s.status) {
                        None => tracing::error!("unknown goal status {} from the server", s.status),
                        Some(code) => match next(inner.state, code) {
                            Next::NoOp => {}
                            Next::Invalid => tracing::error!(
                                "invalid goal status transition from {} to {code} (goal {})",
                                inner.state,
                                self.id
                            ),
                            Next::To(seq) => {
                                if let Some(&last) = seq.last() {
                                    inner.state = last;
                                }
                                fired = seq;
                            }
                        },
                    }
                }
            }
        }
        self.fire(fired);
    }

    fn update_result(self: &Arc<Self>, msg: &ActionResult<A::Result>) {
        {
            let mut inner = lock(&self.inner);
            if inner.state == CommState::Done {
                tracing::error!("got a result for goal {} that is already DONE", self.id);
                return;
            }
            inner.result = Some(msg.result.clone());
        }
        self.update_status(Some(&msg.status), true);
        {
            let mut inner = lock(&self.inner);
            // the status transition above leaves the state short of DONE
            inner.latest.assign(&msg.status);
            inner.state = CommState::Done;
        }
        self.fire(&[CommState::Done]);
    }
}

impl<A: Action> ClientGoalHandle<A> {
    /// The goal id.
    pub fn id(&self) -> &str {
        &self.g.id
    }
    /// The goal's stamp.
    pub fn stamp(&self) -> Time {
        self.g.stamp
    }
    /// The CommState now.
    pub fn comm_state(&self) -> CommState {
        lock(&self.g.inner).state
    }
    /// The latest status the server sent (LOST if the server lost it).
    pub fn goal_status(&self) -> StatusCode {
        StatusCode::from_u8(lock(&self.g.inner).latest.status).unwrap_or(StatusCode::Lost)
    }
    /// The latest status text.
    pub fn goal_status_text(&self) -> String {
        lock(&self.g.inner).latest.text.clone()
    }
    /// The result, once it arrived.
    pub fn result(&self) -> Option<A::Result> {
        lock(&self.g.inner).result.clone()
    }
    /// The terminal status (only meaningful in DONE; LOST otherwise).
    pub fn terminal_state(&self) -> StatusCode {
        let inner = lock(&self.g.inner);
        match StatusCode::from_u8(inner.latest.status) {
            Some(s) if s.is_terminal() => s,
            _ => StatusCode::Lost,
        }
    }
    /// C-6: cancel this goal (GoalID with its id and stamp 0); the state goes to
    /// WAITING_FOR_CANCEL_ACK. Ignored once the goal is finishing or done (as in C++).
    pub fn cancel(&self) {
        let Some(client) = self.g.client.upgrade() else {
            return;
        };
        {
            let mut inner = lock(&self.g.inner);
            if matches!(
                inner.state,
                CommState::WaitingForResult
                    | CommState::Recalling
                    | CommState::Preempting
                    | CommState::Done
            ) {
                return;
            }
            inner.state = CommState::WaitingForCancelAck;
        }
        let sink = lock(&client.sink).clone();
        if let Some(sink) = sink {
            sink.publish_cancel(GoalId {
                stamp: Time::ZERO,
                id: self.g.id.clone(),
            });
        }
        self.g.fire(&[CommState::WaitingForCancelAck]);
    }
}
