//! Actuation: what a controller asks its vehicle to do in one cycle.
//!
//! Every field is optional: `None` leaves that part of the vehicle as it was, so a drive
//! command is latched until another replaces it (as on a P2OS robot and in SPS). A cycle's
//! [`Actuation`] is cleared by the runner before the controller steps.
//!
//! Ground robots use [`Drive`] with P2OS-like channels: a translational channel
//! (velocity or a relative move) and a rotational channel (velocity, absolute heading or
//! a heading change) that can be set together or one at a time, or both wheels at once.
//! The AUV uses [`AuvSetpoints`].

use serde::Serialize;
use std::sync::Arc;

/// The translational channel.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "mode", content = "value", rename_all = "snake_case")]
pub enum Translation {
    /// Forward velocity (m/s, negative backwards).
    Velocity(f64),
    /// Move this far from here (m), then stop.
    Move(f64),
}

/// The rotational channel.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "mode", content = "value", rename_all = "snake_case")]
pub enum Rotation {
    /// Angular velocity (rad/s, counter-clockwise positive).
    Velocity(f64),
    /// Turn to this absolute heading (rad, odometry frame).
    Heading(f64),
    /// Turn by this much from the current heading (rad).
    DeltaHeading(f64),
}

/// A drive command.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Drive {
    /// Set one or both channels; a channel left `None` keeps its current command.
    Channels {
        /// translational channel
        translation: Option<Translation>,
        /// rotational channel
        rotation: Option<Rotation>,
    },
    /// Both wheel velocities (m/s), as P2OS VEL2.
    Wheels {
        /// left wheel (m/s)
        left: f64,
        /// right wheel (m/s)
        right: f64,
    },
    /// Open-loop throttles, each in [-1, 1] (SPS `motor`).
    Motor {
        /// left throttle
        left: f64,
        /// right throttle
        right: f64,
    },
    /// Graceful stop: decelerate to zero under the deceleration limits.
    Stop,
    /// Emergency stop: wheels to zero at once.
    Estop,
}

impl Drive {
    /// Drive with a forward velocity (m/s) and an angular velocity (rad/s, CCW+).
    pub fn velocity(linear: f64, angular: f64) -> Self {
        Drive::Channels {
            translation: Some(Translation::Velocity(linear)),
            rotation: Some(Rotation::Velocity(angular)),
        }
    }
    /// Turn to an absolute heading (rad) while keeping the forward velocity (m/s).
    pub fn heading(yaw: f64, linear: f64) -> Self {
        Drive::Channels {
            translation: Some(Translation::Velocity(linear)),
            rotation: Some(Rotation::Heading(yaw)),
        }
    }
}

/// Gripper commands, as the P2OS GRIPPER command's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GripperCommand {
    /// 1: open the paddles.
    Open,
    /// 2: close the paddles (grasp).
    Close,
    /// 3: stop the paddles.
    Stop,
    /// 4: raise the lift.
    LiftUp,
    /// 5: lower the lift.
    LiftDown,
    /// 6: stop the lift.
    LiftStop,
    /// 7: close the paddles and raise the lift.
    Store,
    /// 8: lower the lift and open the paddles.
    Deploy,
    /// 15: stop paddles and lift.
    Halt,
    /// 16: grip pressure (time in 20 ms units to keep pushing after contact).
    Pressure(i16),
    /// 17: move the lift for a time (20 ms units; positive up, negative down).
    LiftCarry(i16),
}

impl GripperCommand {
    /// The P2OS GRIPPER argument for a command, or `None` for a value it does not know.
    pub fn from_p2os(code: i16, value: i16) -> Option<Self> {
        Some(match code {
            1 => Self::Open,
            2 => Self::Close,
            3 => Self::Stop,
            4 => Self::LiftUp,
            5 => Self::LiftDown,
            6 => Self::LiftStop,
            7 => Self::Store,
            8 => Self::Deploy,
            15 => Self::Halt,
            16 => Self::Pressure(value),
            17 => Self::LiftCarry(value),
            _ => return None,
        })
    }
}

/// Motion limits (P2OS SETV, SETRV, SETA, SETRA); `None` keeps the current one.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct MotionLimits {
    /// maximum forward speed (m/s)
    pub max_velocity: Option<f64>,
    /// maximum rotational speed (rad/s)
    pub max_rot_velocity: Option<f64>,
    /// translational acceleration (m/s²); P2OS SETA with a positive argument
    pub accel: Option<f64>,
    /// translational deceleration (m/s²); P2OS SETA with a negative argument
    pub decel: Option<f64>,
    /// rotational acceleration (rad/s²)
    pub rot_accel: Option<f64>,
    /// rotational deceleration (rad/s²)
    pub rot_decel: Option<f64>,
}

/// Sensors an AUV controller may ask its vehicle to sample (bits of
/// [`AuvSetpoints::sample`]). Navigation sensors (depth, attitude, altitude, position)
/// sample by themselves; these only on request.
pub mod auv_sensor {
    /// Sea water temperature (CTD).
    pub const TEMPERATURE: u32 = 1;
    /// Sea water salinity (CTD).
    pub const SALINITY: u32 = 2;
    /// A GPS fix (only possible at the surface).
    pub const GPS: u32 = 4;
    /// A satellite communications session (only possible at the surface).
    pub const COMMS: u32 = 8;
}

/// Setpoints for an AUV; `None` leaves a channel as it was. The vertical channel is in
/// one of three modes, latched by the vehicle: `depth` if set, else `depth_rate` if set,
/// else `pitch` if set.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct AuvSetpoints {
    /// heading (rad, counter-clockwise from +x / east)
    pub heading: Option<f64>,
    /// speed through the water (m/s); 0 turns the propeller off
    pub speed: Option<f64>,
    /// depth (m, positive down)
    pub depth: Option<f64>,
    /// pitch (rad, nose up positive); used when no depth is set
    pub pitch: Option<f64>,
    /// depth rate (m/s, positive down)
    pub depth_rate: Option<f64>,
    /// buoyancy, as a fraction of the buoyancy engine's range (-1 sink .. 1 float)
    pub buoyancy: Option<f64>,
    /// sensors to sample this cycle ([`auv_sensor`] bits; not latched, 0 = none)
    #[serde(skip_serializing_if = "is_zero")]
    pub sample: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl AuvSetpoints {
    /// `true` if no channel is set.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Everything a controller may ask of its vehicle in one cycle.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Actuation {
    /// drive command (latched by the vehicle)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drive: Option<Drive>,
    /// motion limits
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits: Option<MotionLimits>,
    /// enable (true) or disable (false) the motors (P2OS ENABLE)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motors_enabled: Option<bool>,
    /// reset odometry to the origin (P2OS SETO)
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reset_odometry: bool,
    /// gripper command
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gripper: Option<GripperCommand>,
    /// digital outputs: (mask, value); bits set in mask take the value's bit (P2OS DIGOUT)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digital_out: Option<(u8, u8)>,
    /// analog port to report (P2OS ADSEL)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analog_select: Option<u8>,
    /// sonar on (true) or off (false)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sonar_enabled: Option<bool>,
    /// stall on bumper contact: bit 0 front, bit 1 rear (P2OS BUMPSTALL)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bump_stall: Option<u8>,
    /// what to say, one utterance each, in order (a Soar agent's `send-message` to `say`
    /// gives one per command)
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub say: Vec<Arc<str>>,
    /// AUV setpoints
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auv: Option<AuvSetpoints>,
}

impl Actuation {
    /// Forget everything (keeps no allocation; `say` is dropped).
    pub fn clear(&mut self) {
        *self = Actuation::default();
    }
    /// `true` if nothing is asked.
    pub fn is_empty(&self) -> bool {
        *self == Actuation::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_only_what_is_set() {
        let mut a = Actuation::default();
        assert!(a.is_empty());
        assert_eq!(serde_json::to_string(&a).unwrap(), "{}");
        a.drive = Some(Drive::velocity(0.5, 0.0));
        let j = serde_json::to_value(&a).unwrap();
        assert_eq!(j["drive"]["kind"], "channels");
        assert_eq!(j["drive"]["translation"]["mode"], "velocity");
        assert_eq!(j["drive"]["translation"]["value"], 0.5);
        a.clear();
        assert!(a.is_empty());
    }

    #[test]
    fn gripper_codes_follow_p2os() {
        assert_eq!(GripperCommand::from_p2os(7, 0), Some(GripperCommand::Store));
        assert_eq!(
            GripperCommand::from_p2os(17, -5),
            Some(GripperCommand::LiftCarry(-5))
        );
        assert_eq!(GripperCommand::from_p2os(9, 0), None);
    }
}
