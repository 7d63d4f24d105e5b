//! The SimpleActionClient (rules C-7, C-8, C-10): one goal at a time, with
//! SimpleGoalState (PENDING, ACTIVE, DONE), done/active/feedback callbacks, waiting for
//! the result, and send-goal-and-wait with a preempt timeout.

use super::action_client::{ActionClient, ClientGoalHandle};
use super::comm_state::CommState;
use crate::sync::Signal;
use skipper_ros1_wire::msg::actionlib_msgs::{Action, StatusCode};
use skipper_ros1_wire::time::Time;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// SimpleGoalState (C-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimpleGoalState {
    /// sent, not yet active
    Pending,
    /// being executed
    Active,
    /// over
    Done,
}

/// What [`SimpleActionClient::state`] returns (C-8): a goal status, with RECALLING
/// reported as PENDING and PREEMPTING as ACTIVE; LOST when there is no goal.
pub type SimpleClientGoalState = StatusCode;

/// Called once when the goal is done, with its terminal status and result.
pub type DoneCallback<A> = Box<dyn Fn(StatusCode, Option<<A as Action>::Result>) + Send + Sync>;
/// Called once when the goal becomes active.
pub type ActiveCallback = Box<dyn Fn() + Send + Sync>;
/// Called with each feedback.
pub type SimpleFeedbackCallback<A> = Box<dyn Fn(&<A as Action>::Feedback) + Send + Sync>;

struct Current<A: Action> {
    handle: Option<ClientGoalHandle<A>>,
    /// which goal the callbacks below belong to
    serial: u64,
    state: SimpleGoalState,
}

struct Shared<A: Action> {
    cur: Mutex<Current<A>>,
    done: Signal,
}

/// A SimpleActionClient.
pub struct SimpleActionClient<A: Action> {
    client: ActionClient<A>,
    shared: Arc<Shared<A>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

impl<A: Action> SimpleActionClient<A> {
    /// A simple client over `client` (connect the client to a transport first or after).
    pub fn new(client: ActionClient<A>) -> Self {
        Self {
            client,
            shared: Arc::new(Shared {
                cur: Mutex::new(Current {
                    handle: None,
                    serial: 0,
                    state: SimpleGoalState::Done,
                }),
                done: Signal::default(),
            }),
        }
    }

    /// The underlying ActionClient.
    pub fn action_client(&self) -> &ActionClient<A> {
        &self.client
    }

    /// Wait for the server (C-9); `None` waits forever.
    pub fn wait_for_server(&self, timeout: Option<Duration>) -> bool {
        self.client.wait_for_server(timeout)
    }

    /// Send a goal; the previous goal (if any) is no longer tracked.
    pub fn send_goal(
        &self,
        goal: A::Goal,
        done_cb: Option<DoneCallback<A>>,
        active_cb: Option<ActiveCallback>,
        feedback_cb: Option<SimpleFeedbackCallback<A>>,
    ) {
        let serial = {
            let mut c = lock(&self.shared.cur);
            c.handle = None;
            c.serial += 1;
            c.state = SimpleGoalState::Pending;
            c.serial
        };
        let weak = Arc::downgrade(&self.shared);
        let transition = Box::new(move |h: &ClientGoalHandle<A>, cs: CommState| {
            let Some(sh) = weak.upgrade() else { return };
            let mut c = lock(&sh.cur);
            if c.serial != serial {
                tracing::debug!("transition of a goal the simple client no longer tracks");
                return;
            }
            match cs {
                CommState::Active | CommState::Preempting
                    if c.state == SimpleGoalState::Pending =>
                {
                    c.state = SimpleGoalState::Active;
                    drop(c);
                    if let Some(cb) = &active_cb {
                        cb();
                    }
                }
                CommState::Done => {
                    if c.state == SimpleGoalState::Done {
                        tracing::error!("the simple client got DONE twice");
                        return;
                    }
                    drop(c);
                    if let Some(cb) = &done_cb {
                        cb(h.terminal_state(), h.result());
                    }
                    let mut c = lock(&sh.cur);
                    if c.serial == serial {
                        c.state = SimpleGoalState::Done;
                    }
                    sh.done.notify_all();
                }
                _ => {}
            }
        });
        let fb = feedback_cb.map(|f| {
            Box::new(move |_: &ClientGoalHandle<A>, x: &A::Feedback| f(x))
                as super::action_client::FeedbackCallback<A>
        });
        let h = self.client.send_goal(goal, Some(transition), fb);
        let mut c = lock(&self.shared.cur);
        if c.serial == serial {
            c.handle = Some(h);
        }
    }

    /// Wait until the goal is done (`None`: forever); `false` on timeout.
    pub fn wait_for_result(&self, timeout: Option<Duration>) -> bool {
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut c = lock(&self.shared.cur);
        if c.handle.is_none() && c.state != SimpleGoalState::Pending {
            return true;
        }
        while c.state != SimpleGoalState::Done {
            let wait = match deadline {
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        return false;
                    }
                    d - now
                }
                None => Duration::from_secs(1),
            };
            c = self.shared.done.wait_timeout(c, wait);
        }
        true
    }

    /// C-10: send, wait `execute_timeout`; on timeout cancel and wait `preempt_timeout`;
    /// return the state. Zero timeouts wait forever.
    pub fn send_goal_and_wait(
        &self,
        goal: A::Goal,
        execute_timeout: Duration,
        preempt_timeout: Duration,
    ) -> SimpleClientGoalState {
        let opt = |d: Duration| (!d.is_zero()).then_some(d);
        self.send_goal(goal, None, None, None);
        if !self.wait_for_result(opt(execute_timeout)) {
            self.cancel_goal();
            self.wait_for_result(opt(preempt_timeout));
        }
        self.state()
    }

    /// C-8: the goal's state (LOST when there is none).
    pub fn state(&self) -> SimpleClientGoalState {
        let c = lock(&self.shared.cur);
        let Some(h) = &c.handle else {
            return StatusCode::Lost;
        };
        match h.goal_status() {
            StatusCode::Recalling => StatusCode::Pending,
            StatusCode::Preempting => StatusCode::Active,
            s => s,
        }
    }

    /// The simple goal state.
    pub fn simple_state(&self) -> SimpleGoalState {
        lock(&self.shared.cur).state
    }

    /// The result of the goal, once it arrived.
    pub fn result(&self) -> Option<A::Result> {
        lock(&self.shared.cur)
            .handle
            .as_ref()
            .and_then(|h| h.result())
    }

    /// The goal's latest status text.
    pub fn goal_status_text(&self) -> String {
        lock(&self.shared.cur)
            .handle
            .as_ref()
            .map(|h| h.goal_status_text())
            .unwrap_or_default()
    }

    /// Cancel the current goal (nothing happens without one).
    pub fn cancel_goal(&self) {
        let h = lock(&self.shared.cur).handle.clone();
        if let Some(h) = h {
            h.cancel();
        }
    }

    /// Cancel every goal on the server.
    pub fn cancel_all_goals(&self) {
        self.client.cancel_all_goals();
    }

    /// Cancel every goal stamped at or before `t`.
    pub fn cancel_goals_at_and_before_time(&self, t: Time) {
        self.client.cancel_goals_at_and_before_time(t);
    }

    /// Stop tracking the current goal.
    pub fn stop_tracking_goal(&self) {
        let mut c = lock(&self.shared.cur);
        c.handle = None;
        c.serial += 1;
    }
}
