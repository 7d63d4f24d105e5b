//! The dashboard's HTTP server (axum, on a thread of its own with its own runtime):
//!
//! | route | what |
//! | --- | --- |
//! | `GET /` | the page (`/app.js`, `/behavior.js`, `/style.css`: its scripts and style, embedded in the binary) |
//! | `GET /api/info` | live or replay, the world, the robots, the period (and a replay's length) |
//! | `GET /api/stream` | live: frames as server-sent events |
//! | `GET /api/frame?t=SECONDS[&robot=I]` | replay: the frame at a time (with more than 10 robots, rays only for robot I) |
//! | `GET /api/trails[?t=SECONDS]` | every robot's trail (up to that time in a replay) |
//! | `POST /api/control` | live: `{"cmd": "pause" / "resume" / "step" / "speed" + factor / "estop" + on / "goto" + robot, x, y[, tolerance] / "goal" + robot, kind, goal (its fields: any kind the robot's controller declares) / "goal_state" + robot, goal (an id) / "cancel" + robot[, kind or goal] / "select" + robot (its rays go in every frame)}` |
//! | `GET /api/stats` | frames published, queued, dropped; browsers connected |
//!
//! With a token, every route but the script and style needs `?token=...` or
//! `Authorization: Bearer ...`; without one, 401. Bad requests get 400 with a message;
//! bodies over 16 KiB are refused.

use crate::hub::Hub;
use crate::ServeOptions;
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio_stream::StreamExt as _;

/// The page.
const INDEX: &str = include_str!("../assets/index.html");
/// Its script.
const APP_JS: &str = include_str!("../assets/app.js");
/// Its behavior view (the dedicated views of each engine's state).
const BEHAVIOR_JS: &str = include_str!("../assets/behavior.js");
/// Its style.
const STYLE: &str = include_str!("../assets/style.css");

/// What the server serves: a live run or a replay.
pub trait Backend: Send + Sync + 'static {
    /// `/api/info`.
    fn info(&self) -> Value;
    /// `/api/trails`.
    fn trails(&self, t: Option<f64>) -> Value;
    /// `/api/frame` (replay only); `selected` is the robot whose rays the page draws.
    fn frame_at(&self, t: f64, selected: Option<usize>) -> Option<String>;
    /// The hub of the frame stream (live only).
    fn hub(&self) -> Option<Arc<Hub>>;
    /// `/api/control`.
    fn control(&self, cmd: &Value) -> Result<Value, String>;
    /// `/api/stats`.
    fn stats(&self) -> Value;
}

struct App {
    backend: Arc<dyn Backend>,
    token: Option<String>,
}

type Shared = State<Arc<App>>;

/// The running server; it stops when this is dropped.
pub struct Server {
    addr: SocketAddr,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
    /// Stop serving and wait for the server's thread.
    pub fn stop(mut self) {
        self.stop_now();
    }
    fn stop_now(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// Bind `opts.addr` and serve `backend` on a new thread.
pub fn start(backend: Arc<dyn Backend>, opts: &ServeOptions) -> std::io::Result<Server> {
    let listener = std::net::TcpListener::bind(opts.addr)?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let app = Arc::new(App {
        backend,
        token: opts.token.clone(),
    });
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let thread = std::thread::Builder::new()
        .name("dashboard".into())
        .spawn(move || {
            rt.block_on(async move {
                let listener = match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::error!("dashboard: {e}");
                        return;
                    }
                };
                let serve = axum::serve(listener, router(app));
                tokio::select! {
                    r = serve => if let Err(e) = r { tracing::error!("dashboard: {e}") },
                    _ = rx => {}
                }
            });
            // dropping the runtime ends every connection still open
            drop(rt);
        })?;
    Ok(Server {
        addr,
        shutdown: Some(tx),
        thread: Some(thread),
    })
}

fn router(app: Arc<App>) -> Router {
    let guarded = Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/api/info", get(info))
        .route("/api/stream", get(stream))
        .route("/api/frame", get(frame))
        .route("/api/trails", get(trails))
        .route("/api/stats", get(stats))
        .route("/api/control", post(control))
        .route_layer(middleware::from_fn_with_state(app.clone(), check_token));
    Router::new()
        .route("/app.js", get(app_js))
        .route("/behavior.js", get(behavior_js))
        .route("/style.css", get(style))
        .merge(guarded)
        .layer(DefaultBodyLimit::max(16 * 1024))
        .with_state(app)
}

/// Compare without an early exit, so the time taken says nothing about the token.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn token_in(req: &Request) -> Option<String> {
    if let Some(v) = req.headers().get(header::AUTHORIZATION) {
        if let Some(t) = v.to_str().ok().and_then(|s| s.strip_prefix("Bearer ")) {
            return Some(t.trim().to_string());
        }
    }
    let q = req.uri().query()?;
    q.split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .map(str::to_string)
}

async fn check_token(State(app): Shared, req: Request, next: Next) -> Response {
    if let Some(want) = &app.token {
        let ok = token_in(&req).is_some_and(|got| same(got.as_bytes(), want.as_bytes()));
        if !ok {
            return (
                StatusCode::UNAUTHORIZED,
                "this dashboard needs the token printed when it started: open the URL it printed, or add ?token=...\n",
            )
                .into_response();
        }
    }
    next.run(req).await
}

fn no_cache(mut r: Response) -> Response {
    r.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    r
}

async fn index() -> Response {
    no_cache(Html(INDEX).into_response())
}

async fn app_js() -> Response {
    no_cache(
        (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            APP_JS,
        )
            .into_response(),
    )
}

async fn behavior_js() -> Response {
    no_cache(
        (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            BEHAVIOR_JS,
        )
            .into_response(),
    )
}

async fn style() -> Response {
    no_cache(([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response())
}

async fn info(State(app): Shared) -> Json<Value> {
    Json(app.backend.info())
}

async fn stats(State(app): Shared) -> Json<Value> {
    Json(app.backend.stats())
}

fn t_param(q: &HashMap<String, String>) -> Result<Option<f64>, String> {
    match q.get("t") {
        None => Ok(None),
        Some(s) => match s.parse::<f64>() {
            Ok(t) if t.is_finite() => Ok(Some(t)),
            _ => Err(format!("`t` must be a time in seconds, not `{s}`")),
        },
    }
}

fn bad(msg: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({ "error": msg }))).into_response()
}

async fn frame(State(app): Shared, Query(q): Query<HashMap<String, String>>) -> Response {
    let t = match t_param(&q) {
        Ok(t) => t.unwrap_or(0.0),
        Err(e) => return bad(&e),
    };
    let selected = q.get("robot").and_then(|r| r.parse::<usize>().ok());
    match app.backend.frame_at(t, selected) {
        Some(f) => ([(header::CONTENT_TYPE, "application/json")], f).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({"error": "a live run streams its frames at /api/stream"})),
        )
            .into_response(),
    }
}

async fn trails(State(app): Shared, Query(q): Query<HashMap<String, String>>) -> Response {
    match t_param(&q) {
        Ok(t) => Json(app.backend.trails(t)).into_response(),
        Err(e) => bad(&e),
    }
}

async fn stream(State(app): Shared) -> Response {
    let Some(hub) = app.backend.hub() else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"error": "a replay has no stream: ask /api/frame?t=SECONDS"})),
        )
            .into_response();
    };
    let rx = hub.subscribe();
    let frames = tokio_stream::wrappers::ReceiverStream::new(rx)
        .map(|f| Ok::<Event, Infallible>(Event::default().data(&*f)));
    Sse::new(frames)
        .keep_alive(KeepAlive::default())
        .into_response()
}

async fn control(State(app): Shared, body: axum::body::Bytes) -> Response {
    let cmd: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return bad(&format!("the body must be a JSON command: {e}")),
    };
    match app.backend.control(&cmd) {
        Ok(v) => Json(v).into_response(),
        Err(e) => bad(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_comparison() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"abc", b"ab"));
    }
}
