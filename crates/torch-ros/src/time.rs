//! `ros.Time`, `ros.Duration` and `ros.Rate` as torch-ros has them: times and durations
//! are mutable objects (`t:set(s, ns)`, `t:add(d)` adds in place unless given a result
//! object) with comparison and arithmetic operators, printed as seconds with six
//! decimals; `ros.Time.now()` is the node's clock ([`crate::clock`]: `/clock` when
//! `/use_sim_time` is true, else the system's); `Rate:sleep()` sleeps what is left of
//! the cycle, in that clock's time, as `Duration:sleep()` and `Time.sleepUntil` do. Every
//! sleep ends early on a stop request.

use crate::runtime::{clock, ctx, fail, secs};
use mlua::{AnyUserData, Lua, MetaMethod, Table, UserData, UserDataMethods, Value};
use skipper_ros1_wire::time::{Clock, RosDuration, SystemClock, Time};
use std::time::Duration;

const NS: i64 = 1_000_000_000;

/// A ROS time (nanoseconds since the epoch).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct LuaTime(pub i64);

/// A ROS duration (nanoseconds, signed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct LuaDuration(pub i64);

fn from_secs_f64(s: f64) -> i64 {
    (s * 1e9).round().clamp(i64::MIN as f64, i64::MAX as f64) as i64
}

fn split(n: i64) -> (i64, i64) {
    (n.div_euclid(NS), n.rem_euclid(NS))
}

impl LuaTime {
    /// The script's clock's time.
    pub fn now(lua: &Lua) -> Self {
        Self::from_ros(clock(lua).now())
    }
    /// The system clock's time.
    pub fn wall() -> Self {
        Self::from_ros(SystemClock.now())
    }
    pub fn from_ros(t: Time) -> Self {
        Self(t.as_nanos().min(i64::MAX as u64) as i64)
    }
    pub fn to_ros(self) -> Time {
        Time::from_nanos(self.0.max(0) as u64)
    }
}

impl LuaDuration {
    pub fn from_ros(d: RosDuration) -> Self {
        Self(i64::from(d.secs) * NS + i64::from(d.nsecs))
    }
    pub fn to_ros(self) -> RosDuration {
        let (s, ns) = split(self.0);
        RosDuration {
            secs: s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            nsecs: ns as i32,
        }
    }
    /// As a wait: zero when negative.
    pub fn to_std(self) -> Duration {
        Duration::from_nanos(self.0.max(0) as u64)
    }
}

/// `(secs, nsecs)` or `(secs)` (fractional) or another object of the same kind.
fn nanos_of(lua: &Lua, a: &Value, b: &Value) -> mlua::Result<i64> {
    let int = |v: &Value| match v {
        Value::Integer(i) => Some(*i),
        Value::Number(n) if n.fract() == 0.0 => Some(*n as i64),
        _ => None,
    };
    match (a, b) {
        (Value::UserData(u), _) => {
            if let Ok(t) = u.borrow::<LuaTime>() {
                return Ok(t.0);
            }
            if let Ok(d) = u.borrow::<LuaDuration>() {
                return Ok(d.0);
            }
            Err(fail(lua, "expected a ros.Time or ros.Duration"))
        }
        (Value::Nil, Value::Nil) => Ok(0),
        (s, Value::Nil) => match s {
            Value::Integer(i) => Ok(i.saturating_mul(NS)),
            Value::Number(n) => Ok(from_secs_f64(*n)),
            _ => Err(fail(lua, "expected a number of seconds")),
        },
        (s, ns) => match (int(s), int(ns)) {
            (Some(s), Some(ns)) => Ok(s.saturating_mul(NS).saturating_add(ns)),
            _ => Err(fail(lua, "expected (seconds, nanoseconds) as integers")),
        },
    }
}

/// A duration argument: a `ros.Duration` or a number of seconds.
pub(crate) fn duration_arg(lua: &Lua, v: &Value) -> mlua::Result<LuaDuration> {
    match v {
        Value::UserData(u) => u
            .borrow::<LuaDuration>()
            .map(|d| *d)
            .map_err(|_| fail(lua, "expected a ros.Duration or a number of seconds")),
        Value::Integer(_) | Value::Number(_) => nanos_of(lua, v, &Value::Nil).map(LuaDuration),
        _ => Err(fail(lua, "expected a ros.Duration or a number of seconds")),
    }
}

/// An optional timeout argument (nil, a number of seconds or a duration); zero or
/// negative: none (wait forever), as torch-ros reads them.
pub(crate) fn timeout_arg(lua: &Lua, v: &Value) -> mlua::Result<Option<Duration>> {
    if v.is_nil() {
        return Ok(None);
    }
    let d = duration_arg(lua, v)?;
    Ok((d.0 > 0).then(|| d.to_std()))
}

/// A time argument: a `ros.Time` or a number of seconds.
pub(crate) fn time_arg(lua: &Lua, v: &Value) -> mlua::Result<LuaTime> {
    match v {
        Value::UserData(u) => u
            .borrow::<LuaTime>()
            .map(|t| *t)
            .map_err(|_| fail(lua, "expected a ros.Time or a number of seconds")),
        Value::Integer(_) | Value::Number(_) => nanos_of(lua, v, &Value::Nil).map(LuaTime),
        _ => Err(fail(lua, "expected a ros.Time or a number of seconds")),
    }
}

fn to_sec(n: i64) -> f64 {
    n as f64 / 1e9
}

/// The methods both kinds share (their value is nanoseconds).
trait Nanos: Copy + 'static + UserData {
    fn get(&self) -> i64;
    fn set(&mut self, n: i64);
    fn make(n: i64) -> Self;
}

impl Nanos for LuaTime {
    fn get(&self) -> i64 {
        self.0
    }
    fn set(&mut self, n: i64) {
        self.0 = n.max(0);
    }
    fn make(n: i64) -> Self {
        Self(n.max(0))
    }
}

impl Nanos for LuaDuration {
    fn get(&self) -> i64 {
        self.0
    }
    fn set(&mut self, n: i64) {
        self.0 = n;
    }
    fn make(n: i64) -> Self {
        Self(n)
    }
}

fn common_methods<T: Nanos, M: UserDataMethods<T>>(m: &mut M) {
    m.add_method("toSec", |_, t, ()| Ok(to_sec(t.get())));
    m.add_method("isZero", |_, t, ()| Ok(t.get() == 0));
    m.add_method("get", |_, t, ()| Ok(split(t.get())));
    m.add_method("get_sec", |_, t, ()| Ok(split(t.get()).0));
    m.add_method("get_nsec", |_, t, ()| Ok(split(t.get()).1));
    m.add_method("toNSec", |_, t, ()| Ok(t.get()));
    m.add_method("clone", |_, t, ()| Ok(*t));
    m.add_method_mut("fromSec", |_, t, s: f64| {
        t.set(from_secs_f64(s));
        Ok(())
    });
    m.add_method_mut("fromNSec", |_, t, n: i64| {
        t.set(n);
        Ok(())
    });
    m.add_method_mut("set", |lua, t, (a, b): (Value, Value)| {
        let n = nanos_of(lua, &a, &b)?;
        t.set(n);
        Ok(())
    });
    m.add_method_mut("assign", |lua, t, a: Value| {
        let n = nanos_of(lua, &a, &Value::Nil)?;
        t.set(n);
        Ok(())
    });
    m.add_method_mut("set_sec", |_, t, s: i64| {
        let ns = split(t.get()).1;
        t.set(s.saturating_mul(NS) + ns);
        Ok(())
    });
    m.add_method_mut("set_nsec", |_, t, ns: i64| {
        let s = split(t.get()).0;
        t.set(s.saturating_mul(NS) + ns);
        Ok(())
    });
    m.add_meta_method(MetaMethod::ToString, |_, t, ()| {
        Ok(format!("{:.6}", to_sec(t.get())))
    });
    m.add_meta_function(MetaMethod::Eq, |_, (a, b): (AnyUserData, AnyUserData)| {
        Ok(match (a.borrow::<T>(), b.borrow::<T>()) {
            (Ok(a), Ok(b)) => a.get() == b.get(),
            _ => false,
        })
    });
    m.add_meta_function(MetaMethod::Lt, |lua, (a, b): (Value, Value)| {
        Ok(nanos_of(lua, &a, &Value::Nil)? < nanos_of(lua, &b, &Value::Nil)?)
    });
    m.add_meta_function(MetaMethod::Le, |lua, (a, b): (Value, Value)| {
        Ok(nanos_of(lua, &a, &Value::Nil)? <= nanos_of(lua, &b, &Value::Nil)?)
    });
}

/// `x:op(arg, result)`: the result object if given, else `x` itself, set to `value`.
fn into_result<T: Nanos>(
    x: &AnyUserData,
    result: Option<AnyUserData>,
    value: i64,
) -> mlua::Result<AnyUserData> {
    let target = result.unwrap_or_else(|| x.clone());
    target.borrow_mut::<T>()?.set(value);
    Ok(target)
}

impl UserData for LuaTime {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        common_methods(m);
        m.add_function(
            "add",
            |lua, (t, d, result): (AnyUserData, Value, Option<AnyUserData>)| {
                let d = duration_arg(lua, &d)?;
                let v = t.borrow::<LuaTime>()?.0.saturating_add(d.0);
                into_result::<LuaTime>(&t, result, v)
            },
        );
        m.add_function(
            "sub",
            |lua, (t, x, result): (AnyUserData, Value, Option<AnyUserData>)| {
                let me = t.borrow::<LuaTime>()?.0;
                if let Value::UserData(u) = &x {
                    if let Ok(other) = u.borrow::<LuaTime>() {
                        let d = me.saturating_sub(other.0);
                        return match result {
                            Some(r) => into_result::<LuaDuration>(&r, None, d).map(Value::UserData),
                            None => Ok(Value::UserData(lua.create_userdata(LuaDuration(d))?)),
                        };
                    }
                }
                let d = duration_arg(lua, &x)?;
                into_result::<LuaTime>(&t, result, me.saturating_sub(d.0)).map(Value::UserData)
            },
        );
        m.add_meta_function(MetaMethod::Add, |lua, (a, b): (Value, Value)| {
            let (t, d) = match (&a, &b) {
                (Value::UserData(u), other) if u.is::<LuaTime>() => {
                    (time_arg(lua, &a)?, duration_arg(lua, other)?)
                }
                (other, _) => (time_arg(lua, &b)?, duration_arg(lua, other)?),
            };
            Ok(LuaTime(t.0.saturating_add(d.0)))
        });
        m.add_meta_function(MetaMethod::Sub, |lua, (a, b): (LuaTime, Value)| {
            if let Value::UserData(u) = &b {
                if let Ok(other) = u.borrow::<LuaTime>() {
                    return lua
                        .create_userdata(LuaDuration(a.0.saturating_sub(other.0)))
                        .map(Value::UserData);
                }
            }
            let d = duration_arg(lua, &b)?;
            lua.create_userdata(LuaTime(a.0.saturating_sub(d.0)).make_valid())
                .map(Value::UserData)
        });
    }
}

impl LuaTime {
    fn make_valid(self) -> Self {
        Self(self.0.max(0))
    }
}

impl mlua::FromLua for LuaTime {
    fn from_lua(v: Value, lua: &Lua) -> mlua::Result<Self> {
        time_arg(lua, &v)
    }
}

impl mlua::FromLua for LuaDuration {
    fn from_lua(v: Value, lua: &Lua) -> mlua::Result<Self> {
        duration_arg(lua, &v)
    }
}

impl UserData for LuaDuration {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        common_methods(m);
        for (name, sign) in [("add", 1i64), ("sub", -1)] {
            m.add_function(
                name,
                move |lua, (d, x, result): (AnyUserData, Value, Option<AnyUserData>)| {
                    let x = duration_arg(lua, &x)?;
                    let v = d.borrow::<LuaDuration>()?.0.saturating_add(sign * x.0);
                    into_result::<LuaDuration>(&d, result, v)
                },
            );
        }
        m.add_function(
            "mul",
            |_, (d, f, result): (AnyUserData, f64, Option<AnyUserData>)| {
                let v = d.borrow::<LuaDuration>()?.0 as f64 * f;
                into_result::<LuaDuration>(
                    &d,
                    result,
                    v.clamp(i64::MIN as f64, i64::MAX as f64) as i64,
                )
            },
        );
        m.add_meta_function(MetaMethod::Add, |lua, (a, b): (Value, Value)| {
            Ok(LuaDuration(
                duration_arg(lua, &a)?
                    .0
                    .saturating_add(duration_arg(lua, &b)?.0),
            ))
        });
        m.add_meta_function(MetaMethod::Sub, |lua, (a, b): (Value, Value)| {
            Ok(LuaDuration(
                duration_arg(lua, &a)?
                    .0
                    .saturating_sub(duration_arg(lua, &b)?.0),
            ))
        });
        m.add_meta_function(MetaMethod::Mul, |lua, (a, b): (Value, Value)| {
            let (d, f) = match (&a, &b) {
                (Value::UserData(_), f) => (duration_arg(lua, &a)?, number(lua, f)?),
                (f, _) => (duration_arg(lua, &b)?, number(lua, f)?),
            };
            Ok(LuaDuration(
                (d.0 as f64 * f).clamp(i64::MIN as f64, i64::MAX as f64) as i64,
            ))
        });
        m.add_meta_method(MetaMethod::Unm, |_, d, ()| {
            Ok(LuaDuration(d.0.saturating_neg()))
        });
        m.add_method("sleep", |lua, d, ()| {
            clock(lua).sleep(&ctx(lua).stop, d.to_std());
            Ok(())
        });
    }
}

fn number(lua: &Lua, v: &Value) -> mlua::Result<f64> {
    match v {
        Value::Integer(i) => Ok(*i as f64),
        Value::Number(n) => Ok(*n),
        _ => Err(fail(lua, "expected a number")),
    }
}

/// `ros.Rate(hz)`: sleeps what is left of each cycle (times of the script's clock).
pub(crate) struct LuaRate {
    period: Duration,
    start: Time,
    actual: Duration,
}

impl UserData for LuaRate {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method_mut("sleep", |lua, r, ()| {
            let c = clock(lua);
            let expected = r.start.plus(r.period);
            let now = c.now();
            if now < expected {
                c.sleep(&ctx(lua).stop, expected.since(now));
            }
            let now = c.now();
            r.actual = now.since(r.start);
            // far behind (more than a cycle), or the clock went back: start over from
            // now, as roscpp does
            r.start = if now > expected.plus(r.period) || now < r.start {
                now
            } else {
                expected
            };
            Ok(now <= expected.plus(r.period))
        });
        m.add_method_mut("reset", |lua, r, ()| {
            r.start = clock(lua).now();
            Ok(())
        });
        m.add_method("expectedCycleTime", |_, r, ()| {
            Ok(LuaDuration(r.period.as_nanos() as i64))
        });
        m.add_method("cycleTime", |_, r, ()| {
            Ok(LuaDuration(r.actual.as_nanos() as i64))
        });
        m.add_meta_method(MetaMethod::ToString, |_, r, ()| {
            Ok(format!(
                "cycleTime: {:.6}sec, expectedCycleTime; {:.6}sec",
                r.actual.as_secs_f64(),
                r.period.as_secs_f64()
            ))
        });
    }
}

/// A class table: callable (its constructor), with static functions.
fn class(lua: &Lua, ctor: mlua::Function) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let mt = lua.create_table()?;
    mt.raw_set(
        "__call",
        lua.create_function(move |_, (_, args): (Value, mlua::MultiValue)| {
            ctor.call::<Value>(args)
        })?,
    )?;
    t.set_metatable(Some(mt))?;
    Ok(t)
}

/// `ros.Time`, `ros.Duration`, `ros.Rate`.
pub(crate) fn install(lua: &Lua, ros: &Table) -> mlua::Result<()> {
    let time = class(
        lua,
        lua.create_function(|lua, (a, b): (Value, Value)| {
            Ok(LuaTime::make(nanos_of(lua, &a, &b)?))
        })?,
    )?;
    let now = lua.create_function(|lua, ()| Ok(LuaTime::now(lua)))?;
    time.raw_set("now", now.clone())?;
    time.raw_set(
        "getNow",
        lua.create_function(|lua, result: Option<AnyUserData>| match result {
            Some(r) => {
                r.borrow_mut::<LuaTime>()?.0 = LuaTime::now(lua).0;
                Ok(Value::UserData(r))
            }
            None => Ok(Value::Nil),
        })?,
    )?;
    // getNow() without a result object is now()
    lua.load("local t = ... ; local g = t.getNow ; t.getNow = function(r) if r == nil then return t.now() end return g(r) end")
        .call::<()>(time.clone())?;
    for name in ["init", "shutdown", "waitForValid", "useSystemTime"] {
        time.raw_set(name, lua.create_function(|_, ()| Ok(()))?)?;
    }
    time.raw_set("isValid", lua.create_function(|_, ()| Ok(true))?)?;
    time.raw_set(
        "isSystemTime",
        lua.create_function(|lua, ()| Ok(!clock(lua).is_sim()))?,
    )?;
    time.raw_set(
        "isSimTime",
        lua.create_function(|lua, ()| Ok(clock(lua).is_sim()))?,
    )?;
    time.raw_set(
        "setNow",
        lua.create_function(|lua, _: Value| -> mlua::Result<()> {
            Err(fail(
                lua,
                "ros.Time.setNow: a script cannot set the time (in simulated time /clock sets it)",
            ))
        })?,
    )?;
    time.raw_set(
        "sleepUntil",
        lua.create_function(|lua, t: LuaTime| {
            let left = t.0 - LuaTime::now(lua).0;
            if left > 0 {
                clock(lua).sleep(&ctx(lua).stop, Duration::from_nanos(left as u64));
            }
            Ok(())
        })?,
    )?;
    ros.raw_set("Time", time)?;
    let duration = class(
        lua,
        lua.create_function(|lua, (a, b): (Value, Value)| Ok(LuaDuration(nanos_of(lua, &a, &b)?)))?,
    )?;
    ros.raw_set("Duration", duration)?;
    let rate = class(
        lua,
        lua.create_function(|lua, hz: f64| {
            if !(hz.is_finite() && hz > 0.0) {
                return Err(fail(
                    lua,
                    format!("ros.Rate({hz}): the rate must be above 0 Hz"),
                ));
            }
            Ok(LuaRate {
                period: secs(lua, 1.0 / hz)?,
                start: clock(lua).now(),
                actual: Duration::ZERO,
            })
        })?,
    )?;
    ros.raw_set("Rate", rate)
}
