//! Action servers in Lua: `actionlib.SimpleActionServer(nh, name, spec)` with the spec's
//! twelve methods (and `createResult`, `createFeedback`), and
//! `actionlib.ActionServer(nh, name, spec[, callback_queue])` whose callbacks get server
//! goal handles (`setAccepted`, `setRejected`, `setSucceeded`, `setAborted`,
//! `setCanceled`, `publishFeedback`, `getGoal`, `getGoalID`, `getGoalStatus`).
//!
//! The policy and the state machines are skipper-actionlib's [`SimpleActionServer`] and
//! [`ActionServer`]: goals and cancels reach them when the script spins, and the
//! callbacks they raise (preempt first, then goal, rule S-3) run right after. A Lua error
//! in a callback is logged with its traceback and ends the goal it was about, as
//! ros/actionlib ends a goal whose execute callback raised: an accepted goal is
//! aborted, one never accepted is rejected (a simple server accepts then aborts it).
//! The other goals go on. A server that shuts down, or whose script ends, ends its
//! unfinished goals the same way.

use crate::message::{action_arg, from_lua, message_schema, new_message, to_lua};
use crate::node::{forget, node, object, queue_arg, register, resolve_under};
use crate::queue::Queue;
use crate::runtime::{ctx, fail, pcall};
use mlua::{AnyUserData, Function, Lua, MetaMethod, Table, UserData, UserDataMethods, Value};
use skipper_actionlib::ros1::action::server_config_from_params;
use skipper_actionlib::ros1::ActionServerBinding;
use skipper_actionlib::{
    ActionError, ActionServer, DynAction, DynMessage, ServerGoalHandle, SimpleActionServer,
    StatusCode,
};
use skipper_ros1_wire::msg::schema::MsgSchema;
use std::sync::Arc;

/// The text of goals ended because their server went away.
pub(crate) const SHUTDOWN_TEXT: &str = "The Lua node shut down before the goal finished";

fn log_error(lua: &Lua, text: &str) {
    crate::console::log(lua, Some("actionlib"), crate::console::ERROR, text);
}

/// A state machine's refusal, logged as torch-ros logs it (the script goes on).
fn logged(lua: &Lua, r: Result<(), ActionError>) {
    if let Err(e) = r {
        log_error(lua, &e.to_string());
    }
}

/// An optional result / feedback argument of the action's type.
fn optional(
    lua: &Lua,
    s: &Arc<MsgSchema>,
    v: &Value,
    what: &str,
) -> mlua::Result<Option<DynMessage>> {
    match v {
        Value::Nil => Ok(None),
        v => from_lua(lua, s, v, what).map(Some),
    }
}

fn text_arg(t: Option<String>) -> String {
    t.unwrap_or_default()
}

/// The first line of a traceback: `file:line: message`.
fn headline(traceback: &str) -> &str {
    traceback.lines().next().unwrap_or("")
}

/// End a goal a Lua error was about: aborted if it was accepted, rejected if not.
fn end_after_error(h: &ServerGoalHandle<DynAction>, text: &str) {
    let _ = match h.status() {
        Some(StatusCode::Active | StatusCode::Preempting) => h.set_aborted(None, text),
        Some(StatusCode::Pending | StatusCode::Recalling) => h.set_rejected(None, text),
        _ => Ok(()),
    };
}

fn make_server(
    lua: &Lua,
    nh: &Value,
    name: &str,
    spec: &Value,
) -> mlua::Result<(String, DynAction, ActionServer<DynAction>)> {
    let ns = resolve_under(lua, nh, name)?;
    let action = DynAction(action_arg(lua, spec)?);
    let n = node(lua)?;
    let server = ActionServer::with_type(
        action.clone(),
        server_config_from_params(&n, &ns),
        Arc::new(crate::runtime::clock(lua)),
    );
    Ok((ns, action, server))
}

fn bind(
    lua: &Lua,
    ns: &str,
    server: &ActionServer<DynAction>,
    queue: &Queue,
) -> mlua::Result<ActionServerBinding> {
    let n = node(lua)?;
    ActionServerBinding::with_dispatch(&n, ns, server, queue.dispatch()).map_err(|e| fail(lua, e))
}

/// What has an action's types: its `createResult()` and `createFeedback()`.
trait Typed: Sized + 'static {
    fn action(&self) -> &DynAction;
}

/// What the two servers' userdata share, so that their common methods are one.
trait LuaServer: Typed {
    /// (the server's object id, its action name, its state machine, its queue)
    fn parts(&self) -> (u64, &str, &ActionServer<DynAction>, &Queue);
    fn binding(&mut self) -> &mut Option<ActionServerBinding>;
    /// The goal callback, or the other one (preempt or cancel).
    fn callback(&mut self, which: Which) -> &mut Option<Function>;
    /// Let goals in (a simple server also starts its policy).
    fn start(&self);
}

/// `createResult()` and `createFeedback()` (and torch-ros's spelling `createFeeback`).
fn add_message_makers<T: Typed, M: UserDataMethods<T>>(m: &mut M) {
    m.add_method("createResult", |lua, s, ()| {
        new_message(lua, s.action().schema().result())
    });
    for name in ["createFeedback", "createFeeback"] {
        m.add_method(name, |lua, s, ()| {
            new_message(lua, s.action().schema().feedback())
        });
    }
}

/// `start()`, `shutdown()`, `registerGoalCallback(f)`, the other callback's registration
/// (`second`) and the message makers.
fn add_server_methods<T: LuaServer + UserData, M: UserDataMethods<T>>(
    m: &mut M,
    second: &'static str,
) {
    m.add_method_mut("start", |lua, s, ()| {
        if s.binding().is_none() {
            let (_, ns, server, queue) = s.parts();
            let b = bind(lua, ns, server, queue)?;
            *s.binding() = Some(b);
        }
        s.start();
        Ok(())
    });
    m.add_function("shutdown", |lua, ud: AnyUserData| {
        let id = ud.borrow::<T>()?.parts().0;
        ctx(lua).finish(id);
        *ud.borrow_mut::<T>()?.binding() = None;
        forget(lua, id)
    });
    m.add_method_mut("registerGoalCallback", |_, s, f: Option<Function>| {
        *s.callback(Which::Goal) = f;
        Ok(())
    });
    m.add_method_mut(second, |_, s, f: Option<Function>| {
        *s.callback(Which::Preempt) = f;
        Ok(())
    });
    add_message_makers(m);
}

impl Typed for LuaSimpleServer {
    fn action(&self) -> &DynAction {
        &self.action
    }
}

impl LuaServer for LuaSimpleServer {
    fn parts(&self) -> (u64, &str, &ActionServer<DynAction>, &Queue) {
        (self.id, &self.ns, self.simple.action_server(), &self.queue)
    }
    fn binding(&mut self) -> &mut Option<ActionServerBinding> {
        &mut self.binding
    }
    fn callback(&mut self, which: Which) -> &mut Option<Function> {
        match which {
            Which::Goal => &mut self.goal_cb,
            Which::Preempt => &mut self.preempt_cb,
        }
    }
    fn start(&self) {
        self.simple.start();
    }
}

impl Typed for LuaActionServer {
    fn action(&self) -> &DynAction {
        &self.action
    }
}

impl LuaServer for LuaActionServer {
    fn parts(&self) -> (u64, &str, &ActionServer<DynAction>, &Queue) {
        (self.id, &self.ns, &self.server, &self.queue)
    }
    fn binding(&mut self) -> &mut Option<ActionServerBinding> {
        &mut self.binding
    }
    fn callback(&mut self, which: Which) -> &mut Option<Function> {
        match which {
            Which::Goal => &mut self.goal_cb,
            Which::Preempt => &mut self.cancel_cb,
        }
    }
    fn start(&self) {
        self.server.start();
    }
}

impl Typed for LuaGoalHandle {
    fn action(&self) -> &DynAction {
        &self.action
    }
}

/// `actionlib.SimpleActionServer`.
pub(crate) struct LuaSimpleServer {
    id: u64,
    ns: String,
    action: DynAction,
    simple: SimpleActionServer<DynAction>,
    binding: Option<ActionServerBinding>,
    queue: Queue,
    goal_cb: Option<Function>,
    preempt_cb: Option<Function>,
}

#[derive(Clone, Copy)]
enum Which {
    Goal,
    Preempt,
}

/// Run the script's goal or preempt callback (raised by the state machine).
fn on_simple(lua: &Lua, id: u64, which: Which) -> mlua::Result<()> {
    let Some(ud) = object(lua, id)? else {
        return Ok(());
    };
    let (cb, simple, ns) = {
        let s = ud.borrow::<LuaSimpleServer>()?;
        let cb = match which {
            Which::Goal => s.goal_cb.clone(),
            Which::Preempt => s.preempt_cb.clone(),
        };
        (cb, s.simple.clone(), s.ns.clone())
    };
    let Some(cb) = cb else { return Ok(()) };
    let before = simple.current_goal();
    let Err(tb) = pcall(lua, &cb, ud)? else {
        return Ok(());
    };
    let kind = match which {
        Which::Goal => "goal",
        Which::Preempt => "preempt",
    };
    log_error(
        lua,
        &format!("in the {kind} callback of the action server {ns}: {tb}"),
    );
    let text = format!("Exception in the {kind} callback: {}", headline(&tb));
    match which {
        Which::Goal if simple.current_goal() != before && simple.is_active() => {
            logged(lua, simple.set_aborted(None, &text));
        }
        Which::Goal => {
            if simple.is_new_goal_available() && simple.accept_new_goal().is_ok() {
                logged(lua, simple.set_aborted(None, &text));
            }
        }
        Which::Preempt => {
            if simple.is_active() {
                logged(lua, simple.set_aborted(None, &text));
            }
        }
    }
    Ok(())
}

impl UserData for LuaSimpleServer {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        add_server_methods(m, "registerPreemptCallback");
        m.add_method("acceptNewGoal", |lua, s, ()| {
            match s.simple.accept_new_goal() {
                Ok(g) => Ok(Value::Table(to_lua(lua, &g)?)),
                Err(_) => {
                    log_error(
                        lua,
                        "Attempting to accept the next goal when a new goal is not available",
                    );
                    Ok(Value::Nil)
                }
            }
        });
        m.add_method("isNewGoalAvailable", |_, s, ()| {
            Ok(s.simple.is_new_goal_available())
        });
        m.add_method("isPreemptRequested", |_, s, ()| {
            Ok(s.simple.is_preempt_requested())
        });
        m.add_method("isActive", |_, s, ()| Ok(s.simple.is_active()));
        m.add_method("setSucceeded", |lua, s, (r, t): (Value, Option<String>)| {
            let r = optional(lua, s.action.schema().result(), &r, "result")?;
            logged(lua, s.simple.set_succeeded(r, &text_arg(t)));
            Ok(())
        });
        m.add_method("setAborted", |lua, s, (r, t): (Value, Option<String>)| {
            let r = optional(lua, s.action.schema().result(), &r, "result")?;
            logged(lua, s.simple.set_aborted(r, &text_arg(t)));
            Ok(())
        });
        m.add_method("setPreempted", |lua, s, (r, t): (Value, Option<String>)| {
            let r = optional(lua, s.action.schema().result(), &r, "result")?;
            logged(lua, s.simple.set_preempted(r, &text_arg(t)));
            Ok(())
        });
        m.add_method("publishFeedback", |lua, s, f: Value| {
            let f = from_lua(lua, s.action.schema().feedback(), &f, "feedback")?;
            logged(lua, s.simple.publish_feedback(f));
            Ok(())
        });
        m.add_method("getCurrentGoal", |lua, s, ()| {
            match s.simple.current_goal() {
                Some(h) => Ok(Value::Table(to_lua(lua, h.goal())?)),
                None => Ok(Value::Nil),
            }
        });
        m.add_method("getCurrentGoalHandle", |lua, s, ()| {
            match s.simple.current_goal() {
                Some(h) => Ok(Value::UserData(lua.create_userdata(LuaGoalHandle {
                    handle: h,
                    action: s.action.clone(),
                })?)),
                None => Ok(Value::Nil),
            }
        });
        m.add_method("getActionName", |_, s, ()| Ok(s.ns.clone()));
    }
}

/// `actionlib.SimpleActionServer(nh, name, spec)`.
fn new_simple(lua: &Lua, (nh, name, spec): (Value, String, Value)) -> mlua::Result<AnyUserData> {
    let (ns, action, server) = make_server(lua, &nh, &name, &spec)?;
    let c = ctx(lua);
    let id = c.id();
    let queue = c.queue.clone();
    let simple = SimpleActionServer::new(server.clone());
    let q = queue.clone();
    simple.register_goal_callback(move || {
        q.raise(Box::new(move |lua| on_simple(lua, id, Which::Goal)))
    });
    let q = queue.clone();
    simple.register_preempt_callback(move || {
        q.raise(Box::new(move |lua| on_simple(lua, id, Which::Preempt)))
    });
    let s2 = simple.clone();
    c.on_finish(
        id,
        Box::new(move || {
            server.end_unfinished(SHUTDOWN_TEXT);
            s2.shutdown();
        }),
    );
    let ud = lua.create_userdata(LuaSimpleServer {
        id,
        ns,
        action,
        simple,
        binding: None,
        queue,
        goal_cb: None,
        preempt_cb: None,
    })?;
    register(lua, id, &ud)?;
    if let Value::UserData(nh) = &nh {
        crate::node::adopt(nh, &ud)?;
    }
    Ok(ud)
}

/// A server goal handle in Lua.
pub(crate) struct LuaGoalHandle {
    handle: ServerGoalHandle<DynAction>,
    action: DynAction,
}

fn goal_id_table(lua: &Lua, h: &ServerGoalHandle<DynAction>) -> mlua::Result<Table> {
    let t = new_message(lua, &message_schema(lua, "actionlib_msgs/GoalID")?)?;
    t.raw_set("stamp", crate::time::LuaTime::from_ros(h.stamp()))?;
    t.raw_set("id", h.id())?;
    Ok(t)
}

impl UserData for LuaGoalHandle {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("setAccepted", |lua, g, t: Option<String>| {
            logged(lua, g.handle.set_accepted(&text_arg(t)));
            Ok(())
        });
        type End =
            fn(&ServerGoalHandle<DynAction>, Option<DynMessage>, &str) -> Result<(), ActionError>;
        let ends: [(&str, End); 4] = [
            ("setRejected", |h, r, t| h.set_rejected(r, t)),
            ("setCanceled", |h, r, t| h.set_canceled(r, t)),
            ("setSucceeded", |h, r, t| h.set_succeeded(r, t)),
            ("setAborted", |h, r, t| h.set_aborted(r, t)),
        ];
        for (name, end) in ends {
            m.add_method(name, move |lua, g, (r, t): (Value, Option<String>)| {
                let r = optional(lua, g.action.schema().result(), &r, "result")?;
                logged(lua, end(&g.handle, r, &text_arg(t)));
                Ok(())
            });
        }
        m.add_method("publishFeedback", |lua, g, f: Value| {
            let f = from_lua(lua, g.action.schema().feedback(), &f, "feedback")?;
            logged(lua, g.handle.publish_feedback(f));
            Ok(())
        });
        m.add_method("getGoal", |lua, g, ()| to_lua(lua, g.handle.goal()));
        m.add_method("getGoalID", |lua, g, ()| goal_id_table(lua, &g.handle));
        m.add_method("getGoalStatus", |lua, g, ()| {
            let t = new_message(lua, &message_schema(lua, "actionlib_msgs/GoalStatus")?)?;
            t.raw_set("goal_id", goal_id_table(lua, &g.handle)?)?;
            t.raw_set(
                "status",
                g.handle
                    .status()
                    .map_or(StatusCode::Lost as u8, |s| s as u8),
            )?;
            t.raw_set("text", g.handle.status_text().unwrap_or_default())?;
            Ok(t)
        });
        add_message_makers(m);
        m.add_meta_function(MetaMethod::Eq, |_, (a, b): (AnyUserData, AnyUserData)| {
            Ok(
                match (a.borrow::<LuaGoalHandle>(), b.borrow::<LuaGoalHandle>()) {
                    (Ok(a), Ok(b)) => a.handle == b.handle,
                    _ => false,
                },
            )
        });
        m.add_meta_method(MetaMethod::ToString, |_, g, ()| {
            Ok(format!("ServerGoalHandle({})", g.handle.id()))
        });
    }
}

/// `actionlib.ActionServer`.
pub(crate) struct LuaActionServer {
    id: u64,
    ns: String,
    action: DynAction,
    server: ActionServer<DynAction>,
    binding: Option<ActionServerBinding>,
    queue: Queue,
    goal_cb: Option<Function>,
    cancel_cb: Option<Function>,
}

/// Run the script's goal or cancel callback with the goal's handle.
fn on_handle(lua: &Lua, id: u64, h: ServerGoalHandle<DynAction>, which: Which) -> mlua::Result<()> {
    let Some(ud) = object(lua, id)? else {
        return Ok(());
    };
    let (cb, action, ns) = {
        let s = ud.borrow::<LuaActionServer>()?;
        let cb = match which {
            Which::Goal => s.goal_cb.clone(),
            Which::Preempt => s.cancel_cb.clone(),
        };
        (cb, s.action.clone(), s.ns.clone())
    };
    let Some(cb) = cb else { return Ok(()) };
    let gh = lua.create_userdata(LuaGoalHandle {
        handle: h.clone(),
        action,
    })?;
    if let Err(tb) = pcall(lua, &cb, gh)? {
        let kind = match which {
            Which::Goal => "goal",
            Which::Preempt => "cancel",
        };
        log_error(
            lua,
            &format!("in the {kind} callback of the action server {ns}: {tb}"),
        );
        end_after_error(
            &h,
            &format!("Exception in the {kind} callback: {}", headline(&tb)),
        );
    }
    Ok(())
}

impl UserData for LuaActionServer {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        add_server_methods(m, "registerCancelCallback");
        m.add_method("publishStatus", |_, s, ()| {
            s.server.publish_status();
            Ok(())
        });
    }
}

/// `actionlib.ActionServer(nh, name, spec[, callback_queue])`.
fn new_action_server(
    lua: &Lua,
    (nh, name, spec, queue): (Value, String, Value, Value),
) -> mlua::Result<AnyUserData> {
    let (ns, action, server) = make_server(lua, &nh, &name, &spec)?;
    let queue = queue_arg(lua, &queue)?;
    let c = ctx(lua);
    let id = c.id();
    let q = queue.clone();
    server.register_goal_callback(move |h| {
        q.raise(Box::new(move |lua| on_handle(lua, id, h, Which::Goal)))
    });
    let q = queue.clone();
    server.register_cancel_callback(move |h| {
        q.raise(Box::new(move |lua| on_handle(lua, id, h, Which::Preempt)))
    });
    let s2 = server.clone();
    c.on_finish(
        id,
        Box::new(move || {
            s2.end_unfinished(SHUTDOWN_TEXT);
            s2.shutdown();
        }),
    );
    let ud = lua.create_userdata(LuaActionServer {
        id,
        ns,
        action,
        server,
        binding: None,
        queue,
        goal_cb: None,
        cancel_cb: None,
    })?;
    register(lua, id, &ud)?;
    if let Value::UserData(nh) = &nh {
        crate::node::adopt(nh, &ud)?;
    }
    Ok(ud)
}

/// `actionlib.SimpleActionServer`, `actionlib.ActionServer`.
pub(crate) fn install(lua: &Lua, actionlib: &Table) -> mlua::Result<()> {
    actionlib.raw_set("SimpleActionServer", lua.create_function(new_simple)?)?;
    actionlib.raw_set("ActionServer", lua.create_function(new_action_server)?)
}
