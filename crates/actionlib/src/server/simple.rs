//! The SimpleActionServer (rules S-1..S-11): the single-goal policy of the spec on top
//! of an [`ActionServer`]. Only one goal is active at a time; a newer goal (by stamp)
//! preempts the current one; a queued goal that is bumped by a newer one is recalled.
//!
//! Two modes: callbacks and polling (`register_goal_callback`, `is_new_goal_available`,
//! `accept_new_goal`, ...) as in the spec, or an execute callback run on its own thread
//! for each accepted goal (ros/actionlib's `execute_cb`).

use super::action_server::ActionServer;
use super::goal_handle::ServerGoalHandle;
use crate::error::ActionError;
use crate::sync::Signal;
use skipper_ros1_wire::msg::actionlib_msgs::{Action, StatusCode};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// Text of a goal recalled or preempted because a newer goal arrived (S-3, S-4, S-6).
pub const REPLACED_TEXT: &str =
    "This goal was canceled because another goal was received by the simple action server";
/// Text of an accepted goal (S-6).
pub const ACCEPTED_TEXT: &str = "This goal has been accepted by the simple action server";
/// Text of a goal whose execute callback returned without a terminal state (S-10).
pub const NO_TERMINAL_TEXT: &str = "No terminal state was set.";

type Callback = Arc<dyn Fn() + Send + Sync>;
/// An execute callback: runs one goal to its end; an `Err` aborts the goal with its text.
pub type ExecuteCallback<A> =
    Arc<dyn Fn(&SimpleActionServer<A>, <A as Action>::Goal) -> Result<(), String> + Send + Sync>;

struct State<A: Action> {
    current: Option<ServerGoalHandle<A>>,
    next: Option<ServerGoalHandle<A>>,
    new_goal: bool,
    preempt_request: bool,
    new_goal_preempt_request: bool,
    shutdown: bool,
}

struct Shared<A: Action> {
    server: ActionServer<A>,
    state: Mutex<State<A>>,
    wake: Signal,
    goal_cb: Mutex<Option<Callback>>,
    preempt_cb: Mutex<Option<Callback>>,
    execute_cb: Option<ExecuteCallback<A>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

/// A SimpleActionServer; clones share the same server.
pub struct SimpleActionServer<A: Action> {
    shared: Arc<Shared<A>>,
}

impl<A: Action> Clone for SimpleActionServer<A> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

fn is_active<A: Action>(st: &State<A>) -> bool {
    st.current
        .as_ref()
        .and_then(|c| c.status())
        .is_some_and(|s| matches!(s, StatusCode::Active | StatusCode::Preempting))
}

impl<A: Action> SimpleActionServer<A> {
    /// A simple server in callback/polling mode on top of `server` (not started: S-11).
    pub fn new(server: ActionServer<A>) -> Self {
        Self::build(server, None)
    }

    /// A simple server that runs `execute` on its own thread for each goal it accepts
    /// (S-10). The callback ends the goal with `set_succeeded` / `set_aborted` /
    /// `set_preempted`; if it returns with the goal still active the goal is aborted
    /// ("No terminal state was set."); an `Err` aborts it with the error's text.
    pub fn with_execute_callback(
        server: ActionServer<A>,
        execute: impl Fn(&SimpleActionServer<A>, A::Goal) -> Result<(), String> + Send + Sync + 'static,
    ) -> Self {
        Self::build(server, Some(Arc::new(execute)))
    }

    fn build(server: ActionServer<A>, execute_cb: Option<ExecuteCallback<A>>) -> Self {
        let shared = Arc::new(Shared {
            server: server.clone(),
            state: Mutex::new(State {
                current: None,
                next: None,
                new_goal: false,
                preempt_request: false,
                new_goal_preempt_request: false,
                shutdown: false,
            }),
            wake: Signal::default(),
            goal_cb: Mutex::new(None),
            preempt_cb: Mutex::new(None),
            execute_cb,
            thread: Mutex::new(None),
        });
        // S-1: the ActionServer callbacks never accept or reject
        let weak = Arc::downgrade(&shared);
        server.register_goal_callback(move |h| {
            if let Some(s) = weak.upgrade() {
                SimpleActionServer { shared: s }.on_goal(h);
            }
        });
        let weak = Arc::downgrade(&shared);
        server.register_cancel_callback(move |h| {
            if let Some(s) = weak.upgrade() {
                SimpleActionServer { shared: s }.on_cancel(h);
            }
        });
        Self { shared }
    }

    /// The underlying ActionServer (to connect a transport).
    pub fn action_server(&self) -> &ActionServer<A> {
        &self.shared.server
    }

    /// S-11: start the server (and the execute thread in execute-callback mode).
    pub fn start(&self) {
        lock(&self.shared.state).shutdown = false;
        if self.shared.execute_cb.is_some() {
            let mut t = lock(&self.shared.thread);
            if t.is_none() {
                let me = self.clone();
                *t = std::thread::Builder::new()
                    .name("actionlib-execute".into())
                    .spawn(move || me.execute_loop())
                    .ok();
            }
        }
        self.shared.server.start();
    }

    /// Stop the server (and join the execute thread, unless called from it).
    pub fn shutdown(&self) {
        lock(&self.shared.state).shutdown = true;
        self.shared.wake.notify_all();
        let t = lock(&self.shared.thread).take();
        if let Some(t) = t {
            if t.thread().id() != std::thread::current().id() {
                let _ = t.join();
            }
        }
        self.shared.server.shutdown();
    }

    /// Call `cb` when a new goal is available. Refused (with a warning) in
    /// execute-callback mode.
    pub fn register_goal_callback(&self, cb: impl Fn() + Send + Sync + 'static) {
        if self.shared.execute_cb.is_some() {
            tracing::warn!("cannot register a goal callback on a simple action server with an execute callback");
            return;
        }
        *lock(&self.shared.goal_cb) = Some(Arc::new(cb));
    }

    /// Call `cb` when the current goal is asked to stop (a cancel, or a newer goal).
    pub fn register_preempt_callback(&self, cb: impl Fn() + Send + Sync + 'static) {
        *lock(&self.shared.preempt_cb) = Some(Arc::new(cb));
    }

    /// S-7: is a new goal waiting to be accepted?
    pub fn is_new_goal_available(&self) -> bool {
        lock(&self.shared.state).new_goal
    }

    /// S-7: has the current goal been asked to stop?
    pub fn is_preempt_requested(&self) -> bool {
        lock(&self.shared.state).preempt_request
    }

    /// S-7: is there a current goal that is ACTIVE or PREEMPTING?
    pub fn is_active(&self) -> bool {
        is_active(&lock(&self.shared.state))
    }

    /// The current goal's handle.
    pub fn current_goal(&self) -> Option<ServerGoalHandle<A>> {
        lock(&self.shared.state).current.clone()
    }

    /// S-6: accept the new goal: the active goal (if another) is preempted, the new one
    /// becomes ACTIVE (or PREEMPTING if a cancel for it already came). Check
    /// [`is_preempt_requested`](Self::is_preempt_requested) right after.
    pub fn accept_new_goal(&self) -> Result<A::Goal, ActionError> {
        let mut st = lock(&self.shared.state);
        let Some(next) = st.next.clone().filter(|_| st.new_goal) else {
            tracing::error!("accept_new_goal called with no new goal available");
            return Err(ActionError::NoNewGoal);
        };
        if is_active(&st) && st.current.as_ref() != Some(&next) {
            if let Some(c) = &st.current {
                let _ = c.set_canceled(None, REPLACED_TEXT);
            }
        }
        st.current = Some(next.clone());
        st.new_goal = false;
        st.preempt_request = st.new_goal_preempt_request;
        st.new_goal_preempt_request = false;
        next.set_accepted(ACCEPTED_TEXT)?;
        Ok(next.goal().clone())
    }

    /// Act on the current goal (under this server's lock: the order is always this
    /// lock, then the ActionServer's, as in `accept_new_goal`).
    fn with_current(
        &self,
        f: impl FnOnce(&ServerGoalHandle<A>) -> Result<(), ActionError>,
    ) -> Result<(), ActionError> {
        match &lock(&self.shared.state).current {
            Some(h) => f(h),
            None => Err(ActionError::NoGoal),
        }
    }

    /// S-8: the current goal succeeded (a missing result is a default one).
    pub fn set_succeeded(&self, result: Option<A::Result>, text: &str) -> Result<(), ActionError> {
        self.with_current(|h| h.set_succeeded(result, text))
    }

    /// S-8: the current goal is aborted.
    pub fn set_aborted(&self, result: Option<A::Result>, text: &str) -> Result<(), ActionError> {
        self.with_current(|h| h.set_aborted(result, text))
    }

    /// S-8: the current goal is preempted (ACTIVE or PREEMPTING -> PREEMPTED).
    pub fn set_preempted(&self, result: Option<A::Result>, text: &str) -> Result<(), ActionError> {
        self.with_current(|h| h.set_canceled(result, text))
    }

    /// S-8: feedback on the current goal.
    pub fn publish_feedback(&self, feedback: A::Feedback) -> Result<(), ActionError> {
        self.with_current(|h| h.publish_feedback(feedback))
    }

    fn on_goal(&self, h: ServerGoalHandle<A>) {
        let fire_preempt;
        {
            let mut st = lock(&self.shared.state);
            let stamp = h.stamp();
            let newer = st.current.as_ref().is_none_or(|c| stamp >= c.stamp())
                && st.next.as_ref().is_none_or(|n| stamp >= n.stamp());
            if !newer {
                // S-4
                drop(st);
                let _ = h.set_canceled(None, REPLACED_TEXT);
                return;
            }
            // S-3
            if let Some(n) = &st.next {
                if st.current.as_ref() != Some(n) {
                    let _ = n.set_canceled(None, REPLACED_TEXT);
                }
            }
            st.next = Some(h);
            st.new_goal = true;
            st.new_goal_preempt_request = false;
            fire_preempt = is_active(&st);
            if fire_preempt {
                st.preempt_request = true;
            }
        }
        if fire_preempt {
            let cb = lock(&self.shared.preempt_cb).clone();
            if let Some(cb) = cb {
                cb();
            }
        }
        if self.shared.execute_cb.is_some() {
            self.shared.wake.notify_all();
        } else {
            let cb = lock(&self.shared.goal_cb).clone();
            if let Some(cb) = cb {
                cb();
            }
        }
    }

    fn on_cancel(&self, h: ServerGoalHandle<A>) {
        let fire = {
            let mut st = lock(&self.shared.state);
            if st.current.as_ref() == Some(&h) {
                st.preempt_request = true;
                true
            } else {
                if st.next.as_ref() == Some(&h) {
                    st.new_goal_preempt_request = true;
                }
                false
            }
        };
        if fire {
            let cb = lock(&self.shared.preempt_cb).clone();
            if let Some(cb) = cb {
                cb();
            }
        }
        self.shared.wake.notify_all();
    }

    fn execute_loop(&self) {
        let Some(exec) = self.shared.execute_cb.clone() else {
            return;
        };
        loop {
            {
                let mut st = lock(&self.shared.state);
                while !st.shutdown && !st.new_goal {
                    // woken at once by a new goal and by shutdown (the timeout is a
                    // safety net only: an idle server wakes once in 5 s)
                    st = self.shared.wake.wait_timeout(st, Duration::from_secs(5));
                }
                if st.shutdown {
                    return;
                }
            }
            let Ok(goal) = self.accept_new_goal() else {
                continue;
            };
            let outcome = exec(self, goal);
            if self.is_active() {
                let text = match outcome {
                    Ok(()) => {
                        tracing::warn!("the execute callback returned without a terminal state; aborting the goal");
                        NO_TERMINAL_TEXT.to_string()
                    }
                    Err(e) => e,
                };
                let _ = self.set_aborted(None, &text);
            }
        }
    }
}

impl<A: Action> Drop for Shared<A> {
    fn drop(&mut self) {
        lock(&self.state).shutdown = true;
        self.wake.notify_all();
    }
}
