//! ROS 1 services: the calling side ([`ServiceClient`]: `lookupService` on the master,
//! then the TCPROS handshake and request/response frames, on a fresh connection per call
//! or one kept open when persistent), and services of types known at run time
//! ([`advertise_dyn`], [`DynServiceClient`]) on a node's offering side
//! ([`Node::advertise_service`]).

use super::node::service::{call_on, connect_service};
pub use super::node::service::{CallHeader, ServiceHandler, ServiceServer, ServiceType};
use super::node::{Node, RosError};
use super::tcpros::TcprosError;
use crate::msg::dynamic::DynMessage;
use crate::msg::schema::SrvSchema;
use crate::msg::MessageType;
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Why a service call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServiceError {
    /// The master knows no such service.
    #[error("service {0} is not available: {1}")]
    NotFound(String, String),
    /// The connection failed or the server refused the handshake.
    #[error("service {0}: {1}")]
    Connection(String, String),
    /// The server answered that the call failed (its ok byte was 0), with its text.
    #[error("service {0} failed: {1}")]
    Failed(String, String),
    /// The request or the response is not of the service's type, or did not decode.
    #[error("service {0}: {1}")]
    BadMessage(String, String),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl ServiceType {
    /// The handshake names of a service type known at run time.
    pub fn of_schema(s: &SrvSchema) -> Self {
        Self {
            name: s.name().to_string(),
            md5sum: s.md5sum().to_string(),
            request_type: s.request().name().to_string(),
            response_type: s.response().name().to_string(),
        }
    }
}

/// A client of one service.
pub struct ServiceClient {
    node: Node,
    name: String,
    md5: String,
    persistent: bool,
    /// the kept connection of a persistent client
    kept: Mutex<Option<TcpStream>>,
    /// a clone of the connection a call is waiting on, for [`ServiceClient::interrupt`]
    waiting: Mutex<Option<TcpStream>>,
}

impl ServiceClient {
    /// A client of the service `name` whose md5sum is `md5` (`*` accepts any).
    pub fn new(node: &Node, name: &str, md5: &str, persistent: bool) -> Result<Self, RosError> {
        super::node::check_name(name)?;
        Ok(Self {
            node: node.clone(),
            name: name.to_string(),
            md5: md5.to_string(),
            persistent,
            kept: Mutex::new(None),
            waiting: Mutex::new(None),
        })
    }

    /// The service's name.
    pub fn service(&self) -> &str {
        &self.name
    }

    /// Whether the client keeps its connection between calls.
    pub fn is_persistent(&self) -> bool {
        self.persistent
    }

    /// Whether the master knows the service now.
    pub fn exists(&self) -> bool {
        self.node.lookup_service(&self.name).is_ok()
    }

    /// Wait until the service exists (`None`: forever), asking the master every 50 ms,
    /// or until `give_up` says so; whether it exists.
    pub fn wait_for_existence(
        &self,
        timeout: Option<Duration>,
        give_up: &dyn Fn() -> bool,
    ) -> bool {
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            if self.exists() {
                return true;
            }
            if give_up() || deadline.is_some_and(|d| Instant::now() >= d) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn connect(&self) -> Result<TcpStream, ServiceError> {
        let uri = self
            .node
            .lookup_service(&self.name)
            .map_err(|e| ServiceError::NotFound(self.name.clone(), e.to_string()))?;
        let conn = |e: TcprosError| ServiceError::Connection(self.name.clone(), e.to_string());
        let (s, _) = connect_service(
            self.node.name(),
            &uri,
            &self.name,
            &self.md5,
            self.persistent,
        )
        .map_err(conn)?;
        Ok(s)
    }

    /// Call the service with a request body; the response body. Blocks until the
    /// server answers (as roscpp's and rospy's calls do) or [`interrupt`](Self::interrupt).
    pub fn call(&self, request: &[u8]) -> Result<Vec<u8>, ServiceError> {
        let kept = if self.persistent {
            lock(&self.kept).take()
        } else {
            None
        };
        let mut s = match kept {
            Some(s) => s,
            None => self.connect()?,
        };
        *lock(&self.waiting) = s.try_clone().ok();
        let answer = call_on(&mut s, request);
        *lock(&self.waiting) = None;
        match answer {
            Ok(Ok(body)) => {
                if self.persistent {
                    *lock(&self.kept) = Some(s);
                }
                Ok(body)
            }
            Ok(Err(text)) => Err(ServiceError::Failed(self.name.clone(), text)),
            Err(e) => Err(ServiceError::Connection(self.name.clone(), e.to_string())),
        }
    }

    /// End a call that is waiting for its answer (it fails), and drop a kept connection.
    pub fn interrupt(&self) {
        for slot in [&self.waiting, &self.kept] {
            if let Some(s) = lock(slot).take() {
                let _ = s.shutdown(Shutdown::Both);
            }
        }
    }
}

/// Offer the service `name` of a type known at run time: `handler` gets each decoded
/// request and the caller's header and answers with a response of the service's
/// response type (another type, or an `Err`, fails the call with that text).
pub fn advertise_dyn(
    node: &Node,
    name: &str,
    srv: &Arc<SrvSchema>,
    handler: impl Fn(DynMessage, &CallHeader) -> Result<DynMessage, String> + Send + Sync + 'static,
) -> Result<ServiceServer, RosError> {
    let s = srv.clone();
    let raw: ServiceHandler = Arc::new(move |body: &[u8], h: &CallHeader| {
        let req = DynMessage::decode(s.request(), body)
            .map_err(|e| format!("the request does not decode as {}: {e}", s.request().name()))?;
        let resp = handler(req, h)?;
        s.response().check(&resp)?;
        Ok(resp.to_bytes())
    });
    node.advertise_service(name, &ServiceType::of_schema(srv), raw)
}

/// A client of a service of a type known at run time.
pub struct DynServiceClient {
    raw: ServiceClient,
    srv: Arc<SrvSchema>,
}

impl DynServiceClient {
    /// A client of the service `name` of type `srv`.
    pub fn new(
        node: &Node,
        name: &str,
        srv: &Arc<SrvSchema>,
        persistent: bool,
    ) -> Result<Self, RosError> {
        Ok(Self {
            raw: ServiceClient::new(node, name, srv.md5sum(), persistent)?,
            srv: srv.clone(),
        })
    }

    /// The service type.
    pub fn schema(&self) -> &Arc<SrvSchema> {
        &self.srv
    }

    /// The untyped client (existence, interrupting a call).
    pub fn raw(&self) -> &ServiceClient {
        &self.raw
    }

    /// Call the service; its response.
    pub fn call(&self, request: &DynMessage) -> Result<DynMessage, ServiceError> {
        let bad = |e: String| ServiceError::BadMessage(self.raw.name.clone(), e);
        self.srv.request().check(request).map_err(bad)?;
        let body = self.raw.call(&request.to_bytes())?;
        DynMessage::decode(self.srv.response(), &body).map_err(|e| bad(e.to_string()))
    }
}
