//! CLOSE over a real socket: the server stops the robot and the SIP stream but keeps the
//! connection, reading and discarding, as a robot's serial link stays after CLOSE, until
//! the client closes its end, a new client takes the port, or the configured bound
//! (`ServerConfig::close_linger`) passes.
//!
//! Every wait is for a state, with a generous limit; nothing asserts on timing.

use skipper_core::{Actuation, Drive, Translation};
use skipper_p2os::packets::ids;
use skipper_p2os::server::{self, RobotFleet, RobotIdentity, RobotStatus, ServerConfig};
use skipper_p2os::{CommandId, CommandPacket, Framer};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest any wait here may take before the test gives up.
const PATIENCE: Duration = Duration::from_secs(30);

/// One robot that records the drive commands it gets.
#[derive(Clone, Default)]
struct Drives(Arc<Mutex<Vec<Drive>>>);

impl Drives {
    fn all(&self) -> Vec<Drive> {
        self.0.lock().map(|d| d.clone()).unwrap_or_default()
    }
}

impl RobotFleet for Drives {
    fn len(&self) -> usize {
        1
    }
    fn identity(&self, _robot: usize) -> RobotIdentity {
        RobotIdentity {
            name: "amy".into(),
            class: "Pioneer".into(),
            subtype: "p3dx".into(),
            serial: "SIM".into(),
        }
    }
    fn act(&mut self, _robot: usize, a: &Actuation) {
        if let (Some(d), Ok(mut all)) = (a.drive, self.0.lock()) {
            all.push(d);
        }
    }
    fn status(&mut self, _robot: usize, out: &mut RobotStatus) {
        *out = RobotStatus::default();
    }
    fn advance(&mut self, _dt: Duration) {}
}

fn start(linger: Duration) -> (server::ServerHandle, Drives) {
    let drives = Drives::default();
    let config = ServerConfig {
        sip_cycle: Duration::from_millis(20),
        watchdog: None,
        close_linger: linger,
        ..Default::default()
    };
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let handle = server::serve(
        server::bind(&[addr]).unwrap(),
        Box::new(drives.clone()),
        config,
    )
    .unwrap();
    (handle, drives)
}

fn send(s: &mut TcpStream, c: &CommandPacket<'_>) -> std::io::Result<()> {
    s.write_all(c.encode().unwrap().as_bytes())
}

/// A client that has synced, opened and seen a few SIPs.
struct Client {
    stream: TcpStream,
    framer: Framer,
    sips: usize,
}

impl Client {
    fn open(addr: SocketAddr) -> Self {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(20)))
            .unwrap();
        for n in [CommandId::Pulse, CommandId::Open, CommandId::Close] {
            send(&mut stream, &CommandPacket::bare(n)).unwrap(); // SYNC0, SYNC1, SYNC2
        }
        send(&mut stream, &CommandPacket::bare(CommandId::Open)).unwrap();
        let mut c = Self {
            stream,
            framer: Framer::new(),
            sips: 0,
        };
        let start = Instant::now();
        while c.sips < 3 {
            assert!(start.elapsed() < PATIENCE, "no SIPs after OPEN");
            assert!(!c.read().unwrap(), "the server closed the connection");
        }
        c
    }

    /// Read what is there (SIPs counted); `Ok(true)` at the end of the stream.
    fn read(&mut self) -> std::io::Result<bool> {
        let mut buf = [0u8; 4096];
        match self.stream.read(&mut buf) {
            Ok(0) => Ok(true),
            Ok(n) => {
                let mut sips = 0;
                self.framer.feed(&buf[..n], |f| {
                    if ids::is_sip(f.id) {
                        sips += 1;
                    }
                });
                self.sips += sips;
                Ok(false)
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

fn velocity(d: &Drive) -> Option<f64> {
    match d {
        Drive::Channels {
            translation: Some(Translation::Velocity(v)),
            ..
        } => Some(*v),
        _ => None,
    }
}

#[test]
fn a_client_that_writes_on_after_close_gets_no_error_and_the_bound_closes_the_link() {
    let (server, drives) = start(Duration::from_secs(3));
    let mut c = Client::open(server.addrs()[0]);
    send(&mut c.stream, &CommandPacket::int(CommandId::Vel, 300)).unwrap();
    send(&mut c.stream, &CommandPacket::int(CommandId::Close, 1)).unwrap();
    // what ARIA's other threads do in the second before it closes its end: write on
    let t0 = Instant::now();
    let mut writes = 0;
    while t0.elapsed() < Duration::from_secs(1) {
        send(&mut c.stream, &CommandPacket::bare(CommandId::Pulse))
            .unwrap_or_else(|e| panic!("write {writes} after CLOSE failed: {e}"));
        send(&mut c.stream, &CommandPacket::int(CommandId::Vel, 500))
            .unwrap_or_else(|e| panic!("write {writes} after CLOSE failed: {e}"));
        writes += 1;
        let end = c
            .read()
            .unwrap_or_else(|e| panic!("read after CLOSE failed (a reset?): {e}"));
        assert!(
            !end,
            "the server closed the connection within a second of CLOSE"
        );
    }
    assert!(
        writes > 10,
        "the client wrote on after CLOSE ({writes} times)"
    );
    // the robot was stopped at CLOSE, and nothing sent after CLOSE moved it again
    let d = drives.all();
    let vel = d.iter().position(|d| velocity(d) == Some(0.3));
    let stop = d.iter().rposition(|d| *d == Drive::Stop);
    assert!(
        matches!((vel, stop), (Some(v), Some(s)) if s > v),
        "VEL 300, then a stop at CLOSE: {d:?}"
    );
    assert!(
        d.iter().all(|d| velocity(d) != Some(0.5)),
        "commands after CLOSE are discarded: {d:?}"
    );
    // the SIP stream stopped at CLOSE: the server sends no more SIPs while it lingers
    let sips = server.stats().sips;
    // the server closes the link once the bound has passed, with an orderly end
    let t1 = Instant::now();
    loop {
        assert!(t1.elapsed() < PATIENCE, "the server never closed the link");
        match c.read() {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => panic!("the link ended with an error, not an orderly close: {e}"),
        }
    }
    assert_eq!(server.stats().sips, sips, "SIPs were sent after CLOSE");
    // and the port takes the next client
    let next = Client::open(server.addrs()[0]);
    assert!(next.sips >= 3);
}

#[test]
fn a_new_client_takes_the_port_from_one_lingering_after_close() {
    // a bound far longer than the test: only the new client can end the first link
    let (server, _drives) = start(Duration::from_secs(600));
    let mut first = Client::open(server.addrs()[0]);
    send(&mut first.stream, &CommandPacket::int(CommandId::Close, 1)).unwrap();
    let second = Client::open(server.addrs()[0]);
    assert!(second.sips >= 3, "the new client gets SIPs");
    assert_eq!(server.stats().refused, 0);
    let t = Instant::now();
    loop {
        assert!(t.elapsed() < PATIENCE, "the first link was never closed");
        if first.read().unwrap_or(true) {
            break;
        }
    }
}

#[test]
fn a_client_that_closes_its_end_after_close_frees_the_port() {
    let (server, _drives) = start(Duration::from_secs(600));
    let mut first = Client::open(server.addrs()[0]);
    send(&mut first.stream, &CommandPacket::int(CommandId::Close, 1)).unwrap();
    drop(first);
    let second = Client::open(server.addrs()[0]);
    assert!(second.sips >= 3);
    assert_eq!(server.stats().sessions, 2);
    assert_eq!(server.stats().refused, 0);
}
