//! What the robot server serves: any set of robots behind [`RobotFleet`].
//!
//! The server turns P2OS commands into core [`Actuation`]s for the robot behind a port,
//! and reads a [`RobotStatus`] in SI units every SIP cycle to build its packets. A
//! simulator advances in [`RobotFleet::advance`]; simulator-only commands
//! (SIM_SET_POSE, SIM_RESET) have defaults that refuse, and a robot has no simulated
//! laser, no simulated GPS and lists no devices unless the fleet says otherwise.

use crate::packets::{SimDevice, SoundRef};
use skipper_core::{Actuation, MotionLimits, Pose2};
use std::time::Duration;

/// Who a robot says it is in the handshake and in CONFIGpac.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotIdentity {
    /// Robot name (SYNC2 and CONFIGpac).
    pub name: String,
    /// Robot class (`Pioneer`).
    pub class: String,
    /// Subtype: must be one ARIA knows (`p3dx`, `p3dx-sh`, `p2de`, ...); it decides the
    /// unit scaling of the SIP.
    pub subtype: String,
    /// Serial number.
    pub serial: String,
}

/// Sonar transducers the status can report.
pub const MAX_SONARS: usize = 32;

/// Where a simulator's GPS puts a robot (SIMSTAT's geographic fields).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeoFix {
    /// Latitude (deg, north positive).
    pub latitude: f64,
    /// Longitude (deg, east positive).
    pub longitude: f64,
    /// Altitude (m).
    pub altitude: f64,
    /// Dilution of precision of the fix (ARIA's `ArSimulatedGPS` reads 0.01 to 1.27);
    /// `None`: no fix.
    pub dop: Option<f64>,
}

/// A robot's state, in SI units, as the server needs it for SIPs and the other packets.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotStatus {
    /// Odometry pose (m, rad).
    pub pose: Pose2,
    /// True pose (simulators; SIMSTAT).
    pub true_pose: Pose2,
    /// Left wheel velocity (m/s).
    pub wheel_left: f64,
    /// Right wheel velocity (m/s).
    pub wheel_right: f64,
    /// Rotational velocity (rad/s, counter-clockwise positive).
    pub rot_vel: f64,
    /// Battery (V).
    pub battery_volts: f64,
    /// State of charge (%).
    pub state_of_charge: f64,
    /// Left wheel stalled.
    pub stall_left: bool,
    /// Right wheel stalled.
    pub stall_right: bool,
    /// Front bumper segments pressed (bit k = segment k).
    pub bumpers_front: u8,
    /// Rear bumper segments pressed.
    pub bumpers_rear: u8,
    /// Motors enabled.
    pub motors_enabled: bool,
    /// Estop engaged.
    pub estop: bool,
    /// Sonar on.
    pub sonar_enabled: bool,
    /// Number of sonars.
    pub sonars: usize,
    /// Sonar ranges (m).
    pub sonar: [f64; MAX_SONARS],
    /// Which sonar readings are new since the last status.
    pub sonar_fresh: [bool; MAX_SONARS],
    /// Compass heading (deg clockwise from north), if the robot has a compass.
    pub compass_deg: Option<f64>,
    /// The gripper state byte (manual Table 10), if the robot has a gripper.
    pub gripper: Option<u8>,
    /// Selected analog port.
    pub analog_port: u8,
    /// Analog port values (10 bits).
    pub analog: [u16; 8],
    /// Digital inputs.
    pub digin: u8,
    /// Digital outputs.
    pub digout: u8,
    /// Wheel encoders (ticks).
    pub encoders: (i64, i64),
    /// TCM2: heading (deg), pitch (deg), roll (deg), temperature (deg C).
    pub tcm2: [f64; 4],
    /// Temperature (deg C).
    pub temperature: f64,
    /// Current motion limits (all set).
    pub limits: MotionLimits,
    /// The simulated GPS's fix from the true pose, if the world has a geographic origin.
    pub geo: Option<GeoFix>,
}

impl Default for RobotStatus {
    fn default() -> Self {
        Self {
            pose: Pose2::default(),
            true_pose: Pose2::default(),
            wheel_left: 0.0,
            wheel_right: 0.0,
            rot_vel: 0.0,
            battery_volts: 13.0,
            state_of_charge: 100.0,
            stall_left: false,
            stall_right: false,
            bumpers_front: 0,
            bumpers_rear: 0,
            motors_enabled: false,
            estop: false,
            sonar_enabled: true,
            sonars: 16,
            sonar: [5.0; MAX_SONARS],
            sonar_fresh: [false; MAX_SONARS],
            compass_deg: None,
            gripper: None,
            analog_port: 5,
            analog: [0; 8],
            digin: 0xFF,
            digout: 0,
            encoders: (0, 0),
            tcm2: [0.0; 4],
            temperature: 20.0,
            limits: MotionLimits::default(),
            geo: None,
        }
    }
}

/// A sound request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sound<'a> {
    /// SAY: (duration in 20 ms units, tone) pairs, as raw bytes.
    Tones(&'a [u8]),
    /// SOUND: an AmigoBot sound number.
    Number(i32),
}

/// The robots a server serves, one per port.
pub trait RobotFleet: Send {
    /// How many robots.
    fn len(&self) -> usize;
    /// `true` if none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Robot `robot`'s identity.
    fn identity(&self, robot: usize) -> RobotIdentity;
    /// Execute commands on robot `robot`.
    fn act(&mut self, robot: usize, actuation: &Actuation);
    /// Robot `robot`'s state now.
    fn status(&mut self, robot: usize, out: &mut RobotStatus);
    /// Let `dt` of (simulated) time pass for every robot.
    fn advance(&mut self, dt: Duration);
    /// SIM_SET_POSE: move the robot to a true pose (m, rad).
    fn set_pose(&mut self, _robot: usize, _pose: Pose2) -> Result<(), String> {
        Err("not a simulator".into())
    }
    /// SIM_RESET: back to the start pose, odometry zero.
    fn reset(&mut self, _robot: usize) -> Result<(), String> {
        Err("not a simulator".into())
    }
    /// SAY and SOUND.
    fn sound(&mut self, _robot: usize, _sound: Sound<'_>) {}
    /// The robot's sounds (AmigoBot playlist); none by default.
    fn playlist(&self, _robot: usize) -> Vec<SoundRef> {
        Vec::new()
    }
    /// Ray-cast robot `robot`'s laser now: `out[k]` becomes the range (m) at
    /// `first_deg + k * step_deg` (robot frame, counter-clockwise positive). `false` if
    /// the robot has no laser (the default).
    fn laser_scan(
        &mut self,
        _robot: usize,
        _first_deg: f64,
        _step_deg: f64,
        _out: &mut [f64],
    ) -> bool {
        false
    }
    /// The robot's devices, as a simulator lists them in SIMINFO; none by default.
    fn devices(&self, _robot: usize) -> Vec<SimDevice> {
        Vec::new()
    }
}
