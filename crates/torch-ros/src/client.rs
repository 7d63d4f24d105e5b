//! Action clients in Lua: `actionlib.SimpleActionClient(spec, name[, nh])`
//! (`waitForServer`, `sendGoal(goal, done_cb, active_cb, feedback_cb)`,
//! `sendGoalAndWait`, `waitForResult`, `cancelGoal`, `getState`, `getResult`, ...) and
//! `actionlib.ActionClient(spec, name[, nh[, callback_queue]])` whose `sendGoal(goal,
//! transition_cb, feedback_cb)` returns a client goal handle (`state`, `cancel`,
//! `getResult`, `getGoalStatus`).
//!
//! The CommState table, LOST detection and the simple client's states are
//! skipper-actionlib's [`ActionClient`] and [`SimpleActionClient`]; status lists, results
//! and feedback reach them when the script spins (a wait of the client spins its queue
//! itself, as torch-ros's do), and the callbacks they raise run right after. States are
//! numbered as torch-ros numbers them (`actionlib.SimpleClientGoalState`,
//! `actionlib.CommState`, both from 1).

use crate::message::{action_arg, from_lua, message_schema, new_message, to_lua};
use crate::node::{forget, node, object, queue_arg, register, resolve_under};
use crate::queue::Queue;
use crate::runtime::{ctx, fail, pcall};
use crate::time::{time_arg, timeout_arg, LuaTime};
use mlua::{
    AnyUserData, Function, Lua, MultiValue, Table, UserData, UserDataFields, UserDataMethods, Value,
};
use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::{
    ActionClient, ClientGoalHandle, CommState, DynAction, DynMessage, SimpleActionClient,
    SimpleGoalState, StatusCode,
};
use std::sync::Arc;
use std::time::Duration;

/// torch-ros's `SimpleClientGoalState` number of a state (`PENDING` = 1 ... `LOST` = 8).
fn simple_state_number(s: StatusCode) -> u8 {
    match s {
        StatusCode::Pending | StatusCode::Recalling => 1,
        StatusCode::Active | StatusCode::Preempting => 2,
        StatusCode::Recalled => 3,
        StatusCode::Rejected => 4,
        StatusCode::Preempted => 5,
        StatusCode::Aborted => 6,
        StatusCode::Succeeded => 7,
        StatusCode::Lost => 8,
    }
}

const SIMPLE_NAMES: [&str; 8] = [
    "PENDING",
    "ACTIVE",
    "RECALLED",
    "REJECTED",
    "PREEMPTED",
    "ABORTED",
    "SUCCEEDED",
    "LOST",
];

/// torch-ros's `CommState` number (`WAITING_FOR_GOAL_ACK` = 1 ... `DONE` = 8).
fn comm_number(s: CommState) -> u8 {
    s as u8 + 1
}

fn log_error(lua: &Lua, text: &str) {
    crate::console::log(lua, Some("actionlib"), crate::console::ERROR, text);
}

fn make(
    lua: &Lua,
    spec: &Value,
    name: &str,
    nh: &Value,
) -> mlua::Result<(String, DynAction, ActionClient<DynAction>)> {
    let action = DynAction(action_arg(lua, spec)?);
    let n = node(lua)?;
    let ns = resolve_under(lua, nh, name)?;
    let clock = Arc::new(crate::runtime::clock(lua));
    let client = ActionClient::with_type(action.clone(), n.name(), clock);
    Ok((ns, action, client))
}

/// Spin `queue` (the default queue through `ros.spinOnce`) until `done` or `timeout`
/// (`None`: until a stop request); whether `done` held.
fn spin_until(
    lua: &Lua,
    queue: &Queue,
    timeout: Option<Duration>,
    done: &dyn Fn() -> mlua::Result<bool>,
) -> mlua::Result<bool> {
    let c = ctx(lua);
    // the timeout is of the node's clock (simulated time when the node keeps it)
    let clock = crate::runtime::clock(lua);
    let start = clock.now();
    loop {
        if done()? {
            return Ok(true);
        }
        if c.stop.is_requested()
            || timeout.is_some_and(|t| clock.since(start) >= t)
            || !crate::node::ros_ok(lua)
        {
            return Ok(false);
        }
        let left = timeout.map_or(Duration::from_millis(10), |t| {
            t.saturating_sub(clock.since(start))
        });
        queue.wait(left.min(Duration::from_millis(10)), &|| {
            c.stop.is_requested()
        });
        if queue.same(&c.queue) {
            crate::topics::spin_once(lua)?;
        } else {
            queue.call_available(lua)?;
        }
    }
}

/// A client goal handle in Lua (what `ActionClient:sendGoal` returns).
pub(crate) struct LuaClientGoal {
    id: u64,
    handle: Option<ClientGoalHandle<DynAction>>,
    queue: Queue,
    transition_cb: Option<Function>,
    feedback_cb: Option<Function>,
}

fn goal_status(lua: &Lua, h: &ClientGoalHandle<DynAction>) -> mlua::Result<Table> {
    let t = new_message(lua, &message_schema(lua, "actionlib_msgs/GoalStatus")?)?;
    let id = new_message(lua, &message_schema(lua, "actionlib_msgs/GoalID")?)?;
    id.raw_set("stamp", LuaTime::from_ros(h.stamp()))?;
    id.raw_set("id", h.id())?;
    t.raw_set("goal_id", id)?;
    t.raw_set("status", h.goal_status() as u8)?;
    t.raw_set("text", h.goal_status_text())?;
    Ok(t)
}

impl UserData for LuaClientGoal {
    fn add_fields<F: UserDataFields<Self>>(f: &mut F) {
        f.add_field_method_get("state", |_, g| {
            Ok(g.handle.as_ref().map(|h| comm_number(h.comm_state())))
        });
        f.add_field_method_get("id", |_, g| {
            Ok(g.handle.as_ref().map(|h| h.id().to_string()))
        });
    }
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("cancel", |lua, g, ()| {
            match &g.handle {
                Some(h) => h.cancel(),
                None => log_error(lua, "Trying to cancel() on an inactive goal handle."),
            }
            // the transition to WAITING_FOR_CANCEL_ACK, as torch-ros calls it at once
            g.queue.run_raised(lua)
        });
        m.add_method("getResult", |lua, g, ()| {
            match g.handle.as_ref().and_then(|h| h.result()) {
                Some(r) => Ok(Value::Table(to_lua(lua, &r)?)),
                None => Ok(Value::Nil),
            }
        });
        m.add_method("getGoalStatus", |lua, g, ()| match &g.handle {
            Some(h) => Ok(Value::Table(goal_status(lua, h)?)),
            None => Ok(Value::Nil),
        });
        m.add_method("getCommState", |_, g, ()| {
            Ok(g.handle.as_ref().map(|h| comm_number(h.comm_state())))
        });
        m.add_method("getTerminalState", |_, g, ()| {
            Ok(g.handle.as_ref().map(|h| h.terminal_state() as u8))
        });
        m.add_function("reset", |lua, ud: AnyUserData| {
            let id = {
                let mut g = ud.borrow_mut::<LuaClientGoal>()?;
                g.transition_cb = None;
                g.feedback_cb = None;
                g.handle = None;
                g.id
            };
            forget(lua, id)
        });
        m.add_meta_function(
            mlua::MetaMethod::Eq,
            |_, (a, b): (AnyUserData, AnyUserData)| {
                Ok(
                    match (a.borrow::<LuaClientGoal>(), b.borrow::<LuaClientGoal>()) {
                        (Ok(a), Ok(b)) => a.handle.is_some() && a.handle == b.handle,
                        _ => false,
                    },
                )
            },
        );
    }
}

fn on_transition(lua: &Lua, id: u64, state: CommState) -> mlua::Result<()> {
    let Some(ud) = object(lua, id)? else {
        return Ok(());
    };
    let cb = ud.borrow::<LuaClientGoal>()?.transition_cb.clone();
    if let Some(cb) = cb {
        if let Err(tb) = pcall(lua, &cb, ud.clone())? {
            log_error(lua, &format!("in a transition callback: {tb}"));
        }
    }
    if state == CommState::Done {
        forget(lua, id)?; // no more transitions; the script keeps the handle if it wants
    }
    Ok(())
}

fn on_feedback(lua: &Lua, id: u64, fb: DynMessage) -> mlua::Result<()> {
    let Some(ud) = object(lua, id)? else {
        return Ok(());
    };
    let cb = ud.borrow::<LuaClientGoal>()?.feedback_cb.clone();
    if let Some(cb) = cb {
        let f = to_lua(lua, &fb)?;
        if let Err(tb) = pcall(lua, &cb, (ud.clone(), f))? {
            log_error(lua, &format!("in a feedback callback: {tb}"));
        }
    }
    Ok(())
}

/// `actionlib.ActionClient`.
pub(crate) struct LuaActionClient {
    ns: String,
    action: DynAction,
    client: ActionClient<DynAction>,
    binding: Option<ActionClientBinding>,
    queue: Queue,
}

/// What the two clients' userdata share, so that their common methods are one.
trait LuaClient: UserData + Sized + 'static {
    /// (the action name, its types, the client's state machines)
    fn parts(&self) -> (&str, &DynAction, &ActionClient<DynAction>);
    fn binding(&mut self) -> &mut Option<ActionClientBinding>;
    fn queue(&self) -> &Queue;
}

/// `createGoal()`, `cancelAllGoals()`, `cancelGoalsAtAndBeforeTime(t)`,
/// `isServerConnected()`, the wait for the server (named `wait`), `shutdown()` and
/// `getActionName()`.
fn add_client_methods<T: LuaClient, M: UserDataMethods<T>>(m: &mut M, wait: &'static str) {
    m.add_method("createGoal", |lua, c, ()| {
        new_message(lua, c.parts().1.schema().goal())
    });
    m.add_method("cancelAllGoals", |_, c, ()| {
        c.parts().2.cancel_all_goals();
        Ok(())
    });
    m.add_method("cancelGoalsAtAndBeforeTime", |lua, c, t: Value| {
        c.parts()
            .2
            .cancel_goals_at_and_before_time(time_arg(lua, &t)?.to_ros());
        Ok(())
    });
    m.add_method("isServerConnected", |_, c, ()| {
        Ok(c.parts().2.is_server_connected())
    });
    m.add_function(wait, |lua, (ud, timeout): (AnyUserData, Value)| {
        let (client, queue) = {
            let c = ud.borrow::<T>()?;
            (c.parts().2.clone(), c.queue().clone())
        };
        let t = timeout_arg(lua, &timeout)?;
        spin_until(lua, &queue, t, &|| Ok(client.is_server_connected()))
    });
    m.add_method_mut("shutdown", |_, c, ()| {
        *c.binding() = None;
        Ok(())
    });
    m.add_method("getActionName", |_, c, ()| Ok(c.parts().0.to_string()));
}

impl LuaClient for LuaActionClient {
    fn parts(&self) -> (&str, &DynAction, &ActionClient<DynAction>) {
        (&self.ns, &self.action, &self.client)
    }
    fn binding(&mut self) -> &mut Option<ActionClientBinding> {
        &mut self.binding
    }
    fn queue(&self) -> &Queue {
        &self.queue
    }
}

impl LuaClient for LuaSimpleClient {
    fn parts(&self) -> (&str, &DynAction, &ActionClient<DynAction>) {
        (&self.ns, &self.action, self.simple.action_client())
    }
    fn binding(&mut self) -> &mut Option<ActionClientBinding> {
        &mut self.binding
    }
    fn queue(&self) -> &Queue {
        &self.queue
    }
}

impl UserData for LuaActionClient {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        add_client_methods(m, "waitForActionServerToStart");
        m.add_method(
            "sendGoal",
            |lua, c, (goal, transition_cb, feedback_cb): (Value, Option<Function>, Option<Function>)| {
                let goal = from_lua(lua, c.action.schema().goal(), &goal, "goal")?;
                let id = ctx(lua).id();
                let (q1, q2) = (c.queue.clone(), c.queue.clone());
                let handle = c.client.send_goal(
                    goal,
                    Some(Box::new(move |_, s| q1.raise(Box::new(move |lua| on_transition(lua, id, s))))),
                    Some(Box::new(move |_, f: &DynMessage| {
                        let f = f.clone();
                        q2.raise(Box::new(move |lua| on_feedback(lua, id, f)))
                    })),
                );
                let ud = lua.create_userdata(LuaClientGoal {
                    id,
                    handle: Some(handle),
                    queue: c.queue.clone(),
                    transition_cb,
                    feedback_cb,
                })?;
                register(lua, id, &ud)?;
                Ok(ud)
            },
        );
    }
}

/// `actionlib.ActionClient(spec, name[, nh[, callback_queue]])`.
fn new_action_client(
    lua: &Lua,
    (spec, name, nh, queue): (Value, String, Value, Value),
) -> mlua::Result<AnyUserData> {
    let (ns, action, client) = make(lua, &spec, &name, &nh)?;
    let queue = queue_arg(lua, &queue)?;
    let n = node(lua)?;
    let binding = ActionClientBinding::with_dispatch(&n, &ns, &client, queue.dispatch())
        .map_err(|e| fail(lua, e))?;
    let ud = lua.create_userdata(LuaActionClient {
        ns,
        action,
        client,
        binding: Some(binding),
        queue,
    })?;
    if let Value::UserData(nh) = &nh {
        crate::node::adopt(nh, &ud)?;
    }
    Ok(ud)
}

/// `actionlib.SimpleActionClient`.
pub(crate) struct LuaSimpleClient {
    ns: String,
    action: DynAction,
    simple: Arc<SimpleActionClient<DynAction>>,
    binding: Option<ActionClientBinding>,
    queue: Queue,
    /// a goal was sent (states are LOST before, as torch-ros reports them)
    sent: bool,
}

fn state_of(s: &SimpleActionClient<DynAction>) -> (u8, &'static str) {
    let n = simple_state_number(s.state());
    (n, SIMPLE_NAMES[usize::from(n - 1)])
}

/// The script's done / active / feedback callbacks of one goal, by a key.
fn on_simple_cb(lua: &Lua, key: u64, args: MultiValue) -> mlua::Result<()> {
    let Some(ud) = object(lua, key)? else {
        return Ok(());
    };
    let cb: Function = ud.user_value()?;
    if let Err(tb) = pcall(lua, &cb, args)? {
        log_error(lua, &format!("in a callback of a SimpleActionClient: {tb}"));
    }
    Ok(())
}

/// A holder of one Lua callback, so events can find it by id.
struct Callback;
impl UserData for Callback {}

fn hold(lua: &Lua, f: Option<Function>) -> mlua::Result<Option<u64>> {
    let Some(f) = f else { return Ok(None) };
    let id = ctx(lua).id();
    let ud = lua.create_userdata(Callback)?;
    ud.set_user_value(f)?;
    register(lua, id, &ud)?;
    Ok(Some(id))
}

fn simple_send(
    lua: &Lua,
    c: &LuaSimpleClient,
    goal: &Value,
    cbs: (Option<Function>, Option<Function>, Option<Function>),
) -> mlua::Result<()> {
    let goal = from_lua(lua, c.action.schema().goal(), goal, "goal")?;
    let (done, active, feedback) = (hold(lua, cbs.0)?, hold(lua, cbs.1)?, hold(lua, cbs.2)?);
    let (q1, q2, q3) = (c.queue.clone(), c.queue.clone(), c.queue.clone());
    c.simple.send_goal(
        goal,
        done.map(|k| {
            Box::new(move |s: StatusCode, r: Option<DynMessage>| {
                q1.raise(Box::new(move |lua| {
                    let n = simple_state_number(s);
                    let r = match &r {
                        Some(r) => Value::Table(to_lua(lua, r)?),
                        None => Value::Nil,
                    };
                    let args = MultiValue::from_iter([Value::Integer(i64::from(n)), r]);
                    let out = on_simple_cb(lua, k, args);
                    forget(lua, k)?;
                    out
                }))
            }) as skipper_actionlib::client::simple::DoneCallback<DynAction>
        }),
        active.map(|k| {
            Box::new(move || {
                q2.raise(Box::new(move |lua| {
                    let out = on_simple_cb(lua, k, MultiValue::new());
                    forget(lua, k)?;
                    out
                }))
            }) as skipper_actionlib::client::simple::ActiveCallback
        }),
        feedback.map(|k| {
            Box::new(move |f: &DynMessage| {
                let f = f.clone();
                q3.raise(Box::new(move |lua| {
                    let t = to_lua(lua, &f)?;
                    on_simple_cb(lua, k, MultiValue::from_iter([Value::Table(t)]))
                }))
            }) as skipper_actionlib::client::simple::SimpleFeedbackCallback<DynAction>
        }),
    );
    Ok(())
}

fn wait_for_result(lua: &Lua, ud: &AnyUserData, timeout: Option<Duration>) -> mlua::Result<bool> {
    let (simple, queue, sent) = {
        let c = ud.borrow::<LuaSimpleClient>()?;
        (c.simple.clone(), c.queue.clone(), c.sent)
    };
    if !sent {
        log_error(lua, "Trying to waitForResult() when no goal is running.");
        return Ok(false);
    }
    spin_until(lua, &queue, timeout, &|| {
        Ok(simple.simple_state() == SimpleGoalState::Done)
    })
}

impl UserData for LuaSimpleClient {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        add_client_methods(m, "waitForServer");
        m.add_method_mut(
            "sendGoal",
            |lua,
             c,
             (goal, done, active, feedback): (
                Value,
                Option<Function>,
                Option<Function>,
                Option<Function>,
            )| {
                if !c.simple.action_client().is_server_connected() {
                    log_error(lua, "Not connected to action server.");
                    return Err(fail(lua, "Not connected to action server."));
                }
                simple_send(lua, c, &goal, (done, active, feedback))?;
                c.sent = true;
                Ok(())
            },
        );
        m.add_function(
            "waitForResult",
            |lua, (ud, timeout): (AnyUserData, Value)| {
                let t = timeout_arg(lua, &timeout)?;
                wait_for_result(lua, &ud, t)
            },
        );
        m.add_function(
            "sendGoalAndWait",
            |lua, (ud, goal, exec, preempt): (AnyUserData, Value, Value, Value)| {
                let (exec, preempt) = (timeout_arg(lua, &exec)?, timeout_arg(lua, &preempt)?);
                let (simple, queue) = {
                    let c = ud.borrow::<LuaSimpleClient>()?;
                    (c.simple.clone(), c.queue.clone())
                };
                if !simple.action_client().is_server_connected()
                    && !spin_until(lua, &queue, exec, &|| Ok(simple.action_client().is_server_connected()))?
                {
                    log_error(lua, "No connection to action server was established within specified timeout interval.");
                    return Err(fail(lua, "Not connected to action server."));
                }
                {
                    let mut c = ud.borrow_mut::<LuaSimpleClient>()?;
                    simple_send(lua, &c, &goal, (None, None, None))?;
                    c.sent = true;
                }
                if !wait_for_result(lua, &ud, exec)? {
                    simple.cancel_goal();
                    wait_for_result(lua, &ud, preempt)?;
                }
                Ok(state_of(&simple))
            },
        );
        m.add_method("getResult", |lua, c, ()| match c.simple.result() {
            Some(r) => Ok(Value::Table(to_lua(lua, &r)?)),
            None => Ok(Value::Nil),
        });
        m.add_method("getState", |lua, c, ()| {
            if !c.sent {
                log_error(lua, "Trying to getState() when no goal is running.");
                return Ok((8, "LOST"));
            }
            Ok(state_of(&c.simple))
        });
        m.add_method("getGoalStatusText", |_, c, ()| {
            Ok(c.simple.goal_status_text())
        });
        m.add_method("cancelGoal", |lua, c, ()| {
            if !c.sent {
                log_error(lua, "Trying to cancelGoal() when no goal is running.");
            }
            c.simple.cancel_goal();
            c.queue.run_raised(lua)
        });
        m.add_method_mut("stopTrackingGoal", |_, c, ()| {
            c.simple.stop_tracking_goal();
            c.sent = false;
            Ok(())
        });
    }
}

/// `actionlib.SimpleActionClient(spec, name[, nh[, register_spin_callback[,
/// callback_queue]]])`.
fn new_simple_client(
    lua: &Lua,
    (spec, name, nh, _spin, queue): (Value, String, Value, Value, Value),
) -> mlua::Result<AnyUserData> {
    let (ns, action, client) = make(lua, &spec, &name, &nh)?;
    let queue = queue_arg(lua, &queue)?;
    let n = node(lua)?;
    let binding = ActionClientBinding::with_dispatch(&n, &ns, &client, queue.dispatch())
        .map_err(|e| fail(lua, e))?;
    let ud = lua.create_userdata(LuaSimpleClient {
        ns,
        action,
        simple: Arc::new(SimpleActionClient::new(client)),
        binding: Some(binding),
        queue,
        sent: false,
    })?;
    if let Value::UserData(nh) = &nh {
        crate::node::adopt(nh, &ud)?;
    }
    Ok(ud)
}

/// `actionlib.SimpleActionClient`, `actionlib.ActionClient`.
pub(crate) fn install(lua: &Lua, actionlib: &Table) -> mlua::Result<()> {
    actionlib.raw_set(
        "SimpleActionClient",
        lua.create_function(new_simple_client)?,
    )?;
    actionlib.raw_set("ActionClient", lua.create_function(new_action_client)?)
}
