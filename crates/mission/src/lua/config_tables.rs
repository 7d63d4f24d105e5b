//! Configuration files as the script sees them: read-only Lua tables (`workSite`,
//! `Control`), nested on the `.` in entry names (`Control.SpeedControl.SPEED_SLOW`); a
//! write stops the script with an error at its line.

use super::objects::fail;
use crate::config::ConfigTable;
use mlua::{Lua, MultiValue, Table, Value};

/// A read-only view of a configuration table (nested on `.` in names).
pub(super) fn config_table(lua: &Lua, t: &ConfigTable, name: &str) -> mlua::Result<Table> {
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
