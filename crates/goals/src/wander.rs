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
//! It needs the front sonars (`sonar.0` .. `sonar.7`) or a laser (`laser.N`), so it
//! drives the simulated Pioneer and a real robot with a sonar ring or laser alike; the
//! sonar ring's geometry is the Pioneer 3-DX's.

pub mod clearance;

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
/// The P3-DX sonar ring (ARIA's p3dx.p): transducer position (mm, x forward, y left)
/// and heading (deg).
const SONAR_RING: [(f64, f64, f64); 8] = [
    (69.0, 136.0, 90.0),
    (114.0, 119.0, 50.0),
    (148.0, 78.0, 30.0),
    (166.0, 27.0, 10.0),
    (166.0, -27.0, -10.0),
    (148.0, -78.0, -30.0),
    (114.0, -119.0, -50.0),
    (69.0, -136.0, -90.0),
];
/// Bumps remembered.
const BUMPS: usize = 8;
/// How long a bump is remembered (s).
const BUMP_MEMORY: f64 = 20.0;
/// Points per sonar reading, across its cone.
const CONE_POINTS: usize = 5;
/// A sonar's cone (deg, full width).
const CONE_DEG: f64 = 30.0;
/// The laser's mounting point ahead of the centre (m).
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
    sonar: [Option<SignalId>; 8],
    laser: Vec<SignalId>,
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
    /// A wanderer, about to cruise straight ahead.
    pub fn new() -> Self {
        Self {
            sonar: [None; 8],
            laser: Vec::new(),
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

    /// This cycle's obstacle points within reach: the laser's, else the front sonars'.
    fn gather(&mut self, s: &Signals) {
        self.points.clear();
        let n = self.laser.len();
        if n > 1 {
            let step = std::f64::consts::PI / n as f64;
            for (k, id) in self.laser.iter().enumerate() {
                let Some(r) = s.f64(*id) else { continue };
                if r < FAR {
                    let a = -std::f64::consts::FRAC_PI_2 + k as f64 * step;
                    push(&mut self.points, LASER_X + r * a.cos(), r * a.sin());
                }
            }
            return;
        }
        for (slot, &(x, y, h)) in self.sonar.iter().zip(SONAR_RING.iter()) {
            let Some(r) = slot.and_then(|id| s.f64(id)) else {
                continue;
            };
            if r >= FAR {
                continue;
            }
            for j in 0..CONE_POINTS {
                let off = CONE_DEG * (j as f64 / (CONE_POINTS - 1) as f64 - 0.5);
                let a = (h + off).to_radians();
                push(
                    &mut self.points,
                    x / 1000.0 + r * a.cos(),
                    y / 1000.0 + r * a.sin(),
                );
            }
        }
    }

    /// The room along each arc, in the order of [`ARCS`], with the robot's clearance
    /// and with a wider berth.
    fn rooms(&self, clearance: f64) -> [f64; ARCS.len()] {
        ARCS.map(|k| clearance::free_along(&self.points, k, clearance, HORIZON))
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
        for (k, slot) in self.sonar.iter_mut().enumerate() {
            *slot = ground::SONAR.id(s, k);
        }
        self.laser = (0..ground::MAX_LASER_BEAMS)
            .map_while(|k| ground::LASER.id(s, k))
            .collect();
        if self.laser.len() < 2 && self.sonar.iter().any(Option::is_none) {
            return Err(ControllerError::vehicle(format!(
                "the wander demo needs a laser or the front sonars sonar.0 .. sonar.7, and {} has neither",
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
        self.points.reserve(self.laser.len().max(8 * cone) + BUMPS);
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
