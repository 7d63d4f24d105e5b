//! Binding expressions compiled for the cycle: the functions a binding may call, the
//! compiled expression tree and its evaluation against the robot's signals, the bound
//! inputs and the parameters of a basic behavior (stateful functions keep their memory
//! per call site).

use crate::ast::BinOp;
use skipper_core::{SignalId, Signals, Value};

/// Functions of binding expressions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Func {
    Abs,
    Min,
    Max,
    Clamp,
    Bit,
    Rising,
    Falling,
    CyclesWhile,
    MsWhile,
    MsSince,
}

impl Func {
    pub(super) fn by_name(s: &str) -> Option<(Func, usize)> {
        Some(match s {
            "abs" => (Func::Abs, 1),
            "min" => (Func::Min, 2),
            "max" => (Func::Max, 2),
            "clamp" => (Func::Clamp, 3),
            "bit" => (Func::Bit, 2),
            "rising" => (Func::Rising, 1),
            "falling" => (Func::Falling, 1),
            "cycles_while" => (Func::CyclesWhile, 1),
            "ms_while" => (Func::MsWhile, 1),
            "ms_since" => (Func::MsSince, 1),
            _ => return None,
        })
    }
}

/// A compiled binding expression.
#[derive(Debug, Clone)]
pub(super) enum Bx {
    Num(f64),
    Signal(usize),
    Input(usize),
    Param(usize),
    Neg(Box<Bx>),
    Not(Box<Bx>),
    Bin(BinOp, Box<Bx>, Box<Bx>),
    Cond(Box<Bx>, Box<Bx>, Box<Bx>),
    Call(Func, Vec<Bx>, usize),
}

/// The memory of a stateful function at one call site.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct FState {
    pub(super) prev: bool,
    pub(super) count: u64,
    pub(super) since: Option<u64>,
    pub(super) last_true: Option<u64>,
}

pub(super) struct Ctx<'a> {
    pub(super) signals: &'a Signals,
    pub(super) ids: &'a [Option<SignalId>],
    pub(super) inputs: &'a [f64],
    pub(super) params: &'a [f64],
    pub(super) now: u64,
}

pub(super) fn signal_value(v: &Value) -> f64 {
    match v {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => 0.0,
    }
}

pub(super) fn truth(v: f64) -> bool {
    v != 0.0 && !v.is_nan()
}

pub(super) fn eval(x: &Bx, c: &Ctx<'_>, st: &mut [FState]) -> f64 {
    match x {
        Bx::Num(v) => *v,
        Bx::Signal(i) => c
            .ids
            .get(*i)
            .copied()
            .flatten()
            .map_or(0.0, |id| signal_value(c.signals.get(id))),
        Bx::Input(i) => c.inputs.get(*i).copied().unwrap_or(0.0),
        Bx::Param(i) => c.params.get(*i).copied().unwrap_or(0.0),
        Bx::Neg(a) => -eval(a, c, st),
        Bx::Not(a) => f64::from(u8::from(!truth(eval(a, c, st)))),
        Bx::Bin(op, a, b) => {
            let x = eval(a, c, st);
            // && and || short-circuit
            match op {
                BinOp::And => return f64::from(u8::from(truth(x) && truth(eval(b, c, st)))),
                BinOp::Or => return f64::from(u8::from(truth(x) || truth(eval(b, c, st)))),
                _ => {}
            }
            let y = eval(b, c, st);
            let t = |v: bool| f64::from(u8::from(v));
            match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => {
                    if y == 0.0 {
                        0.0
                    } else {
                        x / y
                    }
                }
                BinOp::Mod => {
                    let (a, b) = (x as i64, y as i64);
                    if b == 0 {
                        0.0
                    } else {
                        a.wrapping_rem(b) as f64
                    }
                }
                BinOp::Lt => t(x < y),
                BinOp::Gt => t(x > y),
                BinOp::Le => t(x <= y),
                BinOp::Ge => t(x >= y),
                BinOp::Eq => t(x == y),
                BinOp::Ne => t(x != y),
                BinOp::And | BinOp::Or => 0.0,
            }
        }
        Bx::Cond(k, a, b) => {
            if truth(eval(k, c, st)) {
                eval(a, c, st)
            } else {
                eval(b, c, st)
            }
        }
        Bx::Call(f, args, slot) => {
            let mut a = [0.0f64; 3];
            for (i, x) in args.iter().take(3).enumerate() {
                a[i] = eval(x, c, st);
            }
            let Some(s) = st.get_mut(*slot) else {
                return 0.0;
            };
            let now = c.now;
            let b = truth(a[0]);
            match f {
                Func::Abs => a[0].abs(),
                Func::Min => a[0].min(a[1]),
                Func::Max => a[0].max(a[1]),
                Func::Clamp => a[0].max(a[1]).min(a[2]),
                Func::Bit => {
                    let n = a[1] as u32;
                    if n < 63 {
                        (((a[0] as i64) >> n) & 1) as f64
                    } else {
                        0.0
                    }
                }
                Func::Rising => {
                    let r = b && !s.prev;
                    s.prev = b;
                    f64::from(u8::from(r))
                }
                Func::Falling => {
                    let r = !b && s.prev;
                    s.prev = b;
                    f64::from(u8::from(r))
                }
                Func::CyclesWhile => {
                    s.count = if b { s.count + 1 } else { 0 };
                    s.count as f64
                }
                Func::MsWhile => {
                    if b {
                        let since = *s.since.get_or_insert(now);
                        now.saturating_sub(since) as f64
                    } else {
                        s.since = None;
                        0.0
                    }
                }
                Func::MsSince => {
                    if b {
                        s.last_true = Some(now);
                        0.0
                    } else {
                        s.last_true.map_or(1e9, |t| now.saturating_sub(t) as f64)
                    }
                }
            }
        }
    }
}
