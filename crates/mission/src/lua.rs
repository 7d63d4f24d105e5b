//! The Lua side of loading: a sandboxed Lua 5.4 state in which the mission script runs once.
//!
//! The sandbox has only the `table`, `string`, `math` and `utf8` libraries and the safe part
//! of the base library (no `io`, `os`, `require`, `load`, `loadfile`, `dofile`, `debug`,
//! `collectgarbage`, `rawset`, coroutines, `string.dump`, nor the string pattern functions,
//! which run in C where the budget cannot stop them). An instruction budget (a count hook)
//! and a memory limit stop a script that loops or allocates without bound; both stay in force
//! until the state is dropped. `setmetatable` refuses `__gc` finalizers, which Lua runs with
//! hooks off, beyond the budget.
//!
//! The host injects `Units`, `UniversalURI`, the behavior modules (`Guidance`), the
//! configuration tables (`workSite`, `Control`, read-only), and the constructors `BEHAVIOR`
//! and `COMMAND`. Every object the script builds is a userdata that remembers the line it
//! was made on, so that later checks can point at it. Mistakes that can be found at the
//! call (a unit of the wrong dimension, an unknown setting) are recorded as diagnostics
//! and the script goes on, so one load reports them all; mistakes that make going on
//! pointless (an unknown URI, a call with the wrong arguments) stop the script.

use crate::config::ConfigTable;
use crate::error::{Diagnostic, Severity};
use crate::library::{self, BehaviorSpec, SettingType, Usage};
use crate::model::{Clause, CmpOp, Constant, Operand, Repeat, SettingValue};
use crate::uri::{self, UriId};
use mlua::{
    AnyUserData, HookTriggers, Lua, LuaOptions, MetaMethod, MultiValue, StdLib, Table, UserData,
    UserDataMethods, Value, VmState,
};
use skipper_core::units::{self, Dimension, Unit};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

/// Convert between units, exactly when they are the same unit.
fn conv(v: f64, from: &'static Unit, to: &'static Unit) -> Result<f64, units::UnitError> {
    if from.name == to.name {
        Ok(v)
    } else {
        units::convert(v, from, to)
    }
}

/// Limits of the load sandbox.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Lua VM instructions the script may run while loading.
    pub instructions: u64,
    /// Bytes the Lua state may hold.
    pub memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            instructions: 20_000_000,
            memory: 64 << 20,
        }
    }
}

/// A number with the unit it was written in, or a position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Data {
    Num(f64, &'static Unit),
    Pos(f64, f64),
}

impl Data {
    fn constant(self) -> Constant {
        match self {
            Data::Num(v, u) => Constant::Number(u.to_canonical(v), u.dimension),
            Data::Pos(lat, lon) => Constant::Position { lat, lon },
        }
    }
    fn dimension(self) -> Dimension {
        match self {
            Data::Num(_, u) => u.dimension,
            Data::Pos(..) => Dimension::Position,
        }
    }
}

/// A setting assignment, checked against the library at the call.
#[derive(Debug, Clone)]
pub(crate) struct Assign {
    pub behavior: &'static BehaviorSpec,
    pub index: usize,
    pub value: SettingValue,
    pub line: usize,
}

/// An item built with `BEHAVIOR(...)` / `COMMAND(...)` and its chained calls.
#[derive(Debug, Clone, Default)]
pub(crate) struct RawItem {
    pub line: usize,
    pub command: bool,
    /// `None` when the behavior was unknown (already reported).
    pub behavior: Option<&'static BehaviorSpec>,
    pub sets: Vec<Assign>,
    pub when: Option<(Clause, usize)>,
    pub while_: Option<(Clause, usize)>,
    pub preemptive: Option<(Clause, usize)>,
    pub until: Option<(Clause, usize)>,
    pub within: Option<(f64, usize)>,
    pub repeat: Option<(Repeat, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Space {
    Units,
    Uris,
    Module(&'static str),
}

/// Every value the host hands to the script.
#[derive(Debug, Clone)]
pub(crate) enum Obj {
    Space(Space),
    Unit(&'static Unit),
    Data(Data, usize),
    Uri(UriId, usize),
    Behavior {
        module: &'static str,
        name: String,
        spec: Option<&'static BehaviorSpec>,
        line: usize,
    },
    Setting {
        behavior: Option<&'static BehaviorSpec>,
        behavior_name: String,
        name: String,
    },
    Assign(Assign),
    Clause(Rc<Clause>, usize),
    Item(Rc<RefCell<RawItem>>),
}

impl Obj {
    fn describe(&self) -> String {
        match self {
            Obj::Space(Space::Units) => "the Units table".into(),
            Obj::Space(Space::Uris) => "the UniversalURI table".into(),
            Obj::Space(Space::Module(m)) => format!("the module {m}"),
            Obj::Unit(u) => format!("the unit Units.{}", u.name),
            Obj::Data(Data::Num(v, u), _) => format!("Units.{}({v})", u.name),
            Obj::Data(Data::Pos(a, b), _) => format!("the position ({a}, {b})"),
            Obj::Uri(u, _) => format!("UniversalURI.{}", uri::info(*u).name),
            Obj::Behavior { module, name, .. } => format!("{module}.{name}"),
            Obj::Setting {
                behavior_name,
                name,
                ..
            } => format!("the setting {behavior_name}.{name}"),
            Obj::Assign(_) => "a setting assignment".into(),
            Obj::Clause(..) => "a ValueClause".into(),
            Obj::Item(_) => "a behavior or command".into(),
        }
    }
}

/// What the load shares with the host callbacks.
pub(crate) struct Ctx {
    pub file: Arc<str>,
    pub source: Arc<str>,
    pub diags: RefCell<Vec<Diagnostic>>,
    /// the error that stopped the script: (line, word, message)
    pub fatal: RefCell<Option<(usize, Option<String>, String)>>,
    pub budget_line: Cell<Option<usize>>,
}

impl Ctx {
    fn diag(&self, sev: Severity, line: usize, word: Option<&str>, msg: impl Into<String>) {
        let d = Diagnostic::at(sev, &self.file, &self.source, line, word, msg);
        self.diags.borrow_mut().push(d);
    }
    pub(crate) fn error(&self, line: usize, word: Option<&str>, msg: impl Into<String>) {
        self.diag(Severity::Error, line, word, msg);
    }
    pub(crate) fn warn(&self, line: usize, word: Option<&str>, msg: impl Into<String>) {
        self.diag(Severity::Warning, line, word, msg);
    }
}

fn ctx(lua: &Lua) -> mlua::Result<Rc<Ctx>> {
    lua.app_data_ref::<Rc<Ctx>>()
        .map(|c| c.clone())
        .ok_or_else(|| mlua::Error::RuntimeError("mission loader context missing".into()))
}

/// The line of the Lua code that called the running host function.
fn line(lua: &Lua) -> usize {
    let Ok(c) = ctx(lua) else { return 0 };
    let chunk = format!("={}", c.file);
    // skip host frames and mlua's own Lua glue (its `__index` dispatcher)
    for level in 1..8 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            (src.source.as_deref() == Some(chunk.as_str())).then(|| d.current_line())
        });
        match found {
            None => break,
            Some(Some(l)) => return l.unwrap_or(0),
            Some(None) => continue,
        }
    }
    0
}

/// Stop the script with an error at the caller's line.
fn fail(lua: &Lua, word: Option<&str>, msg: impl Into<String>) -> mlua::Error {
    let msg = msg.into();
    if let Ok(c) = ctx(lua) {
        let mut f = c.fatal.borrow_mut();
        if f.is_none() {
            *f = Some((line(lua), word.map(str::to_string), msg.clone()));
        }
    }
    mlua::Error::RuntimeError(msg)
}

fn type_name(v: &Value) -> String {
    match v {
        Value::UserData(ud) => match ud.borrow::<Obj>() {
            Ok(o) => o.describe(),
            Err(_) => "a host object".into(),
        },
        Value::Nil => "nil".into(),
        Value::Boolean(b) => format!("`{b}`"),
        Value::Integer(i) => format!("the number {i}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(_) => "a string".into(),
        Value::Table(_) => "a table".into(),
        Value::Function(_) => "a function".into(),
        other => format!("a {}", other.type_name()),
    }
}

fn obj(v: &Value) -> Option<Obj> {
    match v {
        Value::UserData(ud) => ud.borrow::<Obj>().ok().map(|o| o.clone()),
        _ => None,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

/// A Lua value used as a ValueClause (rules 32, 33; §2.4): `true`/`false`, a clause, a
/// boolean-like URI or DataValue. Anything else is recorded as an error and read as false.
pub(crate) fn as_clause(c: &Ctx, v: &Value, at: usize, what: &str) -> (Clause, usize) {
    let truthy_dim = |d: Dimension| {
        matches!(
            d,
            Dimension::Bool | Dimension::Count | Dimension::Dimensionless
        )
    };
    match v {
        Value::Boolean(b) => (Clause::Const(*b), at),
        _ => match obj(v) {
            Some(Obj::Clause(cl, l)) => ((*cl).clone(), l),
            Some(Obj::Uri(u, l)) if truthy_dim(uri::info(u).dimension()) => {
                (Clause::Truthy(Operand::Uri(u)), l)
            }
            Some(Obj::Uri(u, l)) => {
                let i = uri::info(u);
                c.error(
                    l,
                    Some(i.name),
                    format!(
                        "{what}: UniversalURI.{} is a {}, not a truth value; compare it, e.g. UniversalURI.{}:GT(...)",
                        i.name,
                        i.dimension(),
                        i.name
                    ),
                );
                (Clause::Const(false), l)
            }
            Some(Obj::Data(d @ Data::Num(..), l)) if truthy_dim(d.dimension()) => {
                (Clause::Truthy(Operand::Const(d.constant())), l)
            }
            _ => {
                c.error(
                    at,
                    None,
                    format!(
                        "{what} must be a ValueClause (true, false, a URI comparison, ...), not {}",
                        type_name(v)
                    ),
                );
                (Clause::Const(false), at)
            }
        },
    }
}

/// The operand of a comparison.
fn operand(c: &Ctx, v: &Value, at: usize) -> Option<(Operand, Dimension)> {
    match v {
        Value::Boolean(b) => Some((Operand::Const(Constant::Bool(*b)), Dimension::Bool)),
        _ => {
            if let Some(n) = number(v) {
                return Some((
                    Operand::Const(Constant::Number(n, Dimension::Dimensionless)),
                    Dimension::Dimensionless,
                ));
            }
            match obj(v) {
                Some(Obj::Uri(u, _)) => Some((Operand::Uri(u), uri::info(u).dimension())),
                Some(Obj::Data(d, _)) => Some((Operand::Const(d.constant()), d.dimension())),
                _ => {
                    c.error(
                        at,
                        None,
                        format!(
                            "a comparison needs a URI or a value with units, not {}",
                            type_name(v)
                        ),
                    );
                    None
                }
            }
        }
    }
}

fn compatible(a: Dimension, b: Dimension) -> bool {
    let plain = |d| {
        matches!(
            d,
            Dimension::Dimensionless | Dimension::Count | Dimension::Bool
        )
    };
    a == b || (plain(a) && plain(b))
}

fn compare(lua: &Lua, op: CmpOp, this: &Value, arg: &Value) -> mlua::Result<Obj> {
    let c = ctx(lua)?;
    let at = line(lua);
    let (Some((l, ld)), Some((r, rd))) = (operand(&c, this, at), operand(&c, arg, at)) else {
        return Ok(Obj::Clause(Rc::new(Clause::Const(false)), at));
    };
    if !compatible(ld, rd) {
        let hint = if rd == Dimension::Dimensionless {
            " (a bare number has no unit: write e.g. Units.METER(10))"
        } else {
            ""
        };
        c.error(
            at,
            Some(op.name()),
            format!("{}: cannot compare a {ld} with a {rd}{hint}", op.name()),
        );
    } else if ld == Dimension::Position && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
        c.error(
            at,
            Some(op.name()),
            format!(
                "{}: positions can only be compared with EQ or NE; distances are for behaviors",
                op.name()
            ),
        );
    }
    Ok(Obj::Clause(Rc::new(Clause::Cmp(op, l, r)), at))
}

fn clause_method(lua: &Lua, name: &str, args: MultiValue) -> mlua::Result<Obj> {
    let c = ctx(lua)?;
    let at = line(lua);
    let mut it = args.into_iter();
    let this = it.next().unwrap_or(Value::Nil);
    let arg = it.next().unwrap_or(Value::Nil);
    let op = match name {
        "NE" => Some(CmpOp::Ne),
        "LT" => Some(CmpOp::Lt),
        "LE" => Some(CmpOp::Le),
        "EQ" => Some(CmpOp::Eq),
        "GE" => Some(CmpOp::Ge),
        "GT" => Some(CmpOp::Gt),
        _ => None,
    };
    if let Some(op) = op {
        return compare(lua, op, &this, &arg);
    }
    match name {
        "NOT" => {
            let (a, _) = as_clause(&c, &this, at, "NOT");
            Ok(Obj::Clause(Rc::new(Clause::Not(Box::new(a))), at))
        }
        "AND" | "OR" => {
            let (a, _) = as_clause(&c, &this, at, name);
            if arg.is_nil() {
                return Err(fail(
                    lua,
                    Some(name),
                    format!("{name} needs a ValueClause argument"),
                ));
            }
            let (b, _) = as_clause(&c, &arg, at, name);
            let cl = if name == "AND" {
                Clause::And(Box::new(a), Box::new(b))
            } else {
                Clause::Or(Box::new(a), Box::new(b))
            };
            Ok(Obj::Clause(Rc::new(cl), at))
        }
        "ELAPSED" => {
            let Some(Obj::Uri(u, _)) = obj(&this) else {
                return Err(fail(
                    lua,
                    Some("ELAPSED"),
                    format!("ELAPSED applies to a URI, not to {}", type_name(&this)),
                ));
            };
            let secs = match obj(&arg) {
                Some(Obj::Data(Data::Num(v, unit), _)) if unit.dimension == Dimension::Time => {
                    unit.to_canonical(v)
                }
                _ => {
                    c.error(
                        at,
                        Some("ELAPSED"),
                        format!(
                            "ELAPSED needs a time, e.g. Units.HOUR(1), not {}",
                            type_name(&arg)
                        ),
                    );
                    f64::INFINITY
                }
            };
            Ok(Obj::Clause(Rc::new(Clause::Elapsed(u, secs)), at))
        }
        _ => Err(fail(lua, Some(name), format!("unknown method {name}"))),
    }
}

const CLAUSE_METHODS: &[&str] = &[
    "NOT", "AND", "OR", "NE", "LT", "LE", "EQ", "GE", "GT", "ELAPSED",
];

/// A setting value from `:SET(setting, value)` or `:SET(setting, Units.U, n)`.
fn setting_value(
    lua: &Lua,
    spec: &'static BehaviorSpec,
    index: usize,
    args: &[Value],
) -> mlua::Result<Option<SettingValue>> {
    let c = ctx(lua)?;
    let at = line(lua);
    let Some(s) = spec.settings.get(index) else {
        return Ok(None);
    };
    let full = format!("{}.{}", spec.name, s.name);
    // (unit, number) form first
    let data = match args {
        [Value::UserData(u), n]
            if matches!(obj(&Value::UserData(u.clone())), Some(Obj::Unit(_))) =>
        {
            let Some(Obj::Unit(unit)) = obj(&Value::UserData(u.clone())) else {
                return Ok(None);
            };
            match (number(n), obj(n)) {
                (Some(x), _) => {
                    Value::UserData(lua.create_userdata(Obj::Data(Data::Num(x, unit), at))?)
                }
                (None, Some(Obj::Data(Data::Num(x, from), _))) => match conv(x, from, unit) {
                    Ok(v) => {
                        Value::UserData(lua.create_userdata(Obj::Data(Data::Num(v, unit), at))?)
                    }
                    Err(_) => {
                        c.error(
                            at,
                            Some(s.name),
                            format!(
                                "SET {full}: the value is a {} but the unit Units.{} is a {}",
                                from.dimension, unit.name, unit.dimension
                            ),
                        );
                        return Ok(None);
                    }
                },
                _ => {
                    c.error(
                        at,
                        Some(s.name),
                        format!(
                            "SET {full}: after Units.{} a number is expected, not {}",
                            unit.name,
                            type_name(n)
                        ),
                    );
                    return Ok(None);
                }
            }
        }
        [v] => v.clone(),
        _ => {
            return Err(fail(
                lua,
                Some("SET"),
                format!("SET {full}: expected a value, or a unit and a number"),
            ))
        }
    };
    let got = type_name(&data);
    let bad = |expected: &str| {
        c.error(
            at,
            Some(s.name),
            format!("SET {full}: expected {expected}, not {got}"),
        );
        Ok(None)
    };
    match s.ty {
        SettingType::Quantity(dim) => match obj(&data) {
            Some(Obj::Data(d @ Data::Num(..), _)) if d.dimension() == dim => {
                Ok(Some(SettingValue::Const(d.constant())))
            }
            Some(Obj::Data(d, _)) => {
                c.error(
                    at,
                    Some(s.name),
                    format!(
                        "SET {full}: unit dimension mismatch: the setting is a {dim}, the value a {}",
                        d.dimension()
                    ),
                );
                Ok(None)
            }
            _ => bad(&format!("a {dim} with units")),
        },
        SettingType::Position => match obj(&data) {
            Some(Obj::Data(d @ Data::Pos(..), _)) => Ok(Some(SettingValue::Const(d.constant()))),
            _ => bad("a position, Units.DEGREE(lat, lon)"),
        },
        SettingType::Uri => match obj(&data) {
            Some(Obj::Uri(u, _)) => Ok(Some(SettingValue::Uri(u))),
            _ => bad("a URI, e.g. UniversalURI.DEPTH"),
        },
        SettingType::Bool => match &data {
            Value::Boolean(b) => Ok(Some(SettingValue::Const(Constant::Bool(*b)))),
            _ => match obj(&data) {
                Some(Obj::Data(Data::Num(v, u), _))
                    if matches!(u.dimension, Dimension::Bool | Dimension::Count) =>
                {
                    Ok(Some(SettingValue::Const(Constant::Bool(v != 0.0))))
                }
                _ => bad("true or false"),
            },
        },
    }
}

/// Resolve the setting object of a SET call to (spec, index), reporting unknown settings.
fn resolve_setting(
    lua: &Lua,
    setting: &Value,
    item: Option<&'static BehaviorSpec>,
) -> mlua::Result<Option<(&'static BehaviorSpec, usize)>> {
    let c = ctx(lua)?;
    let at = line(lua);
    let Some(Obj::Setting {
        behavior,
        behavior_name,
        name,
        ..
    }) = obj(setting)
    else {
        return Err(fail(
            lua,
            Some("SET"),
            format!(
                "SET expects a setting such as Guidance.Waypoint.CAPTURE_RADIUS first, not {}",
                type_name(setting)
            ),
        ));
    };
    let Some(spec) = behavior else {
        return Ok(None); // unknown behavior: reported where it was named
    };
    if let Some(item) = item {
        if item.kind != spec.kind {
            c.error(
                at,
                Some(&name),
                format!(
                    "{behavior_name}.{name} is a setting of {behavior_name}, not of {}",
                    item.name
                ),
            );
            return Ok(None);
        }
    }
    match spec.setting(&name) {
        Some(i) => Ok(Some((spec, i))),
        None => {
            let known: Vec<_> = spec.settings.iter().map(|s| s.name).collect();
            c.error(
                at,
                Some(&name),
                format!(
                    "unknown setting {behavior_name}.{name} (its settings: {})",
                    known.join(", ")
                ),
            );
            Ok(None)
        }
    }
}

fn item_of(this: &AnyUserData) -> mlua::Result<Rc<RefCell<RawItem>>> {
    match &*this.borrow::<Obj>()? {
        Obj::Item(i) => Ok(i.clone()),
        other => Err(mlua::Error::RuntimeError(format!(
            "{} has no such method",
            other.describe()
        ))),
    }
}

fn builder_method(lua: &Lua, name: &str, args: MultiValue) -> mlua::Result<Value> {
    let mut args: Vec<Value> = args.into_iter().collect();
    let this = match args.first() {
        Some(Value::UserData(u)) => u.clone(),
        _ => {
            return Err(fail(
                lua,
                Some(name),
                format!("use `:{name}(...)`, with a colon"),
            ))
        }
    };
    args.remove(0);
    let this_obj = this.borrow::<Obj>()?.clone();
    let c = ctx(lua)?;
    let at = line(lua);
    if name == "SET" {
        if let Obj::Setting { behavior, .. } = &this_obj {
            // table form: Guidance.X.S:SET(value)
            let Some((spec, index)) =
                resolve_setting(lua, &Value::UserData(this.clone()), *behavior)?
            else {
                return Ok(Value::UserData(lua.create_userdata(Obj::Clause(
                    Rc::new(Clause::Const(false)),
                    at,
                ))?));
            };
            let value = setting_value(lua, spec, index, &args)?;
            return match value {
                Some(value) => Ok(Value::UserData(lua.create_userdata(Obj::Assign(
                    Assign {
                        behavior: spec,
                        index,
                        value,
                        line: at,
                    },
                ))?)),
                None => Ok(Value::Nil),
            };
        }
    }
    let Obj::Item(item) = this_obj else {
        return Err(fail(
            lua,
            Some(name),
            format!("{} has no method {name}", this_obj.describe()),
        ));
    };
    let _ = item_of(&this)?;
    let spec = item.borrow().behavior;
    let first = args.first().cloned().unwrap_or(Value::Nil);
    match name {
        "SET" => {
            let setting = first;
            if let Some((spec, index)) = resolve_setting(lua, &setting, spec)? {
                if let Some(value) = setting_value(lua, spec, index, args.get(1..).unwrap_or(&[]))?
                {
                    item.borrow_mut().sets.push(Assign {
                        behavior: spec,
                        index,
                        value,
                        line: at,
                    });
                }
            }
        }
        "WHEN" | "WHILE" | "PREEMPTIVE" | "UNTIL" => {
            let (cl, _) = as_clause(&c, &first, at, name);
            let mut it = item.borrow_mut();
            let slot = match name {
                "WHEN" => &mut it.when,
                "WHILE" => &mut it.while_,
                "PREEMPTIVE" => &mut it.preemptive,
                _ => &mut it.until,
            };
            if slot.is_some() {
                c.error(at, Some(name), format!("{name} is given twice"));
            }
            *slot = Some((cl, at));
        }
        "WITHIN" => {
            let secs = match (obj(&first), args.get(1)) {
                (Some(Obj::Data(Data::Num(v, u), _)), None) if u.dimension == Dimension::Time => {
                    Some(u.to_canonical(v))
                }
                (Some(Obj::Unit(u)), Some(n)) if u.dimension == Dimension::Time => {
                    number(n).map(|v| u.to_canonical(v))
                }
                _ => None,
            };
            match secs {
                Some(s) if s >= 0.0 && !s.is_nan() => item.borrow_mut().within = Some((s, at)),
                _ => c.error(
                    at,
                    Some("WITHIN"),
                    format!(
                        "WITHIN must be a time, e.g. Units.MINUTE(30) or Units.MINUTE, 30; not {}",
                        type_name(&first)
                    ),
                ),
            }
        }
        "REPEAT" => match repeat_count(&first) {
            Some(r) => item.borrow_mut().repeat = Some((r, at)),
            None => c.error(
                at,
                Some("REPEAT"),
                format!(
                    "REPEAT must be a non-negative whole number (or math.huge), not {}",
                    type_name(&first)
                ),
            ),
        },
        _ => return Err(fail(lua, Some(name), format!("unknown method {name}"))),
    }
    Ok(Value::UserData(this))
}

/// `REPEAT = n`: a non-negative whole number or `math.huge`.
pub(crate) fn repeat_count(v: &Value) -> Option<Repeat> {
    let n = number(v)?;
    if n == f64::INFINITY {
        Some(Repeat::Forever)
    } else if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) {
        Some(Repeat::Times(n as u32))
    } else {
        None
    }
}

impl UserData for Obj {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        for &name in CLAUSE_METHODS {
            m.add_function(name, move |lua, args: MultiValue| {
                clause_method(lua, name, args)
            });
        }
        for &name in &[
            "SET",
            "WHEN",
            "WHILE",
            "PREEMPTIVE",
            "UNTIL",
            "WITHIN",
            "REPEAT",
        ] {
            m.add_function(name, move |lua, args: MultiValue| {
                builder_method(lua, name, args)
            });
        }
        m.add_meta_function(
            MetaMethod::Index,
            |lua, (this, key): (AnyUserData, Value)| {
                let key = match &key {
                    Value::String(s) => s.to_str().map(|s| s.to_string()).unwrap_or_default(),
                    _ => {
                        return Err(fail(
                            lua,
                            None,
                            format!(
                                "cannot index {} with {}",
                                this.borrow::<Obj>()?.describe(),
                                type_name(&key)
                            ),
                        ))
                    }
                };
                let at = line(lua);
                let o = this.borrow::<Obj>()?.clone();
                let c = ctx(lua)?;
                match o {
                    Obj::Space(Space::Units) => {
                        match Unit::by_name(&key).or_else(|| crate::config::unit_by_name(&key)) {
                            Some(u) => Ok(Obj::Unit(u)),
                            None => Err(fail(lua, Some(&key), format!("unknown unit Units.{key}"))),
                        }
                    }
                    Obj::Space(Space::Uris) => match uri::by_name(&key) {
                        Some(u) => Ok(Obj::Uri(u, at)),
                        None => Err(fail(
                            lua,
                            Some(&key),
                            format!("unknown URI UniversalURI.{key}"),
                        )),
                    },
                    Obj::Space(Space::Module(module)) => {
                        let spec = library::find(module, &key);
                        if spec.is_none() {
                            let known: Vec<_> = library::LIBRARY.iter().map(|b| b.name).collect();
                            c.error(
                                at,
                                Some(&key),
                                format!(
                                    "unknown behavior or command {module}.{key} (known: {})",
                                    known.join(", ")
                                ),
                            );
                        }
                        Ok(Obj::Behavior {
                            module,
                            name: key,
                            spec,
                            line: at,
                        })
                    }
                    Obj::Behavior { name, spec, .. } => Ok(Obj::Setting {
                        behavior: spec,
                        behavior_name: name,
                        name: key,
                    }),
                    other => Err(fail(
                        lua,
                        Some(&key),
                        format!("{} has no field or method `{key}`", other.describe()),
                    )),
                }
            },
        );
        m.add_meta_function(MetaMethod::Call, |lua, args: MultiValue| {
            let mut it = args.into_iter();
            let this = it.next().unwrap_or(Value::Nil);
            let rest: Vec<Value> = it.collect();
            let at = line(lua);
            let Some(Obj::Unit(u)) = obj(&this) else {
                return Err(fail(lua, None, format!("{} cannot be called", type_name(&this))));
            };
            match rest.as_slice() {
                [v] => match number(v) {
                    Some(x) => Ok(Obj::Data(Data::Num(x, u), at)),
                    None => match obj(v) {
                        // Units.METER_PER_SECOND(Control.SpeedControl.SPEED_SLOW) style
                        Some(Obj::Data(Data::Num(x, from), _)) => conv(x, from, u)
                            .map(|v| Obj::Data(Data::Num(v, u), at))
                            .map_err(|e| fail(lua, Some(u.name), format!("Units.{}: {e}", u.name))),
                        _ => Err(fail(lua, Some(u.name), format!("Units.{}(x) needs a number, not {}", u.name, type_name(v)))),
                    },
                },
                [a, b] if u.dimension == Dimension::Angle => match (number(a), number(b)) {
                    (Some(lat), Some(lon)) => {
                        let lat_deg = conv(lat, u, &units::DEGREE).unwrap_or(lat);
                        let lon_deg = conv(lon, u, &units::DEGREE).unwrap_or(lon);
                        if !(-90.0..=90.0).contains(&lat_deg) || !(-180.0..=360.0).contains(&lon_deg) {
                            return Err(fail(lua, Some(u.name), format!("Units.{}({lat}, {lon}): latitude must be within ±90 degrees and longitude within ±180", u.name)));
                        }
                        Ok(Obj::Data(Data::Pos(lat_deg, lon_deg), at))
                    }
                    _ => Err(fail(lua, Some(u.name), format!("Units.{}(lat, lon) needs two numbers", u.name))),
                },
                _ => Err(fail(lua, Some(u.name), format!("Units.{} takes one number (or, for angles, latitude and longitude)", u.name))),
            }
        });
        m.add_meta_function(MetaMethod::Eq, |lua, _: MultiValue| -> mlua::Result<bool> {
            Err(fail(lua, Some("=="), "`==` on mission values is evaluated once, at load; use :EQ(...) to compare while the mission runs"))
        });
        m.add_meta_function(MetaMethod::Lt, |lua, _: MultiValue| -> mlua::Result<bool> {
            Err(fail(lua, Some("<"), "`<` on mission values is evaluated once, at load; use :LT(...) or :GT(...) to compare while the mission runs"))
        });
        m.add_meta_function(MetaMethod::Le, |lua, _: MultiValue| -> mlua::Result<bool> {
            Err(fail(lua, Some("<="), "`<=` on mission values is evaluated once, at load; use :LE(...) or :GE(...) to compare while the mission runs"))
        });
        m.add_meta_function(MetaMethod::ToString, |_, this: AnyUserData| {
            Ok(this.borrow::<Obj>()?.describe())
        });
    }
}

fn constructor(lua: &Lua, command: bool, v: Value) -> mlua::Result<Obj> {
    let c = ctx(lua)?;
    let at = line(lua);
    let word = if command { "COMMAND" } else { "BEHAVIOR" };
    let Some(Obj::Behavior { spec, name, .. }) = obj(&v) else {
        return Err(fail(
            lua,
            Some(word),
            format!(
                "{word}(...) needs a behavior such as Guidance.Waypoint, not {}",
                type_name(&v)
            ),
        ));
    };
    if let Some(s) = spec {
        check_usage(&c, s, command, at, &name);
    }
    Ok(Obj::Item(Rc::new(RefCell::new(RawItem {
        line: at,
        command,
        behavior: spec,
        ..RawItem::default()
    }))))
}

pub(crate) fn check_usage(c: &Ctx, s: &BehaviorSpec, command: bool, at: usize, name: &str) {
    match (s.usage, command) {
        (Usage::Behavior, true) => c.error(
            at,
            Some(name),
            format!("Guidance.{name} is a behavior: use BEHAVIOR(Guidance.{name})"),
        ),
        (Usage::Command, false) => c.error(
            at,
            Some(name),
            format!("Guidance.{name} is a command: use COMMAND(Guidance.{name})"),
        ),
        _ => {}
    }
}

/// A read-only view of a configuration table (nested on `.` in names).
fn config_table(lua: &Lua, t: &ConfigTable, name: &str) -> mlua::Result<Table> {
    let backing = lua.create_table()?;
    for (k, v) in &t.entries {
        let value = match v {
            crate::config::ConfigValue::Number { value, .. } => Value::Number(*value),
            crate::config::ConfigValue::Text(s) => Value::String(lua.create_string(s)?),
            crate::config::ConfigValue::Bool(b) => Value::Boolean(*b),
        };
        let mut cur = backing.clone();
        let parts: Vec<&str> = k.split('.').collect();
        for (i, p) in parts.iter().enumerate() {
            if i + 1 == parts.len() {
                cur.raw_set(*p, value.clone())?;
            } else {
                let next = match cur.raw_get::<Value>(*p)? {
                    Value::Table(t) => t,
                    _ => {
                        let t = lua.create_table()?;
                        cur.raw_set(*p, t.clone())?;
                        t
                    }
                };
                cur = next;
            }
        }
    }
    read_only(lua, backing, name)
}

fn read_only(lua: &Lua, backing: Table, name: &str) -> mlua::Result<Table> {
    // nested tables first
    let mut nested = Vec::new();
    for pair in backing.pairs::<String, Value>() {
        let (k, v) = pair?;
        if let Value::Table(t) = v {
            nested.push((k, t));
        }
    }
    for (k, t) in nested {
        let p = read_only(lua, t, &format!("{name}.{k}"))?;
        backing.raw_set(k, p)?;
    }
    let proxy = lua.create_table()?;
    let mt = lua.create_table()?;
    mt.raw_set("__index", backing)?;
    let n = name.to_string();
    mt.raw_set(
        "__newindex",
        lua.create_function(move |lua, _: MultiValue| -> mlua::Result<()> {
            Err(fail(
                lua,
                Some(&n),
                format!("{n} is configuration and cannot be changed by a mission"),
            ))
        })?,
    )?;
    mt.raw_set("__metatable", "locked")?;
    proxy.set_metatable(Some(mt))?;
    Ok(proxy)
}

/// What running the script produced.
pub(crate) struct Ran {
    pub lua: Lua,
    pub ctx: Rc<Ctx>,
}

/// Run the mission chunk once in the sandbox. `configs` are exposed as read-only global
/// tables named by their key (`workSite`, `Control`).
pub(crate) fn run(
    source: &str,
    file: &str,
    configs: &[(&str, &ConfigTable)],
    limits: Limits,
) -> Result<Ran, Vec<Diagnostic>> {
    let ctx = Rc::new(Ctx {
        file: file.into(),
        source: source.into(),
        diags: RefCell::new(Vec::new()),
        fatal: RefCell::new(None),
        budget_line: Cell::new(None),
    });
    let setup_error = |e: mlua::Error| {
        vec![Diagnostic::at(
            Severity::Error,
            &ctx.file,
            source,
            0,
            None,
            format!("cannot set up the Lua sandbox: {e}"),
        )]
    };
    let lua = Lua::new_with(
        StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
        LuaOptions::default(),
    )
    .map_err(setup_error)?;
    lua.set_app_data(ctx.clone());
    setup(&lua, configs).map_err(setup_error)?;
    let used = Rc::new(Cell::new(0u64));
    let budget = limits.instructions;
    const EVERY: u32 = 1000;
    {
        let used = used.clone();
        let ctx2 = ctx.clone();
        lua.set_hook(
            HookTriggers::new().every_nth_instruction(EVERY),
            move |_, debug| {
                let n = used.get() + u64::from(EVERY);
                used.set(n);
                if n > budget {
                    ctx2.budget_line
                        .set(Some(debug.current_line().unwrap_or(0)));
                    return Err(mlua::Error::RuntimeError(
                        "instruction budget exhausted".into(),
                    ));
                }
                Ok(VmState::Continue)
            },
        )
        .map_err(setup_error)?;
    }
    lua.set_memory_limit(limits.memory).map_err(setup_error)?;
    let result = lua.load(source).set_name(format!("={file}")).exec();
    // The hook and the limit stay until the state is dropped: finalizers (`__gc`) the
    // script left behind run then, and must not loop or allocate without bound either.
    if let Err(e) = result {
        let mut diags = ctx.diags.borrow().clone();
        diags.push(load_error(&ctx, &e, budget, limits.memory));
        return Err(diags);
    }
    Ok(Ran { lua, ctx })
}

fn load_error(ctx: &Ctx, e: &mlua::Error, budget: u64, memory: usize) -> Diagnostic {
    let at = |line: usize, word: Option<&str>, msg: String| {
        Diagnostic::at(Severity::Error, &ctx.file, &ctx.source, line, word, msg)
    };
    if let Some(l) = ctx.budget_line.get() {
        return at(
            l,
            None,
            format!("the script ran more than {budget} Lua instructions while loading (an endless loop?); a mission script must finish at once"),
        );
    }
    if is_memory(e) {
        return at(
            0,
            None,
            format!(
                "the script used more than {} MiB of memory while loading; a mission script must stay small",
                memory >> 20
            ),
        );
    }
    if let Some((line, word, msg)) = ctx.fatal.borrow().clone() {
        return at(line, word.as_deref(), msg);
    }
    // a Lua error: "file:LINE: message"
    let text = root_message(e);
    let prefix = format!("{}:", ctx.file);
    if let Some(rest) = text.strip_prefix(&prefix) {
        if let Some((num, msg)) = rest.split_once(':') {
            if let Ok(line) = num.trim().parse::<usize>() {
                let msg = msg.trim();
                let near = msg
                    .split_once("near '")
                    .and_then(|(_, r)| r.split_once('\''))
                    .map(|(w, _)| w.to_string());
                let kind = if matches!(root(e), mlua::Error::SyntaxError { .. }) {
                    "Lua syntax error: "
                } else {
                    ""
                };
                return at(line, near.as_deref(), format!("{kind}{msg}"));
            }
        }
    }
    at(0, None, text)
}

fn root(e: &mlua::Error) -> &mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } => root(cause),
        other => other,
    }
}

fn is_memory(e: &mlua::Error) -> bool {
    matches!(root(e), mlua::Error::MemoryError(_))
}

fn root_message(e: &mlua::Error) -> String {
    match root(e) {
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::RuntimeError(m) => m.lines().next().unwrap_or("").to_string(),
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
}

fn setup(lua: &Lua, configs: &[(&str, &ConfigTable)]) -> mlua::Result<()> {
    let g = lua.globals();
    // deterministic math.random; no finalizers (Lua runs `__gc` with hooks off, so the
    // instruction budget could not stop one that loops)
    lua.load(
        r#"math.randomseed(0)
        local setmt, rawget, type, error = setmetatable, rawget, type, error
        setmetatable = function(t, mt)
            if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
                error("__gc finalizers are not allowed in mission scripts", 2)
            end
            return setmt(t, mt)
        end"#,
    )
    .exec()?;
    for name in [
        "dofile",
        "loadfile",
        "load",
        "loadstring",
        "require",
        "collectgarbage",
        "rawset",
        "rawget",
        "rawequal",
        "module",
        "setfenv",
        "getfenv",
    ] {
        g.raw_set(name, Value::Nil)?;
    }
    if let Ok(s) = g.get::<Table>("string") {
        // `dump` exposes bytecode; the pattern functions run in C, beyond the instruction
        // budget, and a pattern can backtrack for hours
        for name in ["dump", "find", "match", "gmatch", "gsub"] {
            s.raw_set(name, Value::Nil)?;
        }
    }
    g.raw_set(
        "print",
        lua.create_function(|lua, args: MultiValue| {
            let c = ctx(lua)?;
            let text: Vec<String> = args
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.to_string_lossy(),
                    Value::Integer(i) => i.to_string(),
                    Value::Number(n) => n.to_string(),
                    Value::Boolean(b) => b.to_string(),
                    other => type_name(other),
                })
                .collect();
            c.diag(
                Severity::Warning,
                line(lua),
                None,
                format!("print: {}", text.join("\t")),
            );
            Ok(())
        })?,
    )?;
    g.raw_set("Units", Obj::Space(Space::Units))?;
    g.raw_set("UniversalURI", Obj::Space(Space::Uris))?;
    for m in library::MODULES {
        g.raw_set(*m, Obj::Space(Space::Module(m)))?;
    }
    g.raw_set(
        "BEHAVIOR",
        lua.create_function(|lua, v: Value| constructor(lua, false, v))?,
    )?;
    g.raw_set(
        "COMMAND",
        lua.create_function(|lua, v: Value| constructor(lua, true, v))?,
    )?;
    for (name, t) in configs {
        g.raw_set(*name, config_table(lua, t, name)?)?;
    }
    // `(true):OR(x)`: clause methods on booleans (§2.4)
    let bool_methods = lua.create_table()?;
    for &name in CLAUSE_METHODS {
        bool_methods.raw_set(
            name,
            lua.create_function(move |lua, args: MultiValue| clause_method(lua, name, args))?,
        )?;
    }
    let mt = lua.create_table()?;
    mt.raw_set("__index", bool_methods)?;
    lua.set_type_metatable::<bool>(Some(mt));
    Ok(())
}
