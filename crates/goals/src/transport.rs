//! The seam between a run and the ways into it from outside: a [`Transport`] (ROS 1,
//! ROS 2, the dashboard, your own) receives one [`Endpoint`] per robot that takes goals,
//! attaches what it needs to the run (observers, servers) before it starts, and leaves
//! after it ends. It binds whatever goal kinds each robot's controller declares
//! (`Endpoint::goals`), so a new engine with new goals changes no transport, and a new
//! transport is one type implementing this trait.

use crate::Endpoint;
use skipper_core::{RunReport, Runner};

/// Why a transport could not attach.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// Its settings are wrong (an address, a name, an argument): the user's input.
    #[error("{0}")]
    Settings(String),
    /// It could not start (a master that does not answer, a port in use).
    #[error("{0}")]
    Failed(String),
}

/// A way into a run from outside.
pub trait Transport {
    /// Whether it sends velocity commands (ROS `cmd_vel`): the robots then obey them
    /// while they are fresh.
    fn sends_velocity(&self) -> bool {
        false
    }

    /// Attach to `runner` before it runs, serving `robots` (the robots that take goals).
    fn attach(&mut self, runner: &mut Runner, robots: &[Endpoint]) -> Result<(), TransportError>;

    /// After the run ended and its controllers finished (their goals aborted): leave
    /// (close connections, stop servers). A transport may say how the run ended from its
    /// side (a ROS node asked to leave ends the run as planned).
    fn finish(self: Box<Self>, report: &mut RunReport) {
        let _ = report;
    }
}
