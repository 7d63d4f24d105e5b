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
        .filter_map(|c| Some((edit_distance_within(name, c, limit)?, c)))
        .filter(|(_, c)| *c != name)
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    near.into_iter()
        .take(n)
        .map(|(_, c)| c.to_string())
        .collect()
}

/// Levenshtein distance over characters, when it is at most `limit`. `None` as soon as it
/// cannot be: when the lengths differ by more, or when a whole row of the table is above
/// `limit` (no later row has a smaller minimum). A long name that resolves to nothing then
/// costs little against each candidate, where the whole table cost its length times theirs.
fn edit_distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let b: Vec<char> = b.chars().collect();
    if a.chars().count().abs_diff(b.len()) > limit {
        return None;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        let mut least = row[0];
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != *cb)).min(up + 1).min(row[j] + 1);
            diag = up;
            least = least.min(row[j + 1]);
        }
        if least > limit {
            return None;
        }
    }
    Some(row[b.len()]).filter(|d| *d <= limit)
}

#[cfg(test)]
mod tests {
    use super::super::{auv, ground};

    /// The bounded distance agrees with the whole table wherever it answers, and answers
    /// wherever the distance is within the limit.
    #[test]
    fn the_bounded_edit_distance_is_the_distance_or_none_beyond_the_limit() {
        fn full(a: &str, b: &str) -> usize {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
            for (i, r) in d.iter_mut().enumerate() {
                r[0] = i;
            }
            d[0] = (0..=b.len()).collect();
            for i in 1..=a.len() {
                for j in 1..=b.len() {
                    let sub = d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
                    d[i][j] = sub.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
                }
            }
            d[a.len()][b.len()]
        }
        let words = [
            "",
            "a",
            "pose.x",
            "pose.yaw",
            "pose.yw",
            "sonar.3",
            "sonr.3",
            "laser.179",
            "velocity.linear",
            "velocity.lenear",
            "ÿöü",
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        ];
        for a in words {
            for b in words {
                let d = full(a, b);
                for limit in 0..8 {
                    let want = (d <= limit).then_some(d);
                    assert_eq!(
                        super::edit_distance_within(a, b, limit),
                        want,
                        "{a} {b} {limit}"
                    );
                }
            }
        }
    }

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
