//! A P2OS robot as a Skipper [`Vehicle`]: every controller can drive a real Pioneer (or
//! MobileSim, or `skipper sim serve`).
//!
//! A link thread owns the connection. Like ARIA's state reflector it sends a changed
//! motion command at once and re-sends VEL/RVEL (or VEL2, or HEAD) at least every
//! 500 ms, sends PULSE when nothing else went out for 500 ms, and turns every packet
//! into the robot's state. When the link drops (no packet for `link_timeout`, an error,
//! a microcontroller reset) it reconnects with exponential backoff and re-applies the
//! motors and the latched motion command. When the controller stops calling `act`
//! for `controller_timeout`, the thread sends STOP and stops refreshing motion, so a
//! robot whose controller died stops (and its own watchdog would stop it anyway).
//!
//! Signals use the simulator's names (`pose.x`, `sonar.3`, `gripper.state`, `digin`,
//! ...; see `docs/p2os.md`), plus `p2os.connected` and `p2os.sips`.

use super::connection::{ClientOptions, Connection};
use super::link::LinkSpec;
use crate::command::{CommandId, CommandPacket};
use crate::error::Error;
use crate::frame::{Frame, PacketBuf};
use crate::packets::{ids, EncoderPac, GripperPac, GripperState, IoPac, Sip, Tcm2Pac};
use crate::params::RobotParams;
use skipper_core::sensors::SensorGeometry;
use skipper_core::vehicle::{VehicleError, VehicleFault};
use skipper_core::vocabulary::ground;
use skipper_core::{
    Actuation, Drive, Events, GripperCommand, Pose2, Pose3, Rotation, SignalId, Signals,
    Translation, Vehicle, VehicleInfo, VehicleKind, World,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Sonars the driver reports.
const SONARS: usize = 32;

/// How the driver behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct DriverOptions {
    /// The handshake and streams.
    pub client: ClientOptions,
    /// Re-send the motion command at least this often (ARIA: 500 ms).
    pub refresh: Duration,
    /// Drop the link when no packet came for this long (ARIA: 8 s).
    pub link_timeout: Duration,
    /// First reconnection delay; doubles up to `max_backoff`.
    pub backoff: Duration,
    /// Longest reconnection delay.
    pub max_backoff: Duration,
    /// The vehicle reports itself unhealthy (the run fails) after the link has been down
    /// this long; `None` keeps trying for ever.
    pub give_up_after: Option<Duration>,
    /// Stop the robot when the controller has not called `act` for this long.
    pub controller_timeout: Duration,
}

impl Default for DriverOptions {
    fn default() -> Self {
        Self {
            client: ClientOptions::default(),
            refresh: Duration::from_millis(500),
            link_timeout: Duration::from_millis(8000),
            backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(5),
            give_up_after: Some(Duration::from_secs(60)),
            controller_timeout: Duration::from_millis(1500),
        }
    }
}

/// The robot's state as the driver last heard it, in SI units.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RobotState {
    /// Odometry pose (m, rad): the first SIP's position read as signed 15-bit, then
    /// integrated from wrapping deltas.
    pub pose: Pose2,
    /// Wheel velocities (m/s).
    pub wheels: (f64, f64),
    /// Rotational velocity (rad/s).
    pub rot_vel: f64,
    /// Battery (V).
    pub battery: f64,
    /// State of charge (%), if reported.
    pub state_of_charge: Option<f64>,
    /// Stalls.
    pub stall: (bool, bool),
    /// Front and rear bumper bits.
    pub bumpers: (u8, u8),
    /// Motors enabled.
    pub motors: bool,
    /// Estop.
    pub estop: bool,
    /// Compass (deg), if nonzero.
    pub compass: Option<f64>,
    /// Sonar ranges (m).
    pub sonar: Vec<f64>,
    /// Sonar readings new since the last sense.
    pub sonar_fresh: Vec<bool>,
    /// The SIP's General-I/O gripper switches, as a Table 10 state byte.
    pub grip_state: Option<u8>,
    /// The last GRIPPERpac.
    pub gripper_pac: Option<GripperPac>,
    /// Selected analog port.
    pub anport: Option<u8>,
    /// SIP analog byte.
    pub analog: Option<u8>,
    /// Digital inputs.
    pub digin: Option<u8>,
    /// Digital outputs.
    pub digout: Option<u8>,
    /// The last IOpac.
    pub io: Option<IoPac>,
    /// The last ENCODERpac.
    pub encoders: Option<EncoderPac>,
    /// The last TCM2pac.
    pub tcm2: Option<Tcm2Pac>,
    /// Temperature (deg C), if known.
    pub temperature: Option<f64>,
    /// Packets of other kinds, by type.
    pub other_packets: u64,
    /// The last PLAYLIST reply's data.
    pub playlist: Option<Vec<u8>>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Trans {
    Vel(i32),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Rot {
    Vel(i32),
    Head(i32),
}

#[derive(Debug, Default)]
struct Commands {
    trans: Option<Trans>,
    rot: Option<Rot>,
    wheels: Option<(u8, u8)>,
    /// bumped on every motion change: the thread sends at once
    motion_version: u64,
    oneshots: Vec<PacketBuf>,
    motors: Option<bool>,
    last_act: Option<Instant>,
}

#[derive(Debug, Default)]
struct Shared {
    connected: bool,
    identity: Option<crate::packets::Identity>,
    params: Option<&'static RobotParams>,
    state: RobotState,
    sips: u64,
    link_events: Vec<(bool, String)>,
    down_since: Option<Instant>,
    reconnects: u64,
    cmd: Commands,
}

fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A robot on a P2OS link.
pub struct P2osVehicle {
    info: VehicleInfo,
    spec: LinkSpec,
    options: DriverOptions,
    shared: Arc<Mutex<Shared>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    ids: Option<Ids>,
    last_pose: Pose2,
    odometer: f64,
    odometer_started: bool,
    snapshot: RobotState,
}

struct Ids {
    ground: ground::Ids,
    connected: SignalId,
    sips: SignalId,
}

impl Ids {
    fn declare(s: &mut Signals) -> Self {
        let equipment = ground::Equipment {
            truth: false,
            sonars: SONARS,
            laser_beams: 0,
            gripper_detail: false,
        };
        Ids {
            ground: ground::Ids::declare(s, &equipment),
            connected: ground::P2OS_CONNECTED.declare(s),
            sips: ground::P2OS_SIPS.declare(s),
        }
    }
}

impl P2osVehicle {
    /// Connect (the first connection must succeed; later drops are reconnected) and
    /// start the link thread.
    pub fn connect(spec: LinkSpec, options: DriverOptions) -> Result<Self, Error> {
        let conn = Connection::open(&spec, &options.client)?;
        let identity = conn.identity.clone();
        let shared = Arc::new(Mutex::new(Shared {
            connected: true,
            identity: Some(identity.clone()),
            params: Some(conn.params),
            link_events: vec![(true, format!("connected to {} ({spec})", identity.name))],
            ..Default::default()
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (sh, st, sp, op) = (shared.clone(), stop.clone(), spec.clone(), options.clone());
        let thread = std::thread::Builder::new()
            .name("p2os-link".into())
            .spawn(move || link_thread(Some(conn), &sp, &op, &sh, &st))?;
        Ok(Self {
            info: VehicleInfo {
                name: if identity.name.is_empty() {
                    "robot".into()
                } else {
                    identity.name.clone()
                },
                kind: VehicleKind::Ground,
                model: identity.subtype.to_lowercase(),
            },
            spec,
            options,
            shared,
            stop,
            thread: Some(thread),
            ids: None,
            last_pose: Pose2::default(),
            odometer: 0.0,
            odometer_started: false,
            snapshot: RobotState::default(),
        })
    }

    /// Is the link up now?
    pub fn connected(&self) -> bool {
        lock(&self.shared).connected
    }

    /// How many times the link was re-established.
    pub fn reconnects(&self) -> u64 {
        lock(&self.shared).reconnects
    }

    /// SIPs received so far.
    pub fn sips(&self) -> u64 {
        lock(&self.shared).sips
    }

    /// The robot's state as last heard.
    pub fn state(&self) -> RobotState {
        lock(&self.shared).state.clone()
    }

    /// Send one raw command (for what [`Actuation`] has no word for: PLAYLIST, SOUND,
    /// SIM_SET_POSE, ...).
    pub fn send(&self, cmd: &CommandPacket<'_>) -> Result<(), Error> {
        let p = cmd.encode()?;
        lock(&self.shared).cmd.oneshots.push(p);
        Ok(())
    }

    /// Where the robot is.
    pub fn link(&self) -> &LinkSpec {
        &self.spec
    }

    fn queue(&self, c: &mut Commands, cmd: CommandPacket<'_>) {
        if let Ok(p) = cmd.encode() {
            c.oneshots.push(p);
        }
    }
}

impl Drop for P2osVehicle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn mm(v: f64) -> i32 {
    if v.is_finite() {
        (v * 1000.0).round().clamp(-32767.0, 32767.0) as i32
    } else {
        0
    }
}

fn dg(v: f64) -> i32 {
    if v.is_finite() {
        v.to_degrees().round().clamp(-32767.0, 32767.0) as i32
    } else {
        0
    }
}

impl Vehicle for P2osVehicle {
    fn info(&self) -> &VehicleInfo {
        &self.info
    }

    /// The sonar ring of the subtype the robot reported in its SYNC2 reply.
    fn sensors(&self) -> SensorGeometry {
        crate::geometry::sensors(&self.info.model)
    }

    fn sense(&mut self, now: Duration, s: &mut Signals, events: &mut Events) {
        if self.ids.is_none() {
            self.ids = Some(Ids::declare(s));
        }
        let (connected, sips, link_events) = {
            let mut sh = lock(&self.shared);
            // take the fresh-sonar marks with the state
            self.snapshot.clone_from(&sh.state);
            for f in sh.state.sonar_fresh.iter_mut() {
                *f = false;
            }
            (sh.connected, sh.sips, std::mem::take(&mut sh.link_events))
        };
        for (up, what) in link_events {
            events.push(now, "link", serde_json::json!({ "up": up, "what": what }));
        }
        let Some(all) = &self.ids else { return };
        let ids = &all.ground;
        let st = &self.snapshot;
        s.set_bool(all.connected, connected, now);
        s.set_i64(all.sips, sips as i64, now);
        if sips == 0 {
            return;
        }
        let p = st.pose;
        for (id, v) in ids.pose.iter().zip([p.x, p.y, p.yaw]) {
            s.set_f64(*id, v, now);
        }
        if self.odometer_started {
            self.odometer += (p.x - self.last_pose.x).hypot(p.y - self.last_pose.y);
        }
        self.odometer_started = true;
        self.last_pose = p;
        s.set_f64(ids.velocity[0], (st.wheels.0 + st.wheels.1) / 2.0, now);
        s.set_f64(ids.velocity[1], st.rot_vel, now);
        s.set_f64(ids.wheel[0], st.wheels.0, now);
        s.set_f64(ids.wheel[1], st.wheels.1, now);
        if let Some(e) = st.encoders {
            s.set_i64(ids.encoder[0], i64::from(e.left), now);
            s.set_i64(ids.encoder[1], i64::from(e.right), now);
        }
        s.set_bool(ids.stall[0], st.stall.0, now);
        s.set_bool(ids.stall[1], st.stall.1, now);
        s.set_i64(ids.bumper[0], i64::from(st.bumpers.0), now);
        s.set_i64(ids.bumper[1], i64::from(st.bumpers.1), now);
        s.set_bool(ids.motors, st.motors, now);
        s.set_bool(ids.estop, st.estop, now);
        for ((id, r), fresh) in ids.sonar.iter().zip(&st.sonar).zip(&st.sonar_fresh) {
            if *fresh {
                s.set_f64(*id, *r, now);
            }
        }
        let grip = st.gripper_pac.map(|g| g.state.0).or(st.grip_state);
        if let Some(g) = grip {
            s.set_i64(ids.gripper, i64::from(g), now);
        }
        if let Some(v) = st.digin {
            s.set_i64(ids.digin, i64::from(v), now);
        }
        if let Some(v) = st.digout {
            s.set_i64(ids.digout, i64::from(v), now);
        }
        if let Some(port) = st.anport {
            s.set_i64(ids.analog[0], i64::from(port), now);
            // the IOpac has the full 10 bits; the SIP byte the top 8
            let full = st
                .io
                .as_ref()
                .and_then(|io| io.analog.get(usize::from(port)).copied());
            match (full, st.analog) {
                (Some(v), _) => s.set_i64(ids.analog[1], i64::from(v), now),
                (None, Some(b)) => s.set_i64(ids.analog[1], i64::from(b) << 2, now),
                _ => {}
            }
        }
        if let Some(c) = st.compass {
            s.set_f64(ids.compass[0], c, now);
        }
        if let Some(t) = st.tcm2 {
            s.set_f64(ids.compass[0], f64::from(t.heading) / 10.0, now);
            s.set_f64(ids.compass[1], f64::from(t.pitch) / 10.0, now);
            s.set_f64(ids.compass[2], f64::from(t.roll) / 10.0, now);
            s.set_f64(ids.compass[3], f64::from(t.temperature) / 10.0, now);
        }
        s.set_f64(ids.battery[0], st.battery, now);
        if let Some(c) = st.state_of_charge {
            s.set_f64(ids.battery[1], c, now);
        }
    }

    fn act(&mut self, now: Duration, a: &Actuation, events: &mut Events) {
        let shared = self.shared.clone();
        let mut sh = lock(&shared);
        let vel2 = sh.params.map_or(20.0, |p| p.vel2_divisor);
        let c = &mut sh.cmd;
        c.last_act = Some(Instant::now());
        if let Some(e) = a.motors_enabled {
            c.motors = Some(e);
            self.queue(c, CommandPacket::int(CommandId::Enable, i32::from(e)));
        }
        if let Some(l) = &a.limits {
            let mut q = |id, v: Option<f64>, f: fn(f64) -> i32, sign: i32| {
                if let Some(v) = v.filter(|v| v.is_finite() && *v > 0.0) {
                    self.queue(c, CommandPacket::int(id, sign * f(v)));
                }
            };
            q(CommandId::SetV, l.max_velocity, mm, 1);
            q(CommandId::SetRv, l.max_rot_velocity, dg, 1);
            q(CommandId::SetA, l.accel, mm, 1);
            q(CommandId::SetA, l.decel, mm, -1);
            q(CommandId::SetRa, l.rot_accel, dg, 1);
            q(CommandId::SetRa, l.rot_decel, dg, -1);
        }
        if a.reset_odometry {
            self.queue(c, CommandPacket::bare(CommandId::SetO));
        }
        if let Some(d) = &a.drive {
            c.motion_version += 1;
            match *d {
                Drive::Estop => {
                    // first in line
                    if let Ok(p) = CommandPacket::bare(CommandId::Estop).encode() {
                        c.oneshots.insert(0, p);
                    }
                    (c.trans, c.rot, c.wheels) = (Some(Trans::Vel(0)), Some(Rot::Vel(0)), None);
                }
                Drive::Stop => {
                    self.queue(c, CommandPacket::bare(CommandId::Stop));
                    (c.trans, c.rot, c.wheels) = (Some(Trans::Vel(0)), Some(Rot::Vel(0)), None);
                }
                Drive::Wheels { left, right } | Drive::Motor { left, right } => {
                    let scale = if matches!(d, Drive::Motor { .. }) {
                        1.2
                    } else {
                        1.0
                    };
                    let unit = |v: f64| {
                        let u = (v * scale * 1000.0 / vel2).round();
                        if u.is_finite() {
                            u.clamp(-127.0, 127.0) as i8 as u8
                        } else {
                            0
                        }
                    };
                    c.wheels = Some((unit(left), unit(right)));
                    (c.trans, c.rot) = (None, None);
                }
                Drive::Channels {
                    translation,
                    rotation,
                } => {
                    c.wheels = None;
                    match translation {
                        Some(Translation::Velocity(v)) => c.trans = Some(Trans::Vel(mm(v))),
                        Some(Translation::Move(dist)) => {
                            c.trans = None;
                            self.queue(c, CommandPacket::int(CommandId::Move, mm(dist)));
                        }
                        None => {}
                    }
                    match rotation {
                        Some(Rotation::Velocity(w)) => c.rot = Some(Rot::Vel(dg(w))),
                        Some(Rotation::Heading(h)) => {
                            c.rot = Some(Rot::Head(dg(h).rem_euclid(360)));
                        }
                        Some(Rotation::DeltaHeading(dh)) => {
                            c.rot = None;
                            self.queue(c, CommandPacket::int(CommandId::DHead, dg(dh)));
                        }
                        None => {}
                    }
                }
            }
        }
        if let Some(g) = a.gripper {
            let (code, val) = match g {
                GripperCommand::Open => (1, None),
                GripperCommand::Close => (2, None),
                GripperCommand::Stop => (3, None),
                GripperCommand::LiftUp => (4, None),
                GripperCommand::LiftDown => (5, None),
                GripperCommand::LiftStop => (6, None),
                GripperCommand::Store => (7, None),
                GripperCommand::Deploy => (8, None),
                GripperCommand::Halt => (15, None),
                GripperCommand::Pressure(v) => (16, Some(v)),
                GripperCommand::LiftCarry(v) => (17, Some(v)),
            };
            self.queue(c, CommandPacket::int(CommandId::Gripper, code));
            if let Some(v) = val {
                self.queue(c, CommandPacket::int(CommandId::GripperVal, i32::from(v)));
            }
        }
        if let Some((mask, value)) = a.digital_out {
            self.queue(c, CommandPacket::two_bytes(CommandId::DigOut, mask, value));
        }
        if let Some(p) = a.analog_select {
            self.queue(c, CommandPacket::int(CommandId::Adsel, i32::from(p)));
        }
        if let Some(on) = a.sonar_enabled {
            self.queue(c, CommandPacket::int(CommandId::Sonar, i32::from(on)));
        }
        if let Some(b) = a.bump_stall {
            self.queue(c, CommandPacket::int(CommandId::BumpStall, i32::from(b)));
        }
        drop(sh);
        for text in &a.say {
            // P2OS SAY plays tones, not words: the text goes to the run log only
            events.push(now, "speech", serde_json::json!({ "text": &**text }));
        }
    }

    fn stop(&mut self, _now: Duration, _events: &mut Events) {
        let mut sh = lock(&self.shared);
        let c = &mut sh.cmd;
        c.motion_version += 1;
        (c.trans, c.rot, c.wheels) = (Some(Trans::Vel(0)), Some(Rot::Vel(0)), None);
        if let Ok(p) = CommandPacket::bare(CommandId::Stop).encode() {
            c.oneshots.insert(0, p);
        }
        c.last_act = Some(Instant::now());
    }

    fn pose(&self) -> Pose3 {
        self.last_pose.to_3d()
    }

    fn odometer(&self) -> f64 {
        self.odometer
    }

    fn health(&self) -> Result<(), VehicleError> {
        let sh = lock(&self.shared);
        match (sh.down_since, self.options.give_up_after) {
            (Some(t), Some(limit)) if t.elapsed() > limit => Err(VehicleError::new(
                self.info.name.clone(),
                VehicleFault::LinkLost,
                format!(
                    "the P2OS link to {} has been down for more than {} s",
                    self.spec,
                    limit.as_secs()
                ),
            )),
            _ => Ok(()),
        }
    }

    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        let sh = lock(&self.shared);
        out.insert("p2os_sips".into(), sh.sips.into());
        out.insert("p2os_reconnects".into(), sh.reconnects.into());
    }
}

/// The link thread: keep a connection, reflect commands, decode packets.
fn link_thread(
    mut conn: Option<Connection>,
    spec: &LinkSpec,
    options: &DriverOptions,
    shared: &Mutex<Shared>,
    stop: &AtomicBool,
) {
    let mut backoff = options.backoff;
    let mut link = LinkState::new(conn.as_ref().map(|c| c.params));
    while !stop.load(Ordering::SeqCst) {
        let Some(c) = conn.as_mut() else {
            std::thread::sleep(backoff);
            backoff = (backoff * 2).min(options.max_backoff);
            match Connection::open(spec, &options.client) {
                Ok(c) => {
                    let mut sh = lock(shared);
                    sh.connected = true;
                    sh.down_since = None;
                    sh.reconnects += 1;
                    sh.params = Some(c.params);
                    sh.identity = Some(c.identity.clone());
                    sh.link_events
                        .push((true, format!("reconnected to {} ({spec})", c.identity.name)));
                    // the robot starts afresh: motors as the controller wanted them,
                    // and the latched motion is sent again
                    if let Some(m) = sh.cmd.motors {
                        if let Ok(p) = CommandPacket::int(CommandId::Enable, i32::from(m)).encode()
                        {
                            sh.cmd.oneshots.insert(0, p);
                        }
                    }
                    sh.cmd.motion_version += 1;
                    link = LinkState::new(Some(c.params));
                    conn = Some(c);
                    backoff = options.backoff;
                }
                Err(e) => tracing::debug!("reconnecting to {spec}: {e}"),
            }
            continue;
        };
        if let Err(e) = link.step(c, options, shared) {
            tracing::warn!("P2OS link to {spec} lost: {e}");
            let mut sh = lock(shared);
            sh.connected = false;
            sh.down_since = Some(Instant::now());
            sh.link_events.push((false, format!("link lost: {e}")));
            conn = None;
        }
    }
    if let Some(c) = conn {
        c.close();
    }
}

/// What the link thread remembers between steps.
struct LinkState {
    params: &'static RobotParams,
    last_packet: Instant,
    last_sent: Instant,
    last_motion_sent: Instant,
    sent_version: u64,
    raw_xy: Option<(u16, u16)>,
    controller_dead: bool,
    sip: Sip,
    rx: Vec<u8>,
    spans: Vec<(u8, usize, usize)>,
}

impl LinkState {
    fn new(params: Option<&'static RobotParams>) -> Self {
        let now = Instant::now();
        Self {
            params: params.unwrap_or(&crate::params::GENERIC),
            last_packet: now,
            last_sent: now,
            last_motion_sent: now,
            sent_version: 0,
            raw_xy: None,
            controller_dead: false,
            sip: Sip::default(),
            rx: Vec::with_capacity(4096),
            spans: Vec::with_capacity(64),
        }
    }

    fn step(
        &mut self,
        c: &mut Connection,
        options: &DriverOptions,
        shared: &Mutex<Shared>,
    ) -> Result<(), Error> {
        // 1. read
        // copy the packets out (into buffers kept from step to step) so that the shared
        // state is locked only after the read
        let (rx, spans) = (&mut self.rx, &mut self.spans);
        rx.clear();
        spans.clear();
        let n = c.poll(Duration::from_millis(10), |f| {
            spans.push((f.id, rx.len(), rx.len() + f.data.len()));
            rx.extend_from_slice(f.data);
        })?;
        let now = Instant::now();
        if n > 0 {
            self.last_packet = now;
        } else if now.duration_since(self.last_packet) > options.link_timeout {
            return Err(Error::Timeout {
                timeout: options.link_timeout,
                during: "waiting for packets",
            });
        }
        // 2. take the commands
        let mut out: Vec<PacketBuf> = Vec::new();
        {
            let mut sh = lock(shared);
            let (rx, spans) = (
                std::mem::take(&mut self.rx),
                std::mem::take(&mut self.spans),
            );
            for &(id, a, b) in &spans {
                let f = Frame {
                    id,
                    data: rx.get(a..b).unwrap_or(&[]),
                    bytes: &[],
                };
                self.absorb(&f, &mut sh);
            }
            (self.rx, self.spans) = (rx, spans);
            let cmd = &mut sh.cmd;
            out.append(&mut cmd.oneshots);
            let alive = cmd
                .last_act
                .is_none_or(|t| now.duration_since(t) < options.controller_timeout);
            if !alive && !self.controller_dead {
                tracing::warn!("the controller stopped acting: stopping the robot");
                self.controller_dead = true;
                (cmd.trans, cmd.rot, cmd.wheels) = (None, None, None);
                out.push(PacketBuf::bare(CommandId::Stop as u8));
            }
            if alive {
                self.controller_dead = false;
            }
            let due = now.duration_since(self.last_motion_sent) >= options.refresh;
            if !self.controller_dead && (cmd.motion_version != self.sent_version || due) {
                self.sent_version = cmd.motion_version;
                let before = out.len();
                if let Some((l, r)) = cmd.wheels {
                    push(&mut out, CommandPacket::two_bytes(CommandId::Vel2, l, r));
                }
                if let Some(Trans::Vel(v)) = cmd.trans {
                    push(&mut out, CommandPacket::int(CommandId::Vel, v));
                }
                match cmd.rot {
                    Some(Rot::Vel(w)) => push(&mut out, CommandPacket::int(CommandId::RVel, w)),
                    Some(Rot::Head(h)) => push(&mut out, CommandPacket::int(CommandId::Head, h)),
                    None => {}
                }
                if out.len() > before || due {
                    self.last_motion_sent = now;
                }
            }
        }
        // 3. write
        for p in &out {
            c.send_packet(p)?;
            self.last_sent = now;
        }
        if now.duration_since(self.last_sent) >= options.refresh {
            c.send(&CommandPacket::bare(CommandId::Pulse))?;
            self.last_sent = now;
        }
        Ok(())
    }

    fn absorb(&mut self, f: &Frame<'_>, sh: &mut Shared) {
        let p = self.params;
        let st = &mut sh.state;
        match f.id {
            id if ids::is_sip(id) => {
                if self.sip.decode_from(f).is_err() {
                    return;
                }
                let s = &self.sip;
                match self.raw_xy {
                    None => {
                        let signed = |r: u16| {
                            let v = i32::from(r & 0x7FFF);
                            f64::from(if v >= 0x4000 { v - 0x8000 } else { v })
                        };
                        st.pose.x = signed(s.x) * p.dist_conv / 1000.0;
                        st.pose.y = signed(s.y) * p.dist_conv / 1000.0;
                    }
                    Some((ox, oy)) => {
                        st.pose.x += p.position_delta_mm(ox, s.x) / 1000.0;
                        st.pose.y += p.position_delta_mm(oy, s.y) / 1000.0;
                    }
                }
                self.raw_xy = Some((s.x, s.y));
                st.pose.yaw = RobotParams::heading_rad(s.th);
                let (l, r) = (p.velocity_mm_s(s.left_vel), p.velocity_mm_s(s.right_vel));
                st.wheels = (l / 1000.0, r / 1000.0);
                let t = s.tail();
                st.rot_vel = match t.rot_vel {
                    Some(rv) => (f64::from(rv) / 10.0).to_radians(),
                    None => p.rot_vel_from_wheels(l, r),
                };
                st.battery = match t.battery_x10 {
                    Some(b) => f64::from(b) / 10.0,
                    None => f64::from(s.battery) / 10.0,
                };
                st.stall = (s.left_stalled(), s.right_stalled());
                st.bumpers = (s.front_bumpers(), s.rear_bumpers());
                st.motors = s.motors_enabled();
                st.estop = s.estop();
                st.compass = (s.compass != 0).then(|| f64::from(s.compass) * 2.0);
                if st.sonar.len() < SONARS {
                    st.sonar = vec![0.0; SONARS];
                    st.sonar_fresh = vec![false; SONARS];
                }
                for r in s.sonar() {
                    let k = usize::from(r.index);
                    if let (Some(d), Some(f)) = (st.sonar.get_mut(k), st.sonar_fresh.get_mut(k)) {
                        *d = p.range_mm(r.range) / 1000.0;
                        *f = true;
                    }
                }
                st.grip_state = t.grip_state.map(|b| GripperState::from_general_io(b).0);
                st.anport = t.anport;
                st.analog = t.analog;
                st.digin = t.digin;
                st.digout = t.digout;
                st.temperature = t.temperature.filter(|&v| v != -127).map(f64::from);
                st.state_of_charge = t.state_of_charge.map(f64::from);
                sh.sips += 1;
            }
            ids::GRIPPER => st.gripper_pac = GripperPac::decode(f).ok().or(st.gripper_pac),
            ids::IO => {
                if let Ok(io) = IoPac::decode(f) {
                    st.io = Some(io);
                }
            }
            ids::ENCODER => st.encoders = EncoderPac::decode(f).ok().or(st.encoders),
            ids::TCM2 => st.tcm2 = Tcm2Pac::decode(f).ok().or(st.tcm2),
            ids::PLAYLIST => st.playlist = Some(f.data.to_vec()),
            _ => st.other_packets += 1,
        }
    }
}

fn push(out: &mut Vec<PacketBuf>, cmd: CommandPacket<'_>) {
    if let Ok(p) = cmd.encode() {
        out.push(p);
    }
}

/// A world of one P2OS robot (real time passes by itself).
pub struct P2osWorld {
    vehicle: P2osVehicle,
}

impl P2osWorld {
    /// Wrap a connected vehicle.
    pub fn new(vehicle: P2osVehicle) -> Self {
        Self { vehicle }
    }
    /// The vehicle.
    pub fn vehicle(&self) -> &P2osVehicle {
        &self.vehicle
    }
}

impl World for P2osWorld {
    fn len(&self) -> usize {
        1
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        (i == 0).then_some(&self.vehicle as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        (i == 0).then_some(&mut self.vehicle as &mut dyn Vehicle)
    }
    fn advance(&mut self, _now: Duration, _dt: Duration, _events: &mut Events) {}
    fn describe(&self) -> serde_json::Value {
        serde_json::json!({ "kind": "p2os", "link": self.vehicle.spec.to_string() })
    }
}
