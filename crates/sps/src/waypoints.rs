//! Waypoints: what `add-waypoint` registers, kept with the type of their id (rule I4,
//! O13, O14), and the WMEs that show each enabled one under `self.waypoints`.

use crate::tree::WmeId;
use std::sync::Arc;

/// A waypoint id, with the type the agent gave it: int 1 and string "1" are different
/// values to Soar, so an int stays an int.
#[derive(Debug, Clone, PartialEq)]
pub enum WaypointId {
    /// an integer id
    Int(i64),
    /// a float id
    Float(f64),
    /// any other id
    Str(Arc<str>),
}

impl WaypointId {
    /// The string form waypoints are looked up by (O14).
    pub fn key(&self) -> String {
        match self {
            WaypointId::Int(i) => i.to_string(),
            WaypointId::Float(f) => f.to_string(),
            WaypointId::Str(s) => s.to_string(),
        }
    }
}

/// The WMEs of one waypoint on the input-link.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WaypointWmes {
    pub root: WmeId,
    pub distance: WmeId,
    pub yaw: WmeId,
    pub relative_bearing: WmeId,
    pub abs_relative_bearing: WmeId,
}

/// One waypoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Waypoint {
    /// its id as given
    pub id: WaypointId,
    /// the string form of the id
    pub key: String,
    /// position (m, the agent's frame: offsets applied)
    pub x: f64,
    /// position (m)
    pub y: f64,
    /// position (m)
    pub z: f64,
    /// shown on the input-link
    pub enabled: bool,
    /// its angles are ints (yaw-format was `int` when it was added)
    pub yaw_int: bool,
    pub(crate) wmes: Option<WaypointWmes>,
}

/// The registered waypoints, in the order they were added.
#[derive(Debug, Clone, Default)]
pub struct Waypoints {
    pub(crate) list: Vec<Waypoint>,
}

impl Waypoints {
    /// Every waypoint.
    pub fn iter(&self) -> impl Iterator<Item = &Waypoint> {
        self.list.iter()
    }
    /// How many.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    /// `true` if none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// The waypoint whose id has this string form.
    pub fn find(&self, key: &str) -> Option<usize> {
        self.list.iter().position(|w| w.key == key)
    }
    /// Look up by string form.
    pub fn get(&self, key: &str) -> Option<&Waypoint> {
        self.find(key).and_then(|i| self.list.get(i))
    }
}
