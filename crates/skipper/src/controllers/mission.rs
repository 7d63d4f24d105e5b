//! Missions in the binary: load a mission (warnings to stderr), build the AUV world of
//! its worksite (`workSite.cfg` beside the mission, or `--world SITE.cfg`), and tell the
//! AUV's pilot ([`super::auv_pilot`]) the vehicle's limits.

use super::auv_pilot::AuvLimits;
use crate::exit::Failure;
use skipper_mission::{load_file, parse_config, ConfigTable, Limits, Mission, MissionController};
use skipper_sim::auv::site::KEYS;
use skipper_sim::{AuvSite, AuvWorld};
use std::path::Path;
use std::sync::Arc;

/// Load and check a mission; warnings go to stderr.
pub fn load(path: &Path) -> Result<Arc<Mission>, Failure> {
    let m = load_file(path, Limits::default()).map_err(|e| Failure::bad_input(e.to_string()))?;
    for w in &m.warnings {
        eprintln!("{w}");
    }
    Ok(Arc::new(m))
}

/// Where a world's local frame is on the globe (latitude, longitude), if it says
/// (`/world`'s `origin`: an AUV worksite does).
pub fn origin(world: &dyn skipper_core::World) -> Option<(f64, f64)> {
    let d = world.describe();
    let o = &d["origin"];
    Some((o["latitude"].as_f64()?, o["longitude"].as_f64()?))
}

/// The controller of a mission flying in `world`: places in its state get the world's
/// local coordinates when the world says where its [`origin`] is.
pub fn controller(m: Arc<Mission>, world: &dyn skipper_core::World) -> MissionController {
    let c = MissionController::new(m);
    match origin(world) {
        Some((lat, lon)) => c.with_origin(lat, lon),
        None => c,
    }
}

/// The limits of `world`'s AUV for a goto or a velocity command; a goto cruises at the
/// fast speed of `mission`'s vehicle configuration (`SpeedControl.SPEED_FAST`: 1 m/s
/// unless a `Control.cfg` beside the mission says otherwise).
pub fn auv_limits(world: &AuvWorld, mission: &Mission) -> AuvLimits {
    let p = world.auv().params();
    AuvLimits {
        max_speed: p.max_speed,
        cruise: mission
            .control
            .get("SpeedControl.SPEED_FAST")
            .and_then(|v| v.number_in(&skipper_core::units::METER_PER_SECOND))
            .filter(|v| v.is_finite() && *v > 0.0)
            .unwrap_or(p.max_speed),
        turn_rate: p.turn_rate,
        authority_speed: p.authority_speed,
    }
}

/// The worksite of a configuration table.
pub fn site(cfg: &ConfigTable) -> Result<AuvSite, Failure> {
    let mut site = AuvSite::default();
    if let Some(skipper_mission::ConfigValue::Text(n)) = cfg.get("name") {
        site.name = n.clone();
    }
    for (key, unit) in KEYS {
        let Some(v) = cfg.get(key) else { continue };
        let value = match v {
            skipper_mission::ConfigValue::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
            other => other.number_in(unit),
        };
        let Some(value) = value else {
            return Err(Failure::bad_input(format!(
                "workSite.cfg: {key} must be a number in {} (or a unit of the same kind)",
                unit.name
            )));
        };
        site.set(key, value)
            .map_err(|e| Failure::bad_input(format!("workSite.cfg: {e}")))?;
    }
    Ok(site)
}

/// The AUV world a mission runs in: its `workSite.cfg`, or a worksite file given with
/// `--world`.
pub fn world(mission: &Mission, world: Option<&Path>, seed: u64) -> Result<AuvWorld, Failure> {
    let cfg = match world {
        None => mission.work_site.clone(),
        Some(p) if p.extension().and_then(|e| e.to_str()) == Some("cfg") => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| Failure::bad_input(format!("{}: cannot read: {e}", p.display())))?;
            parse_config(&text, &p.display().to_string()).map_err(|d| {
                Failure::bad_input(
                    d.iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join("\n"),
                )
            })?
        }
        Some(p) => {
            return Err(Failure::bad_input(format!(
                "{}: a mission runs in an ocean worksite: give a workSite.cfg, not a ground world",
                p.display()
            )))
        }
    };
    Ok(AuvWorld::new(site(&cfg)?, seed))
}
