//! Steering the AUV from outside its mission: to a point (a `goto` goal, through the goal
//! runner: [`AuvPilot`]) and by velocity (ROS `cmd_vel`: [`AuvVelocity`]).
//!
//! Frame: the worksite's, as the AUV's published pose has it ([`AuvNav`]): x east and
//! y north of the worksite's origin (m, from `LATITUDE`/`LONGITUDE`), yaw
//! counter-clockwise from east (from the compass heading `PLATFORM_YAW_ANGLE`).
//!
//! The AUV steers by setpoints, not velocities: a heading, a speed through the water
//! (0 turns the propeller off; it cannot go backwards) and a depth or depth rate, which
//! it reaches by pitching, so only while it moves. It turns at a limited rate (6°/s on
//! the LRAUV, less below its rudder's authority speed), so it cannot turn on the spot and
//! has a turning circle (about 9.5 m radius at 1 m/s).
//!
//! - goto: head for the point at cruise speed, holding the depth the vehicle was at when
//!   the goal was taken up. A point inside the turning circle on the side it would turn
//!   to cannot be reached by turning now: the vehicle holds its heading until the point
//!   is outside that circle, then turns. A goal without a tolerance counts as reached
//!   within [`AUV_TOLERANCE`]. A stop turns the propeller off (speed 0) and leaves the
//!   other channels as they were, so the vehicle coasts to a halt at its depth.
//! - velocity: speed clamped to [0, top speed]; a yaw rate (clamped to the turn rate)
//!   becomes a heading setpoint one cycle's turn ahead of the current heading, which the
//!   vehicle reaches within the cycle; a climb rate (up positive) becomes a depth rate,
//!   and no climb holds the depth the vehicle is at.

use super::pilot::{Fix, Pilot};
use skipper_core::geometry::wrap_rad;
use skipper_core::{
    Actuation, AuvSetpoints, ControllerError, Cycle, SignalId, Signals, VehicleInfo,
};
use skipper_mission::behaviors::local_offset;
use skipper_mission::executive::compass_to_math;
use std::f64::consts::FRAC_PI_2;

/// Default distance at which an AUV's goal counts as reached (m): the default capture
/// radius of a mission's `Waypoint`, so a goto and a mission count "there" alike, and
/// more than the LRAUV's turning radius at 1 m/s (about 9.5 m), inside which it could
/// otherwise circle a point it keeps overshooting.
pub const AUV_TOLERANCE: f64 = skipper_mission::behaviors::defaults::CAPTURE_RADIUS;

/// The pilot holds course while the point is closer than this many turning radii to the
/// centre of the turn toward it, and until it is farther than [`CLEAR_LEAVE`] radii.
const CLEAR_ENTER: f64 = 1.1;
/// See [`CLEAR_ENTER`].
const CLEAR_LEAVE: f64 = 1.5;

/// What the pilot needs to know of the AUV.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AuvLimits {
    /// top speed through the water (m/s)
    pub max_speed: f64,
    /// the speed a goto flies at (m/s)
    pub cruise: f64,
    /// turn rate at speed (rad/s)
    pub turn_rate: f64,
    /// speed from which the rudder has full authority (m/s); slower, it turns slower
    pub authority_speed: f64,
}

impl Default for AuvLimits {
    /// The simulated LRAUV's.
    fn default() -> Self {
        Self {
            max_speed: 1.0,
            cruise: 1.0,
            turn_rate: 6f64.to_radians(),
            authority_speed: 0.5,
        }
    }
}

impl AuvLimits {
    /// The goto speed: the cruise speed, at most the top speed.
    pub fn goto_speed(&self) -> f64 {
        self.cruise.clamp(0.0, self.max_speed)
    }
    /// The radius of the tightest turn at the goto speed (m).
    pub fn turn_radius(&self) -> f64 {
        self.goto_speed().max(self.authority_speed) / self.turn_rate.max(1e-6)
    }
}

/// Where the AUV is and how it moves, from its navigation signals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavFix {
    /// east of the origin (m)
    pub x: f64,
    /// north of the origin (m)
    pub y: f64,
    /// depth (m, positive down)
    pub depth: f64,
    /// yaw (rad, counter-clockwise from east)
    pub yaw: f64,
    /// pitch (rad, nose up)
    pub pitch: f64,
    /// roll (rad)
    pub roll: f64,
    /// speed through the water (m/s)
    pub speed: f64,
}

/// The AUV's navigation signals, read in the worksite's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AuvNav {
    /// the worksite's origin (latitude, longitude in degrees)
    origin: (f64, f64),
    ids: [Option<SignalId>; 7],
}

const NAV_SIGNALS: [&str; 7] = [
    "LATITUDE",
    "LONGITUDE",
    "DEPTH",
    "PLATFORM_YAW_ANGLE",
    "PLATFORM_PITCH_ANGLE",
    "PLATFORM_ROLL_ANGLE",
    "PLATFORM_SPEED_WRT_SEA_WATER",
];

impl AuvNav {
    /// Navigation in the frame whose origin is at (latitude, longitude) in degrees.
    pub fn new(origin: (f64, f64)) -> Self {
        Self {
            origin,
            ids: [None; 7],
        }
    }

    /// Find the signals (once the vehicle has declared them).
    pub fn bind(&mut self, s: &Signals) {
        self.ids = NAV_SIGNALS.map(|n| s.id(n));
    }

    /// Whether position, depth and heading are there to read.
    pub fn is_bound(&self) -> bool {
        self.ids[..4].iter().all(Option::is_some)
    }

    /// The fix, if the vehicle reports position, depth and heading.
    pub fn read(&self, s: &Signals) -> Option<NavFix> {
        let get = |i: usize| self.ids[i].and_then(|id| s.f64(id));
        let (lat, lon, depth, heading) = (get(0)?, get(1)?, get(2)?, get(3)?);
        let (x, y) = local_offset(self.origin.0, self.origin.1, lat, lon);
        Some(NavFix {
            x,
            y,
            depth,
            yaw: compass_to_math(heading),
            pitch: get(4).unwrap_or(0.0),
            roll: get(5).unwrap_or(0.0),
            speed: get(6).unwrap_or(0.0),
        })
    }
}

/// Propeller off; every other channel as it was.
fn propeller_off(a: &mut Actuation) {
    a.auv = Some(AuvSetpoints {
        speed: Some(0.0),
        ..AuvSetpoints::default()
    });
}

/// The goal runner's pilot for the AUV.
#[derive(Debug, Clone)]
pub struct AuvPilot {
    nav: AuvNav,
    limits: AuvLimits,
    hold_depth: f64,
    /// holding course until the point is clear of the turning circle
    clearing: bool,
}

impl AuvPilot {
    /// A pilot in the frame whose origin is at (latitude, longitude) in degrees.
    pub fn new(origin: (f64, f64), limits: AuvLimits) -> Self {
        Self {
            nav: AuvNav::new(origin),
            limits,
            hold_depth: 0.0,
            clearing: false,
        }
    }
}

impl Pilot for AuvPilot {
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.nav.bind(s);
        if !self.nav.is_bound() {
            return Err(ControllerError::new(format!(
                "goals need the signals {}, and {} lacks some",
                NAV_SIGNALS[..4].join(", "),
                vehicle.name
            )));
        }
        Ok(())
    }

    fn default_tolerance(&self) -> f64 {
        AUV_TOLERANCE
    }

    fn fix(&self, s: &Signals) -> Option<Fix> {
        self.nav.read(s).map(|n| Fix {
            x: n.x,
            y: n.y,
            yaw: n.yaw,
        })
    }

    fn begin(&mut self, s: &Signals) {
        if let Some(n) = self.nav.read(s) {
            self.hold_depth = n.depth;
        }
        self.clearing = false;
    }

    fn steer(&mut self, c: &mut Cycle<'_>, fix: Fix, x: f64, y: f64, _distance: f64) {
        let bearing = (y - fix.y).atan2(x - fix.x);
        let err = wrap_rad(bearing - fix.yaw);
        // the centre of the tightest turn toward the point
        let r = self.limits.turn_radius();
        let side = fix.yaw + FRAC_PI_2.copysign(err);
        let (cx, cy) = (fix.x + r * side.cos(), fix.y + r * side.sin());
        // turning now would circle the point: go on straight until it is well clear
        // (the margins keep the vehicle from dithering on the circle's edge)
        let off = (x - cx).hypot(y - cy);
        if off < CLEAR_ENTER * r {
            self.clearing = true;
        } else if off > CLEAR_LEAVE * r {
            self.clearing = false;
        }
        let heading = if self.clearing { fix.yaw } else { bearing };
        c.actuation.auv = Some(AuvSetpoints {
            heading: Some(heading),
            speed: Some(self.limits.goto_speed()),
            depth: Some(self.hold_depth),
            ..AuvSetpoints::default()
        });
    }

    fn stop(&self, a: &mut Actuation) {
        propeller_off(a);
    }
}

/// The AUV obeying velocity commands.
#[derive(Debug, Clone)]
pub struct AuvVelocity {
    nav: AuvNav,
    limits: AuvLimits,
    /// the depth held while no climb is asked (latched when the climb stops)
    hold_depth: Option<f64>,
}

impl AuvVelocity {
    /// Velocity commands in the frame whose origin is at (latitude, longitude).
    pub fn new(origin: (f64, f64), limits: AuvLimits) -> Self {
        Self {
            nav: AuvNav::new(origin),
            limits,
            hold_depth: None,
        }
    }

    /// The setpoints of one cycle (`dt` s) of a command: `speed` (m/s), `yaw_rate`
    /// (rad/s, counter-clockwise positive), `climb` (m/s, up positive). Numbers that are
    /// not finite count as 0.
    pub fn setpoints(
        &mut self,
        s: &Signals,
        dt: f64,
        speed: f64,
        yaw_rate: f64,
        climb: f64,
    ) -> AuvSetpoints {
        if !self.nav.is_bound() {
            self.nav.bind(s);
        }
        let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
        let mut sp = AuvSetpoints {
            speed: Some(finite(speed).clamp(0.0, self.limits.max_speed)),
            ..AuvSetpoints::default()
        };
        let Some(n) = self.nav.read(s) else {
            return sp;
        };
        let rate = finite(yaw_rate).clamp(-self.limits.turn_rate, self.limits.turn_rate);
        sp.heading = Some(wrap_rad(n.yaw + rate * dt));
        let climb = finite(climb);
        if climb == 0.0 {
            sp.depth = Some(*self.hold_depth.get_or_insert(n.depth));
        } else {
            self.hold_depth = None;
            sp.depth_rate = Some(-climb);
        }
        sp
    }

    /// The commands went silent: turn the propeller off, once, and forget the held depth.
    pub fn stop(&mut self, a: &mut Actuation) {
        self.hold_depth = None;
        propeller_off(a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controllers::goal::{GoalRunner, GoalStatus};
    use skipper_core::{Controller, Events, RunConfig, Runner, World};
    use skipper_sim::{AuvSite, AuvWorld};
    use std::time::Duration;

    fn world() -> AuvWorld {
        let mut w = AuvWorld::new(AuvSite::default(), 0);
        // 20 m down, heading north
        w.auv_mut().place(0.0, 0.0, 20.0, 0.0);
        w
    }

    fn origin(w: &AuvWorld) -> (f64, f64) {
        (w.auv().site().latitude, w.auv().site().longitude)
    }

    /// A run of the AUV with a goal runner and no mission under it.
    fn run(until: f64, goals: &[(f64, f64, f64)]) -> (Runner, Vec<GoalStatus>, Vec<f64>) {
        let w = world();
        let pilot = AuvPilot::new(origin(&w), AuvLimits::default());
        let (g, h) = GoalRunner::with_pilot(None, Box::new(pilot));
        let mut r = Runner::new(
            Box::new(w),
            RunConfig {
                period: Duration::from_millis(200),
                until: Some(Duration::from_secs_f64(until)),
                ..Default::default()
            },
        );
        r.set_controller(0, Box::new(g));
        for &(x, y, t) in goals {
            h.goto(x, y, t);
        }
        let distances = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        r.add_observer(Box::new(Distances(h.clone(), distances.clone())));
        r.run();
        let d = distances.lock().unwrap().clone();
        (r, h.statuses_since(0).0, d)
    }

    struct Distances(
        crate::controllers::goal::GoalHandle,
        std::sync::Arc<std::sync::Mutex<Vec<f64>>>,
    );
    impl skipper_core::Observer for Distances {
        fn on_cycle(&mut self, _: &skipper_core::runner::CycleView<'_>) {
            if let Some(GoalStatus::Active { distance, .. }) = self.0.status() {
                self.1.lock().unwrap().push(distance);
            }
        }
    }

    fn succeeded(all: &[GoalStatus]) -> Option<(f64, f64)> {
        all.iter().find_map(|s| match *s {
            GoalStatus::Succeeded { x, y, .. } => Some((x, y)),
            _ => None,
        })
    }

    #[test]
    fn flies_to_a_point_within_the_default_tolerance_holding_depth() {
        let (r, all, d) = run(600.0, &[(-150.0, 80.0, 0.0)]);
        let (x, y) = succeeded(&all).unwrap_or_else(|| panic!("not reached: {all:?}"));
        assert!((x + 150.0).hypot(y - 80.0) <= AUV_TOLERANCE, "({x}, {y})");
        // the remaining distance shrinks once it heads that way, and ends within tolerance
        assert!(d.len() > 100, "{}", d.len());
        assert!(d.windows(2).skip(60).all(|w| w[1] <= w[0]), "{d:?}");
        let v = r.world().vehicle(0).unwrap();
        assert!(
            (v.pose().z + 20.0).abs() < 1.0,
            "held the depth: {:?}",
            v.pose()
        );
    }

    #[test]
    fn points_inside_the_turning_circle_are_reached_too() {
        // beside, behind and just ahead of an AUV heading north, to within a metre or two
        for (px, py, tol) in [
            (4.0, 0.0, 2.0),
            (-9.0, 9.0, 1.0),
            (0.0, -5.0, 1.0),
            (1.0, 3.0, 0.5),
        ] {
            let (_, all, _) = run(600.0, &[(px, py, tol)]);
            let (x, y) = succeeded(&all).unwrap_or_else(|| panic!("({px}, {py}): {all:?}"));
            assert!((x - px).hypot(y - py) <= tol, "({px}, {py}): ({x}, {y})");
        }
    }

    #[test]
    fn the_steering_holds_course_while_the_point_is_inside_the_turn() {
        let mut p = AuvPilot::new((0.0, 0.0), AuvLimits::default());
        p.hold_depth = 12.0;
        let info = VehicleInfo {
            name: "a".into(),
            kind: skipper_core::VehicleKind::Auv,
            model: "m".into(),
        };
        let s = Signals::new();
        let mut a = Actuation::default();
        let mut ev = Events::new();
        let mut c = Cycle {
            now: Duration::ZERO,
            dt: Duration::from_millis(200),
            cycle: 1,
            robot: 0,
            vehicle: &info,
            signals: &s,
            actuation: &mut a,
            events: &mut ev,
        };
        let fix = Fix {
            x: 0.0,
            y: 0.0,
            yaw: 0.0,
        };
        // abeam at 3 m: inside the ~9.5 m circle, hold yaw 0
        p.steer(&mut c, fix, 0.0, 3.0, 3.0);
        let sp = c.actuation.auv.unwrap();
        assert_eq!(sp.heading, Some(0.0));
        assert_eq!(sp.depth, Some(12.0));
        assert_eq!(sp.speed, Some(1.0));
        // behind, far: turn for it
        p.steer(&mut c, fix, -100.0, 1.0, 100.0);
        let h = c.actuation.auv.unwrap().heading.unwrap();
        assert!(h.abs() > 3.0, "{h}");
    }

    #[test]
    fn a_newer_goal_preempts_and_a_cancel_turns_the_propeller_off() {
        let mut w = world();
        let pilot = AuvPilot::new(origin(&w), AuvLimits::default());
        let (mut g, h) = GoalRunner::with_pilot(None, Box::new(pilot));
        let mut s = Signals::new();
        let mut ev = Events::new();
        let info = w.vehicle(0).unwrap().info().clone();
        w.vehicle_mut(0)
            .unwrap()
            .sense(Duration::ZERO, &mut s, &mut ev);
        g.start(&info, &s).unwrap();
        let mut step = |g: &mut GoalRunner| {
            let mut a = Actuation::default();
            let mut c = Cycle {
                now: Duration::ZERO,
                dt: Duration::from_millis(200),
                cycle: 1,
                robot: 0,
                vehicle: &info,
                signals: &s,
                actuation: &mut a,
                events: &mut ev,
            };
            g.step(&mut c).unwrap();
            a.auv
        };
        let a = h.goto(0.0, 500.0, 0.0);
        let sp = step(&mut g).unwrap();
        assert_eq!((sp.speed, sp.depth), (Some(1.0), Some(20.0)));
        assert!(sp.heading.unwrap() > 1.5, "north: {sp:?}");
        let b = h.goto(0.0, -500.0, 0.0);
        let sp = step(&mut g).unwrap();
        assert!(sp.heading.is_some() && sp.speed == Some(1.0), "{sp:?}");
        h.cancel();
        let sp = step(&mut g).unwrap();
        assert_eq!(
            sp,
            AuvSetpoints {
                speed: Some(0.0),
                ..Default::default()
            }
        );
        let (all, _) = h.statuses_since(0);
        assert!(all.contains(&GoalStatus::Preempted { id: a }), "{all:?}");
        assert_eq!(h.status(), Some(GoalStatus::Canceled { id: b }));
        // no goal and nothing under the runner: nothing more is asked
        assert_eq!(step(&mut g), None);
    }

    #[test]
    fn velocity_commands_become_setpoints() {
        let mut w = world();
        let mut s = Signals::new();
        let mut ev = Events::new();
        w.vehicle_mut(0)
            .unwrap()
            .sense(Duration::ZERO, &mut s, &mut ev);
        let mut v = AuvVelocity::new(origin(&w), AuvLimits::default());
        // too fast, turning left faster than it can: clamped; no climb holds 20 m
        let sp = v.setpoints(&s, 0.2, 3.0, 1.0, 0.0);
        assert_eq!(sp.speed, Some(1.0));
        let yaw = FRAC_PI_2; // north
        let turn = 6f64.to_radians() * 0.2;
        assert!((sp.heading.unwrap() - (yaw + turn)).abs() < 1e-9, "{sp:?}");
        assert_eq!((sp.depth, sp.depth_rate), (Some(20.0), None));
        // backwards is not possible; climbing 0.2 m/s is a depth rate of -0.2 m/s
        let sp = v.setpoints(&s, 0.2, -1.0, -0.05, 0.2);
        assert_eq!(sp.speed, Some(0.0));
        assert!((sp.heading.unwrap() - (yaw - 0.01)).abs() < 1e-9, "{sp:?}");
        assert_eq!((sp.depth, sp.depth_rate), (None, Some(-0.2)));
        let sp = v.setpoints(&s, 0.2, f64::NAN, f64::INFINITY, f64::NAN);
        assert_eq!(sp.speed, Some(0.0));
        assert_eq!(sp.depth, Some(20.0));
    }
}
