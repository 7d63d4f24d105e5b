//! Services: `nh:advertiseService(name, spec, handler[, callback_queue])` and
//! `nh:serviceClient(name, spec[, persistent])` / `ros.ServiceClient(name, spec)`, as
//! torch-ros has them.
//!
//! A call that comes in waits in the callback queue until the script spins; then
//! `handler(request, response, header)` fills `response` and returns `true` (or returns
//! a response table); `false`, `nil` or a Lua error fail the call, and the caller gets
//! the error's text. `client:call(request)` returns the response, or `nil` and the
//! reason when the call failed; it waits for the answer as roscpp does, but a stop
//! request ends the wait.

use crate::message::{from_lua, new_message, srv_arg, srv_spec_table, to_lua};
use crate::node::{adopt, forget, node, object, queue_arg, register, resolve_under, NodeHandle};
use crate::queue::Job;
use crate::runtime::{ctx, fail, pcall};
use mlua::{AnyUserData, Function, Lua, Table, UserData, UserDataFields, UserDataMethods, Value};
use skipper_actionlib::DynMessage;
use skipper_ros1_wire::msg::schema::SrvSchema;
use skipper_ros1_wire::service::{advertise_dyn, DynServiceClient, ServiceServer};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// `ros.ServiceServer`.
pub(crate) struct LuaServiceServer {
    id: u64,
    server: Option<ServiceServer>,
    name: String,
    handler: Function,
    srv: Arc<SrvSchema>,
}

impl UserData for LuaServiceServer {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("getService", |_, s, ()| Ok(s.name.clone()));
        m.add_function("shutdown", |lua, ud: AnyUserData| {
            let id = {
                let mut s = ud.borrow_mut::<LuaServiceServer>()?;
                s.server = None;
                s.id
            };
            forget(lua, id)
        });
    }
}

type Reply = mpsc::SyncSender<Result<DynMessage, String>>;

/// Answer one call with the script's handler.
fn serve_call(
    lua: &Lua,
    id: u64,
    req: DynMessage,
    head: Vec<(String, String)>,
    reply: Reply,
) -> mlua::Result<()> {
    let Some(ud) = object(lua, id)? else {
        let _ = reply.send(Err("the service was shut down".into()));
        return Ok(());
    };
    let (handler, srv, name) = {
        let s = ud.borrow::<LuaServiceServer>()?;
        (s.handler.clone(), s.srv.clone(), s.name.clone())
    };
    let request = to_lua(lua, &req)?;
    let response = new_message(lua, srv.response())?;
    let header = lua.create_table()?;
    for (k, v) in head {
        header.raw_set(k, v)?;
    }
    let outcome = match pcall(lua, &handler, (request, response.clone(), header))? {
        Ok(rets) => match rets.into_iter().next().unwrap_or(Value::Nil) {
            Value::Table(t) => answer(lua, &srv, &Value::Table(t)),
            Value::Nil | Value::Boolean(false) => {
                Err(format!("the handler of {name} returned false"))
            }
            _ => answer(lua, &srv, &Value::Table(response)),
        },
        Err(traceback) => {
            crate::console::log(
                lua,
                None,
                crate::console::ERROR,
                &format!("in the handler of service {name}: {traceback}"),
            );
            Err(traceback.lines().next().unwrap_or("").to_string())
        }
    };
    let _ = reply.send(outcome);
    Ok(())
}

fn answer(lua: &Lua, srv: &SrvSchema, v: &Value) -> Result<DynMessage, String> {
    from_lua(lua, srv.response(), v, "response").map_err(|e| {
        let m = crate::runtime::message_of(&e);
        crate::console::log(lua, None, crate::console::ERROR, &m);
        m
    })
}

/// `nh:advertiseService(name, spec, handler[, callback_queue])`.
pub(crate) fn advertise_service(
    lua: &Lua,
    (nh, name, spec, handler, queue): (AnyUserData, String, Value, Function, Value),
) -> mlua::Result<AnyUserData> {
    let name = nh.borrow::<NodeHandle>()?.resolve(lua, &name)?;
    let srv = srv_arg(lua, &spec)?;
    let queue = queue_arg(lua, &queue)?;
    let n = node(lua)?;
    let id = ctx(lua).id();
    let server = advertise_dyn(&n, &name, &srv, move |req, h| {
        let (tx, rx) = mpsc::sync_channel(1);
        let head: Vec<(String, String)> = h.0.clone();
        queue.push(Job::Lua(Box::new(move |lua| {
            serve_call(lua, id, req, head, tx)
        })));
        rx.recv()
            .unwrap_or_else(|_| Err("the Lua node shut down before it answered".into()))
    })
    .map_err(|e| fail(lua, e))?;
    let ud = lua.create_userdata(LuaServiceServer {
        id,
        server: Some(server),
        name,
        handler,
        srv,
    })?;
    register(lua, id, &ud)?;
    adopt(&nh, &ud)?;
    Ok(ud)
}

/// `ros.ServiceClient`.
pub(crate) struct LuaServiceClient {
    client: Option<Arc<DynServiceClient>>,
    srv: Arc<SrvSchema>,
    name: String,
}

impl LuaServiceClient {
    fn live(&self, lua: &Lua) -> mlua::Result<&Arc<DynServiceClient>> {
        self.client
            .as_ref()
            .ok_or_else(|| fail(lua, "ros.ServiceClient instance is not valid."))
    }
}

impl UserData for LuaServiceClient {
    fn add_fields<F: UserDataFields<Self>>(f: &mut F) {
        f.add_field_method_get("spec", |lua, c| srv_spec_table(lua, &c.srv));
    }
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("call", |lua, c, req: Value| {
            let client = c.live(lua)?.clone();
            let req = match &req {
                Value::Nil => DynMessage::new(c.srv.request().clone()),
                v => from_lua(lua, c.srv.request(), v, "request")?,
            };
            let (tx, rx) = mpsc::channel();
            let c2 = client.clone();
            std::thread::Builder::new()
                .name("lua-service-call".into())
                .spawn(move || {
                    let _ = tx.send(c2.call(&req));
                })
                .map_err(|e| fail(lua, e))?;
            let stop = ctx(lua).stop.clone();
            let got = loop {
                match rx.recv_timeout(Duration::from_millis(20)) {
                    Ok(r) => break r.map_err(|e| e.to_string()),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if stop.is_requested() {
                            client.raw().interrupt();
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break Err("the call ended".into()),
                }
            };
            match got {
                Ok(resp) => Ok((Value::Table(to_lua(lua, &resp)?), Value::Nil)),
                Err(e) => Ok((Value::Nil, Value::String(lua.create_string(e)?))),
            }
        });
        m.add_method("exists", |lua, c, ()| Ok(c.live(lua)?.raw().exists()));
        m.add_method("waitForExistence", |lua, c, timeout: Value| {
            let t = crate::time::timeout_arg(lua, &timeout)?;
            let stop = ctx(lua).stop.clone();
            Ok(c.live(lua)?
                .raw()
                .wait_for_existence(t, &|| stop.is_requested()))
        });
        m.add_method("getService", |_, c, ()| Ok(c.name.clone()));
        m.add_method("isPersistent", |lua, c, ()| {
            Ok(c.live(lua)?.raw().is_persistent())
        });
        m.add_method("isValid", |_, c, ()| Ok(c.client.is_some()));
        m.add_method("createRequest", |lua, c, ()| {
            new_message(lua, c.srv.request())
        });
        m.add_method_mut("shutdown", |_, c, ()| {
            c.client = None;
            Ok(())
        });
    }
}

fn make_client(
    lua: &Lua,
    nh: &Value,
    name: &str,
    spec: &Value,
    persistent: Option<bool>,
) -> mlua::Result<LuaServiceClient> {
    let n = node(lua)?;
    let name = resolve_under(lua, nh, name)?;
    let srv = srv_arg(lua, spec)?;
    let client = DynServiceClient::new(&n, &name, &srv, persistent.unwrap_or(false))
        .map_err(|e| fail(lua, e))?;
    Ok(LuaServiceClient {
        client: Some(Arc::new(client)),
        srv,
        name,
    })
}

/// `nh:serviceClient(name, spec[, persistent[, header_values]])`.
pub(crate) fn service_client(
    lua: &Lua,
    (nh, name, spec, persistent, _header): (AnyUserData, String, Value, Option<bool>, Value),
) -> mlua::Result<AnyUserData> {
    let c = make_client(lua, &Value::UserData(nh.clone()), &name, &spec, persistent)?;
    let ud = lua.create_userdata(c)?;
    adopt(&nh, &ud)?;
    Ok(ud)
}

/// `ros.ServiceClient(name, spec[, persistent])`.
pub(crate) fn install(lua: &Lua, ros: &Table) -> mlua::Result<()> {
    ros.raw_set(
        "ServiceClient",
        lua.create_function(
            |lua, (name, spec, persistent): (String, Value, Option<bool>)| {
                make_client(lua, &Value::Nil, &name, &spec, persistent)
            },
        )?,
    )
}
