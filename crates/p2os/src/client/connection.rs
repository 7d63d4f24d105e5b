//! A connection to a robot as ARIA makes it: the SYNC0/1/2 handshake (one second per
//! answer, back to SYNC0 when an answer is not the one expected, CLOSE first when the
//! robot is still streaming SIPs from an earlier client), OPEN, CONFIG (asked again
//! every 200 ms for up to one second), then the robot's own motion limits and the
//! packet streams asked for.

use super::link::{Link, LinkSpec};
use crate::command::{CommandId, CommandPacket};
use crate::error::Error;
use crate::frame::{Frame, Framer, PacketBuf};
use crate::packets::{ids, ConfigPac, Identity};
use crate::params::RobotParams;
use std::time::{Duration, Instant};

/// What to do when connecting.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientOptions {
    /// Wait this long for each SYNC answer (ARIA: 1 s).
    pub sync_timeout: Duration,
    /// Give up after this many unanswered SYNCs (ARIA: about 10).
    pub max_no_answer: u32,
    /// Give up after this many SYNCs in all (ARIA: 50).
    pub max_sync_tries: u32,
    /// Wait this long for a CONFIGpac (ARIA: about 1 s, asking every 200 ms).
    pub config_timeout: Duration,
    /// Send the CONFIGpac's current motion limits back, as ARIA does.
    pub send_limits: bool,
    /// Enable the motors once connected (ARIA programs call `enableMotors()`).
    pub enable_motors: bool,
    /// Ask for a continuous ENCODERpac stream.
    pub encoders: bool,
    /// Ask for a continuous IOpac stream.
    pub io: bool,
    /// Ask for a continuous TCM2pac stream.
    pub tcm2: bool,
    /// Ask for a continuous GRIPPERpac stream.
    pub gripper_pac: bool,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            sync_timeout: Duration::from_millis(1000),
            max_no_answer: 10,
            max_sync_tries: 50,
            config_timeout: Duration::from_millis(1000),
            send_limits: true,
            enable_motors: true,
            encoders: false,
            io: false,
            tcm2: false,
            gripper_pac: false,
        }
    }
}

/// An open, handshaken connection.
#[derive(Debug)]
pub struct Connection {
    link: Link,
    framer: Framer,
    buf: Box<[u8]>,
    /// Who the robot is.
    pub identity: Identity,
    /// Its CONFIGpac, if it sent one.
    pub config: Option<ConfigPac>,
    /// Scaling for its subtype.
    pub params: &'static RobotParams,
}

impl Connection {
    /// Connect and run the handshake.
    pub fn open(spec: &LinkSpec, options: &ClientOptions) -> Result<Self, Error> {
        let link = Link::open(spec, options.sync_timeout * 3)?;
        let mut c = Connection {
            link,
            framer: Framer::new(),
            buf: vec![0u8; 1024].into_boxed_slice(),
            identity: Identity {
                name: String::new(),
                class: String::new(),
                subtype: String::new(),
            },
            config: None,
            params: &crate::params::GENERIC,
        };
        c.sync(options)?;
        std::thread::sleep(Duration::from_millis(100));
        c.send(&CommandPacket::int(CommandId::Open, 1))?;
        c.params = match RobotParams::for_subtype(&c.identity.subtype) {
            Some(p) => p,
            None => {
                tracing::warn!(
                    "robot subtype `{}` is unknown: using generic parameters (ARIA would refuse it)",
                    c.identity.subtype
                );
                &crate::params::GENERIC
            }
        };
        c.config = c.request_config(options)?;
        if let (true, Some(cfg)) = (options.send_limits, c.config.clone()) {
            let pairs = [
                (CommandId::SetV, i32::from(cfg.trans_vel_max)),
                (CommandId::SetA, i32::from(cfg.trans_accel)),
                (CommandId::SetA, -i32::from(cfg.trans_decel)),
                (CommandId::SetRv, i32::from(cfg.rot_vel_max)),
                (CommandId::SetRa, i32::from(cfg.rot_accel)),
                (CommandId::SetRa, -i32::from(cfg.rot_decel)),
            ];
            for (id, v) in pairs {
                if v != 0 {
                    c.send(&CommandPacket::int(id, v))?;
                }
            }
        }
        let streams = [
            (options.encoders, CommandId::Encoder, 2),
            (options.io, CommandId::IoRequest, 2),
            (options.tcm2, CommandId::Tcm2, 3),
            (options.gripper_pac, CommandId::GripperPacRequest, 2),
            (options.enable_motors, CommandId::Enable, 1),
        ];
        for (on, id, v) in streams {
            if on {
                c.send(&CommandPacket::int(id, v))?;
            }
        }
        Ok(c)
    }

    fn sync(&mut self, options: &ClientOptions) -> Result<(), Error> {
        let mut expect = 0u8;
        let (mut tries, mut no_answer) = (0u32, 0u32);
        while expect < 3 {
            tries += 1;
            if tries > options.max_sync_tries {
                return Err(Error::Handshake(format!(
                    "no proper SYNC answers after {} tries",
                    options.max_sync_tries
                )));
            }
            tracing::debug!("Syncing {expect}");
            self.link.write_all(PacketBuf::bare(expect).as_bytes())?;
            let deadline = Instant::now() + options.sync_timeout;
            let mut answer = None;
            while answer.is_none() {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                let n = self.link.read_timeout(&mut self.buf, left)?;
                if n == 0 && self.framer.pending() > 0 {
                    // a gap mid-packet: give the partial packet up, as ARIA does
                    self.framer.expire();
                }
                let mut identity = None;
                let mut reply = None;
                self.framer.feed(self.buf.get(..n).unwrap_or(&[]), |f| {
                    if reply.is_none() {
                        reply = Some(f.id);
                        if f.id == ids::SYNC2 {
                            identity = Some(Identity::decode(&f));
                        }
                    }
                });
                if let Some(id) = reply {
                    answer = Some((id, identity));
                }
            }
            match answer {
                None => {
                    no_answer += 1;
                    if no_answer > options.max_no_answer {
                        return Err(Error::Timeout {
                            timeout: options.sync_timeout,
                            during: "syncing",
                        });
                    }
                }
                Some((id, identity)) if id == expect => {
                    if let Some(i) = identity {
                        self.identity = i?;
                    }
                    expect += 1;
                }
                Some((id, _)) if ids::is_sip(id) => {
                    // still connected from before: close it and start over
                    self.send(&CommandPacket::int(CommandId::Close, 1))?;
                    std::thread::sleep(Duration::from_millis(100));
                    self.framer.reset();
                    expect = 0;
                }
                Some(_) => expect = 0,
            }
        }
        Ok(())
    }

    fn request_config(&mut self, options: &ClientOptions) -> Result<Option<ConfigPac>, Error> {
        let deadline = Instant::now() + options.config_timeout;
        let mut next_ask = Instant::now();
        loop {
            let now = Instant::now();
            if now >= deadline {
                tracing::warn!("no CONFIGpac from the robot; going on without it");
                return Ok(None);
            }
            if now >= next_ask {
                self.send(&CommandPacket::int(CommandId::Config, 1))?;
                next_ask = now + Duration::from_millis(200);
            }
            let mut found = None;
            self.poll(Duration::from_millis(20), |f| {
                if f.id == ids::CONFIG && found.is_none() {
                    found = ConfigPac::decode(f).ok();
                }
            })?;
            if found.is_some() {
                return Ok(found);
            }
        }
    }

    /// Send a command.
    pub fn send(&mut self, cmd: &CommandPacket<'_>) -> Result<(), Error> {
        let p = cmd.encode()?;
        self.link.write_all(p.as_bytes())
    }

    /// Send a built packet.
    pub fn send_packet(&mut self, p: &PacketBuf) -> Result<(), Error> {
        self.link.write_all(p.as_bytes())
    }

    /// Read for at most `timeout` and hand every packet to `on_packet`; returns how many
    /// came. A partial packet is given up when the link stays quiet for the whole timeout.
    pub fn poll(
        &mut self,
        timeout: Duration,
        mut on_packet: impl FnMut(&Frame<'_>),
    ) -> Result<usize, Error> {
        let n = self.link.read_timeout(&mut self.buf, timeout)?;
        if n == 0 && self.framer.pending() > 0 {
            self.framer.expire();
        }
        let mut count = 0;
        let mut reset = false;
        self.framer.feed(self.buf.get(..n).unwrap_or(&[]), |f| {
            if f.id == ids::RESET || f.id == ids::RESET_ALT {
                reset = true;
            }
            count += 1;
            on_packet(&f);
        });
        if reset {
            return Err(Error::Closed("the robot's microcontroller reset".into()));
        }
        Ok(count)
    }

    /// What the framer has seen.
    pub fn framer_stats(&self) -> crate::frame::FramerStats {
        self.framer.stats()
    }

    /// Disconnect as ARIA does: ENABLE 0, then CLOSE 1.
    pub fn close(mut self) {
        let _ = self.send(&CommandPacket::int(CommandId::Enable, 0));
        let _ = self.send(&CommandPacket::int(CommandId::Close, 1));
    }
}
