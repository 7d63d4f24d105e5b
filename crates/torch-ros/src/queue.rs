//! Callback queues (torch-ros's `ros.CallbackQueue`, roscpp's `CallbackQueue`): what
//! arrives on ROS threads waits here for the script's thread.
//!
//! Two kinds of jobs come in from other threads: a message for a state machine (a goal,
//! a cancel, a status list, a result, a feedback: run as Rust code, which may raise the
//! script's callbacks) and a call of the script's code (a subscriber's message, a
//! service request). Callbacks a state machine raises while a job runs go to the
//! queue's *raised* list and run right after that job, in the order they were raised, so
//! the script sees every state machine change and its callbacks in arrival order, as
//! torch-ros runs them from `spinOnce`.

use mlua::Lua;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A call of the script's code, made on the script's thread.
pub type LuaJob = Box<dyn FnOnce(&Lua) -> mlua::Result<()> + Send>;

/// What waits in a queue.
pub enum Job {
    /// Rust work (feed a state machine); may raise [`LuaJob`]s.
    Run(Box<dyn FnOnce() + Send>),
    /// The script's code.
    Lua(LuaJob),
}

#[derive(Default)]
struct Inner {
    jobs: Mutex<VecDeque<Job>>,
    ready: Condvar,
    raised: Mutex<VecDeque<LuaJob>>,
    disabled: AtomicBool,
}

/// A callback queue; clones share it (and may be used from any thread).
#[derive(Clone, Default)]
pub struct Queue(Arc<Inner>);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Queue {
    /// An empty, enabled queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether `other` is this queue.
    pub fn same(&self, other: &Queue) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Add a job (from any thread); dropped while the queue is disabled.
    pub fn push(&self, job: Job) {
        if self.0.disabled.load(Ordering::SeqCst) {
            return;
        }
        lock(&self.0.jobs).push_back(job);
        self.0.ready.notify_all();
    }

    /// A callback raised by a state machine while a job of this queue runs (or by a call
    /// the script made): it runs before the next job.
    pub fn raise(&self, job: LuaJob) {
        lock(&self.0.raised).push_back(job);
    }

    /// A dispatch for the actionlib bindings: their messages become [`Job::Run`]s.
    pub fn dispatch(&self) -> skipper_actionlib::ros1::action::Dispatch {
        let q = self.clone();
        Some(Arc::new(move |f: Box<dyn FnOnce() + Send>| {
            q.push(Job::Run(f))
        }))
    }

    /// Whether no job waits.
    pub fn is_empty(&self) -> bool {
        lock(&self.0.jobs).is_empty() && lock(&self.0.raised).is_empty()
    }

    /// Drop every waiting job.
    pub fn clear(&self) {
        lock(&self.0.jobs).clear();
        lock(&self.0.raised).clear();
    }

    /// Accept jobs (again).
    pub fn enable(&self) {
        self.0.disabled.store(false, Ordering::SeqCst);
    }

    /// Drop jobs that come from now on.
    pub fn disable(&self) {
        self.0.disabled.store(true, Ordering::SeqCst);
    }

    /// Whether jobs are accepted.
    pub fn is_enabled(&self) -> bool {
        !self.0.disabled.load(Ordering::SeqCst)
    }

    /// Wait up to `timeout` for a job (in short steps, so that `give_up` is honoured at
    /// once); whether one is there.
    pub fn wait(&self, timeout: Duration, give_up: &dyn Fn() -> bool) -> bool {
        let end = Instant::now() + timeout;
        let mut jobs = lock(&self.0.jobs);
        loop {
            if !jobs.is_empty() || !lock(&self.0.raised).is_empty() {
                return true;
            }
            let now = Instant::now();
            if now >= end || give_up() {
                return false;
            }
            let step = (end - now).min(Duration::from_millis(20));
            jobs = match self.0.ready.wait_timeout(jobs, step) {
                Ok((g, _)) => g,
                Err(p) => p.into_inner().0,
            };
        }
    }

    /// Run the raised callbacks (each may raise more).
    pub fn run_raised(&self, lua: &Lua) -> mlua::Result<()> {
        loop {
            let next = lock(&self.0.raised).pop_front();
            match next {
                Some(j) => j(lua)?,
                None => return Ok(()),
            }
        }
    }

    /// Run one job and what it raised; whether there was one.
    pub fn call_one(&self, lua: &Lua) -> mlua::Result<bool> {
        self.run_raised(lua)?;
        let next = lock(&self.0.jobs).pop_front();
        let Some(job) = next else { return Ok(false) };
        match job {
            Job::Run(f) => f(),
            Job::Lua(f) => f(lua)?,
        }
        self.run_raised(lua)?;
        Ok(true)
    }

    /// Run the jobs waiting now (not those that come meanwhile), each with what it
    /// raised; how many ran.
    pub fn call_available(&self, lua: &Lua) -> mlua::Result<usize> {
        let n = lock(&self.0.jobs).len();
        let mut ran = 0;
        self.run_raised(lua)?;
        while ran < n && self.call_one(lua)? {
            ran += 1;
        }
        Ok(ran)
    }
}
