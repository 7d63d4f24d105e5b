//! One simulated Pioneer 3-DX: its state, and what it senses into its signals.
//!
//! Signals (units in brackets):
//!
//! | signal | meaning |
//! | --- | --- |
//! | `pose.x`, `pose.y` [m], `pose.yaw` [rad] | odometry pose (starts at the start pose; exact without noise) |
//! | `truth.x`, `truth.y` [m], `truth.yaw` [rad] | true pose (simulation only) |
//! | `velocity.linear` [m/s], `velocity.angular` [rad/s] | actual body velocities |
//! | `wheel.left`, `wheel.right` [m/s] | wheel velocities |
//! | `encoder.left`, `encoder.right` [count] | wheel encoder ticks (128 per mm) |
//! | `stall.left`, `stall.right` [bool] | wheel stalled against an obstacle |
//! | `bumper.front`, `bumper.rear` [count] | bumper segments pressed, bits 0-4 (front: left end to right end; rear: left end to right end going round the back) |
//! | `motors.enabled`, `estop` [bool] | motor power; estop latched |
//! | `sonar.0` .. `sonar.15` [m] | sonar ranges, 5 m when nothing is in range; a new datum each time that transducer fires (each array fires one transducer every 40 ms by default) |
//! | `laser.0` .. `laser.179` [m] | laser ranges, beam i at -90 + i degrees |
//! | `gripper.state` [count] | the GRIPPERpac state byte (P2OS manual Table 10) |
//! | `gripper.paddles`, `gripper.lift` [fraction] | 0 open / down .. 1 closed / up |
//! | `gripper.holding` [bool] | an object is held |
//! | `digin`, `digout` [count] | digital inputs and outputs (bytes) |
//! | `analog.port` [count], `analog.value` [count] | selected analog port (ADSEL) and its 10-bit value |
//! | `compass.heading` [deg] | compass heading, clockwise from north (+y) |
//! | `compass.pitch`, `compass.roll` [deg], `compass.temperature` [degC] | TCM2 readings |
//! | `battery.voltage` [V], `battery.charge` [%] | battery |
//! | `ball.seen` [bool], `ball.distance` [m], `ball.bearing` [deg], `ball.x`, `ball.y` [m], `ball.time_since_seen` [s] | nearest ball in the camera's view |
//! | `can.seen`, `can.distance`, `can.bearing`, `can.x`, `can.y`, `can.time_since_seen` | the same for cans |
//! | `landmark.<name>.distance` [m], `landmark.<name>.bearing` [deg] | every landmark of the world |
// the signal table gives units in brackets (`[m]`, `[rad]`), as the specs do: not links
#![allow(rustdoc::broken_intra_doc_links)]

use super::battery::Battery;
use super::gripper::Gripper;
use super::motion::Motion;
use super::params;
use crate::spec::RobotSpec;
use rand_chacha::ChaCha8Rng;
use skipper_core::geometry::{wrap_deg, wrap_deg_360};
use skipper_core::sensors::SensorGeometry;
use skipper_core::vocabulary::ground::{self, PerceptSpecs};
use skipper_core::{
    Actuation, Events, Pose2, Pose3, SignalId, Signals, Vehicle, VehicleInfo, VehicleKind,
};
use std::time::Duration;

/// What the camera sees of an object kind.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Percept {
    /// seen this cycle
    pub seen: bool,
    /// distance (m)
    pub distance: f64,
    /// bearing (deg, left positive)
    pub bearing: f64,
    /// world position (m)
    pub x: f64,
    /// world position (m)
    pub y: f64,
    /// when last seen
    pub last_seen: Option<Duration>,
}

struct PerceptIds {
    seen: SignalId,
    distance: SignalId,
    bearing: SignalId,
    x: SignalId,
    y: SignalId,
    since: SignalId,
}

impl PerceptIds {
    fn declare(s: &mut Signals, p: &PerceptSpecs) -> Self {
        Self {
            seen: p.seen.declare(s),
            distance: p.distance.declare(s),
            bearing: p.bearing.declare(s),
            x: p.x.declare(s),
            y: p.y.declare(s),
            since: p.time_since_seen.declare(s),
        }
    }
    fn write(&self, s: &mut Signals, p: &Percept, now: Duration) {
        s.set_bool(self.seen, p.seen, now);
        if p.seen {
            s.set_f64(self.distance, p.distance, now);
            s.set_f64(self.bearing, p.bearing, now);
            s.set_f64(self.x, p.x, now);
            s.set_f64(self.y, p.y, now);
        }
        match p.last_seen {
            Some(t) => s.set_f64(self.since, now.saturating_sub(t).as_secs_f64(), now),
            None => s.invalidate(self.since, now),
        }
    }
}

struct Ids {
    ground: ground::Ids,
    ball: PerceptIds,
    can: PerceptIds,
    landmarks: Vec<[SignalId; 2]>,
}

impl Ids {
    fn declare(s: &mut Signals, laser: bool, landmarks: &[String]) -> Self {
        let equipment = ground::Equipment {
            truth: true,
            sonars: params::SONARS,
            laser_beams: if laser { params::LASER_BEAMS } else { 0 },
            gripper_detail: true,
        };
        Ids {
            ground: ground::Ids::declare(s, &equipment),
            ball: PerceptIds::declare(s, &ground::BALL),
            can: PerceptIds::declare(s, &ground::CAN),
            landmarks: landmarks
                .iter()
                .map(|n| {
                    [
                        ground::LANDMARK_DISTANCE.declare(s, n),
                        ground::LANDMARK_BEARING.declare(s, n),
                    ]
                })
                .collect(),
        }
    }
}

/// A simulated Pioneer 3-DX.
pub struct GroundRobot {
    pub(crate) info: VehicleInfo,
    pub(crate) spec: RobotSpec,
    pub(crate) truth: Pose2,
    pub(crate) odom: Pose2,
    pub(crate) motion: Motion,
    pub(crate) gripper: Gripper,
    pub(crate) battery: Battery,
    pub(crate) digout: u8,
    pub(crate) analog_port: u8,
    pub(crate) sonar_enabled: bool,
    pub(crate) bump_stall: u8,
    pub(crate) stalled: bool,
    pub(crate) bumpers: [u8; 2],
    pub(crate) in_contact: bool,
    pub(crate) wheels: (f64, f64),
    pub(crate) encoders_mm: (f64, f64),
    pub(crate) sonar: [f64; params::SONARS],
    /// transducers that fired since the last sense
    pub(crate) sonar_fresh: [bool; params::SONARS],
    /// time banked toward the next ping (s) and the next transducer of each array
    pub(crate) sonar_clock: f64,
    pub(crate) sonar_next: [usize; 2],
    pub(crate) laser: Box<[f64; params::LASER_BEAMS]>,
    pub(crate) beams_blocked: (bool, bool),
    pub(crate) ball: Percept,
    pub(crate) can: Percept,
    pub(crate) landmarks: Vec<(f64, f64)>,
    pub(crate) landmark_names: Vec<String>,
    pub(crate) odometer: f64,
    pub(crate) collisions: u64,
    pub(crate) temperature: f64,
    pub(crate) rng: ChaCha8Rng,
    ids: Option<Ids>,
    /// what it carries (the world sets the ranges)
    pub(crate) sensors: SensorGeometry,
}

impl GroundRobot {
    pub(crate) fn new(
        spec: RobotSpec,
        rng: ChaCha8Rng,
        landmark_names: Vec<String>,
        temperature: f64,
    ) -> Self {
        let n = landmark_names.len();
        Self {
            info: VehicleInfo {
                name: spec.name.clone(),
                kind: VehicleKind::Ground,
                model: spec.model.clone(),
            },
            truth: spec.pose,
            odom: spec.pose,
            motion: Motion::for_model(
                super::models::motion_model(&spec.model).unwrap_or(super::models::P3DX),
            ),
            gripper: Gripper::default(),
            battery: Battery::new(spec.battery),
            digout: 0,
            analog_port: 5,
            sonar_enabled: true,
            bump_stall: 0,
            stalled: false,
            bumpers: [0, 0],
            in_contact: false,
            wheels: (0.0, 0.0),
            encoders_mm: (0.0, 0.0),
            sonar: [0.0; params::SONARS],
            sonar_fresh: [false; params::SONARS],
            sonar_clock: 0.0,
            sonar_next: [0, 8],
            laser: Box::new([0.0; params::LASER_BEAMS]),
            beams_blocked: (false, false),
            ball: Percept::default(),
            can: Percept::default(),
            landmarks: vec![(0.0, 0.0); n],
            landmark_names,
            odometer: 0.0,
            collisions: 0,
            temperature,
            rng,
            spec,
            ids: None,
            sensors: SensorGeometry::default(),
        }
    }

    /// The true pose.
    pub fn true_pose(&self) -> Pose2 {
        self.truth
    }
    /// The odometry pose.
    pub fn odometry(&self) -> Pose2 {
        self.odom
    }
    /// Sonar ranges (m).
    pub fn sonar(&self) -> &[f64; params::SONARS] {
        &self.sonar
    }
    /// Laser ranges (m).
    pub fn laser(&self) -> &[f64; params::LASER_BEAMS] {
        &self.laser
    }
    /// The gripper state byte (Table 10).
    pub fn gripper_state(&self) -> u8 {
        self.gripper
            .state_byte(self.beams_blocked.0, self.beams_blocked.1)
    }
    /// The gripper.
    pub fn gripper(&self) -> &Gripper {
        &self.gripper
    }
    /// Stalled against an obstacle.
    pub fn stalled(&self) -> bool {
        self.stalled
    }
    /// Front and rear bumper bits.
    pub fn bumpers(&self) -> [u8; 2] {
        self.bumpers
    }
    /// Actual forward and angular velocity.
    pub fn velocity(&self) -> (f64, f64) {
        (self.motion.v, self.motion.w)
    }
    /// The robot's options from the world file.
    pub fn spec(&self) -> &RobotSpec {
        &self.spec
    }
    /// The current motion limits (every field set).
    pub fn motion_limits(&self) -> skipper_core::MotionLimits {
        let m = &self.motion;
        skipper_core::MotionLimits {
            max_velocity: Some(m.max_velocity),
            max_rot_velocity: Some(m.max_rot_velocity),
            accel: Some(m.accel),
            decel: Some(m.decel),
            rot_accel: Some(m.rot_accel),
            rot_decel: Some(m.rot_decel),
        }
    }
    /// Is the sonar on?
    pub fn sonar_enabled(&self) -> bool {
        self.sonar_enabled
    }
}

impl Vehicle for GroundRobot {
    fn info(&self) -> &VehicleInfo {
        &self.info
    }

    fn sensors(&self) -> SensorGeometry {
        self.sensors.clone()
    }

    fn sense(&mut self, now: Duration, s: &mut Signals, _events: &mut Events) {
        if self.ids.is_none() {
            self.ids = Some(Ids::declare(s, self.spec.laser, &self.landmark_names));
        }
        let Some(all) = &self.ids else { return };
        let ids = &all.ground;
        let (p, t) = (self.odom, self.truth);
        for (id, v) in ids.pose.iter().zip([p.x, p.y, p.yaw]) {
            s.set_f64(*id, v, now);
        }
        for (id, v) in ids.truth.iter().flatten().zip([t.x, t.y, t.yaw]) {
            s.set_f64(*id, v, now);
        }
        s.set_f64(ids.velocity[0], self.motion.v, now);
        s.set_f64(ids.velocity[1], self.motion.w, now);
        s.set_f64(ids.wheel[0], self.wheels.0, now);
        s.set_f64(ids.wheel[1], self.wheels.1, now);
        s.set_i64(
            ids.encoder[0],
            (self.encoders_mm.0 * params::TICKS_PER_MM) as i64,
            now,
        );
        s.set_i64(
            ids.encoder[1],
            (self.encoders_mm.1 * params::TICKS_PER_MM) as i64,
            now,
        );
        s.set_bool(ids.stall[0], self.stalled, now);
        s.set_bool(ids.stall[1], self.stalled, now);
        s.set_i64(ids.bumper[0], i64::from(self.bumpers[0]), now);
        s.set_i64(ids.bumper[1], i64::from(self.bumpers[1]), now);
        s.set_bool(ids.motors, self.motion.enabled, now);
        s.set_bool(ids.estop, self.motion.estopped, now);
        for ((id, r), fresh) in ids
            .sonar
            .iter()
            .zip(self.sonar.iter())
            .zip(self.sonar_fresh.iter_mut())
        {
            if *fresh {
                s.set_f64(*id, *r, now);
                *fresh = false;
            }
        }
        for (id, r) in ids.laser.iter().zip(self.laser.iter()) {
            s.set_f64(*id, *r, now);
        }
        let g = &self.gripper;
        s.set_i64(ids.gripper, i64::from(self.gripper_state()), now);
        if let Some([paddles, lift, holding]) = ids.gripper_detail {
            s.set_f64(paddles, g.paddles, now);
            s.set_f64(lift, g.lift, now);
            s.set_bool(holding, g.held.is_some(), now);
        }
        s.set_i64(ids.digin, i64::from(self.spec.digin), now);
        s.set_i64(ids.digout, i64::from(self.digout), now);
        s.set_i64(ids.analog[0], i64::from(self.analog_port), now);
        let av = self
            .spec
            .analog
            .get(usize::from(self.analog_port))
            .copied()
            .unwrap_or(0);
        s.set_i64(ids.analog[1], i64::from(av), now);
        s.set_f64(ids.compass[0], wrap_deg_360(90.0 - t.yaw.to_degrees()), now);
        s.set_f64(ids.compass[1], 0.0, now);
        s.set_f64(ids.compass[2], 0.0, now);
        s.set_f64(ids.compass[3], self.temperature, now);
        s.set_f64(ids.battery[0], self.battery.voltage(), now);
        s.set_f64(ids.battery[1], 100.0 * self.battery.charge(), now);
        all.ball.write(s, &self.ball, now);
        all.can.write(s, &self.can, now);
        for (id, (dist, bearing)) in all.landmarks.iter().zip(self.landmarks.iter()) {
            s.set_f64(id[0], *dist, now);
            s.set_f64(id[1], *bearing, now);
        }
    }

    fn act(&mut self, now: Duration, a: &Actuation, events: &mut Events) {
        if let Some(l) = &a.limits {
            self.motion.set_limits(l);
        }
        if let Some(e) = a.motors_enabled {
            self.motion.enabled = e;
        }
        if a.reset_odometry {
            self.odom = Pose2::default();
        }
        if let Some(d) = &a.drive {
            self.motion.command(d, self.odom.yaw);
        }
        if let Some(g) = a.gripper {
            if self.spec.gripper {
                self.gripper.command(g);
            }
        }
        if let Some((mask, value)) = a.digital_out {
            self.digout = (self.digout & !mask) | (value & mask);
        }
        if let Some(p) = a.analog_select {
            if usize::from(p) < self.spec.analog.len() {
                self.analog_port = p;
            }
        }
        if let Some(on) = a.sonar_enabled {
            self.sonar_enabled = on;
        }
        if let Some(b) = a.bump_stall {
            self.bump_stall = b;
        }
        for text in &a.say {
            events.push(now, "speech", serde_json::json!({ "text": &**text }));
        }
    }

    fn stop(&mut self, _now: Duration, _events: &mut Events) {
        self.motion.halt();
        self.wheels = (0.0, 0.0);
    }

    fn pose(&self) -> Pose3 {
        self.truth.to_3d()
    }

    fn odometer(&self) -> f64 {
        self.odometer
    }

    fn collisions(&self) -> u64 {
        self.collisions
    }

    fn view(&self) -> serde_json::Value {
        serde_json::json!({
            "pose": { "x": self.truth.x, "y": self.truth.y, "yaw": self.truth.yaw },
            "radius": params::RADIUS,
            "sonar": self.sonar.iter().zip(&self.sensors.sonar).map(|(r, g)| [g.x, g.y, g.yaw, *r]).collect::<Vec<_>>(),
            "laser": if self.spec.laser { serde_json::json!({ "x": self.sensors.laser.map_or(params::LASER_X, |l| l.x), "first": params::LASER_FIRST_DEG.to_radians(), "step": 1f64.to_radians(), "ranges": &self.laser[..] }) } else { serde_json::Value::Null },
            "gripper": { "paddles": self.gripper.paddles, "lift": self.gripper.lift, "state": self.gripper_state() },
            "stalled": self.stalled,
            "bumpers": self.bumpers,
        })
    }
}

/// Bearing in degrees, left positive, from a pose to a point.
pub(crate) fn bearing_deg(p: Pose2, x: f64, y: f64) -> f64 {
    wrap_deg((y - p.y).atan2(x - p.x).to_degrees() - p.yaw.to_degrees())
}
