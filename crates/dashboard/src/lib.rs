//! Skipper's web dashboard: a page (its HTML, script and style embedded in the crate)
//! over a live run (`skipper run --serve`) or a recorded one (`skipper replay --serve`).
//!
//! - [`hub`]: frames to browsers through a bounded queue per browser that drops frames
//!   for a slow one, so no browser can hold up the run;
//! - [`live`]: the run observer that makes frames, and the controls (pause, step, speed,
//!   estop, goto);
//! - [`replay`]: frames from a run log at any time, for the time slider, from
//!   [`moment`]s of the run that [`log_index`] reads from the log as they are needed;
//! - [`server`]: the HTTP server (axum) on its own thread: the page, the frame stream
//!   (server-sent events), the control endpoint, and the token check;
//! - [`frame`]: the frame's JSON, shared by live and replay;
//! - [`trail`]: a robot's trail of the whole run, decimated;
//! - [`transport`]: the live dashboard as a run's transport ([`LiveTransport`]).
//!
//! The dashboard listens on 127.0.0.1 unless told otherwise; another address needs
//! `--allow-remote`, and then every request must carry a token that is printed at start.

pub mod frame;
pub mod hub;
pub mod live;
pub mod log_index;
pub mod moment;
pub mod replay;
pub mod server;
pub mod trail;
pub mod transport;

use std::net::SocketAddr;
pub use transport::LiveTransport;

/// Why the dashboard cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An address other machines can reach, without permission.
    #[error(
        "the dashboard listens on 127.0.0.1 unless told otherwise: to listen on {0}, where \
         other machines can reach it, add --allow-remote (every request then needs the token \
         printed at start)"
    )]
    Remote(SocketAddr),
    /// No random token could be made.
    #[error("cannot make a dashboard token: {0}")]
    Token(getrandom::Error),
    /// The server could not listen or start.
    #[error("cannot serve the dashboard on {addr}: {source}")]
    Serve {
        /// the address asked for
        addr: SocketAddr,
        /// why
        source: std::io::Error,
    },
}

/// The default address of the dashboard.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8088";

/// Where and how to listen.
#[derive(Debug, Clone, PartialEq)]
pub struct ServeOptions {
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The token every request must carry (`?token=` or `Authorization: Bearer`), if any.
    pub token: Option<String>,
}

impl ServeOptions {
    /// Check the address: loopback is always fine; any other address needs
    /// `allow_remote`, and then gets a fresh random token.
    pub fn new(addr: SocketAddr, allow_remote: bool) -> Result<Self, Error> {
        if addr.ip().is_loopback() {
            return Ok(Self { addr, token: None });
        }
        if !allow_remote {
            return Err(Error::Remote(addr));
        }
        Ok(Self {
            addr,
            token: Some(new_token()?),
        })
    }

    /// The URL to open, with the token if there is one.
    pub fn url(&self, bound: SocketAddr) -> String {
        let host = if bound.ip().is_unspecified() {
            // a browser cannot open 0.0.0.0; the loopback address reaches it here
            SocketAddr::new(
                if bound.is_ipv4() {
                    std::net::Ipv4Addr::LOCALHOST.into()
                } else {
                    std::net::Ipv6Addr::LOCALHOST.into()
                },
                bound.port(),
            )
        } else {
            bound
        };
        match &self.token {
            Some(t) => format!("http://{host}/?token={t}"),
            None => format!("http://{host}/"),
        }
    }
}

/// 128 random bits from the operating system, as hex.
fn new_token() -> Result<String, Error> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(Error::Token)?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// Tell the user where the dashboard is (and warn when it is reachable from elsewhere).
pub fn announce(opts: &ServeOptions, bound: SocketAddr) {
    if opts.token.is_some() {
        eprintln!(
            "warning: the dashboard listens on {bound}, where other machines can reach it; \
             anyone with the token can pause the run, move the robots and press estop"
        );
        if let Some(t) = &opts.token {
            eprintln!("dashboard token: {t}");
        }
    }
    eprintln!("dashboard: {}", opts.url(bound));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_needs_no_token_and_others_need_the_flag() {
        let lo: SocketAddr = "127.0.0.1:8088".parse().unwrap();
        let o = ServeOptions::new(lo, false).unwrap();
        assert_eq!(o.token, None);
        assert_eq!(o.url(lo), "http://127.0.0.1:8088/");
        let any: SocketAddr = "0.0.0.0:8088".parse().unwrap();
        let e = ServeOptions::new(any, false).unwrap_err();
        assert!(matches!(e, Error::Remote(_)));
        assert!(e.to_string().contains("--allow-remote"), "{e}");
        let o = ServeOptions::new(any, true).unwrap();
        let t = o.token.clone().unwrap();
        assert_eq!(t.len(), 32);
        assert_ne!(Some(t.clone()), ServeOptions::new(any, true).unwrap().token);
        assert_eq!(o.url(any), format!("http://127.0.0.1:8088/?token={t}"));
    }
}
