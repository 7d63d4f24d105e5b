//! The executive as a Skipper [`Controller`]: each cycle it ticks the executive on the
//! vehicle's signals and sends the setpoints; item state changes go to the run's events
//! (kind `transition`) and the item states to `/controller`. Items with a place —
//! `Waypoint` (its capture circle) and `Circle` (its centre and radius) — carry it in their
//! state (`place`: latitude, longitude and, when the local frame's origin is known, `x`
//! and `y` in metres), so reports and the dashboard can draw them on the map.

use crate::behaviors::{defaults, local_offset};
use crate::executive::{Executive, ItemState, MissionStatus};
use crate::library::BehaviorKind;
use crate::model::{Body, Mission};
use skipper_core::{Controller, ControllerError, Cycle, Signals, Status, VehicleInfo, VehicleKind};
use std::sync::Arc;

/// A mission driving one AUV.
pub struct MissionController {
    pub(crate) exec: Executive,
    /// `run_mission` goals
    pub(crate) goals: crate::goals::MissionGoals,
    /// the default mission timeout given with [`MissionController::with_timeout`] (s)
    timeout: Option<f64>,
    name: String,
    /// Per item: its place on the map, if it has one.
    places: Vec<Option<serde_json::Value>>,
    /// The origin of the local frame, if known.
    origin: Option<(f64, f64)>,
}

/// The place of an item: a waypoint's capture circle or a circle's centre and radius.
fn place(mission: &Mission, i: usize, origin: Option<(f64, f64)>) -> Option<serde_json::Value> {
    let Body::Leaf(leaf) = &mission.items.get(i)?.body else {
        return None;
    };
    let (key, radius_key, (lat, lon), radius) = match leaf.kind {
        BehaviorKind::Waypoint => (
            "waypoint",
            "capture_radius",
            leaf.position("WAYPOINT")?,
            leaf.number("CAPTURE_RADIUS")
                .unwrap_or(defaults::CAPTURE_RADIUS),
        ),
        BehaviorKind::Circle => (
            "circle",
            "radius",
            leaf.position("CENTER")?,
            leaf.number("RADIUS").unwrap_or(defaults::CIRCLE_RADIUS),
        ),
        _ => return None,
    };
    let mut o = serde_json::json!({
        "kind": key,
        "name": mission.items.get(i).map_or("", |it| it.path.as_str()),
        "latitude": lat,
        "longitude": lon,
        radius_key: radius,
    });
    if let Some((lat0, lon0)) = origin {
        let (x, y) = local_offset(lat0, lon0, lat, lon);
        if x.is_finite() && y.is_finite() {
            o["x"] = x.into();
            o["y"] = y.into();
        }
    }
    Some(o)
}

impl MissionController {
    /// A controller for a loaded mission.
    pub fn new(mission: Arc<Mission>) -> Self {
        let places = (0..mission.items.len())
            .map(|i| place(&mission, i, None))
            .collect();
        Self {
            name: format!("mission:{}", mission.name),
            exec: Executive::new(mission),
            places,
            origin: None,
            timeout: None,
            goals: Default::default(),
        }
    }
    /// Fly `mission` from its first item instead, on the vehicle as it is (the origin
    /// stays).
    pub(crate) fn replace(&mut self, mission: Arc<Mission>, signals: &Signals) {
        let origin = self.origin;
        self.places = (0..mission.items.len())
            .map(|i| place(&mission, i, origin))
            .collect();
        self.name = format!("mission:{}", mission.name);
        self.exec = Executive::new(mission);
        if let Some(t) = self.timeout {
            self.exec.set_timeout(t);
        }
        self.exec.bind(signals);
    }
    /// The origin (latitude, longitude in degrees) of the world's local frame (x east,
    /// y north, metres), so that places in the state also get local coordinates.
    pub fn with_origin(mut self, latitude: f64, longitude: f64) -> Self {
        let m = self.exec.mission().clone();
        self.places = (0..m.items.len())
            .map(|i| place(&m, i, Some((latitude, longitude))))
            .collect();
        self.origin = Some((latitude, longitude));
        self
    }
    /// Bound a mission without a top-level `WITHIN` by this default mission timeout (s)
    /// instead of the vehicle configuration's (`MissionTimeout`, else 24 h).
    pub fn with_timeout(mut self, secs: f64) -> Self {
        self.exec.set_timeout(secs);
        self.timeout = Some(secs);
        self
    }
    /// The origin of the local frame given with [`with_origin`](Self::with_origin).
    pub fn origin(&self) -> Option<(f64, f64)> {
        self.origin
    }
    /// The executive.
    pub fn executive(&self) -> &Executive {
        &self.exec
    }
    /// The executive, to change it ([`Executive::stop`]).
    pub fn executive_mut(&mut self) -> &mut Executive {
        &mut self.exec
    }
}

impl Controller for MissionController {
    fn name(&self) -> &str {
        &self.name
    }

    fn start(&mut self, vehicle: &VehicleInfo, signals: &Signals) -> Result<(), ControllerError> {
        if vehicle.kind != VehicleKind::Auv {
            return Err(ControllerError::vehicle(format!(
                "a Tethys mission drives an AUV, and {} is a {:?} vehicle",
                vehicle.name, vehicle.kind
            )));
        }
        self.exec.bind(signals);
        Ok(())
    }

    fn step(&mut self, cycle: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let sp = self.exec.tick(cycle.now, cycle.signals);
        cycle.actuation.auv = Some(sp);
        for t in self.exec.transitions() {
            let name = self
                .exec
                .mission()
                .items
                .get(t.item as usize)
                .map(crate::model::Item::name);
            let mut data = serde_json::json!({
                "item": self.exec.path(t.item),
                "name": name,
                "from": t.from.name(),
                "to": t.to.name(),
            });
            if let ItemState::Preempted(p) = t.to {
                data["by"] = self.exec.path(p).into();
            }
            if let Some(r) = t.reason {
                data["reason"] = serde_json::to_value(r).unwrap_or_default();
            }
            cycle.events.push(cycle.now, "transition", data);
        }
        for n in self.exec.notes() {
            cycle.events.push(
                cycle.now,
                n.kind,
                serde_json::json!({"item": self.exec.path(n.item)}),
            );
        }
        Ok(match self.exec.status() {
            MissionStatus::Running => Status::Running,
            MissionStatus::Completed | MissionStatus::TimedOut => Status::Finished,
            MissionStatus::Timeout => Status::TimedOut(format!(
                "the mission did not complete within the default mission timeout of {} (set MissionTimeout in Control.cfg, --mission-timeout, or give the STACK a WITHIN)",
                human_secs(self.exec.timeout().unwrap_or_default())
            )),
        })
    }

    fn state(&self) -> Option<serde_json::Value> {
        let mut s = self.exec.state_json();
        if let Some(items) = s.get_mut("items").and_then(serde_json::Value::as_array_mut) {
            for (o, p) in items.iter_mut().zip(&self.places) {
                if let Some(p) = p {
                    o["place"] = p.clone();
                }
            }
        }
        if let Some(g) = self.goals.latest() {
            s["mission_goal"] = serde_json::to_value(g).unwrap_or_default();
        }
        Some(s)
    }

    fn state_version(&self) -> Option<u64> {
        // a goal's status is part of the state: a new status is a new version
        let published = self.goals.published();
        Some(
            self.exec
                .state_fingerprint()
                .wrapping_add(published.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        )
    }

    fn goals(&mut self) -> Option<&mut dyn skipper_core::goals::Goals> {
        Some(self)
    }

    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        out.insert(
            "waypoints_reached".into(),
            self.exec.counters().waypoints_reached.into(),
        );
        out.insert(
            "mission".into(),
            serde_json::to_value(self.exec.status()).unwrap_or_default(),
        );
    }
}

/// `24 h`, `90 min`, `45 s`.
fn human_secs(s: f64) -> String {
    if s >= 3600.0 && s % 3600.0 == 0.0 {
        format!("{} h", s / 3600.0)
    } else if s >= 60.0 && s % 60.0 == 0.0 {
        format!("{} min", s / 60.0)
    } else {
        format!("{s} s")
    }
}
