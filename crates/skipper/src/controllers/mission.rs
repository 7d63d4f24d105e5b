//! Missions in the binary: load a mission (warnings to stderr), build the AUV world of
//! its worksite (`workSite.cfg` beside the mission, or `--world SITE.cfg`) with the
//! vehicle configuration of the mission (its cruise speed), and its controller.

use crate::commands::session::WorldArgs;
use crate::exit::Failure;
use crate::vehicles::VehicleChoice;
use skipper_core::World;
use skipper_mission::{load_file, parse_config, ConfigTable, Limits, Mission, MissionController};
use skipper_sim::auv::site::KEYS;
use skipper_sim::{AuvSite, AuvWorld};
use std::path::Path;
use std::sync::Arc;

/// Load and check a mission; warnings go to stderr.
pub fn load(path: &Path) -> Result<Arc<Mission>, Failure> {
    let m = load_file(path, Limits::default()).map_err(Failure::from)?;
    for w in &m.warnings {
        eprintln!("{w}");
    }
    Ok(Arc::new(m))
}

/// The controller of a mission flying in `world`: places in its state get the world's
/// local coordinates when the world says where its origin is.
pub fn controller(m: Arc<Mission>, world: &dyn World) -> MissionController {
    let c = MissionController::new(m);
    match world.geo_origin() {
        Some((lat, lon)) => c.with_origin(lat, lon),
        None => c,
    }
}

/// The AUV world a mission flies in: the worksite of its `workSite.cfg` (or of
/// `--world SITE.cfg`); a vehicle other than the simulator is bad input, and the options
/// for ground robots only warn.
pub fn vehicles(m: &Mission, w: &WorldArgs) -> Result<AuvWorld, Failure> {
    if !matches!(w.vehicle(), VehicleChoice::Sim) {
        return Err(Failure::bad_input(
            "missions run on the simulated AUV only (--vehicle sim)",
        ));
    }
    if !w.models.is_empty() {
        eprintln!("warning: --model is for simulated ground robots; a mission flies the AUV");
    }
    if w.robots.is_some_and(|n| n != 1) {
        eprintln!("warning: --robots is for ground robots; a mission flies its one AUV");
    }
    world(m, w.world.as_deref(), w.seed)
}

/// The speed the vehicle transits at when sent somewhere: `SpeedControl.SPEED_FAST` of
/// the mission's vehicle configuration (1 m/s unless a `Control.cfg` beside the mission
/// says otherwise).
fn cruise_speed(mission: &Mission) -> Option<f64> {
    mission
        .control
        .get("SpeedControl.SPEED_FAST")
        .and_then(|v| v.number_in(&skipper_core::units::METER_PER_SECOND))
        .filter(|v| v.is_finite() && *v > 0.0)
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
/// `--world`; the vehicle configured by the mission.
pub fn world(mission: &Mission, world: Option<&Path>, seed: u64) -> Result<AuvWorld, Failure> {
    let cfg = match world {
        None => mission.work_site.clone(),
        Some(p) if p.extension().and_then(|e| e.to_str()) == Some("cfg") => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| Failure::bad_input(format!("{}: cannot read: {e}", p.display())))?;
            parse_config(&text, &p.display().to_string()).map_err(|d| {
                Failure::diagnostics(
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
    let mut w = AuvWorld::new(site(&cfg)?, seed);
    if let Some(v) = cruise_speed(mission) {
        w.auv_mut().set_cruise_speed(v);
    }
    Ok(w)
}
