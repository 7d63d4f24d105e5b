//! [`SimFleet`] serves the robots of a [`GroundWorld`] through
//! `skipper_p2os::server::RobotFleet`, so that ARIA programs, the ROS p2os driver's logic
//! and Skipper's own P2OS driver can drive them.
//!
//! It steps the world by the server's SIP cycle and reads each robot's signals (the
//! ground vocabulary, `skipper_core::vocabulary::ground`) into a `RobotStatus`; a sonar reading is
//! new when its signal got a datum in the last step. The simulated laser's scans are
//! ray-cast from the world at whatever angles and resolution the client asked for.
//!
//! Every robot identifies itself as a simulator the way ARIA checks for one: serial
//! number "SIM" (what MobileSim reports), with its own name and Skipper's firmware
//! version, so ARIA connects its simulated laser instead of opening a serial port.
//!
//! A world with a geographic origin ([`SimFleet::with_origin`]) gives every robot a
//! simulated GPS at the centre of the robot, from its true pose ([`crate::geo`]): a fix
//! of DOP 1 (what AMRISim reports for its Pioneer models) while the robot is within the
//! bounding box of the world's walls (anywhere, in a world without walls), no fix
//! outside it.

use skipper_core::{Actuation, Events, Pose2, SignalId, Signals, Vehicle, World};
use skipper_p2os::packets::{SimDevice, SoundRef};
use skipper_p2os::server::GeoFix;
use skipper_p2os::server::{RobotFleet, RobotIdentity, RobotStatus, Sound, MAX_SONARS};
use skipper_sim::spec::GeoOrigin;
use skipper_sim::GroundWorld;
use std::time::Duration;

/// Signal ids read for the status.
struct Ids {
    pose: [Option<SignalId>; 3],
    truth: [Option<SignalId>; 3],
    wheel: [Option<SignalId>; 2],
    angular: Option<SignalId>,
    encoder: [Option<SignalId>; 2],
    stall: [Option<SignalId>; 2],
    bumper: [Option<SignalId>; 2],
    motors: Option<SignalId>,
    estop: Option<SignalId>,
    sonar: Vec<SignalId>,
    gripper: Option<SignalId>,
    digin: Option<SignalId>,
    digout: Option<SignalId>,
    analog_port: Option<SignalId>,
    compass: [Option<SignalId>; 4],
    battery: [Option<SignalId>; 2],
}

impl Ids {
    fn find(s: &Signals) -> Self {
        use skipper_core::vocabulary::{ground as g, SignalSpec};
        let f = |spec: &SignalSpec| spec.id(s);
        Self {
            pose: [f(&g::POSE_X), f(&g::POSE_Y), f(&g::POSE_YAW)],
            truth: [f(&g::TRUTH_X), f(&g::TRUTH_Y), f(&g::TRUTH_YAW)],
            wheel: [f(&g::WHEEL_LEFT), f(&g::WHEEL_RIGHT)],
            angular: f(&g::VELOCITY_ANGULAR),
            encoder: [f(&g::ENCODER_LEFT), f(&g::ENCODER_RIGHT)],
            stall: [f(&g::STALL_LEFT), f(&g::STALL_RIGHT)],
            bumper: [f(&g::BUMPER_FRONT), f(&g::BUMPER_REAR)],
            motors: f(&g::MOTORS_ENABLED),
            estop: f(&g::ESTOP),
            sonar: (0..MAX_SONARS).map_while(|k| g::SONAR.id(s, k)).collect(),
            gripper: f(&g::GRIPPER_STATE),
            digin: f(&g::DIGIN),
            digout: f(&g::DIGOUT),
            analog_port: f(&g::ANALOG_PORT),
            compass: [
                f(&g::COMPASS_HEADING),
                f(&g::COMPASS_PITCH),
                f(&g::COMPASS_ROLL),
                f(&g::COMPASS_TEMPERATURE),
            ],
            battery: [f(&g::BATTERY_VOLTAGE), f(&g::BATTERY_CHARGE)],
        }
    }
}

/// The serial number ARIA takes for a simulator's (`ArRobotConnector::getRemoteIsSim`).
pub const SIMULATOR_SERIAL: &str = "SIM";

/// The robots of a simulated world, served over P2OS.
pub struct SimFleet {
    world: GroundWorld,
    signals: Vec<Signals>,
    ids: Vec<Ids>,
    events: Events,
    now: Duration,
    subtype: String,
    sounds: Vec<u64>,
    origin: Option<GeoOrigin>,
    /// the bounding box of the walls (lowest x, y; highest x, y), if there are walls
    extent: Option<[f64; 4]>,
}

/// The DOP of the simulated GPS's fix (AMRISim's default for its Pioneer models).
pub const GPS_DOP: f64 = 1.0;

impl SimFleet {
    /// Serve `world`'s robots, each claiming robot subtype `subtype` (one ARIA knows).
    pub fn new(mut world: GroundWorld, subtype: &str) -> Self {
        let n = world.len();
        let mut signals = vec![Signals::new(); n];
        let mut events = Events::new();
        for (i, s) in signals.iter_mut().enumerate() {
            s.begin_cycle();
            if let Some(v) = world.vehicle_mut(i) {
                v.sense(Duration::ZERO, s, &mut events);
            }
        }
        let ids = signals.iter().map(Ids::find).collect();
        Self {
            world,
            signals,
            ids,
            events,
            now: Duration::ZERO,
            subtype: subtype.to_string(),
            sounds: vec![0; n],
            origin: None,
            extent: None,
        }
    }

    /// Place the world's origin on the globe (a map's `OriginLatLongAlt`, a world file's
    /// `origin`), which gives every robot a simulated GPS in SIMSTAT; `None` (the default)
    /// gives none.
    pub fn with_origin(mut self, origin: Option<GeoOrigin>) -> Self {
        self.origin = origin;
        self.extent = self.world.walls().iter().fold(None, |e, w| {
            let [x0, y0, x1, y1] = e.unwrap_or([
                f64::INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ]);
            Some([
                x0.min(w.a.x).min(w.b.x),
                y0.min(w.a.y).min(w.b.y),
                x1.max(w.a.x).max(w.b.x),
                y1.max(w.a.y).max(w.b.y),
            ])
        });
        self
    }

    /// The simulated GPS's fix at true pose (`x`, `y`) (m), if the world has an origin.
    fn gps(&self, x: f64, y: f64) -> Option<GeoFix> {
        let origin = self.origin.as_ref()?;
        let p = crate::geo::map_to_lla(origin, x, y, 0.0);
        let on_map = self
            .extent
            .is_none_or(|[x0, y0, x1, y1]| (x0..=x1).contains(&x) && (y0..=y1).contains(&y));
        Some(GeoFix {
            latitude: p.latitude,
            longitude: p.longitude,
            altitude: p.altitude,
            dop: on_map.then_some(GPS_DOP),
        })
    }

    /// The world.
    pub fn world(&self) -> &GroundWorld {
        &self.world
    }

    /// SAY and SOUND requests each robot got.
    pub fn sounds(&self) -> &[u64] {
        &self.sounds
    }
}

impl RobotFleet for SimFleet {
    fn len(&self) -> usize {
        self.world.len()
    }

    fn identity(&self, robot: usize) -> RobotIdentity {
        RobotIdentity {
            name: self
                .world
                .robots()
                .get(robot)
                .map_or_else(|| format!("robot{robot}"), |r| r.info().name.clone()),
            class: "Pioneer".into(),
            subtype: self.subtype.clone(),
            serial: SIMULATOR_SERIAL.into(),
        }
    }

    fn act(&mut self, robot: usize, actuation: &Actuation) {
        let now = self.now;
        self.events.set_robot(robot);
        if let Some(v) = self.world.vehicle_mut(robot) {
            v.act(now, actuation, &mut self.events);
        }
        self.events.clear();
    }

    fn status(&mut self, robot: usize, out: &mut RobotStatus) {
        let (Some(s), Some(ids), Some(r)) = (
            self.signals.get(robot),
            self.ids.get(robot),
            self.world.robots().get(robot),
        ) else {
            return;
        };
        let f = |id: Option<SignalId>| id.and_then(|id| s.f64(id)).unwrap_or(0.0);
        let b = |id: Option<SignalId>| id.and_then(|id| s.get(id).as_bool()).unwrap_or(false);
        let byte = |id: Option<SignalId>| f(id).clamp(0.0, 255.0) as u8;
        out.pose = Pose2::new(f(ids.pose[0]), f(ids.pose[1]), f(ids.pose[2]));
        out.true_pose = Pose2::new(f(ids.truth[0]), f(ids.truth[1]), f(ids.truth[2]));
        out.wheel_left = f(ids.wheel[0]);
        out.wheel_right = f(ids.wheel[1]);
        out.rot_vel = f(ids.angular);
        out.battery_volts = f(ids.battery[0]);
        out.state_of_charge = f(ids.battery[1]);
        out.stall_left = b(ids.stall[0]);
        out.stall_right = b(ids.stall[1]);
        out.bumpers_front = byte(ids.bumper[0]);
        out.bumpers_rear = byte(ids.bumper[1]);
        out.motors_enabled = b(ids.motors);
        out.estop = b(ids.estop);
        out.sonar_enabled = r.sonar_enabled();
        out.sonars = ids.sonar.len();
        for (k, id) in ids.sonar.iter().enumerate() {
            if let (Some(d), Some(fr)) = (out.sonar.get_mut(k), out.sonar_fresh.get_mut(k)) {
                *d = s.f64(*id).unwrap_or(5.0);
                *fr = s.updated_at(*id) == Some(self.now);
            }
        }
        out.compass_deg = ids.compass[0].and_then(|id| s.f64(id));
        out.gripper = r.spec().gripper.then(|| byte(ids.gripper));
        out.analog_port = byte(ids.analog_port);
        out.analog = r.spec().analog;
        out.digin = byte(ids.digin);
        out.digout = byte(ids.digout);
        let tick = |id: Option<SignalId>| id.and_then(|id| s.get(id).as_i64()).unwrap_or(0);
        out.encoders = (tick(ids.encoder[0]), tick(ids.encoder[1]));
        out.tcm2 = [
            f(ids.compass[0]),
            f(ids.compass[1]),
            f(ids.compass[2]),
            f(ids.compass[3]),
        ];
        out.temperature = f(ids.compass[3]);
        out.limits = r.motion_limits();
        out.geo = self.gps(out.true_pose.x, out.true_pose.y);
    }

    fn advance(&mut self, dt: Duration) {
        let now = self.now;
        self.world.advance(now, dt, &mut self.events);
        self.now = now + dt;
        for (i, s) in self.signals.iter_mut().enumerate() {
            s.begin_cycle();
            self.events.set_robot(i);
            if let Some(v) = self.world.vehicle_mut(i) {
                v.sense(self.now, s, &mut self.events);
            }
        }
        for e in self.events.as_slice() {
            tracing::debug!(robot = e.robot, "{}: {}", e.kind, e.data);
        }
        self.events.clear();
    }

    fn set_pose(&mut self, robot: usize, pose: Pose2) -> Result<(), String> {
        self.world.set_robot_true_pose(robot, pose)
    }

    fn reset(&mut self, robot: usize) -> Result<(), String> {
        let start = self
            .world
            .robots()
            .get(robot)
            .map(|r| r.spec().pose)
            .ok_or_else(|| format!("no robot {robot}"))?;
        self.world.set_robot_pose(robot, start)?;
        self.act(
            robot,
            &Actuation {
                reset_odometry: true,
                ..Default::default()
            },
        );
        Ok(())
    }

    fn sound(&mut self, robot: usize, sound: Sound<'_>) {
        if let Some(n) = self.sounds.get_mut(robot) {
            *n += 1;
        }
        tracing::info!(robot, "sound: {sound:?}");
    }

    fn playlist(&self, _robot: usize) -> Vec<SoundRef> {
        Vec::new()
    }

    fn laser_scan(&mut self, robot: usize, first_deg: f64, step_deg: f64, out: &mut [f64]) -> bool {
        self.world
            .laser_scan(robot, first_deg, step_deg, out)
            .is_some()
    }

    fn devices(&self, robot: usize) -> Vec<SimDevice> {
        let Some(spec) = self.world.robots().get(robot).map(|r| r.spec()) else {
            return Vec::new();
        };
        let device = |name: &str| SimDevice {
            name: name.into(),
            kind: name.into(),
            which: 0,
            status: 0,
        };
        let mut devices = vec![device("position"), device("sonar")];
        if spec.laser {
            devices.push(device("laser"));
        }
        if spec.gripper {
            devices.push(device("gripper"));
        }
        devices
    }
}
