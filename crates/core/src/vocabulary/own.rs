//! A vehicle's own vocabulary: the part of its kind's vocabulary it really has (a ROS
//! robot with a 360-beam laser and no sonar declares `laser.0` .. `laser.359` and no
//! `sonar.N`), so that a controller reading a signal the vehicle lacks is refused at load
//! time like a misspelt one.
//!
//! [`Vocabulary`] holds `'static` lists, as the kinds' own are; a vehicle's is made once
//! for each distinct list ([`Vocabulary::of_own`]) and kept for the life of the process
//! (a handful of lists in a run, never one per cycle).

use super::{FamilyKey, SignalFamily, SignalSpec, Vocabulary};
use crate::vehicle::VehicleKind;
use std::sync::{Mutex, PoisonError};

/// What a vehicle has of one family of its kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnFamily {
    /// the family (`ground::LASER`)
    pub family: &'static SignalFamily,
    /// how many numbered members it has (`laser.0` .. `laser.{n-1}`); `None` for named
    /// families and for as many as the kind allows
    pub members: Option<usize>,
}

/// One vocabulary made so far, with what it was made from.
struct Made {
    kind: VehicleKind,
    signals: Vec<&'static str>,
    families: Vec<(&'static str, Option<&'static str>, Option<usize>)>,
    vocabulary: Vocabulary,
}

static MADE: Mutex<Vec<Made>> = Mutex::new(Vec::new());

impl Vocabulary {
    /// The vocabulary of a vehicle of `kind` that has exactly `signals` and, of each
    /// family in `families`, the members it says. The same lists give the same
    /// vocabulary (made once per process).
    pub fn of_own(
        kind: VehicleKind,
        signals: &[&'static SignalSpec],
        families: &[OwnFamily],
    ) -> Vocabulary {
        let names: Vec<&'static str> = signals.iter().map(|s| s.name).collect();
        let keys: Vec<_> = families
            .iter()
            .map(|f| (f.family.prefix, f.family.suffix, f.members))
            .collect();
        let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = made
            .iter()
            .find(|m| m.kind == kind && m.signals == names && m.families == keys)
        {
            return m.vocabulary;
        }
        let own_signals: &'static [&'static SignalSpec] = Box::leak(signals.to_vec().into());
        let own_families: Vec<&'static SignalFamily> = families
            .iter()
            .map(|f| match (f.family.key, f.members) {
                (FamilyKey::Index(bound), Some(n)) if n != bound => {
                    &*Box::leak(Box::new(SignalFamily {
                        prefix: f.family.prefix,
                        suffix: f.family.suffix,
                        key: FamilyKey::Index(n.min(bound)),
                        kind: f.family.kind,
                        unit: f.family.unit,
                        meaning: f.family.meaning,
                    }))
                }
                _ => f.family,
            })
            .collect();
        let vocabulary = Vocabulary {
            kind,
            signals: own_signals,
            families: Box::leak(own_families.into()),
        };
        made.push(Made {
            kind,
            signals: names,
            families: keys,
            vocabulary,
        });
        vocabulary
    }
}

#[cfg(test)]
mod tests {
    use super::super::ground;
    use super::*;

    fn laser_robot(beams: usize) -> Vocabulary {
        Vocabulary::of_own(
            VehicleKind::Ground,
            &[&ground::POSE_X, &ground::POSE_Y, &ground::POSE_YAW],
            &[OwnFamily {
                family: &ground::LASER,
                members: Some(beams),
            }],
        )
    }

    #[test]
    fn a_vehicle_vocabulary_has_only_what_the_vehicle_has() {
        let v = laser_robot(360);
        assert!(v.resolve("pose.x").is_some());
        assert!(v.resolve("laser.359").is_some());
        assert!(v.resolve("laser.360").is_none());
        assert!(v.resolve("sonar.3").is_none());
        assert!(v.resolve("truth.x").is_none());
        assert!(v.resolve("battery.voltage").is_none());
        assert_eq!(v.nearest("pose.yw", 1), ["pose.y"]);
        // the kind's own vocabulary is untouched
        assert!(ground::vocabulary().resolve("sonar.3").is_some());
        assert!(ground::vocabulary().resolve("laser.1000").is_some());
    }

    #[test]
    fn the_same_lists_give_the_same_vocabulary() {
        let a = laser_robot(181);
        let b = laser_robot(181);
        assert!(std::ptr::eq(a.signals, b.signals));
        assert!(std::ptr::eq(a.families, b.families));
        let c = laser_robot(90);
        assert!(!std::ptr::eq(a.families, c.families));
        assert!(c.resolve("laser.89").is_some() && c.resolve("laser.90").is_none());
    }
}
