//! `ros.console` and the logging functions (`ros.INFO(fmt, ...)`, `ros.WARN_NAMED(name,
//! fmt, ...)`, `_COND`, `_ONCE`, `_THROTTLE`, the `ROS_` aliases): named loggers with a
//! level each (`ros.console.setLoggerLevel('actionlib', ros.console.Level.Debug)`),
//! printed as roscpp's console prints them, `[ INFO] [secs.nsecs]: text`, info and debug
//! on stdout, warnings and errors on stderr, and, once `ros.init` ran, on `/rosout`
//! ([`crate::rosout`]).

use crate::runtime::ctx;
use mlua::{Lua, Table, Value};
use std::collections::BTreeMap;
use std::io::Write;

/// Severities, as `ros.console.Level` numbers them.
pub(crate) const DEBUG: u8 = 0;
pub(crate) const INFO: u8 = 1;
pub(crate) const WARN: u8 = 2;
pub(crate) const ERROR: u8 = 3;
pub(crate) const FATAL: u8 = 4;

/// The loggers' levels.
#[derive(Debug)]
pub(crate) struct Console {
    default: u8,
    levels: BTreeMap<String, u8>,
}

impl Default for Console {
    fn default() -> Self {
        Self {
            default: INFO,
            levels: BTreeMap::new(),
        }
    }
}

impl Console {
    /// Whether `level` is shown for the logger `name` (`None`: the node's own).
    pub fn enabled(&self, name: Option<&str>, level: u8) -> bool {
        let at = name
            .and_then(|n| self.levels.get(n))
            .copied()
            .unwrap_or(self.default);
        level >= at
    }
}

fn tag(level: u8) -> &'static str {
    match level {
        DEBUG => "DEBUG",
        INFO => " INFO",
        WARN => " WARN",
        ERROR => "ERROR",
        _ => "FATAL",
    }
}

/// Print a log line (if its logger shows `level`).
pub(crate) fn log(lua: &Lua, name: Option<&str>, level: u8, text: &str) {
    if !ctx(lua).console.borrow().enabled(name, level) {
        return;
    }
    let now = crate::time::LuaTime::now(lua).0;
    let line = format!(
        "[{}] [{}.{:09}]: {text}\n",
        tag(level),
        now.div_euclid(1_000_000_000),
        now.rem_euclid(1_000_000_000)
    );
    if level >= WARN {
        let _ = std::io::stderr().write_all(line.as_bytes());
    } else {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(line.as_bytes());
        let _ = out.flush();
    }
    let c = ctx(lua);
    if let Ok(ros) = c.ros.try_borrow() {
        if let Some(n) = ros.as_ref().filter(|n| !n.down) {
            n.rosout.publish(lua, &n.node, level, text);
        }
    };
}

fn level_of(v: &Value) -> Option<u8> {
    match v {
        Value::Integer(i) => u8::try_from(*i).ok().filter(|l| *l <= FATAL),
        Value::Number(n) => level_of(&Value::Integer(*n as i64)),
        Value::String(s) => match s.to_string_lossy().to_ascii_lowercase().as_str() {
            "debug" => Some(DEBUG),
            "info" => Some(INFO),
            "warn" | "warning" => Some(WARN),
            "error" => Some(ERROR),
            "fatal" => Some(FATAL),
            _ => None,
        },
        _ => None,
    }
}

/// `ros.console` (the logging functions are in the prelude, on `ros.console.print`).
pub(crate) fn install(lua: &Lua, ros: &Table) -> mlua::Result<()> {
    let console = lua.create_table()?;
    let levels = lua.create_table()?;
    for (k, v) in [
        ("Debug", DEBUG),
        ("Info", INFO),
        ("Warn", WARN),
        ("Error", ERROR),
        ("Fatal", FATAL),
    ] {
        levels.raw_set(k, v)?;
    }
    console.raw_set("Level", levels)?;
    let set = lua.create_function(|lua, (name, level): (Option<String>, Value)| {
        let Some(level) = level_of(&level) else {
            return Err(crate::runtime::fail(lua, "expected a ros.console.Level"));
        };
        let c = ctx(lua);
        let mut con = c.console.borrow_mut();
        match name.filter(|n| !n.is_empty() && n != "ros") {
            Some(n) => {
                con.levels.insert(n, level);
            }
            None => con.default = level,
        }
        Ok(())
    })?;
    console.raw_set("set_logger_level", set.clone())?;
    console.raw_set("setLoggerLevel", set)?;
    let get = lua.create_function(|lua, ()| {
        let c = ctx(lua);
        let con = c.console.borrow();
        let (names, levels) = (lua.create_table()?, lua.create_table()?);
        names.raw_set(1, "ros")?;
        levels.raw_set(1, con.default)?;
        for (i, (n, l)) in con.levels.iter().enumerate() {
            names.raw_set(i + 2, n.as_str())?;
            levels.raw_set(i + 2, *l)?;
        }
        Ok((names, levels))
    })?;
    console.raw_set("get_loggers", get.clone())?;
    console.raw_set("getLoggers", get)?;
    let check = lua.create_function(|lua, (name, level): (Option<String>, Value)| {
        Ok(ctx(lua)
            .console
            .borrow()
            .enabled(name.as_deref(), level_of(&level).unwrap_or(INFO)))
    })?;
    console.raw_set("check_loglevel", check.clone())?;
    console.raw_set("checkLogLevel", check)?;
    console.raw_set(
        "get_logger",
        lua.create_function(|_, name: Option<String>| Ok(name))?,
    )?;
    console.raw_set(
        "print",
        lua.create_function(
            |lua, (name, level, text): (Option<String>, Value, String)| {
                log(
                    lua,
                    name.as_deref(),
                    level_of(&level).unwrap_or(INFO),
                    &text,
                );
                Ok(())
            },
        )?,
    )?;
    for name in ["initialize", "shutdown"] {
        console.raw_set(name, lua.create_function(|_, ()| Ok(()))?)?;
    }
    ros.raw_set("console", console)
}
