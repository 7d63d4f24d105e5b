//! The executive as a Skipper [`Controller`]: each cycle it ticks the executive on the
//! vehicle's signals and sends the setpoints; item state changes go to the run's events
//! (kind `transition`) and the item states to `/controller`.

use crate::executive::{Executive, ItemState, MissionStatus};
use crate::model::Mission;
use skipper_core::{Controller, ControllerError, Cycle, Signals, Status, VehicleInfo, VehicleKind};
use std::sync::Arc;

/// A mission driving one AUV.
pub struct MissionController {
    exec: Executive,
    name: String,
}

impl MissionController {
    /// A controller for a loaded mission.
    pub fn new(mission: Arc<Mission>) -> Self {
        Self {
            name: format!("mission:{}", mission.name),
            exec: Executive::new(mission),
        }
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
            return Err(ControllerError::new(format!(
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
            let mut data = serde_json::json!({
                "item": self.exec.path(t.item),
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
        })
    }

    fn state(&self) -> Option<serde_json::Value> {
        Some(self.exec.state_json())
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
