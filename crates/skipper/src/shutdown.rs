//! The one way a long-running command (`run`, `sim serve`, `link serve`, `replay`,
//! `action send`) is stopped from outside. SIGINT (Ctrl-C), SIGTERM (a service manager,
//! `kill`, a container stopping) and SIGHUP (the terminal closed) all call the command's
//! stop action once, on a thread of their own, so sessions are closed and logs finished
//! the same way whichever signal came.
//!
//! [`install`] takes the signals over as the command starts; a signal that arrives before
//! the command has said how to stop ([`on_stop`]) is kept, and the action runs as soon as
//! it is given. A second signal while the first is being handled ends the process at
//! once with 128 + its number. A command that reports an interrupted run (exit status
//! 130) reports 128 + the signal that stopped it ([`exit_status`]): 143 for SIGTERM, as
//! shells do.

use std::sync::{Mutex, MutexGuard, OnceLock};

type Action = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct State {
    /// what to do on the first signal, once the command has said
    action: Option<Action>,
    /// the first signal, once it came
    received: Option<i32>,
    /// the action has been called (or is being called)
    stopping: bool,
}

static STATE: Mutex<State> = Mutex::new(State {
    action: None,
    received: None,
    stopping: false,
});
static INSTALLED: OnceLock<()> = OnceLock::new();

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Take SIGINT, SIGTERM and SIGHUP over from now on (idempotent).
pub fn install() {
    INSTALLED.get_or_init(|| {
        if let Err(e) = listen() {
            tracing::warn!("cannot handle signals: {e}; Ctrl-C will end the process at once");
        }
    });
}

/// Call `stop` when the first signal arrives (at once if one already has); a second
/// signal exits the process at once.
pub fn on_stop(stop: impl FnOnce() + Send + 'static) {
    install();
    let mut s = state();
    if s.received.is_some() && !s.stopping {
        s.stopping = true;
        drop(s);
        stop();
    } else {
        s.action = Some(Box::new(stop));
    }
}

/// A signal arrived: the first calls the stop action (or is kept for it), the next ends
/// the process.
fn deliver(signal: i32) {
    let mut s = state();
    if s.received.is_some() {
        std::process::exit(128 + signal);
    }
    s.received = Some(signal);
    if let Some(f) = s.action.take() {
        s.stopping = true;
        drop(s);
        f();
    }
}

#[cfg(unix)]
fn listen() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || signals.forever().for_each(deliver))?;
    Ok(())
}

#[cfg(not(unix))]
fn listen() -> std::io::Result<()> {
    ctrlc::set_handler(|| deliver(2)).map_err(std::io::Error::other)
}

/// The signal that stopped the command, if one did.
pub fn received() -> Option<i32> {
    state().received
}

/// The exit status of a command that returned `code`: an interrupted run (130) reports
/// 128 + the signal that stopped it.
pub fn exit_status(code: u8) -> u8 {
    match received() {
        Some(s) if code == crate::exit::INTERRUPTED => u8::try_from(128 + s).unwrap_or(code),
        _ => code,
    }
}
