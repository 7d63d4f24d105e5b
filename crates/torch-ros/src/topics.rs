//! Publishers and subscribers: `nh:advertise(topic, spec[, queue_size[, latch[,
//! connect_cb[, disconnect_cb]]]])` and `nh:subscribe(topic, spec[, queue_size, ...,
//! callback_queue])`, as torch-ros has them.
//!
//! A subscriber keeps what arrives in a buffer of `queue_size` messages (the oldest go
//! first when it is full); `sub:read()` takes one, and callbacks registered with
//! `sub:registerCallback(fn)` get every message, `fn(msg, header, sub)`, when the queue
//! is spun. A publisher's connect and disconnect callbacks (`fn(subscriber_name,
//! topic)`) run when the default queue is spun after a subscriber came or went.

use crate::message::{from_lua, new_message, schema_arg, spec_table, to_lua};
use crate::node::{adopt, forget, node, object, queue_arg, register, NodeHandle};
use crate::queue::{Job, Queue};
use crate::runtime::{ctx, fail, pcall, secs};
use mlua::{AnyUserData, Function, Lua, Table, UserData, UserDataMethods, Value};
use skipper_actionlib::DynMessage;
use skipper_ros1_wire::msg::schema::MsgSchema;
use skipper_ros1_wire::node::Subscriber;
use skipper_ros1_wire::topics::subscribe_dyn;
use skipper_ros1_wire::DynPublisher;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// `ros.Publisher`.
pub(crate) struct LuaPublisher {
    id: u64,
    publisher: Option<DynPublisher>,
    schema: Arc<MsgSchema>,
    topic: String,
    latched: bool,
}

impl LuaPublisher {
    fn live(&self, lua: &Lua) -> mlua::Result<&DynPublisher> {
        self.publisher.as_ref().ok_or_else(|| {
            fail(
                lua,
                format!("the publisher of {} was shut down", self.topic),
            )
        })
    }
}

/// Run the ROS `spinOnce` (for the API's own waits that spin, as torch-ros's do).
pub(crate) fn spin_once(lua: &Lua) -> mlua::Result<()> {
    let ros: Table = lua.named_registry_value("skipper.ros")?;
    let f: Function = ros.raw_get("spinOnce")?;
    f.call::<()>(())
}

impl UserData for LuaPublisher {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("publish", |lua, p, msg: Value| {
            let pubr = p.live(lua)?;
            let m = from_lua(lua, &p.schema, &msg, "")?;
            pubr.publish(&m).map_err(|e| fail(lua, e))
        });
        m.add_method("getNumSubscribers", |_, p, ()| {
            Ok(p.publisher
                .as_ref()
                .map_or(0, |x| x.raw().subscribers().len()))
        });
        m.add_method("getTopic", |_, p, ()| Ok(p.topic.clone()));
        m.add_method("isLatched", |_, p, ()| Ok(p.latched));
        m.add_method("createMessage", |lua, p, ()| new_message(lua, &p.schema));
        m.add_method("getSpec", |lua, p, ()| spec_table(lua, &p.schema));
        m.add_function("shutdown", |lua, ud: AnyUserData| {
            let id = {
                let mut p = ud.borrow_mut::<LuaPublisher>()?;
                p.publisher = None;
                p.id
            };
            ctx(lua).pollers.borrow_mut().retain(|(i, _)| *i != id);
            forget(lua, id)
        });
        m.add_function(
            "waitForSubscriber",
            |lua, (ud, min, timeout): (AnyUserData, Option<usize>, Value)| {
                let timeout = crate::time::timeout_arg(lua, &timeout)?;
                let start = Instant::now();
                let min = min.unwrap_or(1);
                loop {
                    let n = ud
                        .borrow::<LuaPublisher>()?
                        .publisher
                        .as_ref()
                        .map_or(0, |x| x.raw().subscribers().len());
                    if n >= min {
                        return Ok(true);
                    }
                    if timeout.is_some_and(|t| start.elapsed() > t) || ctx(lua).stop.is_requested()
                    {
                        return Ok(false);
                    }
                    spin_once(lua)?;
                    ctx(lua).stop.sleep(Duration::from_millis(1));
                }
            },
        );
    }
}

/// The arguments of `nh:advertise`.
type AdvertiseArgs = (
    AnyUserData,
    String,
    Value,
    Option<i64>,
    Option<bool>,
    Option<Function>,
    Option<Function>,
);

/// `nh:advertise(topic, spec[, queue_size[, latch[, connect_cb[, disconnect_cb]]]])`.
pub(crate) fn advertise(
    lua: &Lua,
    (nh, topic, spec, _queue_size, latch, connect_cb, disconnect_cb): AdvertiseArgs,
) -> mlua::Result<AnyUserData> {
    let topic = nh.borrow::<NodeHandle>()?.resolve(lua, &topic)?;
    let schema = schema_arg(lua, &spec)?;
    let n = node(lua)?;
    let latched = latch.unwrap_or(false);
    let publisher =
        DynPublisher::advertise(&n, &topic, &schema, latched).map_err(|e| fail(lua, e))?;
    let c = ctx(lua);
    let id = c.id();
    let ud = lua.create_userdata(LuaPublisher {
        id,
        publisher: Some(publisher),
        schema,
        topic: topic.clone(),
        latched,
    })?;
    register(lua, id, &ud)?;
    adopt(&nh, &ud)?;
    if connect_cb.is_some() || disconnect_cb.is_some() {
        let mut known: Vec<String> = Vec::new();
        let weak = ud.clone();
        let poll = move |lua: &Lua| -> mlua::Result<()> {
            let now = match weak.borrow::<LuaPublisher>() {
                Ok(p) => p
                    .publisher
                    .as_ref()
                    .map(|x| x.raw().subscribers())
                    .unwrap_or_default(),
                Err(_) => return Ok(()),
            };
            let came: Vec<String> = now.iter().filter(|s| !known.contains(s)).cloned().collect();
            let went: Vec<String> = known.iter().filter(|s| !now.contains(s)).cloned().collect();
            known = now;
            for (list, cb) in [(came, &connect_cb), (went, &disconnect_cb)] {
                if let Some(cb) = cb {
                    for who in list {
                        if let Err(tb) = pcall(lua, cb, (who, topic.clone()))? {
                            crate::console::log(
                                lua,
                                None,
                                crate::console::ERROR,
                                &format!("in a subscriber status callback of {topic}: {tb}"),
                            );
                        }
                    }
                }
            }
            Ok(())
        };
        c.pollers
            .borrow_mut()
            .push((id, Box::new(RefPoll(std::cell::RefCell::new(poll)))));
    }
    Ok(ud)
}

/// A poller that keeps its own state.
struct RefPoll<F>(std::cell::RefCell<F>);

impl<F: FnMut(&Lua) -> mlua::Result<()>> crate::runtime::Poll for RefPoll<F> {
    fn poll(&self, lua: &Lua) -> mlua::Result<()> {
        match self.0.try_borrow_mut() {
            Ok(mut f) => f(lua),
            Err(_) => Ok(()), // a callback of this poller spun the queue: not again
        }
    }
}

type Buffer = Arc<Mutex<VecDeque<(DynMessage, String)>>>;

/// `ros.Subscriber`.
pub(crate) struct LuaSubscriber {
    id: u64,
    sub: Option<Subscriber>,
    schema: Arc<MsgSchema>,
    topic: String,
    buffer: Buffer,
    callbacks: Vec<Function>,
    queue: Queue,
}

fn header(lua: &Lua, s: &LuaSubscriber, callerid: &str) -> mlua::Result<Table> {
    let h = lua.create_table()?;
    h.raw_set("callerid", callerid)?;
    h.raw_set("topic", s.topic.as_str())?;
    h.raw_set("type", s.schema.name())?;
    h.raw_set("md5sum", s.schema.md5sum())?;
    Ok(h)
}

/// Hand the subscriber's buffered messages to its callbacks (none registered: they wait
/// for `read`).
fn deliver(lua: &Lua, id: u64) -> mlua::Result<()> {
    let Some(ud) = object(lua, id)? else {
        return Ok(());
    };
    loop {
        let (cbs, next) = {
            let s = ud.borrow::<LuaSubscriber>()?;
            if s.callbacks.is_empty() {
                return Ok(());
            }
            let Some((m, from)) = lock(&s.buffer).pop_front() else {
                return Ok(());
            };
            let msg = to_lua(lua, &m)?;
            let h = header(lua, &s, &from)?;
            (s.callbacks.clone(), (msg, h))
        };
        for cb in &cbs {
            if let Err(tb) = pcall(lua, cb, (next.0.clone(), next.1.clone(), ud.clone()))? {
                let topic = ud.borrow::<LuaSubscriber>()?.topic.clone();
                crate::console::log(
                    lua,
                    None,
                    crate::console::ERROR,
                    &format!("in a callback of the subscriber of {topic}: {tb}"),
                );
            }
        }
    }
}

impl UserData for LuaSubscriber {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method_mut("registerCallback", |_, s, f: Function| {
            if !s.callbacks.contains(&f) {
                s.callbacks.push(f);
            }
            if !lock(&s.buffer).is_empty() {
                let id = s.id;
                s.queue
                    .push(Job::Lua(Box::new(move |lua| deliver(lua, id))));
            }
            Ok(())
        });
        m.add_method_mut("unregisterCallback", |_, s, f: Function| {
            s.callbacks.retain(|x| *x != f);
            Ok(())
        });
        m.add_method("getNumPublishers", |_, s, ()| {
            Ok(s.sub.as_ref().map_or(0, |x| x.publishers().len()))
        });
        m.add_method("getTopic", |_, s, ()| Ok(s.topic.clone()));
        m.add_method("hasMessage", |_, s, ()| Ok(!lock(&s.buffer).is_empty()));
        m.add_method("getMessageCount", |_, s, ()| Ok(lock(&s.buffer).len()));
        m.add_method("read", |lua, s, timeout_ms: Option<f64>| {
            // a negative wait is no wait; NaN is the script's error, not a panic
            let wait = secs(lua, timeout_ms.unwrap_or(0.0).clamp(0.0, 1e9) / 1000.0)?;
            let end = Instant::now() + wait;
            loop {
                if let Some((m, from)) = lock(&s.buffer).pop_front() {
                    return Ok((
                        Value::Table(to_lua(lua, &m)?),
                        Value::Table(header(lua, s, &from)?),
                    ));
                }
                if Instant::now() >= end || !ctx(lua).stop.sleep(Duration::from_millis(1)) {
                    return Ok((Value::Nil, Value::Nil));
                }
            }
        });
        m.add_function("shutdown", |lua, ud: AnyUserData| {
            let id = {
                let mut s = ud.borrow_mut::<LuaSubscriber>()?;
                s.sub = None;
                s.callbacks.clear();
                s.id
            };
            forget(lua, id)
        });
    }
}

/// `nh:subscribe(topic, spec[, queue_size[, transports[, transport_options[,
/// callback_queue]]]])`.
pub(crate) fn subscribe(
    lua: &Lua,
    (nh, topic, spec, queue_size, _transports, _options, queue): (
        AnyUserData,
        String,
        Value,
        Option<i64>,
        Value,
        Value,
        Value,
    ),
) -> mlua::Result<AnyUserData> {
    let topic = nh.borrow::<NodeHandle>()?.resolve(lua, &topic)?;
    let schema = schema_arg(lua, &spec)?;
    let queue = queue_arg(lua, &queue)?;
    let n = node(lua)?;
    let cap = usize::try_from(queue_size.unwrap_or(1000))
        .unwrap_or(1)
        .max(1);
    let buffer: Buffer = Arc::default();
    let id = ctx(lua).id();
    let (b2, q2) = (buffer.clone(), queue.clone());
    let sub = subscribe_dyn(&n, &topic, &schema, move |m, from| {
        {
            let mut b = lock(&b2);
            if b.len() >= cap {
                b.pop_front();
            }
            b.push_back((m, from.to_string()));
        }
        q2.push(Job::Lua(Box::new(move |lua| deliver(lua, id))));
    })
    .map_err(|e| fail(lua, e))?;
    let ud = lua.create_userdata(LuaSubscriber {
        id,
        sub: Some(sub),
        schema,
        topic,
        buffer,
        callbacks: Vec::new(),
        queue,
    })?;
    register(lua, id, &ud)?;
    adopt(&nh, &ud)?;
    Ok(ud)
}
