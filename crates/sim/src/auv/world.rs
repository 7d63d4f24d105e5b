//! The AUV's world: one [`Lrauv`] in its [`AuvSite`].

use super::site::AuvSite;
use super::vehicle::{Lrauv, LrauvParams};
use skipper_core::{Events, Vehicle, World};
use std::time::Duration;

/// One AUV in a worksite.
pub struct AuvWorld {
    vehicle: Lrauv,
}

impl AuvWorld {
    /// A world with the vehicle `tethys` at the site's origin.
    pub fn new(site: AuvSite, seed: u64) -> Self {
        Self {
            vehicle: Lrauv::new("tethys", site, LrauvParams::default(), seed),
        }
    }
    /// The vehicle.
    pub fn auv(&self) -> &Lrauv {
        &self.vehicle
    }
    /// The vehicle, mutably.
    pub fn auv_mut(&mut self) -> &mut Lrauv {
        &mut self.vehicle
    }
}

impl World for AuvWorld {
    fn len(&self) -> usize {
        1
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        (i == 0).then_some(&self.vehicle as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        (i == 0).then_some(&mut self.vehicle as &mut dyn Vehicle)
    }
    fn advance(&mut self, _now: Duration, dt: Duration, _events: &mut Events) {
        // sub-steps of at most 0.2 s keep the lags stable at low rates
        let total = dt.as_secs_f64();
        let n = (total / 0.2).ceil().max(1.0) as usize;
        let h = total / n as f64;
        for _ in 0..n {
            self.vehicle.step(h);
        }
    }
    fn geo_origin(&self) -> Option<(f64, f64)> {
        let s = self.vehicle.site();
        Some((s.latitude, s.longitude))
    }

    fn describe(&self) -> serde_json::Value {
        let s = self.vehicle.site();
        // the coastline: a 100 km segment, in local metres
        let d = s.coast_distance;
        let (ux, uy) = (s.coast_bearing.sin(), s.coast_bearing.cos());
        let (px, py) = (ux * d, uy * d);
        let (tx, ty) = (-uy, ux);
        serde_json::json!({
            "kind": "auv",
            "name": s.name,
            "origin": {"latitude": s.latitude, "longitude": s.longitude},
            "coastline": [[px - tx * 50_000.0, py - ty * 50_000.0], [px + tx * 50_000.0, py + ty * 50_000.0]],
            "bathymetry": {"shelf_depth_m": s.shelf_depth, "slope": s.shelf_slope, "max_depth_m": s.max_floor_depth},
            "site": s,
        })
    }
}
