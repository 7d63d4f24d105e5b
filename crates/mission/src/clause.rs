//! Reading URIs from the vehicle's signals and evaluating ValueClauses (rules 30-35).
//!
//! A URI reads as its signal's value converted to the URI's canonical unit; a missing
//! signal, `none`, NaN, or a unit of another dimension reads as *invalid*, and every
//! comparison with an invalid value is false (rule 32). `ELAPSED` uses the time of the
//! signal's last new datum; a URI that never had one has elapsed forever (rule 31).

use crate::model::{Clause, CmpOp, Constant, Operand};
use crate::uri::{self, UriId, CATALOG};
use skipper_core::{SignalId, Signals, Value};
use std::time::Duration;

/// The signal ids of every URI, for one vehicle.
#[derive(Debug, Clone, Default)]
pub struct UriBinding {
    ids: Vec<Option<SignalId>>,
}

impl UriBinding {
    /// Find each URI's signal by name.
    pub fn bind(signals: &Signals) -> Self {
        Self {
            ids: CATALOG.iter().map(|u| signals.id(u.name)).collect(),
        }
    }
    /// The signal of a URI.
    pub fn id(&self, u: UriId) -> Option<SignalId> {
        self.ids.get(u.0 as usize).copied().flatten()
    }
}

/// What a clause is evaluated against: one tick's signals.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// The vehicle's signals.
    pub signals: &'a Signals,
    /// URI → signal.
    pub uris: &'a UriBinding,
    /// Now.
    pub now: Duration,
}

/// A value as the executive compares it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Read {
    /// A number in canonical units (booleans as 0/1).
    Num(f64),
    /// A position.
    Pos(f64, f64),
}

impl<'a> Env<'a> {
    /// A URI's current value in canonical units, or `None` when invalid.
    pub fn read(&self, u: UriId) -> Option<Read> {
        let id = self.uris.id(u)?;
        let info = uri::info(u);
        match self.signals.get(id) {
            Value::Position { lat, lon } if lat.is_finite() && lon.is_finite() => {
                Some(Read::Pos(*lat, *lon))
            }
            v => {
                let x = v.as_f64()?;
                let unit = self.signals.unit(id).unwrap_or(info.unit);
                if unit.dimension != info.dimension() {
                    return None;
                }
                Some(Read::Num(unit.to_canonical(x)))
            }
        }
    }
    /// A URI as a number.
    pub fn num(&self, u: UriId) -> Option<f64> {
        match self.read(u)? {
            Read::Num(x) => Some(x),
            Read::Pos(..) => None,
        }
    }
    /// When the URI's last new datum arrived.
    pub fn updated_at(&self, u: UriId) -> Option<Duration> {
        self.signals.updated_at(self.uris.id(u)?)
    }

    fn operand(&self, o: &Operand) -> Option<Read> {
        match o {
            Operand::Uri(u) => self.read(*u),
            Operand::Const(Constant::Number(x, _)) if !x.is_nan() => Some(Read::Num(*x)),
            Operand::Const(Constant::Number(..)) => None,
            Operand::Const(Constant::Bool(b)) => Some(Read::Num(if *b { 1.0 } else { 0.0 })),
            Operand::Const(Constant::Position { lat, lon }) => Some(Read::Pos(*lat, *lon)),
        }
    }

    /// Evaluate a clause now.
    pub fn eval(&self, c: &Clause) -> bool {
        match c {
            Clause::Const(b) => *b,
            Clause::Truthy(o) => matches!(self.operand(o), Some(Read::Num(x)) if x != 0.0),
            Clause::Not(a) => !self.eval(a),
            Clause::And(a, b) => self.eval(a) && self.eval(b),
            Clause::Or(a, b) => self.eval(a) || self.eval(b),
            Clause::Cmp(op, l, r) => match (self.operand(l), self.operand(r)) {
                (Some(Read::Num(a)), Some(Read::Num(b))) => match op {
                    CmpOp::Ne => a != b,
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Eq => a == b,
                    CmpOp::Ge => a >= b,
                    CmpOp::Gt => a > b,
                },
                (Some(Read::Pos(a, b)), Some(Read::Pos(c, d))) => match op {
                    CmpOp::Eq => a == c && b == d,
                    CmpOp::Ne => a != c || b != d,
                    _ => false,
                },
                _ => false,
            },
            Clause::Elapsed(u, t) => match self.updated_at(*u) {
                None => true,
                Some(at) => self.now.saturating_sub(at).as_secs_f64() >= *t,
            },
        }
    }
}
