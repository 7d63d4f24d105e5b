//! The behavior and command library: every `Guidance.*` name a mission may use, whether it
//! is a behavior (runs in parallel) or a command (runs in sequence until satisfied), and its
//! settings with their dimensions. The loader checks missions against this table; the
//! executive's [`crate::behaviors`] implements each entry.

use skipper_core::units::Dimension;

/// Which library entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BehaviorKind {
    /// Keep a minimum (and optional maximum) altitude above the sea floor.
    AltitudeEnvelope,
    /// Keep the depth (and optionally the pitch) within bounds.
    DepthEnvelope,
    /// Keep the distance from the coast within bounds.
    OffshoreEnvelope,
    /// Fly up and down between depth bounds.
    YoYo,
    /// Go to a position.
    Waypoint,
    /// Climb to the surface and float.
    GoToSurface,
    /// Sample a sensor (behavior) or wait for its next datum (command).
    ReadSensor,
    /// Wait for a duration.
    Wait,
    /// Set the speed (behavior: while active; command: the cruise speed from now on).
    SetSpeed,
    /// Hold a depth, a depth rate or a pitch.
    Pitch,
    /// Circle a centre.
    Circle,
}

/// How a library entry may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Usage {
    /// Only as `BEHAVIOR(...)`.
    Behavior,
    /// Only as `COMMAND(...)`.
    Command,
    /// Either.
    Both,
}

/// The type of a setting's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingType {
    /// A number of this dimension, with units.
    Quantity(Dimension),
    /// A geographic position (`Units.DEGREE(lat, lon)`).
    Position,
    /// A URI (`UniversalURI.X`).
    Uri,
    /// A truth value.
    Bool,
}

/// One setting of a library entry.
#[derive(Debug)]
pub struct SettingSpec {
    /// Its name (`MIN_ALTITUDE`).
    pub name: &'static str,
    /// Its type.
    pub ty: SettingType,
    /// Must be set.
    pub required: bool,
    /// One line for docs.
    pub doc: &'static str,
}

/// One library entry.
#[derive(Debug)]
pub struct BehaviorSpec {
    /// Which.
    pub kind: BehaviorKind,
    /// Name after `Guidance.`.
    pub name: &'static str,
    /// Behavior, command or both.
    pub usage: Usage,
    /// Its settings.
    pub settings: &'static [SettingSpec],
    /// One line for docs.
    pub doc: &'static str,
}

impl BehaviorSpec {
    /// The index of a setting by name.
    pub fn setting(&self, name: &str) -> Option<usize> {
        self.settings.iter().position(|s| s.name == name)
    }
}

const fn q(name: &'static str, d: Dimension, required: bool, doc: &'static str) -> SettingSpec {
    SettingSpec {
        name,
        ty: SettingType::Quantity(d),
        required,
        doc,
    }
}

use Dimension::{Angle, Length, Speed, Time};

/// The library, in the order of the reference's table.
pub static LIBRARY: &[BehaviorSpec] = &[
    BehaviorSpec {
        kind: BehaviorKind::AltitudeEnvelope,
        name: "AltitudeEnvelope",
        usage: Usage::Behavior,
        settings: &[
            q("MIN_ALTITUDE", Length, true, "lowest altitude above the sea floor"),
            q("MAX_ALTITUDE", Length, false, "highest altitude above the sea floor"),
        ],
        doc: "a depth bound from the sea floor; corrective climb when too low; inactive while the altitude is invalid",
    },
    BehaviorSpec {
        kind: BehaviorKind::DepthEnvelope,
        name: "DepthEnvelope",
        usage: Usage::Behavior,
        settings: &[
            q("MIN_DEPTH", Length, false, "shallowest depth"),
            q("MAX_DEPTH", Length, false, "deepest depth"),
            q("MIN_PITCH", Angle, false, "lowest pitch (nose down is negative)"),
            q("MAX_PITCH", Angle, false, "highest pitch"),
        ],
        doc: "depth (and pitch) bounds for the items below it; corrective request when outside",
    },
    BehaviorSpec {
        kind: BehaviorKind::OffshoreEnvelope,
        name: "OffshoreEnvelope",
        usage: Usage::Behavior,
        settings: &[
            q("MIN_OFFSHORE", Length, false, "closest distance to the coast"),
            q("MAX_OFFSHORE", Length, false, "farthest distance from the coast"),
        ],
        doc: "forbids headings that would cross a bound; corrective heading along the offshore direction",
    },
    BehaviorSpec {
        kind: BehaviorKind::YoYo,
        name: "YoYo",
        usage: Usage::Behavior,
        settings: &[
            q("UP_SPEED", Speed, false, "speed on the way up"),
            q("DOWN_SPEED", Speed, false, "speed on the way down"),
            q("MIN_DEPTH", Length, false, "top of the yo-yo (else the envelopes' bound)"),
            q("MAX_DEPTH", Length, false, "bottom of the yo-yo (else the envelopes' bound)"),
            q("MIN_ALTITUDE", Length, false, "turn up at this altitude"),
            q("PITCH", Angle, false, "pitch of the legs (default 20 degrees)"),
            q("DEPTH_RATE", Speed, false, "vertical rate of the legs (instead of pitch)"),
        ],
        doc: "vertical saw-tooth between its own bounds or the envelopes' bounds, neutral buoyancy",
    },
    BehaviorSpec {
        kind: BehaviorKind::Waypoint,
        name: "Waypoint",
        usage: Usage::Command,
        settings: &[
            SettingSpec { name: "WAYPOINT", ty: SettingType::Position, required: true, doc: "where to go" },
            q("CAPTURE_RADIUS", Length, false, "done within this range (default 10 m)"),
            q("SPEED", Speed, false, "transit speed"),
        ],
        doc: "heading to the waypoint; satisfied within the capture radius",
    },
    BehaviorSpec {
        kind: BehaviorKind::GoToSurface,
        name: "GoToSurface",
        usage: Usage::Command,
        settings: &[
            q("PITCH", Angle, false, "climb pitch (default 20 degrees)"),
            q("DEPTH_RATE", Speed, false, "climb rate (instead of pitch)"),
            q("SPEED", Speed, false, "speed on the way up (default 1 m/s)"),
            q("SURFACE_DEPTH", Length, false, "satisfied at this depth or shallower (default 0.5 m)"),
        ],
        doc: "climb with full positive buoyancy; satisfied at the surface; buoyancy then stays positive",
    },
    BehaviorSpec {
        kind: BehaviorKind::ReadSensor,
        name: "ReadSensor",
        usage: Usage::Both,
        settings: &[SettingSpec { name: "URI", ty: SettingType::Uri, required: true, doc: "the sensor's URI" }],
        doc: "behavior: keep the sensor sampling; command: satisfied on its next new datum",
    },
    BehaviorSpec {
        kind: BehaviorKind::Wait,
        name: "Wait",
        usage: Usage::Command,
        settings: &[q("DURATION", Time, true, "how long")],
        doc: "satisfied when the duration has passed since activation",
    },
    BehaviorSpec {
        kind: BehaviorKind::SetSpeed,
        name: "SetSpeed",
        usage: Usage::Both,
        settings: &[q("SPEED", Speed, true, "speed through the water")],
        doc: "behavior: requests the speed while active; command: sets the cruise speed and is done",
    },
    BehaviorSpec {
        kind: BehaviorKind::Pitch,
        name: "Pitch",
        usage: Usage::Both,
        settings: &[
            q("DEPTH", Length, false, "depth to hold (first choice)"),
            q("DEPTH_RATE", Speed, false, "depth rate to hold (second choice)"),
            q("PITCH", Angle, false, "pitch to hold (third choice)"),
            q("SPEED", Speed, false, "speed"),
            q("DEPTH_TOLERANCE", Length, false, "command satisfied this close to DEPTH (default 1 m)"),
        ],
        doc: "vertical request; as a command with DEPTH, satisfied at that depth",
    },
    BehaviorSpec {
        kind: BehaviorKind::Circle,
        name: "Circle",
        usage: Usage::Behavior,
        settings: &[
            SettingSpec { name: "CENTER", ty: SettingType::Position, required: true, doc: "centre" },
            q("RADIUS", Length, false, "radius (default 300 m)"),
            SettingSpec { name: "TURN_TO_PORT", ty: SettingType::Bool, required: false, doc: "counter-clockwise" },
            q("MAX_ERROR", Length, false, "farther off the circle than this: head straight for it (default 100 m)"),
            q("SPEED", Speed, false, "speed"),
        ],
        doc: "circles the centre",
    },
];

/// Find a library entry by module and name.
pub fn find(module: &str, name: &str) -> Option<&'static BehaviorSpec> {
    if module != "Guidance" {
        return None;
    }
    LIBRARY.iter().find(|b| b.name == name)
}

/// The entry of a kind.
pub fn spec(kind: BehaviorKind) -> &'static BehaviorSpec {
    LIBRARY
        .iter()
        .find(|b| b.kind == kind)
        .unwrap_or(&LIBRARY[0])
}

/// The modules a mission may name (only `Guidance` has entries today).
pub const MODULES: &[&str] = &[
    "Guidance",
    "Science",
    "Sensor",
    "Estimation",
    "Trigger",
    "Dock",
];
