//! The behavior and command library at run time, and the arbitration of their requests
//! (rules 27-29, 36-40).
//!
//! Each active behavior or command is handed the vehicle's state ([`Nav`]) and the
//! constraints accumulated from the envelopes above it ([`Envelope`]), and may request a
//! heading (horizontal channel), a depth, depth rate or pitch (vertical), a speed, a
//! buoyancy and sensor samples. Requests are taken in priority order: the first request
//! on a channel wins, clamped to the constraints of *higher-priority* envelopes only
//! (rule 38). Headings are compass headings (radians clockwise from north) as the URIs
//! have them.

use crate::clause::Env;
use crate::library::BehaviorKind;
use crate::model::Leaf;
use crate::uri::{self, UriId};
use skipper_core::actuation::auv_sensor;
use skipper_core::vocabulary::auv;
use std::f64::consts::{FRAC_PI_2, PI};

pub use skipper_core::geo::{local_offset, EARTH_RADIUS};

/// Vehicle state as the behaviors see it, read from URIs once per tick.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nav {
    /// depth (m), NaN when invalid
    pub depth: f64,
    /// altitude (m), `None` when invalid
    pub altitude: Option<f64>,
    /// pitch (rad, nose up)
    pub pitch: f64,
    /// compass heading (rad)
    pub heading: f64,
    /// position (deg)
    pub lat: f64,
    /// position (deg)
    pub lon: f64,
    /// distance offshore (m)
    pub offshore: Option<f64>,
    /// compass heading away from the coast
    pub offshore_dir: Option<f64>,
}

pub(crate) struct NavUris {
    depth: UriId,
    altitude: UriId,
    pitch: UriId,
    heading: UriId,
    lat: UriId,
    lon: UriId,
    offshore: UriId,
    offshore_dir: UriId,
}

impl NavUris {
    pub(crate) fn new() -> Self {
        let u = uri::of;
        Self {
            depth: u(&auv::DEPTH),
            altitude: u(&auv::HEIGHT_ABOVE_SEA_FLOOR),
            pitch: u(&auv::PLATFORM_PITCH_ANGLE),
            heading: u(&auv::PLATFORM_YAW_ANGLE),
            lat: u(&auv::LATITUDE),
            lon: u(&auv::LONGITUDE),
            offshore: u(&auv::DISTANCE_OFFSHORE),
            offshore_dir: u(&auv::DIRECTION_OFFSHORE),
        }
    }
    pub(crate) fn read(&self, env: &Env<'_>) -> Nav {
        Nav {
            depth: env.num(self.depth).unwrap_or(f64::NAN),
            altitude: env.num(self.altitude),
            pitch: env.num(self.pitch).unwrap_or(0.0),
            heading: env.num(self.heading).unwrap_or(0.0),
            lat: env.num(self.lat).map_or(f64::NAN, f64::to_degrees),
            lon: env.num(self.lon).map_or(f64::NAN, f64::to_degrees),
            offshore: env.num(self.offshore),
            offshore_dir: env.num(self.offshore_dir),
        }
    }
}

/// Wrap to [-π, π).
fn wrap(a: f64) -> f64 {
    skipper_core::geometry::wrap_rad(a)
}

/// A vertical request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Vertical {
    /// Hold a depth (m).
    Depth(f64),
    /// Climb or dive at a pitch (rad, nose up).
    Pitch(f64),
    /// Move vertically at a rate (m/s, positive down).
    DepthRate(f64),
}

/// The constraints accumulated from higher-priority envelopes.
#[derive(Debug, Clone, Copy)]
pub struct Envelope {
    /// shallowest allowed depth
    pub depth_min: f64,
    /// deepest allowed depth
    pub depth_max: f64,
    /// lowest allowed pitch
    pub pitch_min: f64,
    /// highest allowed pitch
    pub pitch_max: f64,
    /// allowed heading half-planes: headings within 90° of each centre
    headings: [f64; 4],
    n_headings: usize,
}

impl Default for Envelope {
    fn default() -> Self {
        Self {
            depth_min: f64::NEG_INFINITY,
            depth_max: f64::INFINITY,
            pitch_min: f64::NEG_INFINITY,
            pitch_max: f64::INFINITY,
            headings: [0.0; 4],
            n_headings: 0,
        }
    }
}

/// Margin (m) within which a pitch request that would cross a depth bound becomes a depth hold.
const BOUND_MARGIN: f64 = 1.0;

impl Envelope {
    /// Intersect a depth bound; returns `false` on an empty intersection (the higher bound wins).
    fn depth(&mut self, lo: f64, hi: f64) -> bool {
        let ok = lo <= self.depth_max && hi >= self.depth_min;
        if lo > self.depth_min {
            self.depth_min = lo.min(self.depth_max);
        }
        if hi < self.depth_max {
            self.depth_max = hi.max(self.depth_min);
        }
        ok
    }
    fn pitch(&mut self, lo: f64, hi: f64) -> bool {
        let ok = lo <= self.pitch_max && hi >= self.pitch_min;
        if lo > self.pitch_min {
            self.pitch_min = lo.min(self.pitch_max);
        }
        if hi < self.pitch_max {
            self.pitch_max = hi.max(self.pitch_min);
        }
        ok
    }
    fn heading(&mut self, centre: f64) {
        if self.n_headings < self.headings.len() {
            self.headings[self.n_headings] = centre;
            self.n_headings += 1;
        }
    }
    /// A heading moved into the allowed half-planes (the highest-priority one last, so it wins).
    pub fn clamp_heading(&self, mut h: f64) -> f64 {
        for &c in self.headings[..self.n_headings].iter().rev() {
            let d = wrap(h - c);
            if d.abs() > FRAC_PI_2 {
                h = wrap(c + FRAC_PI_2.copysign(d));
            }
        }
        h
    }
    /// A vertical request clamped to the bounds, given the current depth.
    pub fn clamp_vertical(&self, v: Vertical, depth: f64) -> Vertical {
        match v {
            Vertical::Depth(d) => {
                Vertical::Depth(d.clamp(self.depth_min, self.depth_max.max(self.depth_min)))
            }
            Vertical::Pitch(p) => {
                let p = p
                    .max(self.pitch_min)
                    .min(self.pitch_max.max(self.pitch_min));
                if p < 0.0 && depth >= self.depth_max - BOUND_MARGIN {
                    Vertical::Depth(self.depth_max)
                } else if p > 0.0 && depth <= self.depth_min + BOUND_MARGIN {
                    Vertical::Depth(self.depth_min)
                } else {
                    Vertical::Pitch(p)
                }
            }
            Vertical::DepthRate(r) => {
                if r > 0.0 && depth >= self.depth_max - BOUND_MARGIN {
                    Vertical::Depth(self.depth_max)
                } else if r < 0.0 && depth <= self.depth_min + BOUND_MARGIN {
                    Vertical::Depth(self.depth_min)
                } else {
                    Vertical::DepthRate(r)
                }
            }
        }
    }
}

/// What one item asks for this tick.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    /// compass heading (rad)
    pub heading: Option<f64>,
    /// vertical
    pub vertical: Option<Vertical>,
    /// speed (m/s)
    pub speed: Option<f64>,
    /// buoyancy (-1..1)
    pub buoyancy: Option<f64>,
    /// sensors to sample (`auv_sensor` bits)
    pub sample: u32,
}

/// Run-time state of one behavior or command.
#[derive(Debug, Clone, Copy, Default)]
pub struct LeafState {
    /// when it was (re)activated (s)
    pub started: f64,
    /// the YoYo is on its way up
    pub up: bool,
    /// an envelope reported an empty intersection in this episode (rule 39)
    pub conflict: bool,
}

impl LeafState {
    /// A fresh state at activation (rule 29).
    pub fn fresh(now: f64, nav: &Nav) -> Self {
        Self {
            started: now,
            up: nav.depth > 50.0 && nav.pitch > 0.0,
            conflict: false,
        }
    }
}

/// The sensor bit of a URI, if the vehicle samples it on request.
pub fn sensor_bit(u: UriId) -> u32 {
    let on_request = [
        (&auv::SEA_WATER_TEMPERATURE, auv_sensor::TEMPERATURE),
        (&auv::SEA_WATER_SALINITY, auv_sensor::SALINITY),
        (&auv::PLATFORM_LOCATION_FIX, auv_sensor::GPS),
        (&auv::PLATFORM_COMMUNICATIONS, auv_sensor::COMMS),
    ];
    let info = uri::info(u);
    on_request
        .iter()
        .find(|(spec, _)| *spec == info)
        .map_or(0, |(_, bit)| *bit)
}

/// Defaults of the library (reference §6.1).
pub mod defaults {
    /// YoYo and GoToSurface pitch (20°).
    pub const PITCH: f64 = 20.0 * std::f64::consts::PI / 180.0;
    /// Waypoint capture radius (m).
    pub const CAPTURE_RADIUS: f64 = 10.0;
    /// GoToSurface speed (m/s).
    pub const SURFACE_SPEED: f64 = 1.0;
    /// GoToSurface: at the surface at this depth (m).
    pub const SURFACE_DEPTH: f64 = 0.5;
    /// YoYo: turn this far (m) before a bound.
    pub const YOYO_MARGIN: f64 = 3.0;
    /// Envelope correction margin (m).
    pub const ENVELOPE_MARGIN: f64 = 2.0;
    /// OffshoreEnvelope: forbid approaching headings this close (m) to a bound.
    pub const OFFSHORE_BUFFER: f64 = 200.0;
    /// Circle radius (m).
    pub const CIRCLE_RADIUS: f64 = 300.0;
    /// Circle: head straight for the circle when farther off it than this (m).
    pub const CIRCLE_MAX_ERROR: f64 = 100.0;
    /// Pitch command: satisfied this close to DEPTH (m).
    pub const DEPTH_TOLERANCE: f64 = 1.0;
}

/// What an envelope found: its constraint was applied; `false` if it conflicted.
pub(crate) fn apply_envelope(
    leaf: &Leaf,
    nav: &Nav,
    env: &mut Envelope,
    req: &mut Request,
) -> bool {
    use defaults::*;
    match leaf.kind {
        BehaviorKind::DepthEnvelope => {
            let lo = leaf.number("MIN_DEPTH").unwrap_or(f64::NEG_INFINITY);
            let hi = leaf.number("MAX_DEPTH").unwrap_or(f64::INFINITY);
            if nav.depth > hi {
                req.vertical = Some(Vertical::Depth(hi - ENVELOPE_MARGIN));
            } else if nav.depth < lo {
                req.vertical = Some(Vertical::Depth(lo + ENVELOPE_MARGIN));
            }
            let a = env.depth(lo, hi);
            let b = env.pitch(
                leaf.number("MIN_PITCH").unwrap_or(f64::NEG_INFINITY),
                leaf.number("MAX_PITCH").unwrap_or(f64::INFINITY),
            );
            a && b
        }
        BehaviorKind::AltitudeEnvelope => {
            let Some(alt) = nav.altitude else {
                return true; // inactive while the altitude is invalid
            };
            let floor = nav.depth + alt;
            let min = leaf.number("MIN_ALTITUDE").unwrap_or(0.0);
            let hi = floor - min;
            let lo = leaf
                .number("MAX_ALTITUDE")
                .map_or(f64::NEG_INFINITY, |m| floor - m);
            if alt < min {
                req.vertical = Some(Vertical::Depth(hi - ENVELOPE_MARGIN));
            } else if let Some(max) = leaf.number("MAX_ALTITUDE") {
                if alt > max {
                    req.vertical = Some(Vertical::Depth(lo + ENVELOPE_MARGIN));
                }
            }
            env.depth(lo, hi)
        }
        BehaviorKind::OffshoreEnvelope => {
            let (Some(d), Some(dir)) = (nav.offshore, nav.offshore_dir) else {
                return true;
            };
            if let Some(min) = leaf.number("MIN_OFFSHORE") {
                if d < min {
                    req.heading = Some(dir);
                }
                if d < min + OFFSHORE_BUFFER {
                    env.heading(dir);
                }
            }
            if let Some(max) = leaf.number("MAX_OFFSHORE") {
                let toward = wrap(dir + PI);
                if d > max {
                    req.heading = Some(toward);
                }
                if d > max - OFFSHORE_BUFFER {
                    env.heading(toward);
                }
            }
            true
        }
        _ => true,
    }
}

/// `true` for the envelope behaviors.
pub fn is_envelope(k: BehaviorKind) -> bool {
    matches!(
        k,
        BehaviorKind::DepthEnvelope
            | BehaviorKind::AltitudeEnvelope
            | BehaviorKind::OffshoreEnvelope
    )
}

/// The requests of a non-envelope behavior or command. `default_speed` is the item's
/// default speed from the vehicle configuration: only GoToSurface asks for it itself (a
/// surfacing must make way); for the others the executive uses it when nothing in the
/// mission sets a speed ([`crate::speed`]).
pub(crate) fn request(
    leaf: &Leaf,
    st: &mut LeafState,
    nav: &Nav,
    env: &Envelope,
    default_speed: Option<f64>,
) -> Request {
    use defaults::*;
    let mut r = Request::default();
    match leaf.kind {
        BehaviorKind::YoYo => {
            let mut top = env.depth_min.max(0.0);
            if let Some(m) = leaf.number("MIN_DEPTH") {
                top = top.max(m);
            }
            let mut bottom = env.depth_max;
            if let Some(m) = leaf.number("MAX_DEPTH") {
                bottom = bottom.min(m);
            }
            if let (Some(m), Some(alt)) = (leaf.number("MIN_ALTITUDE"), nav.altitude) {
                bottom = bottom.min(nav.depth + alt - m);
            }
            let pitch = leaf.number("PITCH").unwrap_or(PITCH).abs();
            if bottom - top < 2.0 * YOYO_MARGIN {
                r.vertical = Some(Vertical::Depth(0.5 * (top + bottom)));
            } else {
                if st.up && nav.depth <= top + YOYO_MARGIN {
                    st.up = false;
                } else if !st.up && nav.depth >= bottom - YOYO_MARGIN {
                    st.up = true;
                }
                r.vertical = Some(match leaf.number("DEPTH_RATE") {
                    Some(rate) => Vertical::DepthRate(if st.up { -rate.abs() } else { rate.abs() }),
                    None => Vertical::Pitch(if st.up { pitch } else { -pitch }),
                });
            }
            r.speed = if st.up {
                leaf.number("UP_SPEED")
            } else {
                leaf.number("DOWN_SPEED")
            };
            r.buoyancy = Some(0.0);
        }
        BehaviorKind::Waypoint => {
            if let Some((lat, lon)) = leaf.position("WAYPOINT") {
                let (e, n) = local_offset(nav.lat, nav.lon, lat, lon);
                if e.is_finite() && n.is_finite() {
                    r.heading = Some(e.atan2(n));
                }
            }
            r.speed = leaf.number("SPEED");
        }
        BehaviorKind::GoToSurface => {
            r.vertical = Some(match leaf.number("DEPTH_RATE") {
                Some(rate) => Vertical::DepthRate(-rate.abs()),
                None => Vertical::Pitch(leaf.number("PITCH").unwrap_or(PITCH).abs()),
            });
            r.speed = Some(
                leaf.number("SPEED")
                    .or(default_speed)
                    .unwrap_or(SURFACE_SPEED),
            );
            r.buoyancy = Some(1.0);
        }
        BehaviorKind::ReadSensor => {
            r.sample = leaf.uri("URI").map_or(0, sensor_bit);
        }
        BehaviorKind::SetSpeed => {
            if !leaf.command {
                r.speed = leaf.number("SPEED");
            }
        }
        BehaviorKind::Pitch => {
            r.vertical = if let Some(d) = leaf.number("DEPTH") {
                Some(Vertical::Depth(d))
            } else if let Some(rate) = leaf.number("DEPTH_RATE") {
                Some(Vertical::DepthRate(rate))
            } else {
                leaf.number("PITCH").map(Vertical::Pitch)
            };
            r.speed = leaf.number("SPEED");
        }
        BehaviorKind::Circle => {
            if let Some((lat, lon)) = leaf.position("CENTER") {
                let radius = leaf.number("RADIUS").unwrap_or(CIRCLE_RADIUS);
                let max_err = leaf
                    .number("MAX_ERROR")
                    .unwrap_or(CIRCLE_MAX_ERROR)
                    .max(1.0);
                let port = leaf.flag("TURN_TO_PORT").unwrap_or(false);
                // from the centre to the vehicle
                let (e, n) = local_offset(lat, lon, nav.lat, nav.lon);
                let range = e.hypot(n);
                let theta = e.atan2(n);
                let err = range - radius;
                let h = if err.abs() > max_err {
                    if err > 0.0 {
                        theta + PI
                    } else {
                        theta
                    }
                } else {
                    let corr = (err / max_err) * (PI / 4.0);
                    if port {
                        theta - FRAC_PI_2 - corr
                    } else {
                        theta + FRAC_PI_2 + corr
                    }
                };
                if h.is_finite() {
                    r.heading = Some(wrap(h));
                }
            }
            r.speed = leaf.number("SPEED");
        }
        BehaviorKind::Wait
        | BehaviorKind::DepthEnvelope
        | BehaviorKind::AltitudeEnvelope
        | BehaviorKind::OffshoreEnvelope => {}
    }
    r
}

/// Is a command satisfied (rule 27)? ReadSensor needs the time of the URI's last datum.
pub(crate) fn satisfied(leaf: &Leaf, st: &LeafState, nav: &Nav, env: &Env<'_>, now: f64) -> bool {
    use defaults::*;
    match leaf.kind {
        BehaviorKind::Waypoint => leaf.position("WAYPOINT").is_some_and(|(lat, lon)| {
            let (e, n) = local_offset(nav.lat, nav.lon, lat, lon);
            e.hypot(n) <= leaf.number("CAPTURE_RADIUS").unwrap_or(CAPTURE_RADIUS)
        }),
        BehaviorKind::GoToSurface => {
            nav.depth <= leaf.number("SURFACE_DEPTH").unwrap_or(SURFACE_DEPTH)
        }
        BehaviorKind::ReadSensor => leaf.uri("URI").is_some_and(|u| {
            env.updated_at(u)
                .is_some_and(|t| t.as_secs_f64() > st.started)
        }),
        BehaviorKind::Wait => leaf
            .number("DURATION")
            .is_some_and(|d| now - st.started >= d),
        BehaviorKind::SetSpeed => true,
        BehaviorKind::Pitch => leaf.number("DEPTH").is_some_and(|d| {
            (nav.depth - d).abs() <= leaf.number("DEPTH_TOLERANCE").unwrap_or(DEPTH_TOLERANCE)
        }),
        _ => false,
    }
}
