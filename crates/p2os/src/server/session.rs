//! One client's session with one robot, without I/O: packets in, bytes out.
//!
//! A session answers SYNC0/1/2 (jumping to the client's number when it starts over or
//! skips, as AMRISim does), starts the SIP stream on OPEN (with or without an
//! argument), executes commands against the robot, sends the packets the client asked
//! for after every SIP (and the simulated laser's scans, see [`super::laser`]), and ends
//! on CLOSE (the server keeps the link open a while after it, see [`super`]). A watchdog
//! stops the robot when no command came for the configured time; the next motion
//! command moves it again. Simulator commands (SIM_SET_POSE, SIM_RESET, SIM_STAT with
//! the simulated GPS when the robot has one, SIM_CTRL's SIMINFO, SIM_MESSAGE, SIM_EXIT)
//! are answered as MobileSim does.

use super::fleet::{GeoFix, RobotFleet, RobotStatus, Sound};
use super::laser::{OldLaserCommands, OldStep, SimLaser};
use super::ServerConfig;
use crate::args::Arg;
use crate::command::{CommandId, CommandPacket};
use crate::frame::{Frame, PacketBuf};
use crate::packets::simstat::SimGeo;
use crate::packets::sip::{FLAG_ESTOP, FLAG_MOTORS, FLAG_SONARS};
use crate::packets::{
    ConfigPac, EncoderPac, GripperPac, GripperState, Identity, IoPac, Playlist, SimInfo, SimStat,
    Sip, SipTail, SonarReading, Tcm2Pac,
};
use crate::params::{saturate_i16, RobotParams};
use skipper_core::geometry::wrap_deg;
use skipper_core::{Actuation, Drive, GripperCommand, MotionLimits, Pose2, Rotation, Translation};
use std::time::Duration;

/// Where the session is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Handshake; the next SYNC expected.
    Sync(u8),
    /// SYNC2 answered; waiting for OPEN.
    Synced,
    /// OPEN: SIPs flow, commands run.
    Open,
    /// CLOSE received (or the session was ended).
    Closed,
}

/// A packet stream a client can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Stream {
    #[default]
    Off,
    Once,
    Continuous,
}

/// The TCM2 compass as the TCM2 command (#45) leaves it: on or off (the SIP's compass
/// byte is 0 while it is off), and its calibration. The simulated compass has no
/// distortion, so a calibration, once stopped (mode 6), scores the best the TCM2 reports
/// (H and V 9, M 0); until then, and while one runs (modes 4 and 5), the scores are 0.
/// A soft reset (mode 7) returns to the power-on state: on, no TCM2pac, uncalibrated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tcm2State {
    on: bool,
    calibrating: bool,
    calibrated: bool,
}

impl Default for Tcm2State {
    fn default() -> Self {
        Self {
            on: true,
            calibrating: false,
            calibrated: false,
        }
    }
}

impl Stream {
    fn from_arg(v: i32) -> Self {
        match v {
            0 => Stream::Off,
            1 => Stream::Once,
            _ => Stream::Continuous,
        }
    }
    /// Due this cycle? (a single packet is due once)
    fn take(&mut self) -> bool {
        match *self {
            Stream::Off => false,
            Stream::Once => {
                *self = Stream::Off;
                true
            }
            Stream::Continuous => true,
        }
    }
}

/// What the server should do after a packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Go on.
    Continue,
    /// The client closed the session.
    Close,
    /// SIM_EXIT: end the server with this code.
    Exit(i32),
}

/// Counters a session keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionStats {
    /// Commands executed.
    pub commands: u64,
    /// Commands we know but do not act on (logged).
    pub ignored: u64,
    /// Command packets that did not decode.
    pub bad_commands: u64,
    /// SIPs sent.
    pub sips: u64,
    /// Times the watchdog stopped the robot.
    pub watchdog_stops: u64,
}

/// One session.
#[derive(Debug)]
pub struct Session {
    robot: usize,
    phase: Phase,
    params: &'static RobotParams,
    identity: Identity,
    serial: String,
    config: ServerConfig,
    last_command: Duration,
    watchdog_tripped: bool,
    gripper_pac: Stream,
    io_pac: Stream,
    encoder_pac: Stream,
    tcm2_pac: Stream,
    tcm2: Tcm2State,
    simstat: Stream,
    /// GRIP_PRESSURE (16) or LIFT_CARRY (17) waiting for its GRIPPERVAL
    gripper_pending: Option<i16>,
    sound_on: bool,
    heading_setpoint: f64,
    laser: SimLaser,
    /// where an old (SRISim) laser configuration sequence is
    old_laser: Option<OldStep>,
    status: RobotStatus,
    sip: Sip,
    packet: PacketBuf,
    stats: SessionStats,
}

fn deg(v: i32) -> f64 {
    f64::from(v).to_radians()
}

impl Session {
    /// A new session with robot `robot` of `fleet`.
    pub fn new(robot: usize, fleet: &dyn RobotFleet, config: &ServerConfig, now: Duration) -> Self {
        let id = fleet.identity(robot);
        Self {
            robot,
            phase: Phase::Sync(0),
            params: RobotParams::for_subtype_or_generic(&id.subtype),
            identity: Identity {
                name: id.name,
                class: id.class,
                subtype: id.subtype,
            },
            serial: id.serial,
            config: config.clone(),
            last_command: now,
            watchdog_tripped: false,
            gripper_pac: Stream::Off,
            io_pac: Stream::Off,
            encoder_pac: Stream::Off,
            tcm2_pac: Stream::Off,
            tcm2: Tcm2State::default(),
            simstat: Stream::Off,
            gripper_pending: None,
            sound_on: true,
            heading_setpoint: 0.0,
            laser: SimLaser::default(),
            old_laser: None,
            status: RobotStatus::default(),
            sip: Sip::default(),
            packet: PacketBuf::default(),
            stats: SessionStats::default(),
        }
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// When the client last sent a command.
    pub fn last_command(&self) -> Duration {
        self.last_command
    }

    /// Counters.
    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    /// Handle one packet from the client; replies go to `out`.
    pub fn handle(
        &mut self,
        frame: &Frame<'_>,
        now: Duration,
        fleet: &mut dyn RobotFleet,
        out: &mut Vec<u8>,
    ) -> Outcome {
        self.last_command = now;
        let cmd = match CommandPacket::decode(frame) {
            Ok(c) => c,
            Err(e) => {
                self.stats.bad_commands += 1;
                tracing::debug!(robot = self.robot, "bad command {}: {e}", frame.id);
                return Outcome::Continue;
            }
        };
        match self.phase {
            Phase::Sync(_) | Phase::Synced if cmd.number <= 2 => {
                // SYNC0/1/2, or OPEN once synced
                if self.phase == Phase::Synced && cmd.number == 1 {
                    self.open(now, fleet);
                    return Outcome::Continue;
                }
                if self.phase == Phase::Synced && cmd.number == 2 && cmd.arg != Arg::None {
                    self.phase = Phase::Closed;
                    return Outcome::Close;
                }
                match cmd.number {
                    0 | 1 => out.extend_from_slice(PacketBuf::bare(cmd.number).as_bytes()),
                    _ => {
                        if let Ok(p) = self.identity.encode() {
                            out.extend_from_slice(p.as_bytes());
                        }
                    }
                }
                self.phase = if cmd.number == 2 {
                    Phase::Synced
                } else {
                    Phase::Sync(cmd.number + 1)
                };
                Outcome::Continue
            }
            Phase::Sync(_) | Phase::Synced => {
                tracing::debug!(
                    robot = self.robot,
                    "command {} before OPEN ignored",
                    cmd.number
                );
                self.stats.ignored += 1;
                Outcome::Continue
            }
            Phase::Closed => Outcome::Close,
            Phase::Open => self.execute(&cmd, now, fleet, out),
        }
    }

    fn open(&mut self, _now: Duration, fleet: &mut dyn RobotFleet) {
        self.phase = Phase::Open;
        // a robot starts with its motors off until the client enables them
        fleet.act(
            self.robot,
            &Actuation {
                motors_enabled: Some(false),
                drive: Some(Drive::Stop),
                ..Default::default()
            },
        );
    }

    fn act(&mut self, fleet: &mut dyn RobotFleet, a: Actuation) {
        fleet.act(self.robot, &a);
    }

    fn drive(&mut self, fleet: &mut dyn RobotFleet, t: Option<Translation>, r: Option<Rotation>) {
        self.act(
            fleet,
            Actuation {
                drive: Some(Drive::Channels {
                    translation: t,
                    rotation: r,
                }),
                ..Default::default()
            },
        );
        self.watchdog_tripped = false;
    }

    fn limits(&mut self, fleet: &mut dyn RobotFleet, l: MotionLimits) {
        self.act(
            fleet,
            Actuation {
                limits: Some(l),
                ..Default::default()
            },
        );
    }

    /// Execute a command of an open session.
    fn execute(
        &mut self,
        cmd: &CommandPacket<'_>,
        now: Duration,
        fleet: &mut dyn RobotFleet,
        out: &mut Vec<u8>,
    ) -> Outcome {
        use CommandId as C;
        let int = cmd.arg.int().unwrap_or(0);
        if self.old_laser_command(cmd.number, int) {
            self.stats.commands += 1;
            return Outcome::Continue;
        }
        let Some(id) = cmd.id() else {
            tracing::debug!(robot = self.robot, "unknown command {}", cmd.number);
            self.stats.ignored += 1;
            return Outcome::Continue;
        };
        self.stats.commands += 1;
        match id {
            C::Pulse => {}
            C::Open => {}
            C::Close => {
                self.phase = Phase::Closed;
                return Outcome::Close;
            }
            C::Enable => self.act(
                fleet,
                Actuation {
                    motors_enabled: Some(int != 0),
                    ..Default::default()
                },
            ),
            C::SetA if int >= 0 => self.limits(
                fleet,
                MotionLimits {
                    accel: Some(f64::from(int) / 1000.0),
                    ..Default::default()
                },
            ),
            C::SetA => self.limits(
                fleet,
                MotionLimits {
                    decel: Some(f64::from(-int) / 1000.0),
                    ..Default::default()
                },
            ),
            C::SetV => self.limits(
                fleet,
                MotionLimits {
                    max_velocity: Some(f64::from(int) / 1000.0),
                    ..Default::default()
                },
            ),
            C::SetRv => self.limits(
                fleet,
                MotionLimits {
                    max_rot_velocity: Some(deg(int)),
                    ..Default::default()
                },
            ),
            C::SetRa if int >= 0 => self.limits(
                fleet,
                MotionLimits {
                    rot_accel: Some(deg(int)),
                    ..Default::default()
                },
            ),
            C::SetRa => self.limits(
                fleet,
                MotionLimits {
                    rot_decel: Some(deg(-int)),
                    ..Default::default()
                },
            ),
            C::SetO => {
                self.act(
                    fleet,
                    Actuation {
                        reset_odometry: true,
                        ..Default::default()
                    },
                );
                self.heading_setpoint = 0.0;
            }
            C::Move => self.drive(
                fleet,
                Some(Translation::Move(f64::from(int) / 1000.0)),
                None,
            ),
            C::Vel => self.drive(
                fleet,
                Some(Translation::Velocity(f64::from(int) / 1000.0)),
                None,
            ),
            C::Rotate | C::RVel => self.drive(fleet, None, Some(Rotation::Velocity(deg(int)))),
            C::Head => {
                self.heading_setpoint = deg(int);
                self.drive(fleet, None, Some(Rotation::Heading(deg(int))));
            }
            C::DHead => {
                fleet.status(self.robot, &mut self.status);
                self.heading_setpoint = self.status.pose.yaw + deg(int);
                self.drive(fleet, None, Some(Rotation::DeltaHeading(deg(int))));
            }
            C::DcHead => {
                self.heading_setpoint += deg(int);
                self.drive(fleet, None, Some(Rotation::Heading(self.heading_setpoint)));
            }
            C::Vel2 => {
                let (hi, lo) = cmd.arg.two_bytes().unwrap_or((0, 0));
                let k = self.params.vel2_divisor / 1000.0;
                self.act(
                    fleet,
                    Actuation {
                        drive: Some(Drive::Wheels {
                            left: f64::from(hi as i8) * k,
                            right: f64::from(lo as i8) * k,
                        }),
                        ..Default::default()
                    },
                );
                self.watchdog_tripped = false;
            }
            C::Stop => self.act(
                fleet,
                Actuation {
                    drive: Some(Drive::Stop),
                    ..Default::default()
                },
            ),
            C::Estop => self.act(
                fleet,
                Actuation {
                    drive: Some(Drive::Estop),
                    ..Default::default()
                },
            ),
            C::Gripper => {
                let code = int as i16;
                if code == 16 || code == 17 {
                    self.gripper_pending = Some(code);
                } else if let Some(g) = GripperCommand::from_p2os(code, 0) {
                    self.gripper(fleet, g);
                } else {
                    self.stats.ignored += 1;
                }
            }
            C::GripperVal => {
                if let Some(code) = self.gripper_pending.take() {
                    if let Some(g) = GripperCommand::from_p2os(code, saturate_i16(f64::from(int))) {
                        self.gripper(fleet, g);
                    }
                }
            }
            C::GripperPacRequest => self.gripper_pac = Stream::from_arg(int),
            C::DigOut => {
                let (mask, value) = cmd.arg.two_bytes().unwrap_or((0, 0));
                self.act(
                    fleet,
                    Actuation {
                        digital_out: Some((mask, value)),
                        ..Default::default()
                    },
                );
            }
            C::Adsel => self.act(
                fleet,
                Actuation {
                    analog_select: Some(int.clamp(0, 255) as u8),
                    ..Default::default()
                },
            ),
            C::IoRequest => self.io_pac = Stream::from_arg(int),
            C::Encoder => self.encoder_pac = Stream::from_arg(int),
            C::Tcm2 => match int {
                0 => {
                    self.tcm2.on = false;
                    self.tcm2_pac = Stream::Off;
                }
                1 => {
                    self.tcm2.on = true;
                    self.tcm2_pac = Stream::Off;
                }
                2 | 3 => {
                    self.tcm2.on = true;
                    self.tcm2_pac = if int == 2 {
                        Stream::Once
                    } else {
                        Stream::Continuous
                    };
                }
                4 | 5 => {
                    self.tcm2.calibrating = true;
                    self.tcm2.calibrated = false;
                }
                6 => {
                    self.tcm2.calibrated = self.tcm2.calibrating || self.tcm2.calibrated;
                    self.tcm2.calibrating = false;
                }
                7 => {
                    self.tcm2 = Tcm2State::default();
                    self.tcm2_pac = Stream::Off;
                }
                _ => self.stats.ignored += 1,
            },
            C::Sonar => self.act(
                fleet,
                Actuation {
                    sonar_enabled: Some(int != 0),
                    ..Default::default()
                },
            ),
            C::BumpStall => self.act(
                fleet,
                Actuation {
                    bump_stall: Some(int.clamp(0, 3) as u8),
                    ..Default::default()
                },
            ),
            C::Say => {
                if let Arg::Str(b) | Arg::Raw(_, b) = cmd.arg {
                    if self.sound_on {
                        fleet.sound(self.robot, Sound::Tones(b));
                    }
                }
            }
            C::Sound => {
                if self.sound_on {
                    fleet.sound(self.robot, Sound::Number(int));
                }
            }
            C::SoundTog => self.sound_on = int != 0,
            C::Playlist => {
                let all = fleet.playlist(self.robot);
                let chosen: Vec<_> = match usize::try_from(int) {
                    Ok(n) if n > 0 => all.get(n - 1).copied().into_iter().collect(),
                    _ => all,
                };
                if let Ok(packets) = Playlist::encode(&chosen) {
                    for p in packets {
                        out.extend_from_slice(p.as_bytes());
                    }
                }
            }
            C::Config => {
                fleet.status(self.robot, &mut self.status);
                if let Ok(p) = self.config_pac().encode() {
                    out.extend_from_slice(p.as_bytes());
                }
            }
            C::SimSetPose => match cmd.sim_pose() {
                Some((x, y, th)) => {
                    let pose = Pose2::new(f64::from(x) / 1000.0, f64::from(y) / 1000.0, deg(th));
                    match fleet.set_pose(self.robot, pose) {
                        Ok(()) => self.laser.moved(),
                        Err(e) => tracing::warn!(robot = self.robot, "SIM_SET_POSE refused: {e}"),
                    }
                }
                None => self.stats.bad_commands += 1,
            },
            C::SimReset => match fleet.reset(self.robot) {
                Ok(()) => self.laser.moved(),
                Err(e) => tracing::warn!(robot = self.robot, "SIM_RESET refused: {e}"),
            },
            C::SimLrfEnable => self.laser.enable(int),
            C::SimLrfSetFovStart => self.laser.set_start(int),
            C::SimLrfSetFovEnd => self.laser.set_end(int),
            C::SimLrfSetRes => self.laser_increment(int),
            C::SimCtrl => self.sim_ctrl(int, fleet, out),
            C::SimStat => self.simstat = Stream::from_arg(cmd.arg.int().unwrap_or(1)),
            C::SimMessage => {
                if let Arg::Str(b) = cmd.arg {
                    tracing::info!(
                        robot = self.robot,
                        "client says: {}",
                        String::from_utf8_lossy(b)
                    );
                }
            }
            C::SimExit => {
                tracing::info!(robot = self.robot, "client requested exit with code {int}");
                return Outcome::Exit(int);
            }
            _ => {
                // known, but nothing to do on this robot (joystick, baud rates, AUX ports,
                // battery packets, laser and other simulator extras)
                self.stats.commands -= 1;
                self.stats.ignored += 1;
                tracing::debug!(robot = self.robot, "{} ignored", id.info().name);
            }
        }
        let _ = now;
        Outcome::Continue
    }

    /// Commands 35-38 read as the old simulated-laser commands, as the configuration
    /// says ([`OldLaserCommands`]); `true` if this one was.
    fn old_laser_command(&mut self, number: u8, int: i32) -> bool {
        let step = self.old_laser.take();
        let laser = match (self.config.old_laser_commands, number) {
            (OldLaserCommands::Never, _) | (_, 0..=34 | 39..) => false,
            (_, 38) | (OldLaserCommands::Always, _) => true,
            (OldLaserCommands::Sequence, 36) => self.gripper_pending.is_none(),
            (OldLaserCommands::Sequence, 37) => step == Some(OldStep::Start),
            (OldLaserCommands::Sequence, _) => step == Some(OldStep::Increment),
        };
        if !laser {
            return false;
        }
        match number {
            36 => {
                self.laser.set_start(int);
                self.old_laser = Some(OldStep::Start);
            }
            37 => {
                self.laser.set_end(int);
                self.old_laser = Some(OldStep::End);
            }
            38 => {
                self.laser_increment(int);
                self.old_laser = Some(OldStep::Increment);
            }
            _ => self.laser.enable(int),
        }
        true
    }

    fn laser_increment(&mut self, hundredths: i32) {
        if !self.laser.set_increment(hundredths) {
            tracing::warn!(
                robot = self.robot,
                "laser increment {hundredths}/100° refused: it must be positive"
            );
        }
    }

    /// SIM_CTRL: 6 asks for SIMINFO; the map and log operations MobileSim offers are
    /// logged as not supported (the world is the one `skipper sim serve` loaded).
    fn sim_ctrl(&mut self, op: i32, fleet: &mut dyn RobotFleet, out: &mut Vec<u8>) {
        match op {
            6 => {
                let info = SimInfo {
                    app: "Skipper".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    flags: 0,
                    devices: fleet.devices(self.robot),
                };
                match info.encode() {
                    Ok(p) => out.extend_from_slice(p.as_bytes()),
                    Err(e) => tracing::warn!(robot = self.robot, "SIMINFO: {e}"),
                }
            }
            3 => {} // clear the map master: there is none
            _ => {
                self.stats.ignored += 1;
                tracing::warn!(
                    robot = self.robot,
                    "SIM_CTRL {op} is not supported (1/2 load a map: restart the server with --world; 4 rotate logs, 5 log state, 7 ghost, 8 snapshot)"
                );
            }
        }
    }

    fn gripper(&mut self, fleet: &mut dyn RobotFleet, g: GripperCommand) {
        self.act(
            fleet,
            Actuation {
                gripper: Some(g),
                ..Default::default()
            },
        );
    }

    /// Watchdog: stop the robot if no command came for the configured time.
    pub fn check_watchdog(&mut self, now: Duration, fleet: &mut dyn RobotFleet) -> bool {
        if self.phase != Phase::Open || self.watchdog_tripped {
            return false;
        }
        let Some(limit) = self.config.watchdog else {
            return false;
        };
        if now.saturating_sub(self.last_command) < limit {
            return false;
        }
        self.watchdog_tripped = true;
        self.stats.watchdog_stops += 1;
        tracing::info!(
            robot = self.robot,
            "watchdog: no command for {} ms, stopping the robot",
            limit.as_millis()
        );
        self.act(
            fleet,
            Actuation {
                drive: Some(Drive::Stop),
                ..Default::default()
            },
        );
        true
    }

    /// One SIP cycle: the SIP, then every packet the client asked for.
    pub fn cycle(&mut self, fleet: &mut dyn RobotFleet, out: &mut Vec<u8>) {
        if self.phase != Phase::Open {
            return;
        }
        fleet.status(self.robot, &mut self.status);
        self.fill_sip();
        if let Ok(b) = self.sip.encode_into(&mut self.packet) {
            out.extend_from_slice(b);
            self.stats.sips += 1;
        }
        let st = &self.status;
        if self.gripper_pac.take() {
            let pac = GripperPac {
                kind: if st.gripper.is_some() { 2 } else { 0 },
                state: GripperState(st.gripper.unwrap_or(0)),
                grasp_time: Some(0),
            };
            if let Ok(p) = pac.encode() {
                out.extend_from_slice(p.as_bytes());
            }
        }
        if self.io_pac.take() {
            let pac = IoPac {
                digin: vec![st.digin],
                digout: vec![st.digout],
                analog: st.analog.to_vec(),
            };
            if let Ok(p) = pac.encode() {
                out.extend_from_slice(p.as_bytes());
            }
        }
        if self.encoder_pac.take() {
            let pac = EncoderPac {
                left: st.encoders.0 as i32,
                right: st.encoders.1 as i32,
            };
            if let Ok(p) = pac.encode() {
                out.extend_from_slice(p.as_bytes());
            }
        }
        if self.tcm2_pac.take() {
            let t = |v: f64| saturate_i16(v * 10.0);
            let pac = Tcm2Pac {
                heading: t(st.tcm2[0]),
                pitch: t(st.tcm2[1]),
                roll: t(st.tcm2[2]),
                temperature: t(st.tcm2[3]),
                cal_h: if self.tcm2.calibrated { 9 } else { 0 },
                cal_v: if self.tcm2.calibrated { 9 } else { 0 },
                ..Default::default()
            };
            if let Ok(p) = pac.encode() {
                out.extend_from_slice(p.as_bytes());
            }
        }
        let (robot, odometry) = (self.robot, st.pose);
        self.laser.cycle(
            odometry,
            |first, step, ranges| fleet.laser_scan(robot, first, step, ranges),
            out,
        );
        let st = &self.status;
        if self.simstat.take() {
            let ms = self.config.sip_cycle.as_millis().min(65535) as u16;
            let pac = SimStat {
                flags: 0,
                sim_interval: ms,
                real_interval: ms,
                last_interval: ms,
                x: (st.true_pose.x * 1000.0).round() as i32,
                y: (st.true_pose.y * 1000.0).round() as i32,
                z: 0,
                th: st.true_pose.yaw.to_degrees().round() as i32,
                geo: st.geo.as_ref().map(sim_geo),
            };
            if let Ok(p) = pac.encode() {
                out.extend_from_slice(p.as_bytes());
            }
        }
    }

    fn fill_sip(&mut self) {
        let st = &self.status;
        let p = self.params;
        let s = &mut self.sip;
        s.x = p.position_units(st.pose.x * 1000.0);
        s.y = p.position_units(st.pose.y * 1000.0);
        s.th = RobotParams::heading_units(st.pose.yaw);
        s.left_vel = p.velocity_units(st.wheel_left * 1000.0);
        s.right_vel = p.velocity_units(st.wheel_right * 1000.0);
        s.moving = s.left_vel != 0 || s.right_vel != 0;
        s.battery = (st.battery_volts * 10.0).round().clamp(0.0, 255.0) as u8;
        s.stall_bumpers = Sip::pack_stall_bumpers(
            st.stall_left,
            st.stall_right,
            st.bumpers_front,
            st.bumpers_rear,
        );
        s.control = RobotParams::heading_units(self.heading_setpoint);
        s.flags = if st.motors_enabled { FLAG_MOTORS } else { 0 }
            | if st.sonar_enabled { FLAG_SONARS } else { 0 }
            | if st.estop { FLAG_ESTOP } else { 0 };
        s.compass = st.compass_deg.filter(|_| self.tcm2.on).map_or(0, |d| {
            (wrap_deg(d).rem_euclid(360.0) / 2.0).round().min(179.0) as u8
        });
        let n = st.sonars.min(st.sonar.len());
        s.set_sonar(
            st.sonar
                .iter()
                .zip(st.sonar_fresh.iter())
                .take(n)
                .enumerate()
                .filter(|(_, (_, fresh))| **fresh && st.sonar_enabled)
                .map(|(k, (r, _))| SonarReading {
                    index: k as u8,
                    range: p.range_units(r * 1000.0),
                }),
        );
        let port = usize::from(st.analog_port);
        s.set_tail(&SipTail {
            anport: Some(st.analog_port),
            grip_state: Some(st.gripper.map_or(0, |g| GripperState(g).to_general_io())),
            analog: Some((st.analog.get(port).copied().unwrap_or(0) >> 2).min(255) as u8),
            digin: Some(st.digin),
            digout: Some(st.digout),
            battery_x10: Some((st.battery_volts * 10.0).round().clamp(0.0, 65535.0) as u16),
            charge_state: Some(0),
            rot_vel: Some(saturate_i16(st.rot_vel.to_degrees() * 10.0)),
            fault_flags: Some(0),
            lat_vel: Some(0),
            temperature: Some(st.temperature.round().clamp(-127.0, 127.0) as i8),
            state_of_charge: Some(st.state_of_charge.round().clamp(0.0, 100.0) as u8),
            uc_time: None,
            flags3: None,
        });
    }

    fn config_pac(&self) -> ConfigPac {
        let st = &self.status;
        let l = &st.limits;
        let mm = |v: Option<f64>| (v.unwrap_or(0.0) * 1000.0).round().clamp(0.0, 65535.0) as u16;
        let dg = |v: Option<f64>| v.unwrap_or(0.0).to_degrees().round().clamp(0.0, 65535.0) as u16;
        ConfigPac {
            robot_type: self.identity.class.clone(),
            subtype: self.identity.subtype.clone(),
            serial: self.serial.clone(),
            four_mots: 0,
            rot_vel_top: self.params.abs_max_rot_vel as u16,
            trans_vel_top: self.params.abs_max_vel as u16,
            rot_acc_top: 500,
            trans_acc_top: 1000,
            pwm_max: 1000,
            name: self.identity.name.clone(),
            sip_cycle: self.config.sip_cycle.as_millis().min(255) as u8,
            host_baud: 0,
            aux1_baud: 0,
            has_gripper: u16::from(st.gripper.is_some()),
            front_sonar: 1,
            rear_sonar: u8::from(st.sonars > 8),
            low_battery: 110,
            rev_count: 16570,
            watchdog: self
                .config
                .watchdog
                .map_or(0, |w| w.as_millis().min(65535) as u16),
            p2_mpacs: 0,
            stall_val: 0,
            stall_count: 0,
            joy_vel: 0,
            joy_rvel: 0,
            rot_vel_max: dg(l.max_rot_velocity),
            trans_vel_max: mm(l.max_velocity),
            rot_accel: dg(l.rot_accel),
            rot_decel: dg(l.rot_decel),
            trans_accel: mm(l.accel),
            trans_decel: mm(l.decel),
            front_bumps: 5,
            rear_bumps: 5,
            sonar_cycle: 40,
            ticks_mm: 128,
            shutdown_voltage: 105,
            firmware_version: format!("Skipper {}", env!("CARGO_PKG_VERSION")),
            fields: ConfigPac::THROUGH_CHARGE_THRESHOLD,
            ..Default::default()
        }
    }
}

/// SIMSTAT's GPS fields in ARIA's units (`ArSimulatedGPS::handleSimStatPacket`): degrees
/// × 10⁷, centimetres, and DOP × 100 in a signed byte (-1 no fix).
fn sim_geo(g: &GeoFix) -> SimGeo {
    SimGeo {
        latitude: (g.latitude * 1e7).round() as i32,
        longitude: (g.longitude * 1e7).round() as i32,
        altitude: (g.altitude * 100.0).round() as i32,
        quality: g
            .dop
            .map_or(-1, |d| (d * 100.0).round().clamp(1.0, 127.0) as i32),
    }
}
