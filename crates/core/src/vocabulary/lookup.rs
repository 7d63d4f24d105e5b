//! Looking names up in a vocabulary: is a name a declared signal, and if not, which
//! declared names are nearest (for "did you mean" in diagnostics).

use super::{FamilyKey, SignalFamily, SignalSpec};
use crate::units::Unit;
use crate::vehicle::VehicleKind;

/// A vehicle kind's declared signals.
#[derive(Debug, Clone, Copy)]
pub struct Vocabulary {
    /// the kind
    pub kind: VehicleKind,
    /// the fixed-name signals
    pub signals: &'static [&'static SignalSpec],
    /// the families of numbered or named signals
    pub families: &'static [&'static SignalFamily],
}

/// What a name resolves to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Resolution {
    /// a fixed-name signal
    Signal(&'static SignalSpec),
    /// a member of a family
    Family(&'static SignalFamily),
}

impl Resolution {
    /// The unit of the signal's numbers.
    pub fn unit(&self) -> &'static Unit {
        match self {
            Resolution::Signal(s) => s.unit,
            Resolution::Family(f) => f.unit,
        }
    }
    /// What it means.
    pub fn meaning(&self) -> &'static str {
        match self {
            Resolution::Signal(s) => s.meaning,
            Resolution::Family(f) => f.meaning,
        }
    }
}

impl Vocabulary {
    /// What `name` is, if the vocabulary declares it.
    pub fn resolve(&self, name: &str) -> Option<Resolution> {
        if let Some(s) = self.signals.iter().find(|s| s.name == name) {
            return Some(Resolution::Signal(s));
        }
        self.families
            .iter()
            .find(|f| f.matches(name))
            .map(|f| Resolution::Family(f))
    }

    /// Up to `n` declared names nearest to `name` (by edit distance, nearest first), for a
    /// name that does not resolve. Numbered families offer their members, named ones their
    /// pattern (`landmark.NAME.distance`).
    pub fn nearest(&self, name: &str, n: usize) -> Vec<String> {
        let mut offered: Vec<String> = self.signals.iter().map(|s| s.name.to_string()).collect();
        let mut offer = |c: String| offered.push(c);
        for f in self.families {
            match f.key {
                FamilyKey::Index(bound) => {
                    // members with the key the name was written with, else the first
                    let key = name
                        .rsplit('.')
                        .next()
                        .and_then(|k| k.parse::<usize>().ok())
                        .filter(|k| *k < bound)
                        .unwrap_or(0);
                    offer(f.name(key));
                }
                FamilyKey::Name => offer(f.pattern()),
            }
        }
        nearest(name, offered.iter().map(String::as_str), n)
    }
}

/// Up to `n` of `candidates` nearest to `name` by edit distance (nearest first, within a
/// third of the name's length or 2), for "did you mean" in diagnostics.
pub fn nearest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    n: usize,
) -> Vec<String> {
    let limit = (name.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, c)| *d <= limit && *c != name)
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    near.into_iter()
        .take(n)
        .map(|(_, c)| c.to_string())
        .collect()
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != *cb)).min(up + 1).min(row[j] + 1);
            diag = up;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::super::{auv, ground};

    #[test]
    fn names_resolve_and_typos_get_the_nearest() {
        let g = ground::vocabulary();
        assert!(g.resolve("pose.x").is_some());
        assert!(g.resolve("sonar.7").is_some());
        assert!(g.resolve("landmark.door.bearing").is_some());
        assert!(g.resolve("pose.z").is_none());
        assert_eq!(g.nearest("pose.yw", 2), ["pose.y", "pose.yaw"]);
        assert_eq!(g.nearest("velocity.lenear", 1), ["velocity.linear"]);
        assert_eq!(g.nearest("sonr.3", 1), ["sonar.3"]);
        assert!(g.nearest("completely_unrelated_name", 3).is_empty());
        let a = auv::vocabulary();
        assert_eq!(a.nearest("DEPHT", 1), ["DEPTH"]);
        assert!(a.resolve("pose.x").is_none());
    }
}
