//! Starting the P2OS robot server for a simulated world: the settings checked first
//! (loopback unless allowed, a subtype ARIA knows, a SIP cycle), then one listening port
//! per robot from the first address up.

use crate::fleet::SimFleet;
use skipper_p2os::server::{self, OldLaserCommands, ServerConfig, ServerHandle};
use skipper_p2os::RobotParams;
use skipper_sim::spec::GeoOrigin;
use skipper_sim::GroundWorld;
use std::net::SocketAddr;
use std::time::Duration;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A non-loopback address without permission: P2OS has no authentication.
    #[error("{0}: P2OS has no authentication, so the server listens on loopback only; allow remote clients to listen on {ip}", ip = .0.ip())]
    Remote(SocketAddr),
    /// A subtype ARIA does not know (ARIA refuses such robots).
    #[error(
        "subtype {subtype}: ARIA refuses robots of a subtype it does not know; use one of {known}"
    )]
    UnknownSubtype {
        /// what was asked
        subtype: String,
        /// the subtypes ARIA knows, comma-separated
        known: String,
    },
    /// A SIP cycle of 0 ms.
    #[error("the SIP cycle must be at least 1 ms")]
    SipCycle,
    /// A port could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// the first robot's address
        addr: SocketAddr,
        /// why
        source: std::io::Error,
    },
    /// The server's threads could not start.
    #[error("cannot start the server: {0}")]
    Start(std::io::Error),
}

/// How to serve the simulated robots.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// the first robot's address; robot k listens on the port k up from it (port 0: a
    /// free port for each robot)
    pub first: SocketAddr,
    /// listen on an address other than loopback
    pub allow_remote: bool,
    /// the robot subtype every robot reports (one ARIA knows: `p3dx`, `p3dx-sh`, ...)
    pub subtype: String,
    /// stop a robot when its client sent no command for this long (`None`: never)
    pub watchdog: Option<Duration>,
    /// the SIP cycle (also one simulated-laser scan per cycle)
    pub sip_cycle: Duration,
    /// how to read commands 35-38 (P2OS or MobileSim's old laser commands)
    pub old_laser_commands: OldLaserCommands,
}

impl ServeOptions {
    /// Loopback port 8101 and up, subtype `p3dx`, a 2 s watchdog and a 100 ms SIP cycle,
    /// as `skipper sim serve` defaults to.
    pub fn new(first: SocketAddr) -> Self {
        Self {
            first,
            allow_remote: false,
            subtype: "p3dx".into(),
            watchdog: Some(Duration::from_secs(2)),
            sip_cycle: Duration::from_millis(100),
            old_laser_commands: OldLaserCommands::Sequence,
        }
    }

    /// The settings checked: loopback unless allowed, a known subtype, a SIP cycle.
    pub fn check(&self) -> Result<(), Error> {
        if !self.first.ip().is_loopback() && !self.allow_remote {
            return Err(Error::Remote(self.first));
        }
        if RobotParams::for_subtype(&self.subtype).is_none() {
            let known: Vec<_> = skipper_p2os::params::SUBTYPES
                .iter()
                .map(|p| p.subtype)
                .collect();
            return Err(Error::UnknownSubtype {
                subtype: self.subtype.clone(),
                known: known.join(", "),
            });
        }
        if self.sip_cycle.is_zero() {
            return Err(Error::SipCycle);
        }
        Ok(())
    }

    /// Robot k's address: the first address's port plus k (port 0 stays 0).
    fn addrs(&self, robots: usize) -> Vec<SocketAddr> {
        (0..robots)
            .map(|k| {
                let mut addr = self.first;
                if addr.port() != 0 {
                    let k = u16::try_from(k).unwrap_or(u16::MAX);
                    addr.set_port(addr.port().saturating_add(k));
                }
                addr
            })
            .collect()
    }
}

/// Check `options` and serve `world`'s robots, one port each; the handle says where
/// each listens and stops the server. The robots have no simulated GPS
/// ([`start_with_origin`] gives them one).
pub fn start(world: GroundWorld, options: &ServeOptions) -> Result<ServerHandle, Error> {
    start_with_origin(world, None, options)
}

/// [`start`], with the world's origin on the globe (`WorldSpec::origin`, from a map's
/// `OriginLatLongAlt` or a world file's `origin`): SIMSTAT then carries each robot's
/// simulated GPS.
pub fn start_with_origin(
    world: GroundWorld,
    origin: Option<GeoOrigin>,
    options: &ServeOptions,
) -> Result<ServerHandle, Error> {
    options.check()?;
    let addrs = options.addrs(skipper_core::World::len(&world));
    let listeners = server::bind(&addrs).map_err(|source| Error::Bind {
        addr: options.first,
        source,
    })?;
    let config = ServerConfig {
        sip_cycle: options.sip_cycle,
        watchdog: options.watchdog,
        old_laser_commands: options.old_laser_commands,
        ..Default::default()
    };
    let fleet = SimFleet::new(world, &options.subtype).with_origin(origin);
    server::serve(listeners, Box::new(fleet), config).map_err(Error::Start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(addr: &str) -> ServeOptions {
        ServeOptions::new(addr.parse().unwrap())
    }

    #[test]
    fn robots_listen_on_consecutive_ports() {
        let o = options("127.0.0.1:8101");
        let ports: Vec<u16> = o.addrs(3).iter().map(|a| a.port()).collect();
        assert_eq!(ports, [8101, 8102, 8103]);
        assert!(options("127.0.0.1:0")
            .addrs(2)
            .iter()
            .all(|a| a.port() == 0));
    }

    #[test]
    fn bad_settings_are_refused_before_binding() {
        let remote = options("0.0.0.0:8101").check().unwrap_err();
        assert!(remote.to_string().contains("loopback only"), "{remote}");
        let mut allowed = options("0.0.0.0:8101");
        allowed.allow_remote = true;
        assert!(allowed.check().is_ok());
        let mut o = options("127.0.0.1:8101");
        o.subtype = "toaster".into();
        let e = o.check().unwrap_err().to_string();
        assert!(e.contains("p3dx") && e.contains("toaster"), "{e}");
        let mut o = options("127.0.0.1:8101");
        o.sip_cycle = Duration::ZERO;
        assert!(matches!(o.check(), Err(Error::SipCycle)));
    }
}
