//! The mission description: what the loader produces and the executive runs. Immutable once
//! loaded; items are stored flat in pre-order (document order), which is also their
//! priority order (rule 1), and each item knows the end of its subtree.

use crate::library::{BehaviorKind, BehaviorSpec};
use crate::uri::UriId;
use skipper_core::units::Dimension;

/// A constant operand or setting value, canonical units (m, rad, s, m/s, ...).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Constant {
    /// A number of a dimension, canonical unit.
    Number(f64, Dimension),
    /// A geographic position in degrees.
    Position {
        /// latitude (deg)
        lat: f64,
        /// longitude (deg)
        lon: f64,
    },
    /// A truth value.
    Bool(bool),
}

/// One side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operand {
    /// The current value of a URI.
    Uri(UriId),
    /// A constant.
    Const(Constant),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// `NE`
    Ne,
    /// `LT`
    Lt,
    /// `LE`
    Le,
    /// `EQ`
    Eq,
    /// `GE`
    Ge,
    /// `GT`
    Gt,
}

impl CmpOp {
    /// The operator's name in missions.
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Ne => "NE",
            CmpOp::Lt => "LT",
            CmpOp::Le => "LE",
            CmpOp::Eq => "EQ",
            CmpOp::Ge => "GE",
            CmpOp::Gt => "GT",
        }
    }
}

/// A ValueClause, as built by the chain of method calls (left to right).
#[derive(Debug, Clone, PartialEq)]
pub enum Clause {
    /// `true` / `false`.
    Const(bool),
    /// A bare URI or DataValue: true iff boolean true or a non-zero number (rule 33).
    Truthy(Operand),
    /// `:NOT()`
    Not(Box<Clause>),
    /// `:AND(c)`
    And(Box<Clause>, Box<Clause>),
    /// `:OR(c)`
    Or(Box<Clause>, Box<Clause>),
    /// `:LT(x)` and friends.
    Cmp(CmpOp, Operand, Operand),
    /// `uri:ELAPSED(T)`: no new datum for at least `T` seconds (or never).
    Elapsed(UriId, f64),
}

/// How many times a substack or command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// This many times in total (0: skipped).
    Times(u32),
    /// `math.huge`: forever.
    Forever,
}

/// A setting's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SettingValue {
    /// A constant.
    Const(Constant),
    /// A URI (for `ReadSensor.URI`).
    Uri(UriId),
}

/// A behavior or command with its settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    /// Which library entry.
    pub kind: BehaviorKind,
    /// `true` for `COMMAND(...)`, `false` for `BEHAVIOR(...)`.
    pub command: bool,
    /// Settings, indexed like the entry's settings table.
    pub settings: Vec<Option<SettingValue>>,
}

impl Leaf {
    /// The library entry.
    pub fn spec(&self) -> &'static BehaviorSpec {
        crate::library::spec(self.kind)
    }
    /// A number setting (canonical unit), by name.
    pub fn number(&self, name: &str) -> Option<f64> {
        let i = self.spec().setting(name)?;
        match self.settings.get(i).copied().flatten()? {
            SettingValue::Const(Constant::Number(v, _)) => Some(v),
            SettingValue::Const(Constant::Bool(b)) => Some(if b { 1.0 } else { 0.0 }),
            _ => None,
        }
    }
    /// A position setting, by name.
    pub fn position(&self, name: &str) -> Option<(f64, f64)> {
        let i = self.spec().setting(name)?;
        match self.settings.get(i).copied().flatten()? {
            SettingValue::Const(Constant::Position { lat, lon }) => Some((lat, lon)),
            _ => None,
        }
    }
    /// A truth setting, by name.
    pub fn flag(&self, name: &str) -> Option<bool> {
        let i = self.spec().setting(name)?;
        match self.settings.get(i).copied().flatten()? {
            SettingValue::Const(Constant::Bool(b)) => Some(b),
            SettingValue::Const(Constant::Number(v, _)) => Some(v != 0.0),
            _ => None,
        }
    }
    /// A URI setting, by name.
    pub fn uri(&self, name: &str) -> Option<UriId> {
        let i = self.spec().setting(name)?;
        match self.settings.get(i).copied().flatten()? {
            SettingValue::Uri(u) => Some(u),
            _ => None,
        }
    }
}

/// What an item is.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A substack (or the top-level `STACK`).
    Stack {
        /// Its `ID`, if any.
        id: Option<String>,
        /// Direct children, in order.
        children: Vec<usize>,
        /// The children that form its sequence: commands and unguarded substacks (rule 3).
        sequence: Vec<usize>,
    },
    /// A behavior or command.
    Leaf(Leaf),
}

/// A guard that takes an item out of its parent's sequence (rule 4).
#[derive(Debug, Clone, PartialEq)]
pub enum Guard {
    /// No guard.
    None,
    /// `WHEN`: latch (rules 9-11).
    When(Clause),
    /// `WHILE`: level (rules 12-14).
    While(Clause),
}

/// One item of the stack.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Path id (rule 43): the enclosing substacks' `ID` (or index, from 1) joined with `/`.
    pub path: String,
    /// Line in the mission file.
    pub line: usize,
    /// Enclosing substack (`None` for the top-level stack).
    pub parent: Option<usize>,
    /// One past the last item of its subtree (pre-order).
    pub end: usize,
    /// What it is.
    pub body: Body,
    /// `WHEN` or `WHILE`.
    pub guard: Guard,
    /// `PREEMPTIVE`.
    pub preemptive: Option<Clause>,
    /// `UNTIL`.
    pub until: Option<Clause>,
    /// `WITHIN`, seconds.
    pub within: Option<f64>,
    /// `REPEAT`.
    pub repeat: Repeat,
}

impl Item {
    /// `true` for a behavior (not a command, not a substack).
    pub fn is_behavior(&self) -> bool {
        matches!(&self.body, Body::Leaf(l) if !l.command)
    }
    /// `true` for a substack.
    pub fn is_stack(&self) -> bool {
        matches!(self.body, Body::Stack { .. })
    }
    /// `true` if it belongs to its parent's sequence (rules 3, 4).
    pub fn is_sequential(&self) -> bool {
        matches!(self.guard, Guard::None) && !self.is_behavior()
    }
    /// What the item is, for people: a substack's `ID` (or `substack`), a behavior's
    /// name with its key setting where it has one (`ReadSensor(SEA_WATER_SALINITY)`,
    /// `SetSpeed(1 m/s)`, `Wait(60 s)`), else its name (`Waypoint`, `YoYo`).
    pub fn name(&self) -> String {
        let leaf = match &self.body {
            Body::Stack { id: Some(id), .. } => return id.clone(),
            Body::Stack { id: None, .. } if self.parent.is_none() => return "STACK".into(),
            Body::Stack { id: None, .. } => return "substack".into(),
            Body::Leaf(l) => l,
        };
        let name = leaf.spec().name;
        let key = match leaf.kind {
            crate::library::BehaviorKind::ReadSensor => leaf
                .uri("URI")
                .map(|u| crate::uri::info(u).name.to_string()),
            crate::library::BehaviorKind::SetSpeed => {
                leaf.number("SPEED").map(|v| format!("{v} m/s"))
            }
            crate::library::BehaviorKind::Wait => leaf.number("DURATION").map(|v| format!("{v} s")),
            _ => None,
        };
        match key {
            Some(k) => format!("{name}({k})"),
            None => name.to_string(),
        }
    }
    /// The leaf, if it is one.
    pub fn leaf(&self) -> Option<&Leaf> {
        match &self.body {
            Body::Leaf(l) => Some(l),
            Body::Stack { .. } => None,
        }
    }
}

/// A loaded mission.
#[derive(Debug, Clone, PartialEq)]
pub struct Mission {
    /// `NAME`.
    pub name: String,
    /// The file it came from.
    pub file: String,
    /// Every item in pre-order; item 0 is the top-level `STACK`.
    pub items: Vec<Item>,
    /// Warnings found while loading.
    pub warnings: Vec<crate::error::Diagnostic>,
    /// The worksite configuration the mission was loaded with (`workSite.cfg`).
    pub work_site: crate::config::ConfigTable,
    /// The vehicle configuration (`Control`).
    pub control: crate::config::ConfigTable,
}

impl Mission {
    /// Is `i` inside the subtree of `root` (or `root` itself)?
    pub fn in_subtree(&self, i: usize, root: usize) -> bool {
        i >= root && self.items.get(root).is_some_and(|r| i < r.end)
    }
    /// The item whose path is `path`.
    pub fn find(&self, path: &str) -> Option<usize> {
        self.items.iter().position(|it| it.path == path)
    }
    /// How many commands of a kind the mission has.
    pub fn count(&self, kind: BehaviorKind) -> usize {
        self.items
            .iter()
            .filter(|i| i.leaf().is_some_and(|l| l.kind == kind))
            .count()
    }
}
