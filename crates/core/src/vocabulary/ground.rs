//! The ground robot's vocabulary: what a Pioneer-class robot senses, in the simulator and on
//! a P2OS robot alike (docs/pioneer.md has the numbers behind them).
//!
//! Frames: `pose.*` is odometry (x forward of the start pose, y left, yaw
//! counter-clockwise); `truth.*` is the simulator's ground truth in the world frame.
//! A vehicle declares the groups it has with [`Ids::declare`] (one declaration order for
//! every ground vehicle, which the run log keeps), then what only it has (the camera's
//! percepts and landmarks in the simulator, the link's state on a P2OS robot).

use super::{FamilyKey, SignalFamily, SignalSpec, ValueKind, Vocabulary};
use crate::geometry::Pose2;
use crate::signals::{SignalId, Signals};
use crate::units;

specs! {
    "Every fixed-name ground signal, in declaration order.";
    POSE_X = "pose.x", Float, METER, "odometry x, forward of the start pose";
    POSE_Y = "pose.y", Float, METER, "odometry y, left of the start pose";
    POSE_YAW = "pose.yaw", Float, RADIAN, "odometry heading, counter-clockwise";
    TRUTH_X = "truth.x", Float, METER, "true x in the world frame (simulator only)";
    TRUTH_Y = "truth.y", Float, METER, "true y in the world frame (simulator only)";
    TRUTH_YAW = "truth.yaw", Float, RADIAN, "true heading in the world frame (simulator only)";
    VELOCITY_LINEAR = "velocity.linear", Float, METER_PER_SECOND, "forward speed";
    VELOCITY_ANGULAR = "velocity.angular", Float, RADIAN_PER_SECOND, "turn rate, counter-clockwise";
    WHEEL_LEFT = "wheel.left", Float, METER_PER_SECOND, "left wheel speed";
    WHEEL_RIGHT = "wheel.right", Float, METER_PER_SECOND, "right wheel speed";
    ENCODER_LEFT = "encoder.left", Int, COUNT, "left wheel encoder ticks";
    ENCODER_RIGHT = "encoder.right", Int, COUNT, "right wheel encoder ticks";
    STALL_LEFT = "stall.left", Bool, BOOL, "left wheel stalled";
    STALL_RIGHT = "stall.right", Bool, BOOL, "right wheel stalled";
    BUMPER_FRONT = "bumper.front", Int, COUNT, "front bumper segments closed (bit field)";
    BUMPER_REAR = "bumper.rear", Int, COUNT, "rear bumper segments closed (bit field)";
    MOTORS_ENABLED = "motors.enabled", Bool, BOOL, "motors enabled";
    ESTOP = "estop", Bool, BOOL, "emergency stop engaged";
    GRIPPER_STATE = "gripper.state", Int, COUNT, "the P2OS GRIPPERpac state byte (manual Table 10)";
    GRIPPER_PADDLES = "gripper.paddles", Float, NONE, "paddle opening, 0 closed .. 1 open";
    GRIPPER_LIFT = "gripper.lift", Float, NONE, "lift height, 0 down .. 1 up";
    GRIPPER_HOLDING = "gripper.holding", Bool, BOOL, "something is held between the paddles";
    DIGIN = "digin", Int, COUNT, "digital inputs (bit field)";
    DIGOUT = "digout", Int, COUNT, "digital outputs (bit field)";
    ANALOG_PORT = "analog.port", Int, COUNT, "the selected analog port (ADSEL)";
    ANALOG_VALUE = "analog.value", Int, COUNT, "the selected analog port's reading (10 bits)";
    COMPASS_HEADING = "compass.heading", Float, DEGREE, "compass heading, clockwise from north";
    COMPASS_PITCH = "compass.pitch", Float, DEGREE, "compass pitch";
    COMPASS_ROLL = "compass.roll", Float, DEGREE, "compass roll";
    COMPASS_TEMPERATURE = "compass.temperature", Float, CELSIUS, "air temperature at the compass";
    BATTERY_VOLTAGE = "battery.voltage", Float, VOLT, "battery voltage";
    BATTERY_CHARGE = "battery.charge", Float, PERCENT, "battery charge left";
    BALL_SEEN = "ball.seen", Bool, BOOL, "the camera sees a ball";
    BALL_DISTANCE = "ball.distance", Float, METER, "distance to the nearest ball seen";
    BALL_BEARING = "ball.bearing", Float, DEGREE, "bearing of the nearest ball seen, left positive";
    BALL_X = "ball.x", Float, METER, "world x of the nearest ball seen";
    BALL_Y = "ball.y", Float, METER, "world y of the nearest ball seen";
    BALL_TIME_SINCE_SEEN = "ball.time_since_seen", Float, SECOND, "time since a ball was last seen";
    CAN_SEEN = "can.seen", Bool, BOOL, "the camera sees a can";
    CAN_DISTANCE = "can.distance", Float, METER, "distance to the nearest can seen";
    CAN_BEARING = "can.bearing", Float, DEGREE, "bearing of the nearest can seen, left positive";
    CAN_X = "can.x", Float, METER, "world x of the nearest can seen";
    CAN_Y = "can.y", Float, METER, "world y of the nearest can seen";
    CAN_TIME_SINCE_SEEN = "can.time_since_seen", Float, SECOND, "time since a can was last seen";
    P2OS_CONNECTED = "p2os.connected", Bool, BOOL, "the P2OS link is up (P2OS robots only)";
    P2OS_SIPS = "p2os.sips", Int, COUNT, "server information packets received (P2OS robots only)";
}

/// The number of sonar transducers of a Pioneer 3-DX.
pub const SONARS: usize = 16;
/// The most laser beams a ground robot reports.
pub const MAX_LASER_BEAMS: usize = 1024;

/// `sonar.N`: the range transducer N reads (a free beam reads its maximum range).
pub const SONAR: SignalFamily = SignalFamily {
    prefix: "sonar",
    suffix: None,
    key: FamilyKey::Index(SONARS),
    kind: ValueKind::Float,
    unit: &units::METER,
    meaning: "range read by sonar transducer N",
};
/// `laser.N`: the range beam N reads, from the right (-90°) counter-clockwise.
pub const LASER: SignalFamily = SignalFamily {
    prefix: "laser",
    suffix: None,
    key: FamilyKey::Index(MAX_LASER_BEAMS),
    kind: ValueKind::Float,
    unit: &units::METER,
    meaning: "range read by laser beam N, from the right counter-clockwise",
};
/// `landmark.NAME.distance`: distance to a landmark of the world.
pub const LANDMARK_DISTANCE: SignalFamily = SignalFamily {
    prefix: "landmark",
    suffix: Some("distance"),
    key: FamilyKey::Name,
    kind: ValueKind::Float,
    unit: &units::METER,
    meaning: "distance to the landmark NAME",
};
/// `landmark.NAME.bearing`: bearing of a landmark of the world, left positive.
pub const LANDMARK_BEARING: SignalFamily = SignalFamily {
    prefix: "landmark",
    suffix: Some("bearing"),
    key: FamilyKey::Name,
    kind: ValueKind::Float,
    unit: &units::DEGREE,
    meaning: "bearing of the landmark NAME, left positive",
};

/// Every ground signal family.
pub static FAMILIES: &[&SignalFamily] = &[&SONAR, &LASER, &LANDMARK_DISTANCE, &LANDMARK_BEARING];

/// The ground robot's vocabulary.
pub fn vocabulary() -> Vocabulary {
    Vocabulary {
        kind: crate::vehicle::VehicleKind::Ground,
        signals: SIGNALS,
        families: FAMILIES,
    }
}

/// What a ground vehicle has, for [`Ids::declare`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Equipment {
    /// ground truth (`truth.*`: the simulator)
    pub truth: bool,
    /// sonar transducers
    pub sonars: usize,
    /// laser beams (0: no laser)
    pub laser_beams: usize,
    /// paddles, lift and holding besides the gripper's state byte
    pub gripper_detail: bool,
}

/// The ids of the signals every ground vehicle declares.
#[derive(Debug, Clone)]
pub struct Ids {
    /// `pose.x`, `pose.y`, `pose.yaw`
    pub pose: [SignalId; 3],
    /// `truth.*`, if the vehicle knows it
    pub truth: Option<[SignalId; 3]>,
    /// `velocity.linear`, `velocity.angular`
    pub velocity: [SignalId; 2],
    /// `wheel.left`, `wheel.right`
    pub wheel: [SignalId; 2],
    /// `encoder.left`, `encoder.right`
    pub encoder: [SignalId; 2],
    /// `stall.left`, `stall.right`
    pub stall: [SignalId; 2],
    /// `bumper.front`, `bumper.rear`
    pub bumper: [SignalId; 2],
    /// `motors.enabled`
    pub motors: SignalId,
    /// `estop`
    pub estop: SignalId,
    /// `sonar.N`
    pub sonar: Vec<SignalId>,
    /// `laser.N`
    pub laser: Vec<SignalId>,
    /// `gripper.state`
    pub gripper: SignalId,
    /// `gripper.paddles`, `gripper.lift`, `gripper.holding`, if the vehicle has them
    pub gripper_detail: Option<[SignalId; 3]>,
    /// `digin`
    pub digin: SignalId,
    /// `digout`
    pub digout: SignalId,
    /// `analog.port`, `analog.value`
    pub analog: [SignalId; 2],
    /// `compass.heading`, `.pitch`, `.roll`, `.temperature`
    pub compass: [SignalId; 4],
    /// `battery.voltage`, `battery.charge`
    pub battery: [SignalId; 2],
}

fn all<const N: usize>(s: &mut Signals, specs: [&SignalSpec; N]) -> [SignalId; N] {
    specs.map(|spec| spec.declare(s))
}

impl Ids {
    /// Declare what `e` says the vehicle has, in the order every ground vehicle uses.
    pub fn declare(s: &mut Signals, e: &Equipment) -> Self {
        let pose = all(s, [&POSE_X, &POSE_Y, &POSE_YAW]);
        let truth = e.truth.then(|| all(s, [&TRUTH_X, &TRUTH_Y, &TRUTH_YAW]));
        Ids {
            pose,
            truth,
            velocity: all(s, [&VELOCITY_LINEAR, &VELOCITY_ANGULAR]),
            wheel: all(s, [&WHEEL_LEFT, &WHEEL_RIGHT]),
            encoder: all(s, [&ENCODER_LEFT, &ENCODER_RIGHT]),
            stall: all(s, [&STALL_LEFT, &STALL_RIGHT]),
            bumper: all(s, [&BUMPER_FRONT, &BUMPER_REAR]),
            motors: MOTORS_ENABLED.declare(s),
            estop: ESTOP.declare(s),
            sonar: (0..e.sonars.min(SONARS))
                .map(|k| SONAR.declare(s, k))
                .collect(),
            laser: (0..e.laser_beams.min(MAX_LASER_BEAMS))
                .map(|k| LASER.declare(s, k))
                .collect(),
            gripper: GRIPPER_STATE.declare(s),
            gripper_detail: e
                .gripper_detail
                .then(|| all(s, [&GRIPPER_PADDLES, &GRIPPER_LIFT, &GRIPPER_HOLDING])),
            digin: DIGIN.declare(s),
            digout: DIGOUT.declare(s),
            analog: all(s, [&ANALOG_PORT, &ANALOG_VALUE]),
            compass: all(
                s,
                [
                    &COMPASS_HEADING,
                    &COMPASS_PITCH,
                    &COMPASS_ROLL,
                    &COMPASS_TEMPERATURE,
                ],
            ),
            battery: all(s, [&BATTERY_VOLTAGE, &BATTERY_CHARGE]),
        }
    }
}

/// What the camera reports of one kind of object (`ball.*`, `can.*`).
#[derive(Debug)]
pub struct PerceptSpecs {
    /// `.seen`
    pub seen: &'static SignalSpec,
    /// `.distance`
    pub distance: &'static SignalSpec,
    /// `.bearing`
    pub bearing: &'static SignalSpec,
    /// `.x`
    pub x: &'static SignalSpec,
    /// `.y`
    pub y: &'static SignalSpec,
    /// `.time_since_seen`
    pub time_since_seen: &'static SignalSpec,
}

/// The camera's ball percept.
pub static BALL: PerceptSpecs = PerceptSpecs {
    seen: &BALL_SEEN,
    distance: &BALL_DISTANCE,
    bearing: &BALL_BEARING,
    x: &BALL_X,
    y: &BALL_Y,
    time_since_seen: &BALL_TIME_SINCE_SEEN,
};

/// The camera's can percept.
pub static CAN: PerceptSpecs = PerceptSpecs {
    seen: &CAN_SEEN,
    distance: &CAN_DISTANCE,
    bearing: &CAN_BEARING,
    x: &CAN_X,
    y: &CAN_Y,
    time_since_seen: &CAN_TIME_SINCE_SEEN,
};

/// Reads a ground vehicle's odometry pose from its signals (ids found once).
#[derive(Debug, Clone, Copy, Default)]
pub struct PoseReader {
    ids: Option<[SignalId; 3]>,
    velocity: [Option<SignalId>; 2],
}

impl PoseReader {
    /// Find `pose.*` (and `velocity.*`, if declared) in `s`; `None` without a pose.
    pub fn bind(s: &Signals) -> Option<Self> {
        Some(Self {
            ids: Some([POSE_X.id(s)?, POSE_Y.id(s)?, POSE_YAW.id(s)?]),
            velocity: [VELOCITY_LINEAR.id(s), VELOCITY_ANGULAR.id(s)],
        })
    }

    /// The pose, if every part of it has a value.
    pub fn pose(&self, s: &Signals) -> Option<Pose2> {
        let [x, y, yaw] = self.ids?;
        Some(Pose2 {
            x: s.f64(x)?,
            y: s.f64(y)?,
            yaw: s.f64(yaw)?,
        })
    }

    /// Forward speed (m/s) and turn rate (rad/s); 0 for what the vehicle does not report.
    pub fn velocity(&self, s: &Signals) -> (f64, f64) {
        let get = |id: Option<SignalId>| id.and_then(|id| s.f64(id)).unwrap_or(0.0);
        (get(self.velocity[0]), get(self.velocity[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulators_declaration_order_is_kept() {
        let mut s = Signals::new();
        let e = Equipment {
            truth: true,
            sonars: SONARS,
            laser_beams: 2,
            gripper_detail: true,
        };
        Ids::declare(&mut s, &e);
        let names: Vec<_> = s.iter().map(|(_, n, _)| n.to_string()).collect();
        assert_eq!(
            &names[..7],
            [
                "pose.x",
                "pose.y",
                "pose.yaw",
                "truth.x",
                "truth.y",
                "truth.yaw",
                "velocity.linear"
            ]
        );
        let i = names.iter().position(|n| n == "laser.1").unwrap();
        assert_eq!(
            names[i + 1..i + 5],
            [
                "gripper.state",
                "gripper.paddles",
                "gripper.lift",
                "gripper.holding"
            ]
        );
        assert_eq!(names.last().map(String::as_str), Some("battery.charge"));
    }

    #[test]
    fn a_pose_reader_needs_every_part() {
        let mut s = Signals::new();
        let ids = all(&mut s, [&POSE_X, &POSE_Y, &POSE_YAW]);
        let r = PoseReader::bind(&s).unwrap();
        assert_eq!(r.pose(&s), None);
        for (id, v) in ids.iter().zip([1.0, 2.0, 0.5]) {
            s.set_f64(*id, v, std::time::Duration::ZERO);
        }
        assert_eq!(
            r.pose(&s),
            Some(Pose2 {
                x: 1.0,
                y: 2.0,
                yaw: 0.5
            })
        );
        assert_eq!(r.velocity(&s), (0.0, 0.0));
        assert!(PoseReader::bind(&Signals::new()).is_none());
    }
}
