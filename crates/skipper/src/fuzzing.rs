//! What the `work_site` fuzz target runs, also replayed over its corpus by a regular
//! test: a `workSite.cfg` parsed, the worksite a mission run builds from it, and the AUV
//! world of that worksite sensed and advanced a few cycles. Any text must end in
//! diagnostics or a world, never a panic, a hang or an unbounded allocation.

use skipper_core::{Events, Signals, World};
use std::time::Duration;

/// Run one `workSite.cfg` through the parser, the worksite and the AUV world.
pub fn work_site(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(cfg) = skipper_mission::parse_config(text, "workSite.cfg") else {
        return;
    };
    for (_, v) in &cfg.entries {
        let _ = v.canonical();
        let _ = v.number_in(&skipper_core::units::METER);
    }
    let Ok(site) = crate::controllers::mission::site(&cfg) else {
        return;
    };
    let mut world = skipper_sim::AuvWorld::new(site, 0);
    let _ = world.describe();
    let (mut signals, mut events) = (Signals::new(), Events::default());
    let dt = Duration::from_millis(200);
    for k in 0..5u32 {
        let now = dt * k;
        if let Some(v) = world.vehicle_mut(0) {
            v.sense(now, &mut signals, &mut events);
        }
        world.advance(now, dt, &mut events);
    }
}
