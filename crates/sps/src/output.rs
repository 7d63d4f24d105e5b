//! The output-link: command processing with the reference's rules (section 2).
//!
//! - O1: every new command is processed once (by timetag), in output-link order.
//! - O2: statuses are added, never replaced: `accepted`, `executing`, `complete`,
//!   `interrupted`, `error` (with a `^message`).
//! - O3/O4: an unknown name or a bad parameter gives `error`; a bad *drive* command
//!   e-stops the robot.
//! - O5/O6: at most one drive command per cycle (later ones get `error`, a later `estop`
//!   still forces ESTOP); a new drive command interrupts the running one first:
//!   `set-heading`, `set-heading-linear` and `stop` get `interrupted`, the others
//!   `complete`.
//! - O7: the chosen drive command is latched until another replaces it.
//! - O8–O12: `motor`, `set-velocity`, `set-heading` (complete within 3° of the *wrapped*
//!   error, the reference's recommendation), `stop` (complete below 0.01 m/s), `estop`.
//! - O13–O18: waypoints, messages, configure.

use crate::link::Link;
use crate::params::{self, ParamError};
use crate::waypoints::{Waypoint, WaypointId};
use crate::wire::{Command, Param, Step};
use skipper_core::geometry::wrap_rad;
use skipper_core::{Actuation, Drive, Rotation, Translation};
use std::collections::HashSet;
use std::sync::Arc;

/// `set-heading` completes when the wrapped heading error is below this (deg).
pub const HEADING_TOLERANCE_DEG: f64 = 3.0;
/// `stop` completes when the speed is below this (m/s).
pub const STOP_SPEED: f64 = 0.01;

/// A command status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandStatus {
    /// taken
    Accepted,
    /// running
    Executing,
    /// done
    Complete,
    /// replaced by a newer drive command before it was done
    Interrupted,
    /// refused (a `^message` says why)
    Error,
}

impl CommandStatus {
    /// The status word on the output-link.
    pub fn as_str(self) -> &'static str {
        match self {
            CommandStatus::Accepted => "accepted",
            CommandStatus::Executing => "executing",
            CommandStatus::Complete => "complete",
            CommandStatus::Interrupted => "interrupted",
            CommandStatus::Error => "error",
        }
    }
}

/// A status added to a command.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusUpdate {
    /// the command's timetag
    pub tt: i64,
    /// the command's name (`unknown` for names the link does not know)
    pub command: &'static str,
    /// the status
    pub status: CommandStatus,
    /// for errors: why
    pub message: Option<Arc<str>>,
}

/// The commands the link knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// throttles
    Motor,
    /// linear and angular velocity
    SetVelocity,
    /// linear velocity only (late version)
    SetLinearVelocity,
    /// angular velocity only (late version)
    SetAngularVelocity,
    /// turn to a yaw
    SetHeading,
    /// turn to a yaw with a linear velocity (late version)
    SetHeadingLinear,
    /// graceful stop
    Stop,
    /// emergency stop
    Estop,
    /// register a waypoint
    AddWaypoint,
    /// forget a waypoint
    RemoveWaypoint,
    /// show a waypoint again
    EnableWaypoint,
    /// hide a waypoint
    DisableWaypoint,
    /// speak or send
    SendMessage,
    /// drop one received message
    RemoveMessage,
    /// drop every received message
    ClearMessages,
    /// yaw-format and offsets
    Configure,
}

impl Kind {
    /// The command for a name.
    pub fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "motor" => Kind::Motor,
            "set-velocity" => Kind::SetVelocity,
            "set-linear-velocity" => Kind::SetLinearVelocity,
            "set-angular-velocity" => Kind::SetAngularVelocity,
            "set-heading" => Kind::SetHeading,
            "set-heading-linear" => Kind::SetHeadingLinear,
            "stop" => Kind::Stop,
            "estop" => Kind::Estop,
            "add-waypoint" => Kind::AddWaypoint,
            "remove-waypoint" => Kind::RemoveWaypoint,
            "enable-waypoint" => Kind::EnableWaypoint,
            "disable-waypoint" => Kind::DisableWaypoint,
            "send-message" => Kind::SendMessage,
            "remove-message" => Kind::RemoveMessage,
            "clear-messages" => Kind::ClearMessages,
            "configure" => Kind::Configure,
            _ => return None,
        })
    }
    /// The command name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Motor => "motor",
            Kind::SetVelocity => "set-velocity",
            Kind::SetLinearVelocity => "set-linear-velocity",
            Kind::SetAngularVelocity => "set-angular-velocity",
            Kind::SetHeading => "set-heading",
            Kind::SetHeadingLinear => "set-heading-linear",
            Kind::Stop => "stop",
            Kind::Estop => "estop",
            Kind::AddWaypoint => "add-waypoint",
            Kind::RemoveWaypoint => "remove-waypoint",
            Kind::EnableWaypoint => "enable-waypoint",
            Kind::DisableWaypoint => "disable-waypoint",
            Kind::SendMessage => "send-message",
            Kind::RemoveMessage => "remove-message",
            Kind::ClearMessages => "clear-messages",
            Kind::Configure => "configure",
        }
    }
    /// Does it drive the robot (one per cycle, preempts the running one)?
    pub fn is_drive(self) -> bool {
        matches!(
            self,
            Kind::Motor
                | Kind::SetVelocity
                | Kind::SetLinearVelocity
                | Kind::SetAngularVelocity
                | Kind::SetHeading
                | Kind::SetHeadingLinear
                | Kind::Stop
                | Kind::Estop
        )
    }
    /// The status a running command gets when a newer drive command replaces it (O6).
    pub fn interrupted_status(self) -> CommandStatus {
        match self {
            Kind::SetHeading | Kind::SetHeadingLinear | Kind::Stop => CommandStatus::Interrupted,
            _ => CommandStatus::Complete,
        }
    }
}

/// The running drive command.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Running {
    /// its timetag
    pub tt: i64,
    /// what it is
    pub kind: Kind,
    /// for set-heading: the target yaw (rad)
    pub target: f64,
    /// `executing` was added
    pub executing: bool,
}

/// What the output side remembers between cycles.
#[derive(Debug, Clone, Default)]
pub struct OutputState {
    pub(crate) seen: HashSet<i64>,
    /// the running drive command
    pub running: Option<Running>,
    /// the latched drive command (O7)
    pub latched: Option<Drive>,
    /// linear velocity kept for set-heading (m/s)
    pub(crate) linear: f64,
    /// angular velocity of the last velocity command (rad/s)
    pub(crate) angular: f64,
}

impl Link {
    fn status(&mut self, tt: i64, command: &'static str, status: CommandStatus) {
        self.counters.statuses += 1;
        self.statuses.push(StatusUpdate {
            tt,
            command,
            status,
            message: None,
        });
    }

    fn error(&mut self, tt: i64, command: &'static str, message: String) {
        tracing::debug!(agent = %self.name, tt, command, "error: {message}");
        self.counters.statuses += 1;
        self.counters.errors += 1;
        self.statuses.push(StatusUpdate {
            tt,
            command,
            status: CommandStatus::Error,
            message: Some(Arc::from(message)),
        });
    }

    /// The latched drive command.
    pub fn latched_drive(&self) -> Option<Drive> {
        self.output.latched
    }

    /// The running drive command.
    pub fn running(&self) -> Option<Running> {
        self.output.running
    }

    /// Process the new commands of a decision cycle (rules O1–O18); the drive command
    /// chosen this cycle (if any) goes into `actuation.drive`, speech into `say`.
    pub(crate) fn process_output(&mut self, step: &Step, actuation: &mut Actuation) {
        for tt in &step.removed {
            self.output.seen.remove(tt);
        }
        let mut ddc: Option<Drive> = None;
        for cmd in &step.commands {
            if !self.output.seen.insert(cmd.tt) {
                continue; // O1: each command once
            }
            self.counters.commands += 1;
            let Some(kind) = Kind::from_name(&cmd.name) else {
                self.error(cmd.tt, "unknown", format!("unknown command: {}", cmd.name));
                continue;
            };
            if kind.is_drive() {
                if let Some(d) = ddc {
                    if kind == Kind::Estop {
                        self.error(
                            cmd.tt,
                            kind.name(),
                            format!(
                                "estop overrides this cycle's drive command ({})",
                                drive_name(&d)
                            ),
                        );
                        ddc = Some(Drive::Estop);
                    } else {
                        self.error(
                            cmd.tt,
                            kind.name(),
                            format!(
                                "ignoring {} because this cycle already has a drive command ({})",
                                kind.name(),
                                drive_name(&d)
                            ),
                        );
                    }
                    continue;
                }
                if let Some(r) = self.output.running.take() {
                    self.status(r.tt, r.kind.name(), r.kind.interrupted_status());
                }
            }
            match self.execute(kind, cmd, step) {
                Ok(drive) => {
                    if let Some(d) = drive {
                        ddc = Some(d);
                    }
                }
                Err(msg) => {
                    self.error(cmd.tt, kind.name(), msg);
                    if kind.is_drive() {
                        tracing::warn!(agent = %self.name, "bad {} command: e-stop", kind.name());
                        ddc = Some(Drive::Estop);
                    }
                }
            }
        }
        self.update_running();
        if let Some(d) = ddc {
            self.output.latched = Some(d);
            actuation.drive = Some(d);
        }
        // one utterance per send-message, in the order the agent issued them
        actuation
            .say
            .extend(self.say.drain(..).map(|s| Arc::<str>::from(s.as_str())));
    }

    /// The running command's check, every cycle (set-heading within 3°, stop below
    /// 0.01 m/s).
    fn update_running(&mut self) {
        let Some(mut r) = self.output.running else {
            return;
        };
        let done = match r.kind {
            Kind::SetHeading | Kind::SetHeadingLinear => {
                wrap_rad(r.target - self.pose.yaw).to_degrees().abs() < HEADING_TOLERANCE_DEG
            }
            Kind::Stop => self.pose.speed < STOP_SPEED,
            _ => return,
        };
        if done {
            self.status(r.tt, r.kind.name(), CommandStatus::Complete);
            self.output.running = None;
        } else if !r.executing {
            r.executing = true;
            self.status(r.tt, r.kind.name(), CommandStatus::Executing);
            self.output.running = Some(r);
        }
    }

    /// Validate and carry out one command; `Ok(Some(drive))` for an accepted drive
    /// command. Statuses other than `error` are added here.
    fn execute(
        &mut self,
        kind: Kind,
        cmd: &Command,
        step: &Step,
    ) -> Result<Option<Drive>, ParamError> {
        let tt = cmd.tt;
        let name = kind.name();
        let run = |kind, target| Running {
            tt,
            kind,
            target,
            executing: false,
        };
        match kind {
            Kind::Motor => {
                let left = params::required_number(cmd, "left")?.clamp(-1.0, 1.0);
                let right = params::required_number(cmd, "right")?.clamp(-1.0, 1.0);
                self.status(tt, name, CommandStatus::Accepted);
                self.status(tt, name, CommandStatus::Executing);
                self.output.running = Some(Running {
                    executing: true,
                    ..run(kind, 0.0)
                });
                self.output.linear = 0.0;
                self.output.angular = 0.0;
                Ok(Some(Drive::Motor { left, right }))
            }
            Kind::SetVelocity | Kind::SetLinearVelocity | Kind::SetAngularVelocity => {
                let linear = match kind {
                    Kind::SetAngularVelocity => None,
                    _ => Some(params::required_number(cmd, "linear-velocity")?),
                };
                let angular = match kind {
                    Kind::SetLinearVelocity => None,
                    _ => Some(params::required_number(cmd, "angular-velocity")?.to_radians()),
                };
                self.status(tt, name, CommandStatus::Accepted);
                self.status(tt, name, CommandStatus::Executing);
                self.output.running = Some(Running {
                    executing: true,
                    ..run(kind, 0.0)
                });
                let linear = linear.unwrap_or(self.output.linear);
                let angular = angular.unwrap_or(self.output.angular);
                self.output.linear = linear;
                self.output.angular = angular;
                Ok(Some(Drive::Channels {
                    translation: Some(Translation::Velocity(linear)),
                    rotation: Some(Rotation::Velocity(angular)),
                }))
            }
            Kind::SetHeading | Kind::SetHeadingLinear => {
                let yaw = wrap_rad(params::required_number(cmd, "yaw")?.to_radians());
                if kind == Kind::SetHeadingLinear {
                    self.output.linear = params::required_number(cmd, "linear-velocity")?;
                } else if matches!(
                    self.output.latched,
                    Some(Drive::Motor { .. }) | Some(Drive::Estop)
                ) {
                    // linear velocity is kept from a velocity command, not from throttles
                    self.output.linear = 0.0;
                }
                self.status(tt, name, CommandStatus::Accepted);
                self.output.running = Some(run(kind, yaw));
                Ok(Some(Drive::heading(yaw, self.output.linear)))
            }
            Kind::Stop => {
                self.status(tt, name, CommandStatus::Accepted);
                self.output.running = Some(run(kind, 0.0));
                self.output.linear = 0.0;
                self.output.angular = 0.0;
                Ok(Some(Drive::Stop))
            }
            Kind::Estop => {
                self.status(tt, name, CommandStatus::Accepted);
                self.status(tt, name, CommandStatus::Complete);
                // still the running command: a later preemption adds a second complete
                self.output.running = Some(Running {
                    executing: true,
                    ..run(kind, 0.0)
                });
                self.output.linear = 0.0;
                self.output.angular = 0.0;
                Ok(Some(Drive::Estop))
            }
            Kind::AddWaypoint => {
                let id = match cmd.get("id") {
                    None => return Err(format!("{name}: missing ^id")),
                    Some(Param::Int(i)) => WaypointId::Int(*i),
                    Some(Param::Float(f)) => WaypointId::Float(*f),
                    Some(Param::Str(s)) => WaypointId::Str(Arc::from(s.as_str())),
                    Some(Param::Id(i)) => {
                        return Err(format!(
                            "{name}: ^id is an identifier ({i}), expected a constant"
                        ))
                    }
                };
                let (px, py, pz, _) = self.agent_pose();
                let x = params::lenient_number(cmd, "x")?.unwrap_or(px);
                let y = params::lenient_number(cmd, "y")?.unwrap_or(py);
                let key = id.key();
                if let Some(i) = self.waypoints.find(&key) {
                    let old = self.waypoints.list.remove(i);
                    if let Some(w) = old.wmes {
                        self.tree.remove(w.root);
                    }
                }
                self.waypoints.list.push(Waypoint {
                    id,
                    key,
                    x,
                    y,
                    z: pz,
                    enabled: true,
                    yaw_int: self.yaw_int,
                    wmes: None,
                });
                self.accepted_complete(tt, name);
                Ok(None)
            }
            Kind::RemoveWaypoint | Kind::EnableWaypoint | Kind::DisableWaypoint => {
                let key = params::required_text(cmd, "id")?;
                let Some(i) = self.waypoints.find(&key) else {
                    return Err(format!("{name}: no waypoint with id `{key}`"));
                };
                match kind {
                    Kind::RemoveWaypoint => {
                        let old = self.waypoints.list.remove(i);
                        if let Some(w) = old.wmes {
                            self.tree.remove(w.root);
                        }
                    }
                    Kind::DisableWaypoint => {
                        if let Some(wp) = self.waypoints.list.get_mut(i) {
                            wp.enabled = false;
                            if let Some(w) = wp.wmes.take() {
                                self.tree.remove(w.root);
                            }
                        }
                    }
                    _ => {
                        if let Some(wp) = self.waypoints.list.get_mut(i) {
                            wp.enabled = true;
                        }
                    }
                }
                self.accepted_complete(tt, name);
                Ok(None)
            }
            Kind::SendMessage => {
                let destination = params::text(cmd, "destination")?;
                let words = params::word_list(cmd, &step.ids)?;
                match destination.as_deref() {
                    Some("say") => {
                        if !words.is_empty() {
                            self.say.push(words.join(" "));
                        }
                    }
                    to => {
                        let Some(post) = &self.post else {
                            return match to {
                                Some(t) => Err(format!("{name}: unknown destination `{t}`: expected `say` or the name of an agent in this world")),
                                None => {
                                    self.accepted_complete(tt, name);
                                    Ok(None)
                                }
                            };
                        };
                        post.send(&self.config.name, to, &words, self.cycle)
                            .map_err(|e| format!("{name}: {e}"))?;
                    }
                }
                self.accepted_complete(tt, name);
                Ok(None)
            }
            Kind::RemoveMessage => {
                let Some(id) = params::integer(cmd, "id")? else {
                    return Err(format!("{name}: missing ^id"));
                };
                let Some(i) = self.messages.iter().position(|m| m.id == id) else {
                    return Err(format!("{name}: no message with id {id}"));
                };
                let m = self.messages.remove(i);
                if let Some(w) = m.wme {
                    self.tree.remove(w);
                }
                self.accepted_complete(tt, name);
                Ok(None)
            }
            Kind::ClearMessages => {
                for m in self.messages.drain(..) {
                    if let Some(w) = m.wme {
                        self.tree.remove(w);
                    }
                }
                self.accepted_complete(tt, name);
                Ok(None)
            }
            Kind::Configure => {
                let format = match params::text(cmd, "yaw-format")?.as_deref() {
                    None => None,
                    Some("float") => Some(false),
                    Some("int") => Some(true),
                    Some(other) => {
                        return Err(format!(
                            "{name}: ^yaw-format `{other}` must be `float` or `int`"
                        ))
                    }
                };
                let ox = params::number(cmd, "offset-x")?;
                let oy = params::number(cmd, "offset-y")?;
                let oz = params::number(cmd, "offset-z")?;
                if let Some(int) = format {
                    self.yaw_int = int;
                }
                if ox.is_some() || oy.is_some() || oz.is_some() {
                    // giving only one resets the others to 0 (O18)
                    self.offset = [ox.unwrap_or(0.0), oy.unwrap_or(0.0), oz.unwrap_or(0.0)];
                }
                self.accepted_complete(tt, name);
                Ok(None)
            }
        }
    }

    fn accepted_complete(&mut self, tt: i64, name: &'static str) {
        self.status(tt, name, CommandStatus::Accepted);
        self.status(tt, name, CommandStatus::Complete);
    }
}

fn drive_name(d: &Drive) -> &'static str {
    match d {
        Drive::Motor { .. } => "motor",
        Drive::Estop => "estop",
        Drive::Stop => "stop",
        Drive::Wheels { .. } => "wheels",
        Drive::Channels {
            rotation: Some(Rotation::Heading(_)),
            ..
        } => "set-heading",
        Drive::Channels { .. } => "set-velocity",
    }
}
