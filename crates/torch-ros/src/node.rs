//! The node and its handles: `ros.init(name[, options[, remappings]])` (the master from
//! `--ros`, `ROS_MASTER_URI` or `__master:=`; the name and namespace as roscpp reads
//! them), `ros.ok()`, `ros.shutdown()`, `ros.NodeHandle([ns[, parent]])` with names
//! resolved in its namespace and its parameters, `ros.this_node`, `ros.master`, and the
//! callback queues' primitives the prelude builds `ros.CallbackQueue`, `spinOnce` and
//! `spin` on. The modules are put in `package.preload` here.

use crate::queue::Queue;
use crate::runtime::{ctx, fail};
use mlua::{AnyUserData, Lua, MultiValue, ObjectLike, Table, UserData, UserDataMethods, Value};
use skipper_ros1_wire::names::{process_args, RosArgs};
use skipper_ros1_wire::xmlrpc::Value as Xml;
use skipper_ros1_wire::{Node, NodeConfig};

/// The script's node, once `ros.init` ran.
pub(crate) struct RosNode {
    pub node: Node,
    /// the script's log lines' `/rosout`
    pub rosout: crate::rosout::Rosout,
    /// Skipper's own log events (the transport's, tracing) on the same `/rosout`
    pub _tracing_rosout: skipper_ros1_wire::rosout::RosoutGuard,
    /// `/clock`, in simulated time
    pub _clock_sub: Option<skipper_ros1_wire::node::Subscriber>,
    /// `ros.shutdown()` was called
    pub down: bool,
}

impl RosNode {
    /// Leave the master, close every connection.
    pub fn shutdown(self) {
        self.node.shutdown();
    }
}

/// The node (its names: [`Node::names`]), or the script's error when there is none.
pub(crate) fn node(lua: &Lua) -> mlua::Result<Node> {
    let c = ctx(lua);
    let r = c.ros.borrow();
    match r.as_ref() {
        Some(n) if !n.down => Ok(n.node.clone()),
        Some(_) => Err(fail(lua, "ROS has been shut down (ros.shutdown())")),
        None => Err(fail(lua, "call ros.init(name) first")),
    }
}

/// Keep `ud` where events addressed to `id` find it.
pub(crate) fn register(lua: &Lua, id: u64, ud: &AnyUserData) -> mlua::Result<()> {
    let t: Table = lua.named_registry_value("skipper.objects")?;
    t.raw_set(id, ud.clone())
}

/// The object events for `id` are for (`None` once it was shut down).
pub(crate) fn object(lua: &Lua, id: u64) -> mlua::Result<Option<AnyUserData>> {
    let t: Table = lua.named_registry_value("skipper.objects")?;
    t.raw_get(id)
}

/// Forget an object (it was shut down): events for it are dropped.
pub(crate) fn forget(lua: &Lua, id: u64) -> mlua::Result<()> {
    let t: Table = lua.named_registry_value("skipper.objects")?;
    t.raw_set(id, Value::Nil)
}

/// A node handle: a namespace names resolve in, and what was made through it.
pub(crate) struct NodeHandle {
    pub ns: String,
    unresolved: String,
}

impl NodeHandle {
    /// Resolve `name` in this handle's namespace (with the remaps).
    pub fn resolve(&self, lua: &Lua, name: &str) -> mlua::Result<String> {
        node(lua)?
            .names()
            .resolve_in(&self.ns, name, true)
            .map_err(|e| fail(lua, e))
    }
}

/// The node handle argument of a constructor (`nil`: the node's namespace).
pub(crate) fn handle_ns(lua: &Lua, nh: &Value) -> mlua::Result<String> {
    match nh {
        Value::UserData(u) => Ok(u.borrow::<NodeHandle>()?.ns.clone()),
        Value::Nil => Ok(node(lua)?.names().namespace().to_string()),
        _ => Err(fail(lua, "expected a ros.NodeHandle")),
    }
}

/// Resolve `name` under the node handle argument `nh`.
pub(crate) fn resolve_under(lua: &Lua, nh: &Value, name: &str) -> mlua::Result<String> {
    let ns = handle_ns(lua, nh)?;
    node(lua)?
        .names()
        .resolve_in(&ns, name, true)
        .map_err(|e| fail(lua, e))
}

/// Remember that `child` was made through the handle `nh` (its `shutdown` ends it).
pub(crate) fn adopt(nh: &AnyUserData, child: &AnyUserData) -> mlua::Result<()> {
    let kids: Table = nh.user_value()?;
    kids.raw_set(kids.raw_len() + 1, child.clone())
}

impl UserData for NodeHandle {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("getNamespace", |_, h, ()| Ok(h.ns.clone()));
        m.add_method("getUnresolvedNamespace", |_, h, ()| {
            Ok(h.unresolved.clone())
        });
        m.add_method(
            "resolveName",
            |lua, h, (name, remap): (String, Option<bool>)| {
                node(lua)?
                    .names()
                    .resolve_in(&h.ns, &name, remap.unwrap_or(true))
                    .map_err(|e| fail(lua, e))
            },
        );
        m.add_method("ok", |lua, _, ()| Ok(ros_ok(lua)));
        m.add_function("shutdown", |_, nh: AnyUserData| {
            let kids: Table = nh.user_value()?;
            for kid in kids.sequence_values::<AnyUserData>() {
                kid?.call_method::<()>("shutdown", ())?;
            }
            nh.set_user_value(nh_kids(&kids)?)
        });
        m.add_function("advertise", crate::topics::advertise);
        m.add_function("subscribe", crate::topics::subscribe);
        m.add_function("advertiseService", crate::services::advertise_service);
        m.add_function("serviceClient", crate::services::service_client);
        m.add_method("hasParam", |lua, h, key: String| {
            Ok(node(lua)?.has_param(&h.resolve(lua, &key)?))
        });
        m.add_method("deleteParam", |lua, h, key: String| {
            Ok(node(lua)?.delete_param(&h.resolve(lua, &key)?))
        });
        for getter in [
            "getParamString",
            "getParamDouble",
            "getParamFloat",
            "getParamInt",
            "getParamBool",
            "getParamStringVector",
            "getParamBoolVector",
            "getParamIntVector",
            "getParamDoubleVector",
            "getParamFloatVector",
            "getParamStringMap",
            "getParamVariable",
            "getParam",
        ] {
            m.add_method(getter, |lua, h, key: String| {
                let v = node(lua)?.get_param(&h.resolve(lua, &key)?);
                let found = v.is_some();
                let v = match v {
                    Some(v) => xml_to_lua(lua, &v)?,
                    None => Value::Nil,
                };
                Ok((v, found))
            });
        }
        for setter in [
            "setParamString",
            "setParamDouble",
            "setParamFloat",
            "setParamInt",
            "setParamBool",
            "setParamStringVector",
            "setParamBoolVector",
            "setParamIntVector",
            "setParamDoubleVector",
            "setParamFloatVector",
            "setParam",
        ] {
            let is_double = setter.contains("Double") || setter.contains("Float");
            m.add_method(setter, move |lua, h, (key, v): (String, Value)| {
                let mut x = lua_to_xml(lua, &v)?;
                if is_double {
                    x = as_double(x);
                }
                node(lua)?
                    .set_param(&h.resolve(lua, &key)?, x)
                    .map_err(|e| fail(lua, e))
            });
        }
        m.add_meta_method(mlua::MetaMethod::ToString, |_, h, ()| {
            Ok(format!("NodeHandle({})", h.ns))
        });
    }
}

fn nh_kids(_old: &Table) -> mlua::Result<Table> {
    _old.clear()?;
    Ok(_old.clone())
}

fn as_double(x: Xml) -> Xml {
    match x {
        Xml::Int(i) => Xml::Double(f64::from(i)),
        Xml::Array(a) => Xml::Array(a.into_iter().map(as_double).collect()),
        other => other,
    }
}

/// An XML-RPC value (a parameter, the master's reply) as a Lua value.
pub(crate) fn xml_to_lua(lua: &Lua, v: &Xml) -> mlua::Result<Value> {
    Ok(match v {
        Xml::Int(i) => Value::Integer(i64::from(*i)),
        Xml::Bool(b) => Value::Boolean(*b),
        Xml::Str(s) => Value::String(lua.create_string(s)?),
        Xml::Double(d) => Value::Number(*d),
        Xml::Array(a) => {
            let t = lua.create_table()?;
            for (i, x) in a.iter().enumerate() {
                t.raw_set(i + 1, xml_to_lua(lua, x)?)?;
            }
            Value::Table(t)
        }
        Xml::Struct(m) => {
            let t = lua.create_table()?;
            for (k, x) in m {
                t.raw_set(k.as_str(), xml_to_lua(lua, x)?)?;
            }
            Value::Table(t)
        }
    })
}

/// A Lua value as XML-RPC (tables with only 1..n keys are arrays, others structs).
pub(crate) fn lua_to_xml(lua: &Lua, v: &Value) -> mlua::Result<Xml> {
    Ok(match v {
        Value::Boolean(b) => Xml::Bool(*b),
        Value::Integer(i) => match i32::try_from(*i) {
            Ok(i) => Xml::Int(i),
            Err(_) => Xml::Double(*i as f64),
        },
        Value::Number(n) => Xml::Double(*n),
        Value::String(s) => Xml::Str(s.to_str()?.to_string()),
        Value::Table(t) => {
            let n = t.raw_len();
            let mut pairs = Vec::new();
            for kv in t.clone().pairs::<Value, Value>() {
                let (k, x) = kv?;
                pairs.push((k, lua_to_xml(lua, &x)?));
            }
            if pairs.len() == n {
                let mut a = vec![Xml::Int(0); n];
                for (k, x) in pairs {
                    if let Value::Integer(i) = k {
                        if let Some(slot) = usize::try_from(i - 1).ok().and_then(|i| a.get_mut(i)) {
                            *slot = x;
                        }
                    }
                }
                Xml::Array(a)
            } else {
                let mut s = Vec::new();
                for (k, x) in pairs {
                    s.push((crate::runtime::describe(&k), x));
                }
                Xml::Struct(s)
            }
        }
        other => {
            return Err(fail(
                lua,
                format!("a {} cannot be a parameter", other.type_name()),
            ))
        }
    })
}

/// `ros.ok()`: initialised, not shut down, no stop request, the master did not ask the
/// node to go.
pub(crate) fn ros_ok(lua: &Lua) -> bool {
    let c = ctx(lua);
    let r = c.ros.borrow();
    match r.as_ref() {
        Some(n) => !n.down && !c.stop.is_requested() && !n.node.shutdown_requested(),
        None => false,
    }
}

/// `ros.init(name[, options[, remappings]])`.
fn init(
    lua: &Lua,
    (name, options, remaps): (Option<String>, Option<i64>, Option<Table>),
) -> mlua::Result<()> {
    let c = ctx(lua);
    if c.ros.borrow().is_some() {
        return Ok(()); // roscpp: a second init does nothing
    }
    let mut args: Vec<String> = c.args.clone();
    if let Some(t) = &remaps {
        for kv in t.clone().pairs::<Value, Value>() {
            match kv? {
                (Value::String(k), Value::String(v)) => {
                    args.push(format!("{}:={}", k.to_string_lossy(), v.to_string_lossy()))
                }
                (Value::Integer(_), Value::String(v)) => args.push(v.to_string_lossy()),
                _ => {}
            }
        }
    }
    let ra = ros_args(lua, args)?;
    let anonymous = options.is_some_and(|o| o & 2 != 0) || name.is_none();
    let mut base = ra
        .name
        .clone()
        .or(name)
        .unwrap_or_else(|| "torch_ros".into());
    if anonymous {
        let now = crate::time::LuaTime::wall().0;
        base = format!("{base}_{}_{}", std::process::id(), now);
    }
    let namespace = ra
        .namespace
        .clone()
        .or_else(|| std::env::var("ROS_NAMESPACE").ok())
        .unwrap_or_default();
    if base.contains('/') || base.contains('~') {
        return Err(fail(
            lua,
            format!(
                "`{base}` is not a node name: roscpp's node names are one part, without / or ~"
            ),
        ));
    }
    // the name, namespace and remaps as the script's arguments and the process's give
    // them (not the process's again: `from_env_only`)
    let mut cfg = NodeConfig::from_env_only(&base);
    cfg.namespace = namespace;
    cfg.remaps = ra.remaps.clone();
    if let Some(m) = c.options.master_uri.clone().or(ra.master.clone()) {
        cfg.master_uri = m;
    }
    if let Some(h) = &ra.host {
        cfg.advertise_host = h.clone();
    }
    // `_param:=value` as roscpp's `param::init`: `~param` resolved with the remaps
    cfg.private_params = ra.params.clone();
    let node = Node::new(cfg).map_err(|e| fail(lua, e))?;
    let (clock, clock_sub) = crate::clock::for_node(&node).map_err(|e| fail(lua, e))?;
    *c.clock.borrow_mut() = clock;
    let rosout = crate::rosout::Rosout::advertise(&node).map_err(|e| fail(lua, e))?;
    let tracing_rosout = skipper_ros1_wire::rosout::attach(&node).map_err(|e| fail(lua, e))?;
    *c.ros.borrow_mut() = Some(RosNode {
        node,
        rosout,
        _tracing_rosout: tracing_rosout,
        _clock_sub: clock_sub,
        down: false,
    });
    Ok(())
}

/// The ROS arguments of the process's command line (`skipper lua s.lua a:=b`), then
/// over them those among the script's arguments and in `ros.init`'s table (`args`).
fn ros_args(lua: &Lua, args: Vec<String>) -> mlua::Result<RosArgs> {
    let mut ra = process_args().cloned().unwrap_or_default();
    let (more, _) = RosArgs::extract(args).map_err(|e| fail(lua, e))?;
    ra.name = more.name.or(ra.name);
    ra.namespace = more.namespace.or(ra.namespace);
    ra.master = more.master.or(ra.master);
    ra.host = more.host.or(ra.host);
    // the later of two remaps of a name wins (as in roscpp): ros.init's over the process's
    ra.remaps.extend(more.remaps);
    ra.params.extend(more.params);
    Ok(ra)
}

/// `ros.shutdown()`: every server's goals are ended, the node leaves the master.
fn shutdown(lua: &Lua, (): ()) -> mlua::Result<()> {
    let c = ctx(lua);
    let all: Vec<_> = c.finishers.borrow_mut().drain(..).collect();
    for (_, f) in all {
        f();
    }
    let mut r = c.ros.borrow_mut();
    if let Some(n) = r.as_mut() {
        if !n.down {
            n.down = true;
            n.node.shutdown();
        }
    }
    c.queue.clear();
    Ok(())
}

/// A callback queue for Lua (the prelude's `ros.CallbackQueue` wraps it).
pub(crate) struct LuaQueue(pub Queue);

impl UserData for LuaQueue {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("wait", |lua, q, timeout: Value| {
            let t = crate::time::timeout_arg(lua, &timeout)?.unwrap_or_default();
            let c = ctx(lua);
            Ok(q.0.wait(t, &|| c.stop.is_requested()))
        });
        m.add_method("call_available", |lua, q, ()| {
            let c = ctx(lua);
            if q.0.same(&c.queue) {
                c.run_pollers(lua)?;
            }
            q.0.call_available(lua)
        });
        m.add_method("call_one", |lua, q, ()| q.0.call_one(lua));
        m.add_method("is_empty", |_, q, ()| Ok(q.0.is_empty()));
        m.add_method("clear", |_, q, ()| {
            q.0.clear();
            Ok(())
        });
        m.add_method("enable", |_, q, ()| {
            q.0.enable();
            Ok(())
        });
        m.add_method("disable", |_, q, ()| {
            q.0.disable();
            Ok(())
        });
        m.add_method("is_enabled", |_, q, ()| Ok(q.0.is_enabled()));
    }
}

/// The queue a `callback_queue` argument names (`nil`: the default queue).
pub(crate) fn queue_arg(lua: &Lua, v: &Value) -> mlua::Result<Queue> {
    match v {
        Value::Nil => Ok(ctx(lua).queue.clone()),
        Value::Table(t) => match t.raw_get::<Value>("_q")? {
            Value::UserData(u) => Ok(u.borrow::<LuaQueue>()?.0.clone()),
            _ => Err(fail(lua, "expected a ros.CallbackQueue")),
        },
        Value::UserData(u) => Ok(u.borrow::<LuaQueue>()?.0.clone()),
        _ => Err(fail(lua, "expected a ros.CallbackQueue")),
    }
}

fn install_master(lua: &Lua, ros: &Table) -> mlua::Result<()> {
    let master = lua.create_table()?;
    let uri = |lua: &Lua| -> mlua::Result<String> {
        Ok(match ctx(lua).ros.borrow().as_ref() {
            Some(n) => n.node.master_uri().to_string(),
            None => NodeConfig::from_env("/x").master_uri,
        })
    };
    master.raw_set("getURI", lua.create_function(move |lua, ()| uri(lua))?)?;
    master.raw_set(
        "getHost",
        lua.create_function(move |lua, ()| {
            let u = uri(lua)?;
            let hostport = u.trim_start_matches("http://").trim_end_matches('/');
            Ok(hostport
                .rsplit_once(':')
                .map_or(hostport, |(h, _)| h)
                .to_string())
        })?,
    )?;
    master.raw_set(
        "getPort",
        lua.create_function(move |lua, ()| {
            let u = uri(lua)?;
            Ok(u.trim_end_matches('/')
                .rsplit_once(':')
                .and_then(|(_, p)| p.parse::<u16>().ok()))
        })?,
    )?;
    master.raw_set(
        "check",
        lua.create_function(|lua, ()| {
            Ok(node(lua).is_ok_and(|n| n.call_master("getUri", vec![]).is_ok()))
        })?,
    )?;
    master.raw_set(
        "execute",
        lua.create_function(|lua, (method, request): (String, Value)| {
            let n = node(lua)?;
            // the request is the call's parameters, the caller id first (a lone value is
            // the caller id alone, as torch-ros's getSystemState demo passes it); the
            // node's own caller id takes its place
            let mut params = match &request {
                Value::Nil => vec![],
                r => match lua_to_xml(lua, r)? {
                    Xml::Array(a) => a,
                    other => vec![other],
                },
            };
            if !params.is_empty() {
                params.remove(0);
            }
            match n.call_master(&method, params) {
                Ok(v) => {
                    let payload = xml_to_lua(lua, &v)?;
                    Ok((true, Value::Nil, payload))
                }
                Err(e) => Ok((
                    false,
                    Value::String(lua.create_string(e.to_string())?),
                    Value::Nil,
                )),
            }
        })?,
    )?;
    master.raw_set(
        "getTopics",
        lua.create_function(|lua, ()| {
            let n = node(lua)?;
            let t = lua.create_table()?;
            for (i, (name, ty)) in n
                .topic_types()
                .map_err(|e| fail(lua, e))?
                .into_iter()
                .enumerate()
            {
                let e = lua.create_table()?;
                e.raw_set("name", name)?;
                e.raw_set("datatype", ty)?;
                t.raw_set(i + 1, e)?;
            }
            Ok(t)
        })?,
    )?;
    ros.raw_set("master", master)?;
    let this = lua.create_table()?;
    this.raw_set(
        "getName",
        lua.create_function(|lua, ()| Ok(node(lua)?.names().node().to_string()))?,
    )?;
    this.raw_set(
        "getNamespace",
        lua.create_function(|lua, ()| Ok(node(lua)?.names().namespace().to_string()))?,
    )?;
    ros.raw_set("this_node", this)
}

const PRELUDE: &str = include_str!("prelude.lua");

/// The `ros` modules.
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    roscpp_services();
    let ros = lua.create_table()?;
    let actionlib = lua.create_table()?;
    ros.raw_set("actionlib", actionlib.clone())?;
    ros.raw_set("std", lua.create_table()?)?;
    ros.raw_set("tf", lua.create_table()?)?;
    ros.raw_set("init", lua.create_function(init)?)?;
    ros.raw_set("shutdown", lua.create_function(shutdown)?)?;
    ros.raw_set("requestShutdown", lua.create_function(shutdown)?)?;
    ros.raw_set("ok", lua.create_function(|lua, ()| Ok(ros_ok(lua)))?)?;
    ros.raw_set(
        "isInitialized",
        lua.create_function(|lua, ()| Ok(ctx(lua).ros.borrow().is_some()))?,
    )?;
    ros.raw_set(
        "isShuttingDown",
        lua.create_function(|lua, ()| Ok(ctx(lua).ros.borrow().as_ref().is_some_and(|n| n.down)))?,
    )?;
    ros.raw_set(
        "NodeHandle",
        lua.create_function(|lua, (ns, parent): (Option<String>, Value)| {
            let parent_ns = handle_ns(lua, &parent)?;
            let unresolved = ns.clone().unwrap_or_default();
            let ns = node(lua)?
                .names()
                .child_namespace(&parent_ns, &unresolved)
                .map_err(|e| fail(lua, e))?;
            let ud = lua.create_userdata(NodeHandle { ns, unresolved })?;
            ud.set_user_value(lua.create_table()?)?;
            Ok(ud)
        })?,
    )?;
    ros.raw_set(
        "_queue_new",
        lua.create_function(|_, ()| Ok(LuaQueue(Queue::new())))?,
    )?;
    ros.raw_set(
        "_default_queue",
        lua.create_function(|lua, ()| Ok(LuaQueue(ctx(lua).queue.clone())))?,
    )?;
    ros.raw_set(
        "_class",
        lua.create_function(|lua, name: String| crate::message::class_meta(lua, &name))?,
    )?;
    ros.raw_set(
        "_wait_stop",
        lua.create_function(|lua, ()| Ok(ctx(lua).stop.is_requested()))?,
    )?;
    install_master(lua, &ros)?;
    crate::time::install(lua, &ros)?;
    crate::console::install(lua, &ros)?;
    crate::message::install(lua, &ros, &actionlib)?;
    crate::services::install(lua, &ros)?;
    crate::server::install(lua, &actionlib)?;
    crate::client::install(lua, &actionlib)?;
    lua.load(PRELUDE)
        .set_name("=ros (prelude)")
        .call::<()>(ros.clone())?;
    lua.set_named_registry_value("skipper.ros", ros.clone())?;
    let package: Table = lua.globals().raw_get("package")?;
    let preload: Table = package.raw_get("preload")?;
    let r2 = ros.clone();
    preload.raw_set(
        "ros",
        lua.create_function(move |_, _: MultiValue| Ok(r2.clone()))?,
    )?;
    let goal_status: Value = actionlib.raw_get("GoalStatus")?;
    for m in [
        "ros.actionlib",
        "ros.actionlib.SimpleActionServer",
        "ros.actionlib.ActionServer",
        "ros.actionlib.ServerGoalHandle",
        "ros.actionlib.SimpleActionClient",
        "ros.actionlib.ActionClient",
        "ros.actionlib.ActionSpec",
    ] {
        let a = actionlib.clone();
        preload.raw_set(
            m,
            lua.create_function(move |_, _: MultiValue| Ok(a.clone()))?,
        )?;
    }
    let gs = goal_status.clone();
    preload.raw_set(
        "ros.actionlib.GoalStatus",
        lua.create_function(move |_, _: MultiValue| Ok(gs.clone()))?,
    )?;
    Ok(())
}

/// The logger services every roscpp node offers (`~get_loggers`, `~set_logger_level`),
/// which torch-ros's service demos call: Debian installs no definitions for them, so
/// they are known here unless the package path has them.
fn roscpp_services() {
    use skipper_ros1_wire::msg::loader::TypeLoader;
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let t = TypeLoader::global();
        if t.service("roscpp/GetLoggers").is_ok() {
            return;
        }
        let known = t
            .add_msg("roscpp/Logger", "string name\nstring level")
            .is_ok()
            && t.add_srv("roscpp/GetLoggers", "---\nLogger[] loggers")
                .is_ok()
            && t.add_srv("roscpp/SetLoggerLevel", "string logger\nstring level\n---")
                .is_ok();
        if !known {
            tracing::debug!("the roscpp logger services' definitions did not load");
        }
    });
}
