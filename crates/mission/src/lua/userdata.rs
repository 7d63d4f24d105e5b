//! How the script sees the host's objects: the methods every [`Obj`] answers (clause and
//! builder methods), indexing (`Units.METER`, `UniversalURI.DEPTH`, `Guidance.Waypoint`,
//! `Guidance.Waypoint.SPEED`), calling a unit (`Units.METER(5)`, `Units.DEGREE(lat, lon)`),
//! and the comparison operators refused because Lua would evaluate them once, at load.

use super::builders::builder_method;
use super::clauses::{clause_method, CLAUSE_METHODS};
use super::objects::{conv, ctx, fail, line, number, obj, type_name, Data, Obj, Space};
use crate::library;
use crate::uri;
use mlua::{AnyUserData, MetaMethod, MultiValue, UserData, UserDataMethods, Value};
use skipper_core::units::{self, Dimension, Unit};

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
