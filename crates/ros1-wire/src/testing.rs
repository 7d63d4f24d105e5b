//! A minimal ROS master for tests (not a real master: no rosout) (registration of topics
//! and services, publisherUpdate pushes, lookupService, getTopicTypes, parameters), plus a fake publisher's slave API (`requestTopic` answered with a port
//! the test listens on), so the ROS 1 transport is tested without a ROS installation.

use super::xmlrpc::{self, Value};
use std::collections::HashMap;
use std::io::BufReader;
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Default)]
struct State {
    pubs: HashMap<String, Vec<String>>,
    subs: HashMap<String, Vec<String>>,
    types: HashMap<String, String>,
    params: HashMap<String, Value>,
    /// topic -> TCPROS port of the fake publisher
    fake_ports: HashMap<String, u16>,
    /// service -> its rosrpc:// URI
    services: HashMap<String, String>,
    /// every caller id a call named, in the order first seen
    callers: Vec<String>,
}

/// The fake master; it serves until the process ends or [`FakeMaster::stop`].
pub struct FakeMaster {
    /// its URI
    pub uri: String,
    state: Arc<Mutex<State>>,
    stopped: Arc<std::sync::atomic::AtomicBool>,
    accepting: Option<std::thread::JoinHandle<()>>,
}

/// Each fake master's `getPid` (a real master answers its process id, which changes when
/// it is restarted).
static NEXT_PID: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(1000);

fn lock(m: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

fn reply(code: i32, v: Value) -> Value {
    Value::Array(vec![code.into(), "".into(), v])
}

impl FakeMaster {
    /// Start one on an ephemeral loopback port.
    pub fn start() -> std::io::Result<Self> {
        Self::start_on(0)
    }

    /// Start one on loopback port `port` (0: any), e.g. a master restarted where the one
    /// before it was. It knows nothing of what the one before knew.
    pub fn start_on(port: u16) -> std::io::Result<Self> {
        let l = TcpListener::bind(("127.0.0.1", port))?;
        let uri = format!("http://127.0.0.1:{}/", l.local_addr()?.port());
        let state: Arc<Mutex<State>> = Arc::default();
        let stopped: Arc<std::sync::atomic::AtomicBool> = Arc::default();
        let pid = NEXT_PID.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let (st, u, halt) = (state.clone(), uri.clone(), stopped.clone());
        let accepting = std::thread::spawn(move || {
            for s in l.incoming().flatten() {
                if halt.load(std::sync::atomic::Ordering::SeqCst) {
                    break; // the listener closes with this thread
                }
                let (st, u) = (st.clone(), u.clone());
                std::thread::spawn(move || serve(s, &st, &u, pid));
            }
        });
        Ok(FakeMaster {
            uri,
            state,
            stopped,
            accepting: Some(accepting),
        })
    }

    /// Stop answering and close the port (as a master that was killed); returns the port.
    pub fn stop(mut self) -> u16 {
        self.stopped
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let port = self.port();
        // wake the accepting thread so it sees the flag and closes the listener
        let _ = TcpStream::connect(("127.0.0.1", port));
        if let Some(t) = self.accepting.take() {
            let _ = t.join();
        }
        port
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.uri
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or(0)
    }

    /// The XML-RPC URIs of the nodes registered as publishers of `topic`.
    pub fn publishers(&self, topic: &str) -> Vec<String> {
        lock(&self.state)
            .pubs
            .get(topic)
            .cloned()
            .unwrap_or_default()
    }

    /// Every caller id the master's calls named (the nodes' full names), first seen
    /// first.
    pub fn callers(&self) -> Vec<String> {
        lock(&self.state).callers.clone()
    }

    /// The rosrpc:// URI of service `name`, if registered.
    pub fn service(&self, name: &str) -> Option<String> {
        lock(&self.state).services.get(name).cloned()
    }

    /// A parameter's value, if set.
    pub fn param(&self, k: &str) -> Option<Value> {
        lock(&self.state).params.get(k).cloned()
    }

    /// Set a parameter.
    pub fn set_param(&self, k: &str, v: Value) {
        lock(&self.state).params.insert(k.into(), v);
    }

    /// Register a fake publisher of `topic` whose TCPROS server is `port`.
    pub fn fake_publisher(&self, topic: &str, ty: &str, port: u16) {
        let subs = {
            let mut s = lock(&self.state);
            s.fake_ports.insert(topic.into(), port);
            s.pubs
                .entry(topic.into())
                .or_default()
                .push(self.uri.clone());
            s.types.insert(topic.into(), ty.into());
            s.subs.get(topic).cloned().unwrap_or_default()
        };
        let pubs = lock(&self.state)
            .pubs
            .get(topic)
            .cloned()
            .unwrap_or_default();
        for sub in subs {
            update(&sub, topic, &pubs);
        }
    }
}

fn update(sub: &str, topic: &str, pubs: &[String]) {
    let list = Value::Array(pubs.iter().map(|p| Value::from(p.as_str())).collect());
    let _ = xmlrpc::call(
        sub,
        "publisherUpdate",
        &["/master".into(), topic.into(), list],
        Duration::from_secs(2),
    );
}

fn serve(s: TcpStream, st: &Mutex<State>, me: &str, pid: i32) {
    let Ok(mut w) = s.try_clone() else { return };
    let mut r = BufReader::new(s);
    let Ok((_, body)) = xmlrpc::read_message(&mut r) else {
        return;
    };
    let Ok((m, p)) = xmlrpc::parse_call(&body) else {
        return;
    };
    let a = |i: usize| p.get(i).and_then(|v| v.as_str()).unwrap_or("").to_string();
    let mut notify: Option<(String, Vec<String>, Vec<String>)> = None;
    let v = {
        let mut s = lock(st);
        if !s.callers.contains(&a(0)) {
            s.callers.push(a(0));
        }
        match m.as_str() {
            "getUri" => reply(1, me.into()),
            "getPid" => reply(1, pid.into()),
            "registerPublisher" => {
                let (topic, ty, api) = (a(1), a(2), a(3));
                s.types.insert(topic.clone(), ty);
                let pubs = s.pubs.entry(topic.clone()).or_default();
                if !pubs.contains(&api) {
                    pubs.push(api);
                }
                let pubs = pubs.clone();
                let subs = s.subs.get(&topic).cloned().unwrap_or_default();
                notify = Some((topic, subs.clone(), pubs));
                reply(1, Value::Array(subs.into_iter().map(Value::from).collect()))
            }
            "registerSubscriber" => {
                let (topic, ty, api) = (a(1), a(2), a(3));
                s.types.entry(topic.clone()).or_insert(ty);
                s.subs.entry(topic.clone()).or_default().push(api);
                let pubs = s.pubs.get(&topic).cloned().unwrap_or_default();
                reply(1, Value::Array(pubs.into_iter().map(Value::from).collect()))
            }
            "unregisterPublisher" => {
                let (topic, api) = (a(1), a(2));
                let pubs = s.pubs.entry(topic.clone()).or_default();
                pubs.retain(|x| *x != api);
                let pubs = pubs.clone();
                let subs = s.subs.get(&topic).cloned().unwrap_or_default();
                notify = Some((topic, subs, pubs));
                reply(1, 1.into())
            }
            "unregisterSubscriber" => {
                let (topic, api) = (a(1), a(2));
                s.subs.entry(topic).or_default().retain(|x| *x != api);
                reply(1, 1.into())
            }
            "registerService" => {
                s.services.insert(a(1), a(2));
                reply(1, 1.into())
            }
            "unregisterService" => {
                let (name, api) = (a(1), a(2));
                let known = s.services.get(&name) == Some(&api);
                if known {
                    s.services.remove(&name);
                }
                reply(1, i32::from(known).into())
            }
            "lookupService" => match s.services.get(&a(1)) {
                Some(uri) => reply(1, uri.as_str().into()),
                None => reply(-1, "".into()),
            },
            "setParam" => {
                if let Some(v) = p.get(2) {
                    s.params.insert(a(1), v.clone());
                }
                reply(1, 0.into())
            }
            "hasParam" => reply(1, Value::Bool(s.params.contains_key(&a(1)))),
            "deleteParam" => match s.params.remove(&a(1)) {
                Some(_) => reply(1, 0.into()),
                None => reply(-1, 0.into()),
            },
            "getParam" => match s.params.get(&a(1)) {
                Some(v) => reply(1, v.clone()),
                None => reply(-1, 0.into()),
            },
            "searchParam" => {
                let k = a(1);
                let found = s
                    .params
                    .keys()
                    .find(|x| x.ends_with(&format!("/{k}")))
                    .cloned();
                match found {
                    Some(f) => reply(1, f.into()),
                    None => reply(-1, 0.into()),
                }
            }
            "getTopicTypes" => reply(
                1,
                Value::Array(
                    s.types
                        .iter()
                        .map(|(t, ty)| Value::Array(vec![t.as_str().into(), ty.as_str().into()]))
                        .collect(),
                ),
            ),
            // the fake publisher's slave API
            "requestTopic" => match s.fake_ports.get(&a(1)) {
                Some(port) => reply(
                    1,
                    Value::Array(vec![
                        "TCPROS".into(),
                        "127.0.0.1".into(),
                        Value::Int(i32::from(*port)),
                    ]),
                ),
                None => reply(-1, 0.into()),
            },
            _ => reply(-1, 0.into()),
        }
    };
    let _ = xmlrpc::write_response(&mut w, &xmlrpc::response_xml(&v));
    drop(w);
    if let Some((topic, subs, pubs)) = notify {
        for sub in subs {
            update(&sub, &topic, &pubs);
        }
    }
}
