//! The live dashboard as a [`Transport`] of a run (`skipper run --serve`): a page where a
//! click on the map sends a robot a `goto`, served while the run goes and stopped after
//! it, once the browsers have had the last frame.

use crate::server::Server;
use crate::ServeOptions;
use skipper_core::{RunReport, Runner};
use skipper_goals::{Endpoint, Transport, TransportError};
use std::net::SocketAddr;
use std::time::Duration;

/// How long the browsers get for the last frame before the server stops.
const LAST_FRAME: Duration = Duration::from_millis(300);

/// The live dashboard of a run.
pub struct LiveTransport {
    options: ServeOptions,
    server: Option<Server>,
}

impl LiveTransport {
    /// Serve where `options` says (checked already: see [`ServeOptions::new`]).
    pub fn new(options: ServeOptions) -> Self {
        Self {
            options,
            server: None,
        }
    }

    /// Where it listens, once attached (with port 0 in the options: the port it got).
    pub fn addr(&self) -> Option<SocketAddr> {
        self.server.as_ref().map(Server::addr)
    }
}

impl Transport for LiveTransport {
    fn attach(&mut self, runner: &mut Runner, robots: &[Endpoint]) -> Result<(), TransportError> {
        let ports = robots.iter().map(|e| (e.robot, e.goals.clone())).collect();
        let period = runner.config().period;
        let server =
            crate::live::serve(runner, ports, period, &self.options).map_err(|e| match e {
                crate::Error::Token(_) => TransportError::Failed(e.to_string()),
                _ => TransportError::Settings(e.to_string()),
            })?;
        self.server = Some(server);
        Ok(())
    }

    fn finish(self: Box<Self>, _: &mut RunReport) {
        if let Some(server) = self.server {
            std::thread::sleep(LAST_FRAME);
            server.stop();
        }
    }
}
