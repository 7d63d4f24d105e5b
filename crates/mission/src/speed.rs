//! Default speeds and the check that every moving item can move the vehicle.
//!
//! On an LRAUV every behavior that drives the vehicle has a configured speed, so a mission
//! that names no speed still makes way. Here the behaviors that need forward speed —
//! `Waypoint`, `Circle`, `YoYo`, `Pitch` and `GoToSurface` — each have a default speed
//! in the vehicle configuration (`Control`, from `Control.cfg`):
//! `DefaultSpeed.<Behavior> = 1 m/s;`. The built-in value, 1 m/s, is the transit speed
//! of MBARI's LRAUV missions (their waypoint, yo-yo, circle and surfacing arguments all
//! default to 1 m/s; the reference's §1).
//!
//! The speed channel (rule 40) is resolved in this order: the first item in priority
//! order that requests a speed (its own `SPEED`, a `SetSpeed` behavior), then the cruise
//! speed of the last `SetSpeed` command, then the default speed of the highest-priority
//! running item that moves the vehicle, else 0 (propeller off).
//!
//! [`never_moves`] finds the items that can never move the vehicle: a moving item whose
//! speed is 0 wherever it comes from, or one below an unguarded `SetSpeed` behavior of 0
//! that covers it for as long as it runs.

use crate::config::ConfigTable;
use crate::library::BehaviorKind;
use crate::model::{Body, Guard, Item, Leaf};
use skipper_core::units;

/// The built-in default speed of every moving behavior (m/s).
pub const BUILT_IN: f64 = 1.0;

/// The behaviors that need forward speed to do their job.
pub const MOVING: &[BehaviorKind] = &[
    BehaviorKind::Waypoint,
    BehaviorKind::Circle,
    BehaviorKind::YoYo,
    BehaviorKind::Pitch,
    BehaviorKind::GoToSurface,
];

/// The configuration key of a behavior's default speed (`DefaultSpeed.Waypoint`).
pub fn key(kind: BehaviorKind) -> String {
    format!("DefaultSpeed.{}", crate::library::spec(kind).name)
}

/// A behavior's default speed (m/s) in a vehicle configuration; `None` for behaviors
/// that do not move the vehicle. A value that is not a speed is ignored (the built-in
/// value counts).
pub fn default_speed(control: &ConfigTable, kind: BehaviorKind) -> Option<f64> {
    if !MOVING.contains(&kind) {
        return None;
    }
    let configured = control
        .get(&key(kind))
        .and_then(|v| v.number_in(&units::METER_PER_SECOND))
        .filter(|v| v.is_finite());
    Some(configured.unwrap_or(BUILT_IN).max(0.0))
}

/// The speed an item asks for itself, if it names one (YoYo: the slower leg).
fn own_speed(leaf: &Leaf) -> Option<f64> {
    match leaf.kind {
        BehaviorKind::YoYo => match (leaf.number("UP_SPEED"), leaf.number("DOWN_SPEED")) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        },
        BehaviorKind::SetSpeed if leaf.command => None,
        _ => leaf.number("SPEED"),
    }
}

/// One finding of [`never_moves`]: the line, the word to point at, the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Line in the mission file (0: the vehicle configuration).
    pub line: usize,
    /// The word to put the caret under.
    pub word: Option<&'static str>,
    /// What is wrong.
    pub message: String,
}

/// Default speeds in the configuration that are not speeds: a finding each.
fn bad_config(control: &ConfigTable) -> Vec<Finding> {
    MOVING
        .iter()
        .filter_map(|&k| {
            let v = control.get(&key(k))?;
            v.number_in(&units::METER_PER_SECOND).is_none().then(|| Finding {
                line: 0,
                word: None,
                message: format!(
                    "the vehicle configuration's {} is not a speed (e.g. `1 m/s`): {BUILT_IN} m/s counts",
                    key(k)
                ),
            })
        })
        .collect()
}

/// A `SetSpeed` behavior of 0 m/s, unguarded, whose stack holds item `i` below it: it
/// wins the speed channel for as long as `i` runs.
fn stopped_by(items: &[Item], i: usize) -> Option<usize> {
    let mut child = i;
    let mut parent = items.get(i)?.parent;
    while let Some(p) = parent {
        let Body::Stack { children, .. } = &items.get(p)?.body else {
            return None;
        };
        for &c in children.iter().take_while(|&&c| c != child) {
            let it = items.get(c)?;
            let zero = it.leaf().is_some_and(|l| {
                l.kind == BehaviorKind::SetSpeed && !l.command && l.number("SPEED") == Some(0.0)
            });
            if zero && matches!(it.guard, Guard::None) && it.until.is_none() && it.within.is_none()
            {
                return Some(c);
            }
        }
        child = p;
        parent = items.get(p)?.parent;
    }
    None
}

/// Why an item can never move the vehicle, if it cannot.
fn why_still(
    items: &[Item],
    i: usize,
    control: &ConfigTable,
    some_set_speed: bool,
) -> Option<String> {
    let leaf = items.get(i)?.leaf()?;
    let default = default_speed(control, leaf.kind)?;
    let name = crate::library::spec(leaf.kind).name;
    if let Some(s) = stopped_by(items, i) {
        let line = items.get(s).map_or(0, |x| x.line);
        return Some(format!(
            "Guidance.{name} can never move the vehicle: the SetSpeed behavior of 0 m/s on line {line} holds the propeller off above it"
        ));
    }
    match own_speed(leaf) {
        Some(v) if v <= 0.0 => Some(format!(
            "Guidance.{name} can never move the vehicle: its speed is 0 m/s"
        )),
        Some(_) => None,
        None if default <= 0.0 && !some_set_speed => Some(format!(
            "Guidance.{name} can never move the vehicle: it sets no speed, the vehicle configuration's {} is 0 m/s and no SetSpeed gives one",
            key(leaf.kind)
        )),
        None => None,
    }
}

/// The items that can never move the vehicle (and the default speeds in the vehicle
/// configuration that are not speeds).
pub fn never_moves(items: &[Item], control: &ConfigTable) -> Vec<Finding> {
    let some_set_speed = items.iter().any(|it| {
        it.leaf().is_some_and(|l| {
            l.kind == BehaviorKind::SetSpeed && l.number("SPEED").is_some_and(|v| v > 0.0)
        })
    });
    let mut out = bad_config(control);
    for (i, it) in items.iter().enumerate() {
        if let Some(message) = why_still(items, i, control, some_set_speed) {
            let word = it.leaf().map(|l| crate::library::spec(l.kind).name);
            out.push(Finding {
                line: it.line,
                word,
                message,
            });
        }
    }
    out
}
