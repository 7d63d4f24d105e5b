//! The link server's connections: a listener thread, and for each connection a reader
//! thread (lines in: `hello`, `step`, `halted`, `error`, `tell`) and a writer thread
//! (lines out: `welcome`, `input`, `error`), so a slow or stuck client never blocks the
//! run's cycle.
//!
//! A line that is not a message of the protocol (not UTF-8, not JSON, an unknown `type`,
//! a `step` before `hello`, longer than [`MAX_LINE`]) gets one `error` line saying what
//! was wrong, and the connection is closed; the agent's robot stops, and the other
//! agents and the run go on. Every `error` line from Skipper is followed by the end of
//! the connection.

use super::{Hub, Outbox};
use crate::wire::{decode, AgentMessage};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The longest line taken from a client (bytes).
pub const MAX_LINE: usize = 4 << 20;
/// Lines queued for a client before it counts as not reading.
const OUT_QUEUE: usize = 256;
/// Connections open at once.
const MAX_CONNECTIONS: u64 = 64;

/// The listening side; dropping it does not stop it: call [`Listener::stop`].
pub struct Listener {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Listener {
    /// Accept connections on `listener` for `hub` until stopped.
    pub fn start(listener: TcpListener, hub: Arc<Hub>) -> std::io::Result<Self> {
        listener.set_nonblocking(true)?;
        let stop = Arc::new(AtomicBool::new(false));
        let s2 = stop.clone();
        let thread = std::thread::Builder::new()
            .name("link-listen".into())
            .spawn(move || accept_loop(listener, hub, s2))?;
        Ok(Self {
            stop,
            thread: Some(thread),
        })
    }

    /// Stop accepting (open connections are closed by [`Hub::close`]).
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn accept_loop(listener: TcpListener, hub: Arc<Hub>, stop: Arc<AtomicBool>) {
    let next_id = AtomicU64::new(1);
    let open = Arc::new(AtomicU64::new(0));
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, peer)) => {
                let id = next_id.fetch_add(1, Ordering::SeqCst);
                if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
                    tracing::warn!(%peer, "too many connections: refusing one");
                    let mut s = stream;
                    let _ = s.set_nonblocking(false);
                    let _ = s.write_all(&error_line(&format!(
                        "too many connections (at most {MAX_CONNECTIONS})"
                    )));
                    continue;
                }
                open.fetch_add(1, Ordering::SeqCst);
                let hub = hub.clone();
                let open2 = open.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("link-conn-{id}"))
                    .spawn(move || {
                        tracing::info!(%peer, conn = id, "agent connection");
                        serve_connection(stream, id, &hub);
                        open2.fetch_sub(1, Ordering::SeqCst);
                    });
                if spawned.is_err() {
                    open.fetch_sub(1, Ordering::SeqCst);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => {
                tracing::warn!("accept: {e}");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// One JSON `error` message (without the newline).
pub fn error_json(message: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({"type": "error", "message": message}))
        .unwrap_or_default()
}

/// One JSON `error` line.
pub fn error_line(message: &str) -> Vec<u8> {
    let mut v = error_json(message);
    v.push(b'\n');
    v
}

/// A line read from a client.
enum Line {
    Text(String),
    End,
    Bad(String),
    /// reading failed: the connection was reset or broke
    Failed(std::io::Error),
}

fn read_line(r: &mut BufReader<TcpStream>, buf: &mut Vec<u8>, number: u64) -> Line {
    buf.clear();
    match r.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', buf) {
        Ok(0) => Line::End,
        Ok(_) => {
            if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE {
                return Line::Bad(format!("line {number} is longer than {MAX_LINE} bytes"));
            }
            match std::str::from_utf8(buf) {
                Ok(s) => Line::Text(s.trim().to_string()),
                Err(e) => Line::Bad(format!("line {number} is not UTF-8 text ({e})")),
            }
        }
        Err(e) => Line::Failed(e),
    }
}

/// Why a read failed, in words a person understands.
fn io_cause(e: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match e.kind() {
        ConnectionReset | ConnectionAborted => {
            format!("the connection was reset: the agent's process ended or was killed ({e})")
        }
        BrokenPipe => format!("the connection broke: the agent's process ended ({e})"),
        TimedOut => format!("the connection timed out ({e})"),
        _ => format!("reading from the agent failed: {e}"),
    }
}

/// Spawn the writer thread of a connection; returns its outbox.
fn writer(stream: &TcpStream, id: u64) -> std::io::Result<(Outbox, JoinHandle<()>)> {
    let (tx, rx) = sync_channel::<Vec<u8>>(OUT_QUEUE);
    let (spare_tx, spare_rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let mut w = stream.try_clone()?;
    let handle = std::thread::Builder::new()
        .name(format!("link-write-{id}"))
        .spawn(move || {
            write_loop(&mut w, rx, spare_tx);
            // everything queued is out (an error line included): now close
            let _ = w.flush();
            let _ = w.shutdown(std::net::Shutdown::Both);
        })?;
    Ok((
        Outbox {
            lines: tx,
            spare: spare_rx,
            stream: stream.try_clone()?,
        },
        handle,
    ))
}

fn write_loop(w: &mut TcpStream, rx: std::sync::mpsc::Receiver<Vec<u8>>, spare: Sender<Vec<u8>>) {
    for buf in rx {
        if w.write_all(&buf).is_err() {
            return;
        }
        let _ = spare.send(buf);
    }
}

/// Read a connection's lines until it ends or misbehaves.
fn serve_connection(stream: TcpStream, id: u64, hub: &Arc<Hub>) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_nodelay(true);
    let Ok((out, writer_thread)) = writer(&stream, id) else {
        return;
    };
    // the hub holds the outbox while the connection has a robot; this is the reader's
    // own way to send (errors before or without a robot)
    let Ok(own) = stream.try_clone().map(|s| Outbox {
        lines: out.lines.clone(),
        spare: std::sync::mpsc::channel().1,
        stream: s,
    }) else {
        return;
    };
    let mut out = Some(out);
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    let mut robot: Option<usize> = None;
    let mut halted = false;
    let mut number = 0u64;
    let refuse = |message: &str| {
        tracing::warn!(conn = id, "refusing an agent: {message}");
        own.send(&error_json(message));
        format!("Skipper refused what the agent sent: {message}")
    };
    let mut cause = String::from("the agent closed the connection");
    loop {
        number += 1;
        let text = match read_line(&mut reader, &mut buf, number) {
            Line::End => break,
            Line::Failed(e) => {
                cause = io_cause(&e);
                break;
            }
            Line::Bad(why) => {
                cause = refuse(&why);
                break;
            }
            Line::Text(t) => t,
        };
        if text.is_empty() {
            continue;
        }
        let msg = match decode(&text) {
            Ok(m) => m,
            Err(e) => {
                cause = refuse(&format!("line {number}: {e}"));
                break;
            }
        };
        match msg {
            AgentMessage::Hello { robot: wanted, .. } => {
                if robot.is_some() {
                    cause = refuse(&format!("line {number}: a second hello"));
                    break;
                }
                let Some(o) = out.take() else { break };
                let welcome = |name: &str, names: &[String]| {
                    let cfg = hub.config();
                    serde_json::to_vec(&serde_json::json!({
                        "type": "welcome",
                        "robot": name,
                        "robots": names,
                        "period_s": cfg.period.as_secs_f64(),
                        "lockstep": cfg.lockstep,
                        "silence_s": cfg.silence.as_secs_f64(),
                    }))
                    .unwrap_or_default()
                };
                match hub.take_robot(id, wanted.as_deref(), o, welcome) {
                    Ok((i, name)) => {
                        tracing::info!(conn = id, robot = %name, "agent connected");
                        robot = Some(i);
                    }
                    Err(why) => {
                        cause = refuse(&why);
                        break;
                    }
                }
            }
            AgentMessage::Step(step) => {
                let Some(i) = robot else {
                    cause = refuse(&format!("line {number}: a step before hello"));
                    break;
                };
                if halted {
                    cause = refuse(&format!("line {number}: a step after halted"));
                    break;
                }
                halted = step.halted;
                if let Err(why) = hub.step(i, step) {
                    cause = refuse(&format!("line {number}: {why}"));
                    break;
                }
            }
            AgentMessage::Halted { .. } => {
                let Some(i) = robot else {
                    cause = refuse(&format!("line {number}: halted before hello"));
                    break;
                };
                halted = true;
                hub.halted(i);
            }
            AgentMessage::Error { message } => {
                tracing::warn!(conn = id, "the agent reports: {message}");
                cause = format!("the agent reported an error and left: {message}");
                break;
            }
            AgentMessage::Tell { to, from, text } => {
                let to = match (to, robot) {
                    (Some(t), _) => t,
                    (None, Some(i)) => hub.names().get(i).cloned().unwrap_or_default(),
                    (None, None) => {
                        cause = refuse(&format!(
                            "line {number}: a tell without `to` from a connection that has no robot"
                        ));
                        break;
                    }
                };
                if let Err(why) = hub.post().tell(&to, from.as_deref(), &text) {
                    cause = refuse(&format!("line {number}: {why}"));
                    break;
                }
            }
        }
    }
    if let Some(i) = robot {
        hub.left(id, i, cause);
    }
    // the writer ends once every sender is gone (the hub dropped its outbox in `left`)
    drop(out);
    drop(own);
    let _ = writer_thread.join();
}
