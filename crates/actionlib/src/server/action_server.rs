//! The multi-goal ActionServer (rules A-1..A-10): goal and cancel bookkeeping, generated
//! goal ids, stale goals against the last cancel, placeholder trackers, and the status
//! list with its timeout. Transport-free: messages come in through
//! [`ActionServer::handle_goal`] / [`ActionServer::handle_cancel`] and go out through a
//! [`ServerSink`].

use super::goal_handle::{transition, GoalEvent, ServerGoalHandle};
use crate::error::ActionError;
use crate::transport::ServerSink;
use skipper_ros1_wire::msg::actionlib_msgs::{
    Action, ActionFeedback, ActionGoal, ActionResult, GoalId, GoalStatus, StatusCode, StatusList,
};
use skipper_ros1_wire::msg::common::Header;
use skipper_ros1_wire::msg::Field;
use skipper_ros1_wire::time::{Clock, Time};
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::Duration;

/// Text of a goal cancelled because its stamp is not after the last cancel.
pub const STALE_GOAL_TEXT: &str = "This goal handle was canceled by the action server because its timestamp is before the timestamp of the last cancel request";

/// Settings of an action server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The node name, for generated goal ids and as the status publisher's caller id.
    pub node_name: String,
    /// How often the status list is published (Hz; `actionlib_status_frequency`, default
    /// 5; <= 0 disables the timer).
    pub status_frequency: f64,
    /// How long a finished goal stays in the status list (`status_list_timeout`, 5 s).
    pub status_list_timeout: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            node_name: "/skipper".into(),
            status_frequency: 5.0,
            status_list_timeout: Duration::from_secs(5),
        }
    }
}

/// A user callback with a goal handle.
pub type GoalCallback<A> = Arc<dyn Fn(ServerGoalHandle<A>) + Send + Sync>;

struct Tracker<A: Action> {
    status: GoalStatus,
    goal: Arc<A::Goal>,
    id: Arc<str>,
    /// a hash of `id`: finding a goal compares these before any string
    key: u64,
    /// zero while the goal lives; set when it ends (G-6) or for a placeholder
    destruction: Time,
    /// the length of `status` serialised in [`State::entries`]
    encoded_len: usize,
}

struct State<A: Action> {
    trackers: Vec<Tracker<A>>,
    /// every tracker's status serialised, in the trackers' order: the status list's
    /// entries, ready to publish (an entry is re-encoded when its goal changes)
    entries: Vec<u8>,
    /// an entry being re-encoded
    scratch: Vec<u8>,
    /// no tracker's destruction time is earlier than this (`None`: no tracker has one),
    /// so the list is pruned only when one may have expired
    first_destruction: Option<Time>,
    last_cancel: Time,
    started: bool,
    sink: Option<Arc<dyn ServerSink<A>>>,
    status_seq: u32,
    result_seq: u32,
    feedback_seq: u32,
    /// the status list's header, updated for each publication
    status_header: Header,
    /// the threads running a goal callback (once per callback): a status publication
    /// made on one of them waits until its last callback returns; other threads (a
    /// simple server's execute thread) publish at once
    deferring: Vec<std::thread::ThreadId>,
    /// a status publication was deferred
    status_due: bool,
}

/// Hashes goal ids for [`Tracker::key`].
static ID_HASHER: std::sync::LazyLock<RandomState> = std::sync::LazyLock::new(RandomState::new);

fn id_key(id: &str) -> u64 {
    ID_HASHER.hash_one(id)
}

impl<A: Action> State<A> {
    /// The index of the goal with this id.
    fn find(&self, id: &str) -> Option<usize> {
        let key = id_key(id);
        // from the newest: the goal a server works on is usually the last one that came
        self.trackers
            .iter()
            .rposition(|t| t.key == key && *t.id == *id)
    }

    /// Track a goal, its status entry appended to the list.
    fn push(&mut self, status: GoalStatus, goal: Arc<A::Goal>, id: Arc<str>, destruction: Time) {
        self.destroyed_at(destruction);
        let at = self.entries.len();
        status.put(&mut self.entries);
        self.trackers.push(Tracker {
            status,
            goal,
            key: id_key(&id),
            id,
            destruction,
            encoded_len: self.entries.len() - at,
        });
    }

    /// Note a destruction time given to a tracker (zero: none).
    fn destroyed_at(&mut self, t: Time) {
        if !t.is_zero() {
            self.first_destruction = Some(self.first_destruction.map_or(t, |f| f.min(t)));
        }
    }

    /// Re-encode the status entry of tracker `i` after its status changed.
    fn reencode(&mut self, i: usize) {
        let Some(t) = self.trackers.get(i) else {
            return;
        };
        let at: usize = self.trackers[..i].iter().map(|t| t.encoded_len).sum();
        self.scratch.clear();
        t.status.put(&mut self.scratch);
        let (old, new) = (t.encoded_len, self.scratch.len());
        let end = self.entries.len();
        if new > old {
            self.entries.resize(end + new - old, 0);
            self.entries.copy_within(at + old..end, at + new);
        } else if new < old {
            self.entries.copy_within(at + old..end, at + new);
            self.entries.truncate(end - (old - new));
        }
        self.entries[at..at + new].copy_from_slice(&self.scratch);
        self.trackers[i].encoded_len = new;
    }

    /// Re-encode every entry (after changes to many goals at once).
    fn reencode_all(&mut self) {
        self.entries.clear();
        for t in &mut self.trackers {
            let at = self.entries.len();
            t.status.put(&mut self.entries);
            t.encoded_len = self.entries.len() - at;
        }
    }

    /// Drop the trackers `keep` refuses, and their entries.
    fn retain(&mut self, mut keep: impl FnMut(&Tracker<A>) -> bool) {
        let (mut read, mut write) = (0, 0);
        let entries = &mut self.entries;
        let mut first: Option<Time> = None;
        self.trackers.retain(|t| {
            let len = t.encoded_len;
            let kept = keep(t);
            if kept {
                if read != write {
                    entries.copy_within(read..read + len, write);
                }
                write += len;
                if !t.destruction.is_zero() {
                    first = Some(first.map_or(t.destruction, |f| f.min(t.destruction)));
                }
            }
            read += len;
            kept
        });
        entries.truncate(write);
        self.first_destruction = first;
    }
}

pub(crate) struct ServerShared<A: Action> {
    action: A,
    state: Mutex<State<A>>,
    clock: Arc<dyn Clock>,
    config: ServerConfig,
    goal_cb: RwLock<Option<GoalCallback<A>>>,
    cancel_cb: RwLock<Option<GoalCallback<A>>>,
}

/// A multi-goal action server (ros/actionlib's `ActionServer`).
pub struct ActionServer<A: Action> {
    pub(crate) shared: Arc<ServerShared<A>>,
}

impl<A: Action> Clone for ActionServer<A> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

static GOAL_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A new goal id: `<node name>-<process-wide counter>-<secs>.<nsecs>`.
pub fn generate_goal_id(node_name: &str, now: Time) -> String {
    let n = GOAL_COUNTER.fetch_add(1, Ordering::SeqCst) + 1;
    format!("{node_name}-{n}-{}.{}", now.secs, now.nsecs)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

fn get_cb<A: Action>(c: &RwLock<Option<GoalCallback<A>>>) -> Option<GoalCallback<A>> {
    match c.read() {
        Ok(g) => g.clone(),
        Err(p) => p.into_inner().clone(),
    }
}

impl<A: Action + Default> ActionServer<A> {
    /// A server of a compiled-in action reading time from `clock`; not started and
    /// not connected to any transport yet.
    pub fn new(config: ServerConfig, clock: Arc<dyn Clock>) -> Self {
        Self::with_type(A::default(), config, clock)
    }
}

impl<A: Action> ActionServer<A> {
    /// A server of the action type `action` (for a runtime type, a
    /// [`DynAction`](skipper_ros1_wire::msg::actionlib_msgs::DynAction)) reading time from `clock`;
    /// not started and not connected to any transport yet.
    pub fn with_type(action: A, config: ServerConfig, clock: Arc<dyn Clock>) -> Self {
        Self {
            shared: Arc::new(ServerShared {
                action,
                state: Mutex::new(State {
                    trackers: Vec::new(),
                    entries: Vec::new(),
                    scratch: Vec::new(),
                    first_destruction: None,
                    last_cancel: Time::ZERO,
                    started: false,
                    sink: None,
                    status_seq: 0,
                    result_seq: 0,
                    feedback_seq: 0,
                    status_header: Header::default(),
                    deferring: Vec::new(),
                    status_due: false,
                }),
                clock,
                config,
                goal_cb: RwLock::new(None),
                cancel_cb: RwLock::new(None),
            }),
        }
    }

    /// The action type.
    pub fn action(&self) -> &A {
        &self.shared.action
    }

    /// The settings.
    pub fn config(&self) -> &ServerConfig {
        &self.shared.config
    }

    /// The clock.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.shared.clock
    }

    /// Where outgoing messages go (a transport calls this once it is ready).
    pub fn connect(&self, sink: Arc<dyn ServerSink<A>>) {
        lock(&self.shared.state).sink = Some(sink);
    }

    /// Call `cb` with the handle of every new goal.
    pub fn register_goal_callback(&self, cb: impl Fn(ServerGoalHandle<A>) + Send + Sync + 'static) {
        if let Ok(mut g) = self.shared.goal_cb.write() {
            *g = Some(Arc::new(cb));
        }
    }

    /// Call `cb` with the handle of a goal a client asked to cancel (only when that
    /// request changed the goal's state, G-7).
    pub fn register_cancel_callback(
        &self,
        cb: impl Fn(ServerGoalHandle<A>) + Send + Sync + 'static,
    ) {
        if let Ok(mut g) = self.shared.cancel_cb.write() {
            *g = Some(Arc::new(cb));
        }
    }

    /// start processing messages; publishes the status list at once.
    pub fn start(&self) {
        let mut st = lock(&self.shared.state);
        st.started = true;
        self.shared.publish_status(&mut st);
    }

    /// Stop processing messages.
    pub fn shutdown(&self) {
        lock(&self.shared.state).started = false;
    }

    /// `true` between start and shutdown.
    pub fn is_started(&self) -> bool {
        lock(&self.shared.state).started
    }

    /// Publish the status list now (the transport's timer calls this at
    /// `status_frequency`, A-9).
    pub fn publish_status(&self) {
        let mut st = lock(&self.shared.state);
        if st.started {
            self.shared.publish_status(&mut st);
        }
    }

    /// The status list as it would be published now (pruned, A-9).
    pub fn status_list(&self) -> Vec<GoalStatus> {
        let mut st = lock(&self.shared.state);
        self.shared.prune(&mut st);
        st.trackers.iter().map(|t| t.status.clone()).collect()
    }

    /// End every goal that has not finished, for a server that goes away (its node shuts
    /// down), so that no client waits on a goal nobody works on: ACTIVE and PREEMPTING
    /// goals are ABORTED, PENDING ones REJECTED, RECALLING ones RECALLED, each with
    /// `text` and a default result. How many goals it ended.
    pub fn end_unfinished(&self, text: &str) -> usize {
        let open: Vec<(Arc<str>, StatusCode)> = {
            let st = lock(&self.shared.state);
            st.trackers
                .iter()
                .filter_map(|t| {
                    let code = StatusCode::from_u8(t.status.status)?;
                    (!code.is_terminal()).then(|| (t.id.clone(), code))
                })
                .collect()
        };
        let mut ended = 0;
        for (id, code) in open {
            let ev = match code {
                StatusCode::Active | StatusCode::Preempting => GoalEvent::Abort,
                StatusCode::Pending => GoalEvent::Reject,
                _ => GoalEvent::Cancel,
            };
            if self.shared.apply(&id, ev, Some(None), text).is_ok() {
                ended += 1;
            }
        }
        ended
    }

    /// The last cancel stamp.
    pub fn last_cancel(&self) -> Time {
        lock(&self.shared.state).last_cancel
    }

    /// Forget a goal: drop it from the status list while it lives. Never do this in a real
    /// server (its clients declare the goal LOST, rule C-4); it exists to reproduce
    /// ros/actionlib's `lose` test.
    #[doc(hidden)]
    pub fn forget_goal_for_testing(&self, id: &str) {
        lock(&self.shared.state).retain(|t| &*t.id != id);
    }

    /// A goal message arrived (A-3..A-5).
    pub fn handle_goal(&self, msg: ActionGoal<A::Goal>) {
        let sh = &self.shared;
        let now = sh.clock.now();
        let handle = {
            let mut st = lock(&sh.state);
            if !st.started {
                return;
            }
            let ActionGoal {
                goal_id, goal: g, ..
            } = msg;
            if !goal_id.id.is_empty() {
                if let Some(i) = st.find(&goal_id.id) {
                    // a duplicate; a goal whose cancel came first is recalled now
                    let t = &mut st.trackers[i];
                    if !t.destruction.is_zero() {
                        t.destruction = now;
                    }
                    if t.status.status == StatusCode::Recalling as u8 {
                        t.status.status = StatusCode::Recalled as u8;
                        t.destruction = now;
                        let status = t.status.clone();
                        st.destroyed_at(now);
                        st.reencode(i);
                        let result = sh.action.result_type().default_value();
                        sh.publish_result(&mut st, status, result, now);
                        sh.publish_status(&mut st);
                    }
                    return;
                }
            }
            //
            let id: Arc<str> = if goal_id.id.is_empty() {
                generate_goal_id(&sh.config.node_name, now).into()
            } else {
                goal_id.id.into()
            };
            let stamp = if goal_id.stamp.is_zero() {
                now
            } else {
                goal_id.stamp
            };
            let goal = Arc::new(g);
            st.push(
                GoalStatus {
                    goal_id: GoalId {
                        stamp,
                        id: id.to_string(),
                    },
                    status: StatusCode::Pending as u8,
                    text: String::new(),
                },
                goal.clone(),
                id.clone(),
                Time::ZERO,
            );
            let handle = ServerGoalHandle {
                server: sh.clone(),
                id: id.clone(),
                stamp,
                goal,
            };
            // not after the last cancel -> recalled at once
            if stamp <= st.last_cancel {
                let _ = sh.apply_locked(
                    &mut st,
                    &id,
                    GoalEvent::Cancel,
                    Some(None),
                    STALE_GOAL_TEXT,
                    now,
                );
                return;
            }
            handle
        };
        if let Some(cb) = get_cb(&sh.goal_cb) {
            // the transitions the callback makes (accept, end, the goal it replaces) go
            // out as one status list after it, not one list each (as a cancel does, A-6)
            lock(&sh.state).deferring.push(std::thread::current().id());
            let _deferred = DeferredStatus(sh);
            cb(handle);
        }
    }

    /// A cancel message arrived (A-6..A-8).
    pub fn handle_cancel(&self, cancel: GoalId) {
        let sh = &self.shared;
        let now = sh.clock.now();
        let mut to_notify = Vec::new();
        {
            let mut st = lock(&sh.state);
            if !st.started {
                return;
            }
            let all = cancel.id.is_empty() && cancel.stamp.is_zero();
            let mut found = false;
            let mut changed = false;
            for t in st.trackers.iter_mut() {
                let by_id = !cancel.id.is_empty() && *t.id == *cancel.id;
                found |= by_id;
                let by_stamp = !cancel.stamp.is_zero() && t.status.goal_id.stamp <= cancel.stamp;
                if !(all || by_id || by_stamp) {
                    continue;
                }
                let Some(from) = StatusCode::from_u8(t.status.status) else {
                    continue;
                };
                if let Some(to) = transition(from, GoalEvent::CancelRequest) {
                    t.status.status = to as u8;
                    changed = true;
                    to_notify.push(ServerGoalHandle {
                        server: sh.clone(),
                        id: t.id.clone(),
                        stamp: t.status.goal_id.stamp,
                        goal: t.goal.clone(),
                    });
                }
            }
            if !cancel.id.is_empty() && !found {
                // remember the cancel for a goal that has not arrived yet
                st.push(
                    GoalStatus {
                        goal_id: cancel.clone(),
                        status: StatusCode::Recalling as u8,
                        text: String::new(),
                    },
                    Arc::new(sh.action.goal_type().default_value()),
                    cancel.id.as_str().into(),
                    now,
                );
            }
            if cancel.stamp > st.last_cancel {
                st.last_cancel = cancel.stamp;
            }
            if changed {
                st.reencode_all();
                sh.publish_status(&mut st);
            }
        }
        if let Some(cb) = get_cb(&sh.cancel_cb) {
            for h in to_notify {
                cb(h);
            }
        }
    }
}

/// Ends a goal callback's deferral (also when the callback panics): the status list is
/// published once if anything changed meanwhile.
struct DeferredStatus<'a, A: Action>(&'a ServerShared<A>);

impl<A: Action> Drop for DeferredStatus<'_, A> {
    fn drop(&mut self) {
        let mut st = lock(&self.0.state);
        let me = std::thread::current().id();
        if let Some(i) = st.deferring.iter().rposition(|t| *t == me) {
            st.deferring.swap_remove(i);
        }
        if !st.deferring.contains(&me) && st.status_due && st.started {
            self.0.publish_status(&mut st);
        }
    }
}

impl<A: Action> ServerShared<A> {
    fn prune(&self, st: &mut State<A>) {
        let now = self.clock.now();
        let timeout = self.config.status_list_timeout;
        // a later destruction time never expires before the first one
        if st.first_destruction.is_some_and(|f| f.plus(timeout) < now) {
            st.retain(|t| t.destruction.is_zero() || t.destruction.plus(timeout) >= now);
        }
    }

    fn publish_status(&self, st: &mut State<A>) {
        if st.deferring.contains(&std::thread::current().id()) {
            st.status_due = true;
            return;
        }
        st.status_due = false;
        self.prune(st);
        let Some(sink) = st.sink.clone() else {
            return;
        };
        st.status_seq = st.status_seq.wrapping_add(1);
        st.status_header.seq = st.status_seq;
        st.status_header.stamp = self.clock.now();
        sink.publish_status(&StatusList::new(
            &st.status_header,
            st.trackers.len() as u32,
            &st.entries,
        ));
    }

    fn publish_result(&self, st: &mut State<A>, status: GoalStatus, result: A::Result, now: Time) {
        let Some(sink) = st.sink.clone() else {
            return;
        };
        st.result_seq = st.result_seq.wrapping_add(1);
        sink.publish_result(ActionResult {
            header: Header {
                seq: st.result_seq,
                stamp: now,
                frame_id: String::new(),
            },
            status,
            result,
        });
    }

    pub(crate) fn code_of(&self, id: &str) -> Option<StatusCode> {
        let st = lock(&self.state);
        st.find(id)
            .and_then(|i| StatusCode::from_u8(st.trackers[i].status.status))
    }

    pub(crate) fn status_of(&self, id: &str) -> Option<(StatusCode, String)> {
        let st = lock(&self.state);
        let t = &st.trackers[st.find(id)?];
        Some((StatusCode::from_u8(t.status.status)?, t.status.text.clone()))
    }

    /// Apply a user event to a goal. `result`: `None` for accept; `Some(r)` for the
    /// terminal events (a missing `r` means a default result).
    pub(crate) fn apply(
        &self,
        id: &str,
        ev: GoalEvent,
        result: Option<Option<A::Result>>,
        text: &str,
    ) -> Result<(), ActionError> {
        if let Some(Some(r)) = &result {
            self.action
                .result_type()
                .check(r)
                .map_err(ActionError::WrongType)?;
        }
        let now = self.clock.now();
        let mut st = lock(&self.state);
        self.apply_locked(&mut st, id, ev, result, text, now)
    }

    fn apply_locked(
        &self,
        st: &mut State<A>,
        id: &str,
        ev: GoalEvent,
        result: Option<Option<A::Result>>,
        text: &str,
        now: Time,
    ) -> Result<(), ActionError> {
        let i = st
            .find(id)
            .ok_or_else(|| ActionError::NotTracked(id.to_string()))?;
        let t = &mut st.trackers[i];
        let from = StatusCode::from_u8(t.status.status).unwrap_or(StatusCode::Lost);
        let Some(to) = transition(from, ev) else {
            tracing::error!("goal {id}: cannot {} a goal that is {from}", ev.verb());
            return Err(ActionError::InvalidTransition {
                goal: id.to_string(),
                from,
                action: ev.verb(),
            });
        };
        t.status.status = to as u8;
        t.status.text.clear();
        t.status.text.push_str(text);
        let terminal = to.is_terminal();
        if terminal {
            t.destruction = now;
            st.destroyed_at(now);
        }
        st.reencode(i);
        if terminal {
            // G-6: one result, then the status list
            let status = st.trackers[i].status.clone();
            let result = match result.flatten() {
                Some(r) => r,
                None => self.action.result_type().default_value(),
            };
            self.publish_result(st, status, result, now);
        }
        self.publish_status(st);
        Ok(())
    }

    pub(crate) fn feedback(&self, id: &str, feedback: A::Feedback) -> Result<(), ActionError> {
        self.action
            .feedback_type()
            .check(&feedback)
            .map_err(ActionError::WrongType)?;
        let now = self.clock.now();
        let mut st = lock(&self.state);
        let status = st
            .find(id)
            .map(|i| st.trackers[i].status.clone())
            .ok_or_else(|| ActionError::NotTracked(id.to_string()))?;
        let Some(sink) = st.sink.clone() else {
            return Ok(());
        };
        st.feedback_seq = st.feedback_seq.wrapping_add(1);
        sink.publish_feedback(ActionFeedback {
            header: Header {
                seq: st.feedback_seq,
                stamp: now,
                frame_id: String::new(),
            },
            status,
            feedback,
        });
        Ok(())
    }
}
