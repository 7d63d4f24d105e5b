//! The Lua state a script runs in, and how a run ends.
//!
//! Lua 5.4 with its safe standard libraries (`io`, `os`, `package`, `string`, `table`,
//! `math`, `utf8`, `coroutine`; no `debug` but `debug.traceback`, no `ffi`), the `ros`
//! modules in `package.preload`, torch's `sys` (`sleep`, `clock`, `tic`/`toc`), and a few
//! Lua 5.1 names scripts written for LuaJIT use (`unpack`, `loadstring`, `math.pow`,
//! `table.getn`). The script's arguments are `arg` and `...`.
//!
//! Limits: a memory limit ([`Options::memory_limit`]: a script that runs out fails with
//! the line it was on at the last hook while it held half the limit or more); an
//! instruction limit ([`Options::instruction_limit`]: a script that runs more Lua
//! instructions than that is ended with [`ScriptError::Limit`] at the line it was on);
//! a [`Stop`] request makes `ros.ok()` false and ends every wait the API makes, and
//! once the grace period has passed the instruction hook raises an error wherever the
//! script is (a runaway loop included). `os.exit(code)` ends the script the same way,
//! with its status, so the node is always taken down cleanly (goals ended, topics and
//! services unregistered).
//! A script's own `pcall` / `xpcall` cannot catch these ends (exit, interrupt, limit):
//! they pass through it.

use crate::node;
use crate::queue::Queue;
use mlua::{HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Value, VmState};
use std::cell::{Cell, RefCell};
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a script is run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The ROS master (`None`: `ROS_MASTER_URI`, else `http://127.0.0.1:11311/`).
    pub master_uri: Option<String>,
    /// Bytes the Lua state may hold.
    pub memory_limit: usize,
    /// How long a script may go on after a stop request before it is interrupted.
    pub grace: Duration,
    /// Lua instructions the script may run in all (`None`: no limit), counted in steps
    /// of [`HOOK_STEP`].
    pub instruction_limit: Option<u64>,
}

/// Instructions between two checks of the stop request and the instruction limit.
pub const HOOK_STEP: u32 = 1000;

impl Default for Options {
    fn default() -> Self {
        Self {
            master_uri: None,
            memory_limit: 1 << 30,
            grace: Duration::from_secs(2),
            instruction_limit: None,
        }
    }
}

/// A request to stop a script, from another thread (a signal handler); clones share it.
#[derive(Debug, Clone, Default)]
pub struct Stop(Arc<StopInner>);

#[derive(Debug, Default)]
struct StopInner {
    requested: AtomicBool,
    at: Mutex<Option<Instant>>,
}

impl Stop {
    /// No stop requested yet.
    pub fn new() -> Self {
        Self::default()
    }
    /// Ask the script to stop (idempotent).
    pub fn request(&self) {
        let mut at = self.0.at.lock().unwrap_or_else(|p| p.into_inner());
        at.get_or_insert_with(Instant::now);
        self.0.requested.store(true, Ordering::SeqCst);
    }
    /// Whether a stop was requested.
    pub fn is_requested(&self) -> bool {
        self.0.requested.load(Ordering::SeqCst)
    }
    /// Whether a stop was requested more than `grace` ago.
    fn overdue(&self, grace: Duration) -> bool {
        self.is_requested()
            && self
                .0
                .at
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_some_and(|t| t.elapsed() >= grace)
    }
    /// Sleep `d`, in short steps, unless a stop is requested; `false` if one was.
    pub fn sleep(&self, d: Duration) -> bool {
        let end = Instant::now() + d;
        loop {
            if self.is_requested() {
                return false;
            }
            let now = Instant::now();
            if now >= end {
                return true;
            }
            std::thread::sleep((end - now).min(Duration::from_millis(20)));
        }
    }
}

/// How a script ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It returned (status 0, or the integer it returned) or called `os.exit(code)`.
    Finished(u8),
    /// A stop request ended it (it ended by itself after the request, or was
    /// interrupted after the grace period).
    Stopped,
}

/// Why a script could not run to its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// The script could not be read.
    #[error("{0}")]
    Load(String),
    /// The script does not parse: `file:line:col: error: message`, the source line and a
    /// caret under the place.
    #[error("{0}")]
    Syntax(String),
    /// The script raised an error: its message with `file:line`, the script's line there
    /// and the Lua traceback.
    #[error("{0}")]
    Failed(String),
    /// The script ran more instructions than its limit (`file:line: message`).
    #[error("{0}")]
    Limit(String),
    /// The Lua state could not be set up.
    #[error("cannot set up Lua: {0}")]
    Setup(String),
}

/// `os.exit(code)`: unwinds the script.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("os.exit({0})")]
pub(crate) struct Exit(pub u8);

/// The grace period after a stop request ran out.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("interrupted: the script did not end within {0:?} of the stop request")]
pub(crate) struct Interrupted(pub Duration);

/// The instruction limit was reached (`at`: `file:line: ` where the script was).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{at}the script ran {limit} Lua instructions, its limit (skipper lua --instructions)")]
pub(crate) struct LimitReached {
    pub at: String,
    pub limit: u64,
}

/// What ends a server's goals when the script ends.
pub(crate) type Finisher = Box<dyn Fn()>;

/// What the API's functions share, in the Lua state's app data.
pub(crate) struct Ctx {
    pub stop: Stop,
    pub options: Options,
    /// the script's arguments (ROS arguments `a:=b` among them)
    pub args: Vec<String>,
    /// the node, once `ros.init` ran
    pub ros: RefCell<Option<node::RosNode>>,
    /// the default callback queue (`ros.DEFAULT_CALLBACK_QUEUE`)
    pub queue: Queue,
    next_id: Cell<u64>,
    /// what to do with each running server when the script ends (end its goals)
    pub finishers: RefCell<Vec<(u64, Finisher)>>,
    pub console: RefCell<crate::console::Console>,
    /// what runs each time the default queue is spun (publishers' connect callbacks)
    pub pollers: RefCell<Vec<(u64, Box<dyn Poll>)>>,
    /// the node's clock (the system's until `ros.init` finds `/use_sim_time`)
    pub clock: RefCell<crate::clock::RosClock>,
    /// the script's name and text (errors show its lines)
    pub script: crate::diag::Script,
    /// where the script was (`file:line: `) at the last hook while it held half its
    /// memory limit or more, for the error when it runs out (Lua calls no message
    /// handler for that)
    pub memory_near: RefCell<String>,
}

/// Work done on the script's thread each time the default queue is spun.
pub(crate) trait Poll {
    fn poll(&self, lua: &Lua) -> mlua::Result<()>;
}

impl Ctx {
    /// A fresh id for an object events are addressed to.
    pub fn id(&self) -> u64 {
        let n = self.next_id.get() + 1;
        self.next_id.set(n);
        n
    }
    /// Remember how to end a server's goals when the script ends.
    pub fn on_finish(&self, id: u64, f: Finisher) {
        self.finishers.borrow_mut().push((id, f));
    }
    /// Run the pollers (new ones made meanwhile run next time).
    pub fn run_pollers(&self, lua: &Lua) -> mlua::Result<()> {
        let now = std::mem::take(&mut *self.pollers.borrow_mut());
        let mut result = Ok(());
        for (_, p) in &now {
            result = p.poll(lua);
            if result.is_err() {
                break;
            }
        }
        let mut all = self.pollers.borrow_mut();
        let added = std::mem::take(&mut *all);
        *all = now;
        all.extend(added);
        result
    }
    /// The server shut down by itself: run its finisher now, once.
    pub fn finish(&self, id: u64) {
        let f = {
            let mut all = self.finishers.borrow_mut();
            all.iter()
                .position(|(i, _)| *i == id)
                .map(|at| all.remove(at).1)
        };
        if let Some(f) = f {
            f();
        }
    }
}

/// The script's shared state.
/// The script's clock (see [`crate::clock`]).
pub(crate) fn clock(lua: &Lua) -> crate::clock::RosClock {
    ctx(lua).clock.borrow().clone()
}

pub(crate) fn ctx(lua: &Lua) -> Rc<Ctx> {
    match lua.app_data_ref::<Rc<Ctx>>() {
        Some(c) => c.clone(),
        None => unreachable_ctx(),
    }
}

#[cold]
fn unreachable_ctx() -> ! {
    // every state this crate makes has its Ctx before any API function can run
    panic!("skipper-torch-ros: the Lua state has no context")
}

/// An error raised by the API at the script's current line (`file:line: message`), as
/// Lua's `error(msg, 2)` gives it.
pub(crate) fn fail(lua: &Lua, msg: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::RuntimeError(format!("{}{msg}", where_(lua)))
}

/// `file:line: ` of the innermost Lua function on the stack.
pub(crate) fn where_(lua: &Lua) -> String {
    let mut at = String::new();
    write_where(lua, &mut at);
    at
}

/// [`where_`] into `out`, which is cleared first: no allocation once `out` has room.
fn write_where(lua: &Lua, out: &mut String) {
    use std::fmt::Write as _;
    out.clear();
    for level in 0..8 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            match (src.short_src, d.current_line()) {
                (Some(file), Some(line)) if src.what != "C" => {
                    let _ = write!(out, "{file}:{line}: ");
                    true
                }
                _ => false,
            }
        });
        match found {
            Some(true) | None => return,
            Some(false) => continue,
        }
    }
}

/// The root of an error, under the callback wrappers.
pub(crate) fn root(e: &mlua::Error) -> &mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } => root(cause),
        mlua::Error::WithContext { cause, .. } => root(cause),
        other => other,
    }
}

/// An error's message as a script would print it (no "runtime error:" prefix, no
/// callback traceback).
pub(crate) fn message_of(e: &mlua::Error) -> String {
    match root(e) {
        mlua::Error::RuntimeError(m) => m.clone(),
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::MemoryError(m) => format!("out of memory: {m}"),
        other => other.to_string(),
    }
}

/// The message of an error value raised in Lua.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string_lossy(),
        Value::Error(e) => message_of(e),
        Value::Nil => "nil".into(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Boolean(b) => b.to_string(),
        other => format!("(error object is a {} value)", other.type_name()),
    }
}

/// An exit or an interrupt: not the script's error, it ends the script.
pub(crate) fn is_unwind(e: &mlua::Error) -> bool {
    match root(e) {
        mlua::Error::ExternalError(x) => {
            x.is::<Exit>() || x.is::<Interrupted>() || x.is::<LimitReached>()
        }
        _ => false,
    }
}

fn unwind_of(v: &Value) -> Option<Result<Outcome, ScriptError>> {
    let Value::Error(e) = v else { return None };
    let mlua::Error::ExternalError(x) = root(e) else {
        return None;
    };
    if let Some(Exit(code)) = x.downcast_ref::<Exit>() {
        return Some(Ok(Outcome::Finished(*code)));
    }
    if let Some(l) = x.downcast_ref::<LimitReached>() {
        return Some(Err(ScriptError::Limit(l.to_string())));
    }
    x.downcast_ref::<Interrupted>()
        .map(|_| Ok(Outcome::Stopped))
}

/// The message handler of every protected call: the message with the Lua traceback
/// (exits and interrupts pass through unchanged).
fn traceback_handler(lua: &Lua) -> mlua::Result<mlua::Function> {
    lua.create_function(|lua, v: Value| {
        if unwind_of(&v).is_some() {
            return Ok(v);
        }
        let msg = describe(&v);
        Ok(Value::String(lua.traceback(Some(&msg), 1)?))
    })
}

/// Call `f` with `args` in protected mode: its results, or the error's message with the
/// traceback. An exit or an interrupt is returned as an `mlua::Error` to propagate.
pub(crate) fn pcall(
    lua: &Lua,
    f: &mlua::Function,
    args: impl mlua::IntoLuaMulti,
) -> mlua::Result<Result<MultiValue, String>> {
    let xpcall: mlua::Function = lua.named_registry_value("skipper.xpcall")?;
    let handler: mlua::Function = lua.named_registry_value("skipper.traceback")?;
    let mut all = MultiValue::new();
    all.push_back(Value::Function(f.clone()));
    all.push_back(Value::Function(handler));
    all.extend(args.into_lua_multi(lua)?);
    let mut out: MultiValue = xpcall.call(all)?;
    let ok = matches!(out.pop_front(), Some(Value::Boolean(true)));
    if ok {
        return Ok(Ok(out));
    }
    let v = out.pop_front().unwrap_or(Value::Nil);
    if let Value::Error(e) = &v {
        if is_unwind(e) {
            return Err((**e).clone());
        }
    }
    let text = if is_out_of_memory(&v) {
        out_of_memory(lua)
    } else {
        describe(&v)
    };
    Ok(Err(crate::diag::runtime_error(&ctx(lua).script, &text)))
}

fn setup_error(e: mlua::Error) -> ScriptError {
    ScriptError::Setup(message_of(&e))
}

/// Run the script at `path` with `args`.
pub fn run_file(
    path: &Path,
    args: &[String],
    options: &Options,
    stop: &Stop,
) -> Result<Outcome, ScriptError> {
    let src = std::fs::read(path).map_err(|e| {
        ScriptError::Load(format!("{}: cannot read the script: {e}", path.display()))
    })?;
    run_source(&path.display().to_string(), &src, args, options, stop)
}

/// Run a script's source; `name` is its file name in messages.
pub fn run_source(
    name: &str,
    src: &[u8],
    args: &[String],
    options: &Options,
    stop: &Stop,
) -> Result<Outcome, ScriptError> {
    let lua = Lua::new_with(StdLib::ALL_SAFE, LuaOptions::default()).map_err(setup_error)?;
    let ctx = Rc::new(Ctx {
        stop: stop.clone(),
        options: options.clone(),
        args: args.to_vec(),
        ros: RefCell::new(None),
        queue: Queue::new(),
        next_id: Cell::new(0),
        finishers: RefCell::new(Vec::new()),
        console: RefCell::new(crate::console::Console::default()),
        pollers: RefCell::new(Vec::new()),
        clock: RefCell::default(),
        script: crate::diag::Script {
            name: name.to_string(),
            source: String::from_utf8_lossy(src).into_owned(),
        },
        memory_near: RefCell::default(),
    });
    lua.set_app_data(ctx.clone());
    install(&lua, name, args).map_err(setup_error)?;
    lua.set_memory_limit(options.memory_limit)
        .map_err(setup_error)?;
    set_hook(&lua, stop, options).map_err(setup_error)?;
    let outcome = run_chunk(&lua, name, src, args);
    // whatever ended the script: end its servers' goals, then leave the master
    finish(&ctx);
    lua.remove_hook();
    match outcome {
        Ok(Outcome::Finished(_)) if stop.is_requested() => Ok(Outcome::Stopped),
        other => other,
    }
}

/// Every [`HOOK_STEP`] instructions: interrupt an overdue stop, note where the script is
/// while its memory is near the limit, count toward the instruction limit.
fn set_hook(lua: &Lua, stop: &Stop, options: &Options) -> mlua::Result<()> {
    let (st, grace, limit) = (stop.clone(), options.grace, options.instruction_limit);
    // half: a table or string that doubles fails from there, in one step
    let near = options.memory_limit / 2;
    let (ran, noted) = (Cell::new(0u64), Cell::new(false));
    lua.set_hook(
        HookTriggers::new().every_nth_instruction(HOOK_STEP),
        move |lua, _| {
            if st.overdue(grace) {
                return Err(mlua::Error::external(Interrupted(grace)));
            }
            let high = lua.used_memory() >= near;
            if high || noted.replace(high) {
                note_memory(lua, high);
            }
            ran.set(ran.get().saturating_add(u64::from(HOOK_STEP)));
            match limit {
                Some(limit) if ran.get() > limit => Err(mlua::Error::external(LimitReached {
                    at: where_(lua),
                    limit,
                })),
                _ => Ok(VmState::Continue),
            }
        },
    )
}

/// Remember where the script is while its memory is `high`, forget it when it is not.
fn note_memory(lua: &Lua, high: bool) {
    let c = ctx(lua);
    let mut at = c.memory_near.borrow_mut();
    if high {
        write_where(lua, &mut at);
    } else {
        at.clear();
    }
}

/// Lua's error value for a failed allocation. It reaches no message handler, so it
/// comes without a place or a traceback; an `error()` call's value always has them.
fn is_out_of_memory(v: &Value) -> bool {
    matches!(v, Value::String(s) if s.as_bytes() == b"not enough memory".as_slice())
}

/// The message for a script that ran out of memory: where it was last seen near the
/// limit, and the limit.
fn out_of_memory(lua: &Lua) -> String {
    let c = ctx(lua);
    let limit = c.options.memory_limit;
    let size = if limit % (1 << 20) == 0 {
        format!("{} MiB", limit >> 20)
    } else {
        format!("{limit} bytes")
    };
    format!(
        "{}the script ran out of memory: its Lua state may hold {size} (skipper lua --memory)",
        c.memory_near.borrow()
    )
}

fn run_chunk(lua: &Lua, name: &str, src: &[u8], args: &[String]) -> Result<Outcome, ScriptError> {
    let chunk = lua
        .load(src)
        .set_name(format!("@{name}"))
        .into_function()
        .map_err(|e| {
            ScriptError::Syntax(crate::diag::syntax_error(&ctx(lua).script, &message_of(&e)))
        })?;
    let argv: Vec<String> = args.to_vec();
    match pcall(
        lua,
        &chunk,
        MultiValue::from_iter(argv.iter().map(|a| {
            lua.create_string(a)
                .map(Value::String)
                .unwrap_or(Value::Nil)
        })),
    ) {
        Ok(Ok(ret)) => Ok(Outcome::Finished(match ret.front() {
            Some(Value::Integer(i)) => u8::try_from(*i).unwrap_or(1),
            Some(Value::Boolean(false)) => 1,
            _ => 0,
        })),
        Ok(Err(traceback)) => Err(ScriptError::Failed(traceback)),
        Err(e) => match unwind_of(&Value::Error(Box::new(e.clone()))) {
            Some(o) => o,
            None => Err(ScriptError::Failed(message_of(&e))),
        },
    }
}

/// End every running server's goals and take the node down.
fn finish(ctx: &Ctx) {
    let all: Vec<_> = ctx.finishers.borrow_mut().drain(..).collect();
    for (_, f) in all {
        f();
    }
    if let Some(n) = ctx.ros.borrow_mut().take() {
        n.shutdown();
    }
}

/// The globals and modules.
fn install(lua: &Lua, name: &str, args: &[String]) -> mlua::Result<()> {
    let g = lua.globals();
    lua.set_named_registry_value("skipper.traceback", traceback_handler(lua)?)?;
    lua.set_named_registry_value("skipper.xpcall", g.raw_get::<mlua::Function>("xpcall")?)?;
    install_pcall(lua)?;
    lua.set_named_registry_value("skipper.objects", lua.create_table()?)?;
    let argt = lua.create_table()?;
    argt.raw_set(0, name)?;
    for (i, a) in args.iter().enumerate() {
        argt.raw_set(i + 1, a.as_str())?;
    }
    g.raw_set("arg", argt)?;
    // Lua 5.1 / LuaJIT names
    let table: mlua::Table = g.raw_get("table")?;
    g.raw_set("unpack", table.raw_get::<Value>("unpack")?)?;
    g.raw_set("loadstring", g.raw_get::<Value>("load")?)?;
    lua.load(
        "math.pow = math.pow or function(a, b) return a ^ b end
         table.getn = table.getn or function(t) return #t end",
    )
    .exec()?;
    let debug = lua.create_table()?;
    debug.raw_set(
        "traceback",
        lua.create_function(|lua, (msg, level): (Option<Value>, Option<usize>)| {
            let m = msg.map(|v| describe(&v));
            lua.traceback(m.as_deref(), level.unwrap_or(1) + 1)
        })?,
    )?;
    g.raw_set("debug", debug)?;
    let os: mlua::Table = g.raw_get("os")?;
    os.raw_set(
        "exit",
        lua.create_function(|_, code: Option<Value>| -> mlua::Result<()> {
            let code = match code {
                None | Some(Value::Boolean(true)) => 0,
                Some(Value::Boolean(false)) => 1,
                Some(Value::Integer(i)) => u8::try_from(i).unwrap_or(1),
                Some(Value::Number(n)) => u8::try_from(n as i64).unwrap_or(1),
                Some(_) => 1,
            };
            Err(mlua::Error::external(Exit(code)))
        })?,
    )?;
    install_sys(lua)?;
    node::install(lua)
}

/// `pcall` / `xpcall` that let an exit, an interrupt or a limit through (a script
/// catching every error must not keep a runaway loop alive), and hand the script an
/// API error as the message string stock Lua would (`file:line: message`).
fn install_pcall(lua: &Lua) -> mlua::Result<()> {
    let classify = lua.create_function(|lua, v: Value| match &v {
        Value::Error(e) if is_unwind(e) => Ok((true, v)),
        Value::Error(e) => Ok((false, Value::String(lua.create_string(message_of(e))?))),
        _ => Ok((false, v)),
    })?;
    lua.load(
        "local raw_pcall, raw_xpcall, classify = pcall, xpcall, ...
         local function pass(ok, e, ...)
           if ok then return ok, e, ... end
           local unwind, err = classify(e)
           if unwind then error(e, 0) end
           return false, err
         end
         function pcall(f, ...) return pass(raw_pcall(f, ...)) end
         function xpcall(f, handler, ...)
           return pass(raw_xpcall(f, function(e)
             local unwind, err = classify(e)
             if unwind then return e end
             return handler(err)
           end, ...))
         end",
    )
    .set_name("=ros (pcall)")
    .call::<()>(classify)
}

/// torch's `sys`: `sleep(s)`, `clock()`, `tic()` / `toc()`.
fn install_sys(lua: &Lua) -> mlua::Result<()> {
    let sys = lua.create_table()?;
    sys.raw_set(
        "sleep",
        lua.create_function(|lua, s: f64| {
            ctx(lua).stop.sleep(secs(lua, s)?);
            Ok(())
        })?,
    )?;
    let t0 = Instant::now();
    sys.raw_set(
        "clock",
        lua.create_function(move |_, ()| Ok(t0.elapsed().as_secs_f64()))?,
    )?;
    let tic = Rc::new(Cell::new(Instant::now()));
    let t2 = tic.clone();
    sys.raw_set(
        "tic",
        lua.create_function(move |_, ()| {
            t2.set(Instant::now());
            Ok(())
        })?,
    )?;
    sys.raw_set(
        "toc",
        lua.create_function(move |_, ()| Ok(tic.get().elapsed().as_secs_f64()))?,
    )?;
    let loaded: mlua::Table = lua
        .globals()
        .raw_get::<mlua::Table>("package")?
        .raw_get("loaded")?;
    loaded.raw_set("sys", sys.clone())?;
    lua.globals().raw_set("sys", sys)
}

/// A number of seconds as a duration (negative or not finite: an error).
pub(crate) fn secs(lua: &Lua, s: f64) -> mlua::Result<Duration> {
    if !(0.0..=1e9).contains(&s) {
        return Err(fail(lua, format!("{s} is not a number of seconds to wait")));
    }
    Ok(Duration::from_secs_f64(s))
}
