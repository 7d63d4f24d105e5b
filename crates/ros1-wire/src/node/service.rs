//! Services a node offers (ROS 1's request/response calls over TCPROS): registration
//! with the master (`registerService` with the node's `rosrpc://` URI), the handshake of
//! an incoming call (`service`, `md5sum`, `callerid`, `probe`), and the calls on that
//! connection: each request frame is handed to the service's handler, whose answer goes
//! back as the ok byte and a frame (the response, or the error text when the ok byte
//! is 0). A persistent client keeps its connection for many calls.

use super::publish::{md5_matches, refuse};
use super::{lock, Inner, Node, RosError, RPC_TIMEOUT};
use crate::tcpros::{self, Header, TcprosError};
use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Who is calling a service: the connection header's fields (`callerid`, ...).
pub type CallHeader = Header;

/// A service handler: the request body and the caller's header in, the response body
/// (or an error text for the caller) out.
pub type ServiceHandler = Arc<dyn Fn(&[u8], &CallHeader) -> Result<Vec<u8>, String> + Send + Sync>;

pub(super) struct SrvEntry {
    pub(super) name: String,
    pub(super) ty: String,
    pub(super) md5: String,
    pub(super) request_type: String,
    pub(super) response_type: String,
    pub(super) handler: ServiceHandler,
}

/// The types of a service, as its handshake names them.
#[derive(Debug, Clone)]
pub struct ServiceType {
    /// `pkg/Name`
    pub name: String,
    /// the service's md5sum (of request and response together)
    pub md5sum: String,
    /// `pkg/NameRequest`
    pub request_type: String,
    /// `pkg/NameResponse`
    pub response_type: String,
}

/// An offered service; dropping it unregisters the service.
pub struct ServiceServer {
    node: Node,
    entry: Arc<SrvEntry>,
}

impl ServiceServer {
    /// The service's name.
    pub fn service(&self) -> &str {
        &self.entry.name
    }
}

impl Drop for ServiceServer {
    fn drop(&mut self) {
        let inner = &self.node.inner;
        let removed = {
            let mut srvs = lock(&inner.services);
            match srvs.get(&self.entry.name) {
                Some(e) if Arc::ptr_eq(e, &self.entry) => srvs.remove(&self.entry.name).is_some(),
                _ => false,
            }
        };
        if removed && !inner.stop.load(Ordering::SeqCst) {
            inner.unregister_service(&self.entry.name);
        }
    }
}

impl Inner {
    /// This node's `rosrpc://host:port/` URI (its TCPROS server).
    pub(super) fn service_uri(&self) -> String {
        format!("rosrpc://{}:{}", self.host, self.tcpros_port)
    }

    pub(super) fn unregister_service(&self, name: &str) {
        let _ = self.master(
            "unregisterService",
            vec![name.into(), self.service_uri().into()],
        );
    }
}

impl Node {
    /// Offer the service `name` of type `ty`: every call's request body goes to
    /// `handler` (on the caller's connection thread), whose answer is sent back.
    pub fn advertise_service(
        &self,
        name: &str,
        ty: &ServiceType,
        handler: ServiceHandler,
    ) -> Result<ServiceServer, RosError> {
        super::check_name(name)?;
        let entry = Arc::new(SrvEntry {
            name: name.to_string(),
            ty: ty.name.clone(),
            md5: ty.md5sum.clone(),
            request_type: ty.request_type.clone(),
            response_type: ty.response_type.clone(),
            handler,
        });
        lock(&self.inner.services).insert(name.to_string(), entry.clone());
        let registered = self.inner.master(
            "registerService",
            vec![
                name.into(),
                self.inner.service_uri().into(),
                self.inner.xmlrpc_uri.clone().into(),
            ],
        );
        let server = ServiceServer {
            node: self.clone(),
            entry,
        };
        registered.map(|_| server)
    }

    /// Where the master says the service `name` is (`rosrpc://host:port`).
    pub fn lookup_service(&self, name: &str) -> Result<String, RosError> {
        let v = self.inner.master("lookupService", vec![name.into()])?;
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| RosError::Master {
                uri: self.inner.master_uri.clone(),
                msg: format!("lookupService({name}): the reply is not a URI"),
            })
    }
}

/// A service call came in on the TCPROS server (its header has `service`): answer the
/// handshake, then every request on the connection.
pub(super) fn serve_service(inner: &Arc<Inner>, mut s: TcpStream, h: &Header) {
    let (Some(name), Some(md5), Some(callerid)) =
        (h.get("service"), h.get("md5sum"), h.get("callerid"))
    else {
        inner.stats.bad_headers.fetch_add(1, Ordering::Relaxed);
        return refuse(
            inner,
            &mut s,
            "a service call's header needs service, md5sum and callerid".into(),
        );
    };
    let Some(e) = lock(&inner.services).get(name).cloned() else {
        return refuse(
            inner,
            &mut s,
            format!("{} does not offer the service {name}", inner.name),
        );
    };
    if !md5_matches(md5, &e.md5) {
        return refuse(
            inner,
            &mut s,
            format!(
                "md5sum mismatch on service {name}: the caller {callerid} has {md5}, {} offers {}/{}",
                inner.name, e.ty, e.md5
            ),
        );
    }
    let reply = Header::default()
        .with("callerid", &inner.name)
        .with("md5sum", &e.md5)
        .with("request_type", &e.request_type)
        .with("response_type", &e.response_type)
        .with("type", &e.ty);
    if reply.write(&mut s).is_err() || h.get("probe") == Some("1") {
        let _ = s.shutdown(Shutdown::Both);
        return;
    }
    let _ = s.set_read_timeout(None);
    let mut request = Vec::new();
    let mut out = Vec::new();
    loop {
        match tcpros::read_frame(&mut s, &mut request) {
            Ok(()) => {}
            Err(TcprosError::TooLarge(n)) => {
                inner.stats.bad_messages.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("{name}: a {n}-byte request is over the limit; closing");
                break;
            }
            Err(_) => break, // the caller closed the connection
        }
        if inner.stop.load(Ordering::SeqCst) {
            break;
        }
        let answer = (e.handler)(&request, h);
        out.clear();
        let body = match &answer {
            Ok(b) => {
                out.push(1);
                b.as_slice()
            }
            Err(why) => {
                out.push(0);
                why.as_bytes()
            }
        };
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(body);
        if s.write_all(&out).and_then(|()| s.flush()).is_err() {
            break;
        }
    }
    let _ = s.shutdown(Shutdown::Both);
}

/// Call a service over a fresh or kept connection: write the request frame, read the
/// ok byte and the answer.
pub(crate) fn call_on(
    s: &mut TcpStream,
    request: &[u8],
) -> Result<Result<Vec<u8>, String>, TcprosError> {
    s.write_all(&tcpros::frame(request))?;
    s.flush()?;
    let mut ok = [0u8; 1];
    std::io::Read::read_exact(s, &mut ok)?;
    let mut body = Vec::new();
    tcpros::read_frame(s, &mut body)?;
    Ok(if ok[0] == 1 {
        Ok(body)
    } else {
        Err(String::from_utf8_lossy(&body).into_owned())
    })
}

/// Open a connection to the service `name` at `uri` (`rosrpc://host:port`) and shake
/// hands; the server's header comes back.
pub(crate) fn connect_service(
    caller: &str,
    uri: &str,
    name: &str,
    md5: &str,
    persistent: bool,
) -> Result<(TcpStream, Header), TcprosError> {
    use std::net::ToSocketAddrs;
    let bad = |m: String| TcprosError::Io(std::io::Error::other(m));
    let hostport = uri
        .strip_prefix("rosrpc://")
        .ok_or_else(|| bad(format!("`{uri}` is not a rosrpc:// URI")))?
        .trim_end_matches('/');
    let addr = hostport
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| bad(format!("`{uri}` has no address")))?;
    let mut s = TcpStream::connect_timeout(&addr, RPC_TIMEOUT)?;
    let _ = s.set_nodelay(true);
    Header::default()
        .with("callerid", caller)
        .with("service", name)
        .with("md5sum", md5)
        .with("persistent", if persistent { "1" } else { "0" })
        .write(&mut s)?;
    let _ = s.set_read_timeout(Some(RPC_TIMEOUT));
    let h = Header::read(&mut s)?;
    if let Some(e) = h.get("error") {
        return Err(TcprosError::Refused(e.to_string()));
    }
    let _ = s.set_read_timeout(None);
    Ok((s, h))
}
