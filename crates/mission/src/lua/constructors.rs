//! The constructors `BEHAVIOR(Guidance.X)` and `COMMAND(Guidance.X)`: a new item under
//! construction, checked for whether the library entry may be used that way.

use super::objects::{ctx, fail, line, obj, type_name, Ctx, Obj, RawItem};
use crate::library::{BehaviorSpec, Usage};
use mlua::{Lua, Value};
use std::cell::RefCell;
use std::rc::Rc;

pub(super) fn constructor(lua: &Lua, command: bool, v: Value) -> mlua::Result<Obj> {
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
