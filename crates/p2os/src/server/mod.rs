//! The robot server (what MobileSim does): robots behind the [`RobotFleet`] trait, served
//! over P2OS on TCP, one port per robot.
//!
//! One thread runs every port: it accepts one client per port at a time (clients may
//! come one after another), frames what they send, runs each [`Session`], advances the
//! fleet by one SIP cycle (100 ms by default) and sends every open session its SIP and
//! requested packets. A client that sends garbage (more than `garbage_limit` bytes
//! skipped since its last good packet), does not finish the handshake in time, stops
//! reading, or drops the connection is disconnected and its robot stopped; the other
//! robots do not notice.
//!
//! CLOSE stops the robot and the packet streams but not the connection: as a robot's
//! serial link does not vanish at CLOSE, the server goes on reading (and discarding) what
//! the client sends until the client closes its end or `close_linger` has passed (ARIA
//! waits a second after CLOSE before it closes its end, while its other threads still
//! write). A new client may take the port meanwhile.

pub mod fleet;
pub mod laser;
pub mod session;

pub use fleet::{GeoFix, RobotFleet, RobotIdentity, RobotStatus, Sound, MAX_SONARS};
pub use laser::OldLaserCommands;
pub use session::{Outcome, Phase, Session, SessionStats};

use crate::frame::Framer;
use skipper_core::{Actuation, Drive, Pose2};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the server runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// SIP cycle (100 ms as P2OS and MobileSim).
    pub sip_cycle: Duration,
    /// Stop a robot when no command came for this long (reported in CONFIGpac); `None`
    /// turns the watchdog off.
    pub watchdog: Option<Duration>,
    /// Simulated seconds per real second (1 = real time).
    pub time_scale: f64,
    /// Disconnect a client after this many bytes skipped since its last good packet.
    pub garbage_limit: u64,
    /// Disconnect a client that has not sent OPEN this long after connecting.
    pub handshake_timeout: Duration,
    /// Disconnect a client whose unsent output grows past this (it stopped reading).
    pub max_backlog: usize,
    /// How commands 35-38 are read (P2OS gripper and analog commands, MobileSim's old
    /// laser commands, or each by its context).
    pub old_laser_commands: OldLaserCommands,
    /// After CLOSE, keep reading (and discarding) what the client sends for at most this
    /// long before closing the connection, unless the client closes it first.
    pub close_linger: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            sip_cycle: Duration::from_millis(100),
            watchdog: Some(Duration::from_millis(2000)),
            time_scale: 1.0,
            garbage_limit: 512,
            handshake_timeout: Duration::from_secs(10),
            max_backlog: 256 * 1024,
            old_laser_commands: OldLaserCommands::default(),
            close_linger: Duration::from_secs(5),
        }
    }
}

/// Why the server ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerExit {
    /// [`ServerHandle::stop`] was called.
    Stopped,
    /// A client sent SIM_EXIT with this code.
    SimExit(i32),
}

/// Counters for the whole server.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServerStats {
    /// Clients accepted.
    pub sessions: u64,
    /// Clients refused because their port was busy.
    pub refused: u64,
    /// Clients disconnected for sending garbage.
    pub garbage_disconnects: u64,
    /// Clients disconnected because they did not finish the handshake in time.
    pub handshake_timeouts: u64,
    /// Times a watchdog stopped a robot.
    pub watchdog_stops: u64,
    /// SIPs sent.
    pub sips: u64,
    /// Bytes skipped in client streams.
    pub skipped_bytes: u64,
    /// Commands executed.
    pub commands: u64,
}

/// A running server.
pub struct ServerHandle {
    addrs: Vec<SocketAddr>,
    stop: Arc<AtomicBool>,
    stats: Arc<Mutex<ServerStats>>,
    thread: Option<JoinHandle<ServerExit>>,
}

impl ServerHandle {
    /// The address of each robot's port, in robot order.
    pub fn addrs(&self) -> &[SocketAddr] {
        &self.addrs
    }
    /// Counters so far.
    pub fn stats(&self) -> ServerStats {
        self.stats.lock().map(|s| *s).unwrap_or_default()
    }
    /// Has the server ended by itself (SIM_EXIT)?
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }
    /// Stop serving (robots are stopped, clients disconnected) and wait for the thread.
    pub fn stop(mut self) -> ServerExit {
        self.stop.store(true, Ordering::SeqCst);
        self.join()
    }
    /// Wait until the server ends by itself.
    pub fn wait(mut self) -> ServerExit {
        self.join()
    }
    fn join(&mut self) -> ServerExit {
        self.thread
            .take()
            .and_then(|t| t.join().ok())
            .unwrap_or(ServerExit::Stopped)
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.join();
    }
}

/// Bind one listener per robot. Port 0 picks a free port for each.
pub fn bind(addrs: &[SocketAddr]) -> std::io::Result<Vec<TcpListener>> {
    addrs.iter().map(TcpListener::bind).collect()
}

/// Serve `fleet`'s robot `i` on `listeners[i]` until stopped.
pub fn serve(
    listeners: Vec<TcpListener>,
    fleet: Box<dyn RobotFleet>,
    config: ServerConfig,
) -> std::io::Result<ServerHandle> {
    let mut addrs = Vec::new();
    for l in &listeners {
        l.set_nonblocking(true)?;
        addrs.push(l.local_addr()?);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let stats = Arc::new(Mutex::new(ServerStats::default()));
    let (s2, st2) = (stop.clone(), stats.clone());
    let thread = std::thread::Builder::new()
        .name("p2os-server".into())
        .spawn(move || Server::new(listeners, fleet, config, st2).run(&s2))?;
    Ok(ServerHandle {
        addrs,
        stop,
        stats,
        thread: Some(thread),
    })
}

struct Conn {
    stream: TcpStream,
    peer: SocketAddr,
    framer: Framer,
    session: Session,
    out: Vec<u8>,
    connected_at: Duration,
    skipped_at_good: u64,
    packets_seen: u64,
    /// when the client sent CLOSE: from then on its input is read and discarded
    closed_at: Option<Duration>,
}

struct Port {
    listener: TcpListener,
    conn: Option<Conn>,
}

struct Server {
    ports: Vec<Port>,
    fleet: Box<dyn RobotFleet>,
    config: ServerConfig,
    stats: Arc<Mutex<ServerStats>>,
    local: ServerStats,
    start: Instant,
}

/// Why a connection ends.
enum End {
    Eof,
    Stopped,
    Linger,
    Garbage,
    Handshake,
    Backlog,
    Replaced,
    Io(std::io::Error),
    Exit(i32),
}

impl Server {
    fn new(
        listeners: Vec<TcpListener>,
        fleet: Box<dyn RobotFleet>,
        config: ServerConfig,
        stats: Arc<Mutex<ServerStats>>,
    ) -> Self {
        Self {
            ports: listeners
                .into_iter()
                .map(|listener| Port {
                    listener,
                    conn: None,
                })
                .collect(),
            fleet,
            config,
            stats,
            local: ServerStats::default(),
            start: Instant::now(),
        }
    }

    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    fn run(mut self, stop: &AtomicBool) -> ServerExit {
        let cycle = self.config.sip_cycle.max(Duration::from_millis(1));
        let sim_dt =
            skipper_core::seconds::scale(cycle, self.config.time_scale.clamp(0.001, 1000.0));
        let mut next_cycle = self.now() + cycle;
        let mut buf = vec![0u8; 4096];
        let exit = loop {
            if stop.load(Ordering::SeqCst) {
                break ServerExit::Stopped;
            }
            let now = self.now();
            // serve the current clients first, so that one that just sent CLOSE or hung
            // up makes room for the next
            let mut exit = None;
            for i in 0..self.ports.len() {
                if let Err(end) = self.service(i, now, &mut buf) {
                    if let End::Exit(code) = end {
                        exit = Some(code);
                    }
                    self.end(i, end);
                }
            }
            for i in 0..self.ports.len() {
                self.accept(i, now);
            }
            if let Some(code) = exit {
                break ServerExit::SimExit(code);
            }
            if now >= next_cycle {
                next_cycle += cycle;
                if next_cycle < now {
                    next_cycle = now + cycle; // fell behind: do not burst
                }
                self.fleet.advance(sim_dt);
                for i in 0..self.ports.len() {
                    self.cycle(i, now);
                }
            }
            self.publish();
            std::thread::sleep(Duration::from_millis(1));
        };
        for i in 0..self.ports.len() {
            if self.ports[i].conn.is_some() {
                self.end(i, End::Stopped);
            }
        }
        self.publish();
        exit
    }

    fn publish(&mut self) {
        if let Ok(mut s) = self.stats.lock() {
            *s = self.local;
        }
    }

    fn accept(&mut self, i: usize, now: Duration) {
        let silent_for = self.config.watchdog.unwrap_or(Duration::from_secs(2));
        // a client that sent CLOSE, or went silent for longer than the watchdog, gives
        // way to a new one
        let stale = self
            .ports
            .get(i)
            .and_then(|p| p.conn.as_ref())
            .is_some_and(|c| {
                c.closed_at.is_some() || now.saturating_sub(c.session.last_command()) > silent_for
            });
        let Some(port) = self.ports.get_mut(i) else {
            return;
        };
        match port.listener.accept() {
            Ok((stream, peer)) => {
                if stale {
                    self.end(i, End::Replaced);
                    return self.take(i, stream, peer, now);
                }
                if port.conn.is_some() {
                    tracing::warn!(robot = i, "refused {peer}: the robot already has a client");
                    self.local.refused += 1;
                    drop(stream);
                    return;
                }
                self.take(i, stream, peer, now);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(e) => tracing::warn!(robot = i, "accept: {e}"),
        }
    }

    fn take(&mut self, i: usize, stream: TcpStream, peer: SocketAddr, now: Duration) {
        let _ = stream.set_nonblocking(true);
        let _ = stream.set_nodelay(true);
        tracing::info!(robot = i, "client {peer} connected");
        self.local.sessions += 1;
        let session = Session::new(i, &*self.fleet, &self.config, now);
        if let Some(port) = self.ports.get_mut(i) {
            port.conn = Some(Conn {
                stream,
                peer,
                framer: Framer::new(),
                session,
                out: Vec::with_capacity(4096),
                connected_at: now,
                skipped_at_good: 0,
                packets_seen: 0,
                closed_at: None,
            });
        }
    }

    /// Read, handle, write one connection.
    fn service(&mut self, i: usize, now: Duration, buf: &mut [u8]) -> Result<(), End> {
        let Some(port) = self.ports.get_mut(i) else {
            return Ok(());
        };
        let Some(conn) = port.conn.as_mut() else {
            return Ok(());
        };
        let fleet = &mut *self.fleet;
        if let Some(at) = conn.closed_at {
            return linger(conn, now, at, self.config.close_linger, buf);
        }
        let mut outcome = Outcome::Continue;
        loop {
            match conn.stream.read(buf) {
                Ok(0) => return Err(End::Eof),
                Ok(n) => {
                    let Conn {
                        framer,
                        session,
                        out,
                        ..
                    } = conn;
                    framer.feed(buf.get(..n).unwrap_or(&[]), |f| {
                        if outcome == Outcome::Continue {
                            outcome = session.handle(&f, now, fleet, out);
                        }
                    });
                    let st = conn.framer.stats();
                    if st.packets > conn.packets_seen {
                        conn.packets_seen = st.packets;
                        conn.skipped_at_good = st.skipped_bytes;
                    }
                    if st.skipped_bytes - conn.skipped_at_good > self.config.garbage_limit {
                        return Err(End::Garbage);
                    }
                    match outcome {
                        Outcome::Continue => {}
                        Outcome::Close => {
                            flush(conn);
                            conn.closed_at = Some(now);
                            let (t, o) = stop(fleet, i);
                            tracing::info!(
                                robot = i,
                                "client {} sent CLOSE; robot stopped at {}; the link stays open until the client closes it (at most {} ms)",
                                conn.peer,
                                poses(t, o),
                                self.config.close_linger.as_millis()
                            );
                            return Ok(());
                        }
                        Outcome::Exit(code) => return Err(End::Exit(code)),
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(End::Io(e)),
            }
        }
        if conn.session.phase() != Phase::Open
            && now.saturating_sub(conn.connected_at) > self.config.handshake_timeout
        {
            return Err(End::Handshake);
        }
        if conn.session.check_watchdog(now, fleet) {
            self.local.watchdog_stops += 1;
        }
        flush(conn);
        if conn.out.len() > self.config.max_backlog {
            return Err(End::Backlog);
        }
        Ok(())
    }

    fn cycle(&mut self, i: usize, _now: Duration) {
        let Some(conn) = self.ports.get_mut(i).and_then(|p| p.conn.as_mut()) else {
            return;
        };
        let before = conn.session.stats().sips;
        conn.session.cycle(&mut *self.fleet, &mut conn.out);
        self.local.sips += conn.session.stats().sips - before;
        flush(conn);
    }

    fn end(&mut self, i: usize, why: End) {
        let Some(conn) = self.ports.get_mut(i).and_then(|p| p.conn.take()) else {
            return;
        };
        let closed = conn.closed_at.is_some();
        let reason = match &why {
            End::Eof if closed => "closed the connection after CLOSE".to_string(),
            End::Eof => "closed the connection".to_string(),
            End::Stopped => "was disconnected: the server stops".to_string(),
            End::Linger => format!(
                "did not close the connection within {} ms of CLOSE; closed it",
                self.config.close_linger.as_millis()
            ),
            End::Garbage => {
                self.local.garbage_disconnects += 1;
                "sent garbage".to_string()
            }
            End::Handshake => {
                self.local.handshake_timeouts += 1;
                "did not finish the handshake in time".to_string()
            }
            End::Backlog => "stopped reading".to_string(),
            End::Replaced if closed => "gave way to a new client after CLOSE".to_string(),
            End::Replaced => "was silent and gave way to a new client".to_string(),
            End::Io(e) => format!("link error: {e}"),
            End::Exit(code) => format!("asked the simulator to exit ({code})"),
        };
        if closed {
            // the robot stopped, and where was logged, at CLOSE
            tracing::info!(robot = i, "client {} {reason}", conn.peer);
        } else {
            let (t, o) = stop(&mut *self.fleet, i);
            tracing::info!(
                robot = i,
                "client {} {reason}; robot stopped at {}",
                conn.peer,
                poses(t, o)
            );
        }
        self.local.skipped_bytes += conn.framer.stats().skipped_bytes;
        self.local.commands += conn.session.stats().commands;
        // counters first, so that whoever sees the connection close sees them too
        self.publish();
        let _ = conn.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// Stop robot `i`; its true pose and odometry.
fn stop(fleet: &mut dyn RobotFleet, i: usize) -> (Pose2, Pose2) {
    fleet.act(
        i,
        &Actuation {
            drive: Some(Drive::Stop),
            ..Default::default()
        },
    );
    let mut st = RobotStatus::default();
    fleet.status(i, &mut st);
    (st.true_pose, st.pose)
}

/// A true pose and an odometry pose, for the log.
fn poses(t: Pose2, o: Pose2) -> String {
    format!(
        "true pose ({:.0} mm, {:.0} mm, {:.1}°), odometry ({:.0} mm, {:.0} mm, {:.1}°)",
        t.x * 1000.0,
        t.y * 1000.0,
        t.yaw.to_degrees(),
        o.x * 1000.0,
        o.y * 1000.0,
        o.yaw.to_degrees()
    )
}

/// Reads of a lingering connection's input per pass (so that a client flooding it
/// cannot hold the server's thread).
const LINGER_READS: usize = 16;

/// A connection after CLOSE: read and discard what the client sends, finish sending
/// what was queued before CLOSE; end when the client closes its end or `linger` has
/// passed since CLOSE.
fn linger(
    conn: &mut Conn,
    now: Duration,
    closed_at: Duration,
    linger: Duration,
    buf: &mut [u8],
) -> Result<(), End> {
    for _ in 0..LINGER_READS {
        match conn.stream.read(buf) {
            Ok(0) => return Err(End::Eof),
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(End::Io(e)),
        }
    }
    flush(conn);
    if now.saturating_sub(closed_at) >= linger {
        return Err(End::Linger);
    }
    Ok(())
}

/// Write what can be written now; keep the rest.
fn flush(conn: &mut Conn) {
    while !conn.out.is_empty() {
        match conn.stream.write(&conn.out) {
            Ok(0) => break,
            Ok(n) => {
                conn.out.drain(..n);
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
}
