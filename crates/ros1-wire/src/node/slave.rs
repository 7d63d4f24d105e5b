//! The slave API a node serves over XML-RPC (what the master, other nodes and the
//! `rosnode` / `rostopic` tools call): `requestTopic`, `publisherUpdate`, `getBusInfo`,
//! `getPid`, `getPublications`, `shutdown`, ...; one thread accepts the calls, one
//! short-lived thread answers each.

use super::subscribe::update_publishers;
use super::{lock, Inner, RPC_TIMEOUT};
use crate::xmlrpc::{self, Value};
use std::io::BufReader;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl Inner {
    pub(super) fn bus_info(&self) -> Value {
        let mut out = Vec::new();
        for p in lock(&self.pubs).values() {
            for c in lock(&p.conns).iter() {
                out.push(Value::Array(vec![
                    Value::Int(c.id as i32),
                    c.callerid.as_str().into(),
                    "o".into(),
                    "TCPROS".into(),
                    p.topic.as_str().into(),
                    Value::Bool(c.alive.load(Ordering::SeqCst)),
                    format!(
                        "TCPROS connection on port {} to [{}]",
                        self.tcpros_port, c.callerid
                    )
                    .into(),
                ]));
            }
        }
        for s in lock(&self.subs).values() {
            for (uri, c) in lock(&s.conns).iter() {
                let who = lock(&c.callerid).clone().unwrap_or_else(|| uri.clone());
                out.push(Value::Array(vec![
                    Value::Int(c.id as i32),
                    who.as_str().into(),
                    "i".into(),
                    "TCPROS".into(),
                    s.topic.as_str().into(),
                    Value::Bool(lock(&c.callerid).is_some()),
                    format!("TCPROS connection to [{who}] for topic [{}]", s.topic).into(),
                ]));
            }
        }
        Value::Array(out)
    }

    pub(super) fn dispatch(self: &Arc<Self>, method: &str, params: &[Value]) -> Value {
        let ok = |msg: &str, v: Value| Value::Array(vec![1.into(), msg.into(), v]);
        let fail = |code: i32, msg: String| Value::Array(vec![code.into(), msg.into(), 0.into()]);
        let str_at = |i: usize| params.get(i).and_then(Value::as_str);
        match method {
            "getPid" => ok("", Value::Int(std::process::id() as i32)),
            "getMasterUri" => ok("", self.master_uri.as_str().into()),
            "getBusInfo" => ok("bus info", self.bus_info()),
            "getBusStats" => ok(
                "",
                Value::Array(vec![
                    Value::Array(vec![]),
                    Value::Array(vec![]),
                    Value::Array(vec![]),
                ]),
            ),
            "getPublications" | "getSubscriptions" => {
                let list: Vec<Value> = if method == "getPublications" {
                    lock(&self.pubs)
                        .values()
                        .map(|p| Value::Array(vec![p.topic.as_str().into(), p.ty.as_str().into()]))
                        .collect()
                } else {
                    lock(&self.subs)
                        .values()
                        .map(|s| Value::Array(vec![s.topic.as_str().into(), s.ty.as_str().into()]))
                        .collect()
                };
                ok("", Value::Array(list))
            }
            "paramUpdate" => ok("", 0.into()),
            "shutdown" => {
                let why = format!(
                    "{} asked node {} to shut down: {}",
                    str_at(0).unwrap_or("the master"),
                    self.name,
                    str_at(1).unwrap_or("")
                );
                tracing::warn!("{why}");
                // the node's owner decides how to end (a run stops its robots and closes
                // its log); on a thread of its own, so the caller gets its answer first.
                // Without an owner yet, the reason waits for it (`Node::on_shutdown`).
                let cb = {
                    let mut g = lock(&self.on_shutdown);
                    self.shutdown_requested.store(true, Ordering::SeqCst);
                    let cb = g.callback.take();
                    if cb.is_none() && g.why.is_none() {
                        g.why = Some(why.clone());
                    }
                    cb
                };
                if let Some(cb) = cb {
                    let _ = std::thread::Builder::new()
                        .name("ros1-shutdown".into())
                        .spawn(move || cb(why));
                }
                ok("shutdown", 0.into())
            }
            "publisherUpdate" => {
                let (Some(topic), Some(list)) =
                    (str_at(1), params.get(2).and_then(Value::as_array))
                else {
                    return fail(
                        -1,
                        "publisherUpdate(caller_id, topic, publishers) expected".into(),
                    );
                };
                let uris: Vec<String> = list
                    .iter()
                    .filter_map(|u| u.as_str().map(str::to_string))
                    .collect();
                let sub = lock(&self.subs).get(topic).cloned();
                if let Some(s) = sub {
                    update_publishers(self, &s, &uris);
                }
                ok("", 0.into())
            }
            "requestTopic" => {
                let Some(topic) = str_at(1) else {
                    return fail(
                        -1,
                        "requestTopic(caller_id, topic, protocols) expected".into(),
                    );
                };
                if !lock(&self.pubs).contains_key(topic) {
                    return fail(-1, format!("not a publisher of [{topic}]"));
                }
                let tcpros = params
                    .get(2)
                    .and_then(Value::as_array)
                    .unwrap_or(&[])
                    .iter()
                    .any(|p| {
                        p.as_array().and_then(|a| a.first()).and_then(Value::as_str)
                            == Some("TCPROS")
                    });
                if !tcpros {
                    return fail(0, "no supported protocol (only TCPROS)".into());
                }
                ok(
                    &format!("ready on {}:{}", self.host, self.tcpros_port),
                    Value::Array(vec![
                        "TCPROS".into(),
                        self.host.as_str().into(),
                        Value::Int(i32::from(self.tcpros_port)),
                    ]),
                )
            }
            other => fail(-1, format!("unknown method {other}")),
        }
    }
}
pub(super) fn xmlrpc_loop(inner: Arc<Inner>, l: TcpListener) {
    for s in l.incoming() {
        if inner.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(s) = s else { continue };
        let i2 = inner.clone();
        let _ = std::thread::Builder::new()
            .name("ros1-xmlrpc-conn".into())
            .spawn(move || serve_xmlrpc(&i2, s));
    }
}

pub(super) fn serve_xmlrpc(inner: &Arc<Inner>, s: TcpStream) {
    let _ = s.set_nodelay(true);
    let _ = s.set_read_timeout(Some(RPC_TIMEOUT));
    let Ok(w) = s.try_clone() else { return };
    let mut w = w;
    let mut r = BufReader::new(s);
    let reply = match xmlrpc::read_message(&mut r) {
        Err(e) => {
            inner.stats.bad_xmlrpc.fetch_add(1, Ordering::Relaxed);
            tracing::warn!("bad XML-RPC request: {e}");
            xmlrpc::fault_xml(-1, &e.to_string())
        }
        Ok((_, body)) => match xmlrpc::parse_call(&body) {
            Err(e) => {
                inner.stats.bad_xmlrpc.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("bad XML-RPC request: {e}");
                xmlrpc::fault_xml(-1, &e.to_string())
            }
            Ok((method, params)) => xmlrpc::response_xml(&inner.dispatch(&method, &params)),
        },
    };
    let _ = xmlrpc::write_response(&mut w, &reply);
    let _ = w.shutdown(Shutdown::Both);
}
