//! The LRAUV-like vehicle: kinematics, navigation sensors, science sensors on request, GPS
//! and satellite comms at the surface.
//!
//! Signals (names are the Tethys `UniversalURI` names; units in brackets):
//!
//! | signal | meaning |
//! | --- | --- |
//! | `DEPTH` [m] | depth, positive down |
//! | `HEIGHT_ABOVE_SEA_FLOOR` [m] | altitude; `none` beyond the altimeter's range |
//! | `SEA_FLOOR_DEPTH` [m] | depth + altitude, while the altitude is valid |
//! | `PLATFORM_PITCH_ANGLE`, `PLATFORM_ROLL_ANGLE` [rad] | attitude, pitch nose up positive |
//! | `PLATFORM_YAW_ANGLE` [rad] | heading, clockwise from north |
//! | `PLATFORM_SPEED_WRT_SEA_WATER` [m/s] | speed through the water |
//! | `LATITUDE`, `LONGITUDE` [deg] | position |
//! | `DISTANCE_OFFSHORE` [m], `DIRECTION_OFFSHORE` [rad] | distance from the coast, heading away from it |
//! | `SEA_WATER_TEMPERATURE` [°C], `SEA_WATER_SALINITY` [PSU] | a new datum each cycle they are requested |
//! | `PLATFORM_LOCATION_FIX` [position] | a new datum per GPS fix (surface only, takes `gpsFixTime`) |
//! | `PLATFORM_COMMUNICATIONS` [bool] | a new datum per completed satellite session (surface only, takes `commsTime`, may fail) |
//! | `PLATFORM_BUOYANCY_POSITION` [-1..1], `PLATFORM_PROPELLER_SPEED` [m/s], `PLATFORM_AT_SURFACE` [bool], `TIME` [s] | |
//!
//! Dynamics (kinematic, deterministic): speed follows the setpoint with an acceleration
//! limit, up to 1 m/s; heading turns at up to 6°/s, less at low speed; pitch follows its
//! command with a first-order lag and a rate limit, and relaxes to level when the
//! propeller is too slow to give the elevators authority; depth changes by
//! speed·sin(pitch) plus a buoyancy term and stops at the surface, where positive
//! buoyancy keeps the vehicle floating with the propeller off. Touching the sea floor or
//! the coast ends the run (the vehicle reports itself unhealthy).
// the signal table gives units in brackets (`[m]`, `[rad]`), as the specs do: not links
#![allow(rustdoc::broken_intra_doc_links)]

use super::site::AuvSite;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skipper_core::actuation::auv_sensor;
use skipper_core::geometry::wrap_rad;
use skipper_core::vehicle::{VehicleError, VehicleFault};
use skipper_core::vocabulary::auv;
use skipper_core::{
    Actuation, Events, Handling, Pose3, Signals, Value, Vehicle, VehicleInfo, VehicleKind,
};
use std::f64::consts::FRAC_PI_2;
use std::time::Duration;

/// Vehicle parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LrauvParams {
    /// top speed (m/s)
    pub max_speed: f64,
    /// speed change (m/s²)
    pub accel: f64,
    /// turn rate at speed (rad/s)
    pub turn_rate: f64,
    /// speed from which the rudder has full authority (m/s)
    pub authority_speed: f64,
    /// pitch rate limit (rad/s)
    pub pitch_rate: f64,
    /// pitch lag time constant (s)
    pub pitch_tau: f64,
    /// largest pitch (rad)
    pub max_pitch: f64,
    /// depth controller gain (rad of pitch per m of depth error)
    pub depth_gain: f64,
    /// largest pitch the depth controller uses (rad)
    pub depth_pitch: f64,
    /// vertical speed of full buoyancy (m/s)
    pub buoyancy_speed: f64,
    /// buoyancy engine rate (range fraction per s)
    pub buoyancy_rate: f64,
    /// the vehicle is at the surface at this depth or shallower (m)
    pub surface_depth: f64,
    /// the speed it transits at when sent somewhere (m/s; an LRAUV's
    /// `SpeedControl.SPEED_FAST`)
    pub cruise_speed: f64,
}

impl Default for LrauvParams {
    fn default() -> Self {
        Self {
            max_speed: 1.0,
            accel: 0.1,
            turn_rate: 6f64.to_radians(),
            authority_speed: 0.5,
            pitch_rate: 5f64.to_radians(),
            pitch_tau: 2.0,
            max_pitch: 30f64.to_radians(),
            depth_gain: 0.08,
            depth_pitch: 25f64.to_radians(),
            buoyancy_speed: 0.08,
            buoyancy_rate: 1.0 / 30.0,
            surface_depth: 0.5,
            cruise_speed: 1.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum VerticalMode {
    Depth(f64),
    Rate(f64),
    Pitch(f64),
}

/// The simulated LRAUV.
pub struct Lrauv {
    info: VehicleInfo,
    site: AuvSite,
    params: LrauvParams,
    x: f64,
    y: f64,
    depth: f64,
    heading: f64,
    pitch: f64,
    speed: f64,
    buoyancy: f64,
    heading_sp: f64,
    speed_sp: f64,
    vertical: VerticalMode,
    buoyancy_sp: f64,
    sample: u32,
    gps_progress: f64,
    comms_progress: f64,
    pending_fix: bool,
    pending_comms: bool,
    rng: ChaCha8Rng,
    ids: Option<auv::Ids>,
    first_sense: bool,
    stopped: bool,
    failure: Option<String>,
    submerged: bool,
    // summary
    odometer: f64,
    surfacings: u64,
    gps_fixes: u64,
    comms_sessions: u64,
    comms_failures: u64,
    max_depth: f64,
    min_altitude: f64,
}

impl Lrauv {
    /// A vehicle at the site's origin.
    pub fn new(name: &str, site: AuvSite, params: LrauvParams, seed: u64) -> Self {
        let depth = site.start_depth;
        let heading = site.start_heading;
        let floor = site.floor_depth(0.0, 0.0);
        Self {
            info: VehicleInfo {
                name: name.to_string(),
                kind: VehicleKind::Auv,
                model: "lrauv".into(),
            },
            params,
            x: 0.0,
            y: 0.0,
            depth,
            heading,
            pitch: 0.0,
            speed: 0.0,
            buoyancy: 0.0,
            heading_sp: heading,
            speed_sp: 0.0,
            vertical: VerticalMode::Pitch(0.0),
            buoyancy_sp: 0.0,
            sample: 0,
            gps_progress: 0.0,
            comms_progress: 0.0,
            pending_fix: false,
            pending_comms: false,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x4155_5631),
            ids: None,
            first_sense: true,
            stopped: false,
            failure: None,
            submerged: depth > 2.0,
            odometer: 0.0,
            surfacings: 0,
            gps_fixes: 0,
            comms_sessions: 0,
            comms_failures: 0,
            max_depth: depth,
            min_altitude: floor - depth,
            site,
        }
    }

    /// The vehicle's parameters.
    pub fn params(&self) -> &LrauvParams {
        &self.params
    }
    /// Set the speed it transits at when sent somewhere (m/s, at most its top speed;
    /// a speed that is not positive is ignored).
    pub fn set_cruise_speed(&mut self, v: f64) {
        if v.is_finite() && v > 0.0 {
            self.params.cruise_speed = v.min(self.params.max_speed);
        }
    }
    /// The worksite.
    pub fn site(&self) -> &AuvSite {
        &self.site
    }
    /// Local position (m east, m north).
    pub fn position(&self) -> (f64, f64) {
        (self.x, self.y)
    }
    /// Put the vehicle somewhere (local m) at a depth.
    pub fn place(&mut self, x: f64, y: f64, depth: f64, heading: f64) {
        self.x = x;
        self.y = y;
        self.depth = depth.max(0.0);
        self.heading = wrap_rad(heading);
        self.heading_sp = self.heading;
        self.submerged = self.depth > 2.0;
    }
    /// Depth (m).
    pub fn depth(&self) -> f64 {
        self.depth
    }
    /// True altitude above the sea floor (m).
    pub fn altitude(&self) -> f64 {
        self.site.floor_depth(self.x, self.y) - self.depth
    }
    /// Pitch (rad).
    pub fn pitch(&self) -> f64 {
        self.pitch
    }
    /// Heading (rad, clockwise from north).
    pub fn heading(&self) -> f64 {
        self.heading
    }
    /// Speed (m/s).
    pub fn speed(&self) -> f64 {
        self.speed
    }
    /// Buoyancy (-1..1).
    pub fn buoyancy(&self) -> f64 {
        self.buoyancy
    }
    /// GPS fixes, successful and failed comms sessions, surfacings so far.
    pub fn counts(&self) -> (u64, u64, u64, u64) {
        (
            self.gps_fixes,
            self.comms_sessions,
            self.comms_failures,
            self.surfacings,
        )
    }
    /// `true` at the surface.
    pub fn at_surface(&self) -> bool {
        self.depth <= self.params.surface_depth
    }

    /// Advance the physics by `dt` seconds.
    pub fn step(&mut self, dt: f64) {
        if self.failure.is_some() || dt.is_nan() || dt <= 0.0 {
            return;
        }
        let p = self.params;
        // speed
        let target = self.speed_sp.clamp(0.0, p.max_speed);
        self.speed += (target - self.speed).clamp(-p.accel * dt, p.accel * dt);
        // heading
        let authority = (self.speed / p.authority_speed).min(1.0);
        let err = wrap_rad(self.heading_sp - self.heading);
        let max_turn = p.turn_rate * authority * dt;
        self.heading = wrap_rad(self.heading + err.clamp(-max_turn, max_turn));
        // pitch
        let cmd = match self.vertical {
            VerticalMode::Depth(d) => {
                (p.depth_gain * (self.depth - d)).clamp(-p.depth_pitch, p.depth_pitch)
            }
            VerticalMode::Rate(r) => {
                let s = self.speed.max(0.1);
                -(r / s)
                    .clamp(-1.0, 1.0)
                    .asin()
                    .clamp(-p.depth_pitch, p.depth_pitch)
            }
            VerticalMode::Pitch(x) => x.clamp(-p.max_pitch, p.max_pitch),
        };
        let cmd = if self.speed < 0.1 { 0.0 } else { cmd };
        let want = (cmd - self.pitch) * (dt / p.pitch_tau).min(1.0);
        let rate = p.pitch_rate * dt * if self.speed < 0.1 { 0.5 } else { 1.0 };
        self.pitch += want.clamp(-rate, rate);
        // buoyancy
        let b = self.buoyancy_sp.clamp(-1.0, 1.0);
        self.buoyancy += (b - self.buoyancy).clamp(-p.buoyancy_rate * dt, p.buoyancy_rate * dt);
        // motion
        let horiz = self.speed * self.pitch.cos();
        self.x += horiz * self.heading.sin() * dt;
        self.y += horiz * self.heading.cos() * dt;
        let rate = -self.speed * self.pitch.sin() - self.buoyancy * p.buoyancy_speed;
        self.depth = (self.depth + rate * dt).max(0.0);
        self.odometer += self.speed * dt;
        // contact
        let floor = self.site.floor_depth(self.x, self.y);
        if self.site.offshore(self.x, self.y) <= 0.0 {
            self.failure = Some(format!(
                "ran aground on the coast at ({:.0}, {:.0}) m",
                self.x, self.y
            ));
        } else if self.depth >= floor {
            self.depth = floor;
            self.failure = Some(format!(
                "hit the sea floor at {:.1} m depth at ({:.0}, {:.0}) m",
                floor, self.x, self.y
            ));
        }
        self.max_depth = self.max_depth.max(self.depth);
        self.min_altitude = self.min_altitude.min(floor - self.depth);
        // surface life
        if self.depth > 2.0 {
            self.submerged = true;
        }
        let surface = self.at_surface();
        if surface && self.submerged {
            self.surfacings += 1;
            self.submerged = false;
        }
        if surface && self.sample & auv_sensor::GPS != 0 {
            self.gps_progress += dt;
            if self.gps_progress >= self.site.gps_fix_time {
                self.gps_progress = 0.0;
                self.gps_fixes += 1;
                self.pending_fix = true;
            }
        } else {
            self.gps_progress = 0.0;
        }
        if surface && self.sample & auv_sensor::COMMS != 0 {
            self.comms_progress += dt;
            if self.comms_progress >= self.site.comms_time {
                self.comms_progress = 0.0;
                if self.rng.random::<f64>() < self.site.comms_success {
                    self.comms_sessions += 1;
                    self.pending_comms = true;
                } else {
                    self.comms_failures += 1;
                }
            }
        } else {
            self.comms_progress = 0.0;
        }
    }
}

impl Vehicle for Lrauv {
    fn info(&self) -> &VehicleInfo {
        &self.info
    }

    fn handling(&self) -> Option<Handling> {
        let p = &self.params;
        Some(Handling {
            max_speed: p.max_speed,
            cruise_speed: p.cruise_speed,
            turn_rate: p.turn_rate,
            authority_speed: p.authority_speed,
        })
    }

    fn sense(&mut self, now: Duration, s: &mut Signals, _events: &mut Events) {
        let at_surface = self.at_surface();
        let ids = self.ids.get_or_insert_with(|| auv::Ids::declare(s));
        let floor = self.site.floor_depth(self.x, self.y);
        let altitude = floor - self.depth;
        let (lat, lon) = self.site.lat_lon(self.x, self.y);
        s.set_f64(ids.depth, self.depth, now);
        if altitude <= self.site.altimeter_range {
            s.set_f64(ids.altitude, altitude, now);
            s.set_f64(ids.floor, floor, now);
        } else {
            s.invalidate(ids.altitude, now);
            s.invalidate(ids.floor, now);
        }
        s.set_f64(ids.pitch, self.pitch, now);
        s.set_f64(ids.roll, 0.0, now);
        s.set_f64(ids.yaw, self.heading, now);
        s.set_f64(ids.speed, self.speed, now);
        s.set_f64(ids.lat, lat, now);
        s.set_f64(ids.lon, lon, now);
        s.set_f64(ids.offshore, self.site.offshore(self.x, self.y), now);
        s.set_f64(ids.offshore_dir, self.site.offshore_direction(), now);
        s.set_f64(ids.buoyancy, self.buoyancy, now);
        s.set_f64(ids.propeller, self.speed_sp, now);
        s.set_bool(ids.surface, at_surface, now);
        s.set_f64(ids.time, now.as_secs_f64(), now);
        if self.sample & auv_sensor::TEMPERATURE != 0 {
            let t = self.site.temperature(self.x, self.y, self.depth);
            s.set_f64(ids.temperature, t, now);
        }
        if self.sample & auv_sensor::SALINITY != 0 {
            let v = self.site.salinity(self.x, self.y, self.depth);
            s.set_f64(ids.salinity, v, now);
        }
        let initial = self.first_sense && self.site.initial_fix && at_surface;
        self.first_sense = false;
        if self.pending_fix || initial {
            s.set(ids.fix, Value::Position { lat, lon }, now);
            self.pending_fix = false;
        }
        if self.pending_comms || initial {
            s.set_bool(ids.comms, true, now);
            self.pending_comms = false;
        }
    }

    fn act(&mut self, _now: Duration, a: &Actuation, _events: &mut Events) {
        if self.stopped {
            return;
        }
        self.sample = 0;
        if let Some(sp) = &a.auv {
            if let Some(h) = sp.heading.filter(|h| h.is_finite()) {
                self.heading_sp = wrap_rad(FRAC_PI_2 - h);
            }
            if let Some(v) = sp.speed.filter(|v| v.is_finite()) {
                self.speed_sp = v.clamp(0.0, self.params.max_speed);
            }
            if let Some(d) = sp.depth.filter(|d| d.is_finite()) {
                self.vertical = VerticalMode::Depth(d.max(0.0));
            } else if let Some(r) = sp.depth_rate.filter(|r| r.is_finite()) {
                self.vertical = VerticalMode::Rate(r);
            } else if let Some(p) = sp.pitch.filter(|p| p.is_finite()) {
                self.vertical = VerticalMode::Pitch(p);
            }
            if let Some(b) = sp.buoyancy.filter(|b| b.is_finite()) {
                self.buoyancy_sp = b.clamp(-1.0, 1.0);
            }
            self.sample = sp.sample;
        }
        if matches!(
            a.drive,
            Some(skipper_core::Drive::Stop | skipper_core::Drive::Estop)
        ) {
            self.speed_sp = 0.0;
            self.buoyancy_sp = 1.0;
            self.vertical = VerticalMode::Pitch(0.0);
        }
    }

    fn stop(&mut self, _now: Duration, _events: &mut Events) {
        self.stopped = true;
        self.speed_sp = 0.0;
        self.buoyancy_sp = 1.0;
        self.vertical = VerticalMode::Pitch(0.0);
        self.sample = 0;
    }

    fn pose(&self) -> Pose3 {
        Pose3 {
            x: self.x,
            y: self.y,
            z: -self.depth,
            roll: 0.0,
            pitch: self.pitch,
            yaw: wrap_rad(FRAC_PI_2 - self.heading),
        }
    }

    fn odometer(&self) -> f64 {
        self.odometer
    }

    fn collisions(&self) -> u64 {
        u64::from(self.failure.is_some())
    }

    fn health(&self) -> Result<(), VehicleError> {
        match &self.failure {
            Some(m) => Err(VehicleError::new(
                self.info.name.clone(),
                VehicleFault::Device,
                m.clone(),
            )),
            None => Ok(()),
        }
    }

    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        out.insert("surfacings".into(), self.surfacings.into());
        out.insert("gps_fixes".into(), self.gps_fixes.into());
        out.insert("comms_sessions".into(), self.comms_sessions.into());
        out.insert("comms_failures".into(), self.comms_failures.into());
        out.insert("max_depth_m".into(), round2(self.max_depth).into());
        out.insert("min_altitude_m".into(), round2(self.min_altitude).into());
    }

    fn view(&self) -> serde_json::Value {
        serde_json::json!({
            "depth": self.depth,
            "altitude": self.altitude(),
            "pitch": self.pitch,
            "heading": self.heading,
            "speed": self.speed,
            "buoyancy": self.buoyancy,
            "at_surface": self.at_surface(),
        })
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
