//! The values a mission script handles: every object the host gives the script or builds
//! for it is one userdata type, [`Obj`] (a unit, a value with its unit, a URI, a behavior,
//! a setting, an assignment, a clause, an item under construction), and each remembers
//! the line it was made on. Also the load's shared context ([`Ctx`]: the file, its
//! diagnostics, the error that stopped the script) and the small helpers every host
//! function needs (the caller's line, stopping the script with an error, describing a value).

use crate::error::{Diagnostic, Severity};
use crate::library::BehaviorSpec;
use crate::model::{Clause, Constant, Repeat, SettingValue};
use crate::uri::{self, UriId};
use mlua::{Lua, Value};
use skipper_core::units::{self, Dimension, Unit};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

/// Convert between units, exactly when they are the same unit.
pub(super) fn conv(
    v: f64,
    from: &'static Unit,
    to: &'static Unit,
) -> Result<f64, units::UnitError> {
    if from.name == to.name {
        Ok(v)
    } else {
        units::convert(v, from, to)
    }
}

/// A number with the unit it was written in, or a position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Data {
    Num(f64, &'static Unit),
    Pos(f64, f64),
}

impl Data {
    pub(super) fn constant(self) -> Constant {
        match self {
            Data::Num(v, u) => Constant::Number(u.to_canonical(v), u.dimension),
            Data::Pos(lat, lon) => Constant::Position { lat, lon },
        }
    }
    pub(super) fn dimension(self) -> Dimension {
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
    pub(super) fn describe(&self) -> String {
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
    /// the line the script was on at the last hook while it held half its memory limit
    /// or more (Lua's out-of-memory error carries no line)
    pub memory_line: Cell<Option<usize>>,
}

impl Ctx {
    pub(super) fn diag(
        &self,
        sev: Severity,
        line: usize,
        word: Option<&str>,
        msg: impl Into<String>,
    ) {
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

pub(super) fn ctx(lua: &Lua) -> mlua::Result<Rc<Ctx>> {
    lua.app_data_ref::<Rc<Ctx>>()
        .map(|c| c.clone())
        .ok_or_else(|| mlua::Error::RuntimeError("mission loader context missing".into()))
}

/// The line of the Lua code that called the running host function.
pub(super) fn line(lua: &Lua) -> usize {
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
pub(super) fn fail(lua: &Lua, word: Option<&str>, msg: impl Into<String>) -> mlua::Error {
    let msg = msg.into();
    if let Ok(c) = ctx(lua) {
        let mut f = c.fatal.borrow_mut();
        if f.is_none() {
            *f = Some((line(lua), word.map(str::to_string), msg.clone()));
        }
    }
    mlua::Error::RuntimeError(msg)
}

pub(super) fn type_name(v: &Value) -> String {
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

pub(super) fn obj(v: &Value) -> Option<Obj> {
    match v {
        Value::UserData(ud) => ud.borrow::<Obj>().ok().map(|o| o.clone()),
        _ => None,
    }
}

pub(super) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(n) => Some(*n),
        _ => None,
    }
}
