//! The built-in demo controller (`skipper run` with no controller): wander and avoid
//! obstacles.
//!
//! Every cycle it turns the latest ranges into obstacle points around the robot (the
//! laser's beams when the robot has a laser, else the sonar ring, each reading spread
//! over its transducer's 30° cone), and weighs a fan of arcs, from a tight left turn
//! through straight ahead to a tight right one: how far the robot could drive along
//! each before it came within its clearance of a point (see [`clearance`]). It takes the
//! arc with the most room, preferring straight ahead and the arc it took last, at a
//! speed it can still stop from within that room. When no arc has room it turns in
//! place, toward the side with more room, until one has (a Pioneer is round where it
//! collides, so turning in place never hits anything). A bump or a stall starts such a
//! turn too.
//!
//! It needs a laser (`laser.N`) or sonars (`sonar.N`), and reads them where the vehicle
//! says they are ([`Wander::for_sensors`]): a laser of any beam count and angles (a
//! 360° scan included), any sonar ring. A vehicle that describes no sensors is taken for
//! a Pioneer 3-DX ([`Wander::new`]): its front sonars `sonar.0` .. `sonar.7`, or a laser
//! whose beams spread over the front half-circle.

pub mod clearance;

use skipper_core::sensors::{pioneer, LaserGeometry, SensorGeometry};
use skipper_core::vocabulary::ground;
use skipper_core::{
    Controller, ControllerError, Cycle, Drive, SignalId, Signals, Status, VehicleInfo,
};

/// Cruise speed (m/s).
const CRUISE: f64 = 0.45;
/// The braking the speed is chosen for (m/s²): a Pioneer's default deceleration.
const DECEL: f64 = 0.3;
/// The robot's radius where it collides (m).
const BODY: f64 = 0.25;
/// How close (m) the robot's centre may come to an obstacle point along an arc: its
/// radius and a margin for what moves meanwhile.
const CLEARANCE: f64 = BODY + 0.1;
/// The wider berth (m) arcs are weighed with too, to keep to the middle of the way.
const BERTH: f64 = BODY + 0.45;
/// Room (m) kept in hand when the speed is chosen.
const STOP_MARGIN: f64 = 0.1;
/// Speed (m/s) per metre between the body and the nearest obstacle point.
const NEAR_SPEED: f64 = 0.6;
/// The least cruising speed near obstacles (m/s), when the arc has room for it.
const CREEP: f64 = 0.1;
/// Arcs are weighed up to this far (m).
const HORIZON: f64 = 3.0;
/// Below this much room on every arc, turn in place (m).
const BLOCKED: f64 = 0.3;
/// A turn in place goes on until an arc has this much room (m).
const OPEN: f64 = 0.9;
/// Turning rate in place (rad/s).
const TURN_RATE: f64 = 0.8;
/// The arcs weighed: curvatures (1/m), left positive.
const ARCS: [f64; 13] = [
    -2.0, -1.4, -1.0, -0.7, -0.4, -0.2, 0.0, 0.2, 0.4, 0.7, 1.0, 1.4, 2.0,
];
/// Points further than this (m) cannot stop any arc within the horizon.
const FAR: f64 = HORIZON + CLEARANCE;
/// Bumps remembered.
const BUMPS: usize = 8;
/// How long a bump is remembered (s).
const BUMP_MEMORY: f64 = 20.0;
/// Points per sonar reading, across its cone.
const CONE_POINTS: usize = 5;
/// A P3-DX sonar's cone (deg, full width).
const CONE_DEG: f64 = 30.0;
/// A P3-DX laser's mounting point ahead of the centre (m).
const LASER_X: f64 = 0.018;

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
enum Mode {
    /// Driving along the arc of this curvature.
    Cruise { curvature: f64 },
    /// Turning in place.
    Turn { left: bool },
}

/// Wander and avoid obstacles.
#[derive(Debug)]
pub struct Wander {
    /// where its ranges come from, as the vehicle describes them
    rig: SensorGeometry,
    /// the signal of each of the rig's sonars
    sonar: Vec<Option<SignalId>>,
    laser: Vec<SignalId>,
    /// the laser's place and beams: the rig's, or spread over the front half-circle
    beams: Option<LaserGeometry>,
    bumper: Option<SignalId>,
    stall: Option<SignalId>,
    pose: Option<[SignalId; 3]>,
    mode: Mode,
    /// obstacle points of this cycle (robot frame) and their distances, nearest first;
    /// kept to reuse their memory
    points: Vec<(f64, f64, f64)>,
    /// where bumps were (odometry frame) and when (s): obstacles the ranges missed
    bumps: [Option<(f64, f64, f64)>; BUMPS],
    next_bump: usize,
}

impl Default for Wander {
    fn default() -> Self {
        Self::new()
    }
}

impl Wander {
    /// A wanderer on a Pioneer 3-DX (or a robot that does not say where its sensors
    /// are), about to cruise straight ahead.
    pub fn new() -> Self {
        // the front half of the P3-DX's ring
        let sonar = pioneer::sonar_geometry(&pioneer::P3DX_SONARS[..8], CONE_DEG, 0.0, FAR);
        Self::with_rig(SensorGeometry {
            laser: None,
            sonar,
            bumper_segments: 5,
        })
    }

    /// A wanderer reading the sensors where `sensors` (the vehicle's own description,
    /// [`skipper_core::Vehicle::sensors`]) says they are; a description with neither a
    /// laser nor sonars is taken for a Pioneer 3-DX's ([`Wander::new`]).
    pub fn for_sensors(sensors: &SensorGeometry) -> Self {
        if sensors.laser.is_none() && sensors.sonar.is_empty() {
            return Self::new();
        }
        Self::with_rig(sensors.clone())
    }

    fn with_rig(rig: SensorGeometry) -> Self {
        Self {
            rig,
            sonar: Vec::new(),
            laser: Vec::new(),
            beams: None,
            bumper: None,
            stall: None,
            pose: None,
            mode: Mode::Cruise { curvature: 0.0 },
            points: Vec::new(),
            bumps: [None; BUMPS],
            next_bump: 0,
        }
    }

    /// The odometry pose, if the robot has one.
    fn odometry(&self, s: &Signals) -> Option<(f64, f64, f64)> {
        let [x, y, yaw] = self.pose?;
        Some((s.f64(x)?, s.f64(y)?, s.f64(yaw)?))
    }

    /// Remember where the closed bumper segments touched (a wall's end the ranges miss).
    fn remember_bumps(&mut self, s: &Signals, now: f64) {
        let (Some(pose), Some(bits)) = (
            self.odometry(s),
            self.bumper.and_then(|id| s.get(id).as_i64()),
        ) else {
            return;
        };
        for k in 0..5 {
            if bits & (1 << k) == 0 {
                continue;
            }
            // front segments from the left end (+90°) to the right end (-90°)
            let a = (90.0 - (k as f64 + 0.5) * 36.0).to_radians();
            let (lx, ly) = (BODY * a.cos(), BODY * a.sin());
            let (sn, cs) = pose.2.sin_cos();
            let at = (pose.0 + lx * cs - ly * sn, pose.1 + lx * sn + ly * cs, now);
            self.bumps[self.next_bump] = Some(at);
            self.next_bump = (self.next_bump + 1) % BUMPS;
        }
    }

    /// The remembered bumps of the last [`BUMP_MEMORY`] seconds, as points in the robot
    /// frame.
    fn add_bumps(&mut self, s: &Signals, now: f64) {
        let Some((x, y, yaw)) = self.odometry(s) else {
            return;
        };
        let (sn, cs) = yaw.sin_cos();
        for &(bx, by, t) in self.bumps.iter().flatten() {
            if now - t > BUMP_MEMORY {
                continue;
            }
            let (dx, dy) = (bx - x, by - y);
            push(&mut self.points, dx * cs + dy * sn, -dx * sn + dy * cs);
        }
    }

    /// This cycle's obstacle points within reach: the laser's, else the sonars'.
    fn gather(&mut self, s: &Signals) {
        self.points.clear();
        if let Some(g) = self.beams {
            for (k, id) in self.laser.iter().enumerate() {
                let Some(r) = s.f64(*id) else { continue };
                if r < FAR && r >= g.range_min {
                    let a = g.angle_min + k as f64 * g.angle_increment;
                    push(&mut self.points, g.x + r * a.cos(), r * a.sin());
                }
            }
            return;
        }
        for (slot, g) in self.sonar.iter().zip(self.rig.sonar.iter()) {
            let Some(r) = slot.and_then(|id| s.f64(id)) else {
                continue;
            };
            if r >= FAR || r >= g.max_range || r < g.min_range {
                continue;
            }
            for j in 0..CONE_POINTS {
                let off = g.field_of_view * (j as f64 / (CONE_POINTS - 1) as f64 - 0.5);
                let a = g.yaw + off;
                push(&mut self.points, g.x + r * a.cos(), g.y + r * a.sin());
            }
        }
    }

    /// The room along each arc, in the order of [`ARCS`], with the robot's clearance
    /// and with a wider berth.
    fn rooms(&self, clearance: f64) -> [f64; ARCS.len()] {
        ARCS.map(|k| clearance::free_along(&self.points, k, clearance, HORIZON))
    }
}

/// The sonar signals a rig of `n` sonars reads.
fn sonar_names(n: usize) -> String {
    match n {
        0 => "it describes no sonars".to_string(),
        1 => "sonar.0".to_string(),
        n => format!("sonar.0 .. sonar.{}", n - 1),
    }
}

/// Add the point (x, y) with its distance from the centre.
fn push(points: &mut Vec<(f64, f64, f64)>, x: f64, y: f64) {
    points.push((x, y, (x * x + y * y).sqrt()));
}

/// The arc to take: most room, with a wide berth too (away from walls and robots
/// beside the way), then straight ahead, then close to the last one.
fn best_arc(rooms: &[f64; ARCS.len()], wide: &[f64; ARCS.len()], last: f64) -> f64 {
    let mut best = (f64::NEG_INFINITY, 0.0);
    for ((&k, &room), &berth) in ARCS.iter().zip(rooms.iter()).zip(wide.iter()) {
        let score = room + berth - 0.4 * k.abs() - 0.3 * (k - last).abs();
        if score > best.0 {
            best = (score, k);
        }
    }
    best.1
}

impl Controller for Wander {
    fn name(&self) -> &str {
        "wander"
    }

    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.sonar = (0..self.rig.sonar.len())
            .map(|k| ground::SONAR.id(s, k))
            .collect();
        self.laser = (0..ground::MAX_LASER_BEAMS)
            .map_while(|k| ground::LASER.id(s, k))
            .collect();
        self.beams = (self.laser.len() > 1).then(|| {
            self.rig.laser.unwrap_or(LaserGeometry {
                x: LASER_X,
                angle_min: -std::f64::consts::FRAC_PI_2,
                angle_increment: std::f64::consts::PI / self.laser.len() as f64,
                range_min: 0.0,
                range_max: FAR,
            })
        });
        if self.beams.is_none() && (self.sonar.is_empty() || self.sonar.contains(&None)) {
            return Err(ControllerError::vehicle(format!(
                "the wander demo needs a laser or sonars ({}), and {} has neither",
                sonar_names(self.rig.sonar.len()),
                vehicle.name
            )));
        }
        self.bumper = ground::BUMPER_FRONT.id(s);
        self.pose = (|| {
            Some([
                ground::POSE_X.id(s)?,
                ground::POSE_Y.id(s)?,
                ground::POSE_YAW.id(s)?,
            ])
        })();
        self.stall = ground::STALL_LEFT.id(s);
        let cone = if self.laser.len() > 1 { 1 } else { CONE_POINTS };
        self.points
            .reserve(self.laser.len().max(self.sonar.len() * cone) + BUMPS);
        Ok(())
    }

    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let s = c.signals;
        let now = c.now.as_secs_f64();
        self.remember_bumps(s, now);
        self.gather(s);
        self.add_bumps(s, now);
        self.points.sort_unstable_by(|a, b| a.2.total_cmp(&b.2));
        let rooms = self.rooms(CLEARANCE);
        let bumped = self
            .bumper
            .and_then(|id| s.get(id).as_i64())
            .is_some_and(|b| b != 0)
            || self
                .stall
                .and_then(|id| s.get(id).as_bool())
                .unwrap_or(false);
        let half = ARCS.len() / 2;
        let left_room: f64 = rooms[half + 1..].iter().sum();
        let right_room: f64 = rooms[..half].iter().sum();
        let most = rooms.iter().copied().fold(0.0, f64::max);
        self.mode = match self.mode {
            Mode::Turn { left } if most < OPEN || bumped => Mode::Turn { left },
            Mode::Cruise { .. } if most < BLOCKED || bumped => Mode::Turn {
                left: left_room >= right_room,
            },
            Mode::Turn { .. } | Mode::Cruise { .. } => {
                let last = match self.mode {
                    Mode::Cruise { curvature } => curvature,
                    Mode::Turn { left } => {
                        if left {
                            1.0
                        } else {
                            -1.0
                        }
                    }
                };
                Mode::Cruise {
                    curvature: best_arc(&rooms, &self.rooms(BERTH), last),
                }
            }
        };
        let (v, w) = match self.mode {
            Mode::Turn { left } => (0.0, if left { TURN_RATE } else { -TURN_RATE }),
            Mode::Cruise { curvature } => {
                let room = rooms
                    .iter()
                    .zip(ARCS.iter())
                    .find(|(_, &k)| k == curvature)
                    .map_or(0.0, |(&r, _)| r);
                // what comes the other way brakes too: each keeps half the room; and
                // slowly near anything, which may cross the arc before the robot is by
                let near = self
                    .points
                    .iter()
                    .filter(|&&(x, y, _)| x > 0.5 * y.abs())
                    .map(|&(_, _, d)| d)
                    .fold(f64::INFINITY, f64::min)
                    - BODY;
                let v = (DECEL * (room - STOP_MARGIN).max(0.0))
                    .sqrt()
                    .min((NEAR_SPEED * (near - STOP_MARGIN)).max(CREEP))
                    .min(CRUISE);
                (v, curvature * v)
            }
        };
        c.actuation.drive = Some(Drive::velocity(v, w));
        Ok(Status::Running)
    }

    fn state(&self) -> Option<serde_json::Value> {
        serde_json::to_value(self.mode).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::sensors::SonarGeometry;
    use skipper_core::VehicleKind;
    use std::f64::consts::{FRAC_PI_2, PI};
    use std::time::Duration;

    fn info() -> VehicleInfo {
        VehicleInfo {
            name: "r".into(),
            kind: VehicleKind::Ground,
            model: "test".into(),
        }
    }

    /// The obstacle points `w` gathers from `readings` (signal name, range).
    fn points(mut w: Wander, readings: &[(String, f64)]) -> Vec<(f64, f64)> {
        let mut s = Signals::new();
        let ids: Vec<_> = readings.iter().map(|(n, _)| s.declare(n, None)).collect();
        for (id, (_, r)) in ids.iter().zip(readings) {
            s.set_f64(*id, *r, Duration::ZERO);
        }
        w.start(&info(), &s).expect("the wander starts");
        w.gather(&s);
        w.points.iter().map(|&(x, y, _)| (x, y)).collect()
    }

    fn near(p: (f64, f64), q: (f64, f64)) -> bool {
        (p.0 - q.0).abs() < 1e-9 && (p.1 - q.1).abs() < 1e-9
    }

    #[test]
    fn a_full_circle_scan_is_read_at_its_own_angles() {
        // 360 beams from straight ahead, counter-clockwise: beam 0 ahead, 90 left, 180 behind
        let rig = SensorGeometry {
            laser: Some(LaserGeometry {
                x: -0.05,
                angle_min: 0.0,
                angle_increment: PI / 180.0,
                range_min: 0.12,
                range_max: 3.5,
            }),
            ..SensorGeometry::default()
        };
        let mut readings: Vec<(String, f64)> =
            (0..360).map(|k| (format!("laser.{k}"), 10.0)).collect();
        readings[0].1 = 1.0;
        readings[90].1 = 2.0;
        readings[180].1 = 0.05; // below the laser's shortest range: no return
        let p = points(Wander::for_sensors(&rig), &readings);
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(near(p[0], (0.95, 0.0)), "{p:?}");
        assert!(near(p[1], (-0.05, 2.0)), "{p:?}");
    }

    #[test]
    fn a_pioneer_laser_spreads_over_the_front_half() {
        let mut readings: Vec<(String, f64)> =
            (0..180).map(|k| (format!("laser.{k}"), 10.0)).collect();
        readings[0].1 = 1.0;
        let p = points(Wander::new(), &readings);
        assert_eq!(p.len(), 1);
        assert!(near(p[0], (LASER_X + (-FRAC_PI_2).cos(), -1.0)), "{p:?}");
    }

    #[test]
    fn sonars_are_read_where_the_vehicle_says() {
        // one transducer at the back, facing backwards, with a 20° cone
        let rig = SensorGeometry {
            sonar: vec![SonarGeometry {
                x: -0.2,
                y: 0.0,
                yaw: PI,
                field_of_view: 20f64.to_radians(),
                min_range: 0.02,
                max_range: 4.0,
            }],
            ..SensorGeometry::default()
        };
        let p = points(Wander::for_sensors(&rig), &[("sonar.0".into(), 1.0)]);
        assert_eq!(p.len(), CONE_POINTS);
        assert!(p.iter().all(|&(x, _)| x < -1.1), "{p:?}");
        assert!(near(p[CONE_POINTS / 2], (-1.2, 0.0)), "{p:?}");
    }

    #[test]
    fn a_robot_without_the_sonars_it_describes_is_refused() {
        let mut s = Signals::new();
        s.declare("sonar.0", None);
        let e = Wander::new().start(&info(), &s).unwrap_err();
        assert!(
            e.to_string()
                .contains("needs a laser or sonars (sonar.0 .. sonar.7), and r has neither"),
            "{e}"
        );
    }
}
