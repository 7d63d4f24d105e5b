//! The robot's vocabulary: every signal a vehicle kind senses, declared once (name, type,
//! unit, meaning).
//!
//! Vehicles declare their signals from these specs ([`SignalSpec::declare`], or a
//! kind's `Ids` groups), controllers resolve them by spec ([`SignalSpec::id`]) instead of
//! by a string written again, and binding files are checked against a kind's
//! [`Vocabulary`] at load time, so a misspelt name is an error with the nearest valid names,
//! never a run-time surprise.
//!
//! - [`ground`]: a Pioneer-class robot (the simulator's and a P2OS robot's);
//! - [`auv`]: an LRAUV-like AUV (the Tethys Universal URIs).
//!
//! Families of numbered or named signals (`sonar.N`, `laser.N`,
//! `landmark.NAME.distance`) are a [`SignalFamily`]. A vehicle that has only part of its
//! kind's vocabulary declares that part ([`own`]).

/// Declares a kind's signal specs, one `ID = "name", Kind, UNIT, "meaning";` per line,
/// and the kind's `SIGNALS` list (documented by the first literal) in that order.
macro_rules! specs {
    ($list_doc:literal; $($id:ident = $name:literal, $kind:ident, $unit:ident, $meaning:literal;)*) => {
        $(
            #[doc = concat!("`", $name, "`: ", $meaning)]
            pub const $id: SignalSpec = SignalSpec {
                name: $name,
                kind: $crate::vocabulary::ValueKind::$kind,
                unit: &$crate::units::$unit,
                meaning: $meaning,
            };
        )*
        #[doc = $list_doc]
        pub static SIGNALS: &[&SignalSpec] = &[$(&$id),*];
    };
}

pub mod auv;
pub mod ground;
mod lookup;
pub mod own;

pub use lookup::{nearest, Resolution, Vocabulary};
pub use own::OwnFamily;

use crate::signals::{SignalId, Signals};
use crate::units::Unit;
use crate::vehicle::VehicleKind;

/// The type of a signal's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// `Value::Bool`
    Bool,
    /// `Value::Int` (counts, bit fields, enumerations)
    Int,
    /// `Value::Float`, in the signal's unit
    Float,
    /// `Value::Position` (latitude, longitude in degrees)
    Position,
}

/// One declared signal.
#[derive(Debug, PartialEq)]
pub struct SignalSpec {
    /// Its name in the signal table (`pose.x`, `DEPTH`).
    pub name: &'static str,
    /// The type of its values.
    pub kind: ValueKind,
    /// The unit its numbers are in.
    pub unit: &'static Unit,
    /// What it means, in one line.
    pub meaning: &'static str,
}

impl SignalSpec {
    /// Declare it in `s` (or find it) with its unit.
    pub fn declare(&self, s: &mut Signals) -> SignalId {
        s.declare(self.name, Some(self.unit))
    }

    /// Its id in `s`, if the vehicle declared it.
    pub fn id(&self, s: &Signals) -> Option<SignalId> {
        s.id(self.name)
    }

    /// The dimension of its values.
    pub fn dimension(&self) -> crate::units::Dimension {
        self.unit.dimension
    }
}

/// What tells the members of a family apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FamilyKey {
    /// A number from 0 to below the bound (`sonar.0` .. `sonar.15`).
    Index(usize),
    /// A name chosen by the world (`landmark.door.distance`).
    Name,
}

/// Signals that share a shape: `PREFIX.KEY` or `PREFIX.KEY.SUFFIX`.
#[derive(Debug, PartialEq)]
pub struct SignalFamily {
    /// before the key (`sonar`, `landmark`)
    pub prefix: &'static str,
    /// after the key, if anything (`distance`)
    pub suffix: Option<&'static str>,
    /// numbered or named
    pub key: FamilyKey,
    /// the type of the values
    pub kind: ValueKind,
    /// their unit
    pub unit: &'static Unit,
    /// what a member means
    pub meaning: &'static str,
}

impl SignalFamily {
    /// The name of the member with key `key` (a number or a name).
    pub fn name(&self, key: impl std::fmt::Display) -> String {
        match self.suffix {
            Some(s) => format!("{}.{key}.{s}", self.prefix),
            None => format!("{}.{key}", self.prefix),
        }
    }

    /// Declare member `key` in `s`.
    pub fn declare(&self, s: &mut Signals, key: impl std::fmt::Display) -> SignalId {
        s.declare(&self.name(key), Some(self.unit))
    }

    /// Member `key`'s id in `s`, if declared.
    pub fn id(&self, s: &Signals, key: impl std::fmt::Display) -> Option<SignalId> {
        s.id(&self.name(key))
    }

    /// A written pattern for docs and messages: `sonar.N` (N < 16), `landmark.NAME.distance`.
    pub fn pattern(&self) -> String {
        let key = match self.key {
            FamilyKey::Index(_) => "N",
            FamilyKey::Name => "NAME",
        };
        self.name(key)
    }

    /// Does `name` belong to the family?
    pub fn matches(&self, name: &str) -> bool {
        let Some(rest) = name
            .strip_prefix(self.prefix)
            .and_then(|r| r.strip_prefix('.'))
        else {
            return false;
        };
        let key = match self.suffix {
            Some(s) => match rest.strip_suffix(s).and_then(|r| r.strip_suffix('.')) {
                Some(k) => k,
                None => return false,
            },
            None => rest,
        };
        match self.key {
            FamilyKey::Index(n) => key
                .parse::<usize>()
                .is_ok_and(|k| k < n && key == k.to_string()),
            FamilyKey::Name => !key.is_empty() && !key.contains('.'),
        }
    }
}

/// The vocabulary of a vehicle kind.
pub fn of_kind(kind: VehicleKind) -> Vocabulary {
    match kind {
        VehicleKind::Ground => ground::vocabulary(),
        VehicleKind::Auv => auv::vocabulary(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_match_their_members_only() {
        let sonar = &ground::SONAR;
        assert!(sonar.matches("sonar.0") && sonar.matches("sonar.15"));
        assert!(!sonar.matches("sonar.16") && !sonar.matches("sonar.01"));
        assert!(!sonar.matches("sonar.") && !sonar.matches("sonarx.1"));
        assert_eq!(sonar.name(3), "sonar.3");
        let lm = &ground::LANDMARK_DISTANCE;
        assert!(lm.matches("landmark.door.distance"));
        assert!(!lm.matches("landmark.door.bearing") && !lm.matches("landmark..distance"));
        assert_eq!(lm.pattern(), "landmark.NAME.distance");
    }

    #[test]
    fn specs_declare_with_their_unit() {
        let mut s = Signals::new();
        let id = ground::POSE_X.declare(&mut s);
        assert_eq!(ground::POSE_X.id(&s), Some(id));
        assert_eq!(s.unit(id).map(|u| u.name), Some("METER"));
        assert_eq!(ground::POSE_Y.id(&s), None);
    }
}
