//! Velocity commands (ROS `cmd_vel`): a fresh command overrides every controller of the
//! vehicle (the goal runner and the run's controller under it, which go on stepping);
//! when the commands go silent for [`VELOCITY_TIMEOUT`] (wall-clock time, as the peers
//! that send them live in it) the vehicle stops once and the controllers drive again.
//!
//! How a vehicle obeys a command is its [`VelocityMap`]: a ground robot drives with the
//! forward speed (m/s) and turn rate (rad/s, counter-clockwise) and stops with a
//! graceful stop ([`GroundVelocity`]); the AUV takes the forward speed as its speed, the
//! turn rate as a yaw rate and the climb rate as a depth rate ([`AuvVelocity`]) and stops
//! by turning its propeller off. An estop is applied by the runner after every
//! controller, so it wins over a command.

use crate::pilot::AuvLimits;
use skipper_core::geometry::wrap_rad;
pub use skipper_core::velocity::{VelocityCommand, VelocityInbox};
use skipper_core::vocabulary::auv::NavReader;
use skipper_core::{
    Actuation, AuvSetpoints, Controller, ControllerError, Cycle, Drive, Signals, Status,
    VehicleInfo,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a velocity command holds before the vehicle stops.
pub const VELOCITY_TIMEOUT: Duration = Duration::from_millis(500);

/// How a vehicle obeys a velocity command.
pub trait VelocityMap {
    /// Drive by `v` this cycle.
    fn apply(&mut self, v: &VelocityCommand, c: &mut Cycle<'_>);
    /// The commands went silent: stop (once).
    fn stop(&mut self, c: &mut Cycle<'_>);
}

/// A ground robot: velocity drive, graceful stop.
#[derive(Debug, Default)]
pub struct GroundVelocity;

impl VelocityMap for GroundVelocity {
    fn apply(&mut self, v: &VelocityCommand, c: &mut Cycle<'_>) {
        c.actuation.drive = Some(Drive::velocity(v.forward, v.turn_rate));
    }
    fn stop(&mut self, c: &mut Cycle<'_>) {
        c.actuation.drive = Some(Drive::Stop);
    }
}

/// The AUV obeying velocity commands.
#[derive(Debug, Clone)]
pub struct AuvVelocity {
    nav: NavReader,
    limits: AuvLimits,
    /// the depth held while no climb is asked (latched when the climb stops)
    hold_depth: Option<f64>,
}

impl AuvVelocity {
    /// Velocity commands in the frame whose origin is at (latitude, longitude).
    pub fn new(origin: (f64, f64), limits: AuvLimits) -> Self {
        Self {
            nav: NavReader::new(origin),
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
        crate::pilot::propeller_off(a);
    }
}

impl VelocityMap for AuvVelocity {
    /// Every AUV setpoint is replaced, samples included: the command flies the vehicle.
    fn apply(&mut self, v: &VelocityCommand, c: &mut Cycle<'_>) {
        let sp = self.setpoints(
            c.signals,
            c.dt.as_secs_f64(),
            v.forward,
            v.turn_rate,
            v.climb,
        );
        c.actuation.auv = Some(sp);
    }
    fn stop(&mut self, c: &mut Cycle<'_>) {
        AuvVelocity::stop(self, c.actuation);
    }
}

/// The wall clock of the command timeout (tests give their own).
pub type Now = Arc<dyn Fn() -> Instant + Send + Sync>;

/// A vehicle's controller whose actuation fresh velocity commands override.
pub struct VelocityOverride {
    inner: Box<dyn Controller>,
    commands: VelocityInbox,
    map: Box<dyn VelocityMap>,
    now: Now,
    active: bool,
}

impl VelocityOverride {
    /// Override `inner` with the commands put in `commands`, obeyed as `map` says.
    pub fn new(
        inner: Box<dyn Controller>,
        commands: VelocityInbox,
        map: Box<dyn VelocityMap>,
    ) -> Self {
        Self {
            inner,
            commands,
            map,
            now: Arc::new(Instant::now),
            active: false,
        }
    }

    /// Judge freshness by `now` instead of the wall clock.
    pub fn with_clock(mut self, now: Now) -> Self {
        self.now = now;
        self
    }
}

impl Controller for VelocityOverride {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start(&mut self, vehicle: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.inner.start(vehicle, s)
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let st = self.inner.step(c)?;
        let now = (self.now)();
        match self.commands.latest() {
            Some((v, at)) if now.saturating_duration_since(at) < VELOCITY_TIMEOUT => {
                self.map.apply(&v, c);
                self.active = true;
            }
            _ if self.active => {
                // the velocity commands went silent: stop once, then hand back
                self.map.stop(c);
                self.active = false;
            }
            _ => {}
        }
        Ok(st)
    }
    fn state(&self) -> Option<serde_json::Value> {
        self.inner.state()
    }
    fn state_version(&self) -> Option<u64> {
        self.inner.state_version()
    }
    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        self.inner.summary(out);
    }
    fn finish(&mut self) {
        self.inner.finish();
    }
}
