//! The byte link to a robot: a TCP connection (MobileSim, a robot's Ethernet-serial
//! bridge) or a serial port (a Pioneer's HOST port), read with a timeout.

use crate::error::Error;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Where the robot is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkSpec {
    /// `HOST:PORT` over TCP.
    Tcp(String),
    /// A serial device and its baud rate (P2OS starts at 9600).
    Serial {
        /// device path (`/dev/ttyS0`)
        path: String,
        /// baud rate
        baud: u32,
    },
}

impl std::fmt::Display for LinkSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkSpec::Tcp(a) => write!(f, "p2os://{a}"),
            LinkSpec::Serial { path, baud } => write!(f, "{path} at {baud} baud"),
        }
    }
}

/// An open link.
pub enum Link {
    /// TCP.
    Tcp(TcpStream),
    /// Serial port.
    Serial(Box<dyn serialport::SerialPort>),
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Link::Tcp(s) => write!(f, "Link::Tcp({:?})", s.peer_addr().ok()),
            Link::Serial(p) => write!(f, "Link::Serial({:?})", p.name()),
        }
    }
}

impl Link {
    /// Open the link (TCP connects within `timeout`).
    pub fn open(spec: &LinkSpec, timeout: Duration) -> Result<Self, Error> {
        match spec {
            LinkSpec::Tcp(addr) => {
                let mut last = None;
                for a in addr.to_socket_addrs()? {
                    match TcpStream::connect_timeout(&a, timeout) {
                        Ok(s) => {
                            s.set_nodelay(true)?;
                            return Ok(Link::Tcp(s));
                        }
                        Err(e) => last = Some(e),
                    }
                }
                Err(Error::Io(last.unwrap_or_else(|| {
                    std::io::Error::new(ErrorKind::NotFound, format!("no address for {addr}"))
                })))
            }
            LinkSpec::Serial { path, baud } => {
                let port = serialport::new(path, *baud)
                    .data_bits(serialport::DataBits::Eight)
                    .parity(serialport::Parity::None)
                    .stop_bits(serialport::StopBits::One)
                    .flow_control(serialport::FlowControl::None)
                    .timeout(Duration::from_millis(10))
                    .open()
                    .map_err(|e| Error::Serial {
                        path: path.clone(),
                        message: e.to_string(),
                    })?;
                Ok(Link::Serial(port))
            }
        }
    }

    /// Read what is there, waiting at most `timeout`; `Ok(0)` on a timeout.
    pub fn read_timeout(&mut self, buf: &mut [u8], timeout: Duration) -> Result<usize, Error> {
        let timeout = timeout.max(Duration::from_millis(1));
        let r = match self {
            Link::Tcp(s) => {
                s.set_read_timeout(Some(timeout))?;
                match s.read(buf) {
                    Ok(0) => {
                        return Err(Error::Closed("the connection was closed".into()));
                    }
                    r => r,
                }
            }
            Link::Serial(p) => {
                let _ = p.set_timeout(timeout);
                p.read(buf)
            }
        };
        match r {
            Ok(n) => Ok(n),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => Ok(0),
            Err(e) if e.kind() == ErrorKind::Interrupted => Ok(0),
            Err(e) => Err(Error::Io(e)),
        }
    }

    /// Write a whole packet.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), Error> {
        match self {
            Link::Tcp(s) => s.write_all(bytes)?,
            Link::Serial(p) => {
                p.write_all(bytes)?;
                p.flush()?;
            }
        }
        Ok(())
    }
}
