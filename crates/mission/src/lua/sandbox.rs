//! The sandbox: a Lua 5.4 state with only the safe libraries, an instruction budget and a
//! memory limit, the globals the host injects, running the mission chunk once, and the
//! diagnostic for whatever stopped it (a syntax error, a host error at its line, the
//! budget, the memory limit).

use super::clauses::{clause_method, CLAUSE_METHODS};
use super::config_tables::config_table;
use super::constructors::constructor;
use super::objects::{ctx, line, type_name, Ctx, Obj, Space};
use crate::config::ConfigTable;
use crate::error::{Diagnostic, Severity};
use crate::library;
use mlua::{HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Limits of the load sandbox.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Lua VM instructions the script may run while loading.
    pub instructions: u64,
    /// Bytes the Lua state may hold.
    pub memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            instructions: 20_000_000,
            memory: 64 << 20,
        }
    }
}

/// What running the script produced.
pub(crate) struct Ran {
    pub lua: Lua,
    pub ctx: Rc<Ctx>,
}

/// Run the mission chunk once in the sandbox. `configs` are exposed as read-only global
/// tables named by their key (`workSite`, `Control`).
pub(crate) fn run(
    source: &str,
    file: &str,
    configs: &[(&str, &ConfigTable)],
    limits: Limits,
) -> Result<Ran, Vec<Diagnostic>> {
    let ctx = Rc::new(Ctx {
        file: file.into(),
        source: source.into(),
        diags: RefCell::new(Vec::new()),
        fatal: RefCell::new(None),
        budget_line: Cell::new(None),
        memory_line: Cell::new(None),
    });
    let setup_error = |e: mlua::Error| {
        vec![Diagnostic::at(
            Severity::Error,
            &ctx.file,
            source,
            0,
            None,
            format!("cannot set up the Lua sandbox: {e}"),
        )]
    };
    let lua = Lua::new_with(
        StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
        LuaOptions::default(),
    )
    .map_err(setup_error)?;
    lua.set_app_data(ctx.clone());
    setup(&lua, configs).map_err(setup_error)?;
    let used = Rc::new(Cell::new(0u64));
    let budget = limits.instructions;
    const EVERY: u32 = 1000;
    {
        let used = used.clone();
        let ctx2 = ctx.clone();
        // half: a table or string that doubles fails from there, in one step
        let high = limits.memory / 2;
        lua.set_hook(
            HookTriggers::new().every_nth_instruction(EVERY),
            move |lua, debug| {
                if lua.used_memory() >= high {
                    ctx2.memory_line.set(debug.current_line());
                } else if ctx2.memory_line.get().is_some() {
                    ctx2.memory_line.set(None);
                }
                let n = used.get() + u64::from(EVERY);
                used.set(n);
                if n > budget {
                    ctx2.budget_line
                        .set(Some(debug.current_line().unwrap_or(0)));
                    return Err(mlua::Error::RuntimeError(
                        "instruction budget exhausted".into(),
                    ));
                }
                Ok(VmState::Continue)
            },
        )
        .map_err(setup_error)?;
    }
    lua.set_memory_limit(limits.memory).map_err(setup_error)?;
    let result = lua.load(source).set_name(format!("={file}")).exec();
    // The hook and the limit stay until the state is dropped: finalizers (`__gc`) the
    // script left behind run then, and must not loop or allocate without bound either.
    if let Err(e) = result {
        let mut diags = ctx.diags.borrow().clone();
        diags.push(load_error(&ctx, &e, budget, limits.memory));
        return Err(diags);
    }
    Ok(Ran { lua, ctx })
}

fn load_error(ctx: &Ctx, e: &mlua::Error, budget: u64, memory: usize) -> Diagnostic {
    let at = |line: usize, word: Option<&str>, msg: String| {
        Diagnostic::at(Severity::Error, &ctx.file, &ctx.source, line, word, msg)
    };
    if let Some(l) = ctx.budget_line.get() {
        return at(
            l,
            None,
            format!("the script ran more than {budget} Lua instructions while loading (an endless loop?); a mission script must finish at once"),
        );
    }
    if is_memory(e) {
        return at(
            ctx.memory_line.get().unwrap_or(0),
            None,
            format!(
                "the script used more than {} MiB of memory while loading; a mission script must stay small",
                memory >> 20
            ),
        );
    }
    if let Some((line, word, msg)) = ctx.fatal.borrow().clone() {
        return at(line, word.as_deref(), msg);
    }
    // a Lua error: "file:LINE: message"
    let text = root_message(e);
    let prefix = format!("{}:", ctx.file);
    if let Some(rest) = text.strip_prefix(&prefix) {
        if let Some((num, msg)) = rest.split_once(':') {
            if let Ok(line) = num.trim().parse::<usize>() {
                let msg = msg.trim();
                let near = msg
                    .split_once("near '")
                    .and_then(|(_, r)| r.split_once('\''))
                    .map(|(w, _)| w.to_string());
                let kind = if matches!(root(e), mlua::Error::SyntaxError { .. }) {
                    "Lua syntax error: "
                } else {
                    ""
                };
                return at(line, near.as_deref(), format!("{kind}{msg}"));
            }
        }
    }
    at(0, None, text)
}

fn root(e: &mlua::Error) -> &mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } => root(cause),
        other => other,
    }
}

fn is_memory(e: &mlua::Error) -> bool {
    matches!(root(e), mlua::Error::MemoryError(_))
}

fn root_message(e: &mlua::Error) -> String {
    match root(e) {
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::RuntimeError(m) => m.lines().next().unwrap_or("").to_string(),
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
}

fn setup(lua: &Lua, configs: &[(&str, &ConfigTable)]) -> mlua::Result<()> {
    let g = lua.globals();
    // deterministic math.random; no finalizers (Lua runs `__gc` with hooks off, so the
    // instruction budget could not stop one that loops)
    lua.load(
        r#"math.randomseed(0)
        local setmt, rawget, type, error = setmetatable, rawget, type, error
        setmetatable = function(t, mt)
            if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
                error("__gc finalizers are not allowed in mission scripts", 2)
            end
            return setmt(t, mt)
        end"#,
    )
    .exec()?;
    for name in [
        "dofile",
        "loadfile",
        "load",
        "loadstring",
        "require",
        "collectgarbage",
        "rawset",
        "rawget",
        "rawequal",
        "module",
        "setfenv",
        "getfenv",
    ] {
        g.raw_set(name, Value::Nil)?;
    }
    if let Ok(s) = g.get::<Table>("string") {
        // `dump` exposes bytecode; the pattern functions run in C, beyond the instruction
        // budget, and a pattern can backtrack for hours
        for name in ["dump", "find", "match", "gmatch", "gsub"] {
            s.raw_set(name, Value::Nil)?;
        }
    }
    g.raw_set(
        "print",
        lua.create_function(|lua, args: MultiValue| {
            let c = ctx(lua)?;
            let text: Vec<String> = args
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.to_string_lossy(),
                    Value::Integer(i) => i.to_string(),
                    Value::Number(n) => n.to_string(),
                    Value::Boolean(b) => b.to_string(),
                    other => type_name(other),
                })
                .collect();
            c.diag(
                Severity::Warning,
                line(lua),
                None,
                format!("print: {}", text.join("\t")),
            );
            Ok(())
        })?,
    )?;
    g.raw_set("Units", Obj::Space(Space::Units))?;
    g.raw_set("UniversalURI", Obj::Space(Space::Uris))?;
    for m in library::MODULES {
        g.raw_set(*m, Obj::Space(Space::Module(m)))?;
    }
    g.raw_set(
        "BEHAVIOR",
        lua.create_function(|lua, v: Value| constructor(lua, false, v))?,
    )?;
    g.raw_set(
        "COMMAND",
        lua.create_function(|lua, v: Value| constructor(lua, true, v))?,
    )?;
    for (name, t) in configs {
        g.raw_set(*name, config_table(lua, t, name)?)?;
    }
    // `(true):OR(x)`: clause methods on booleans (§2.4)
    let bool_methods = lua.create_table()?;
    for &name in CLAUSE_METHODS {
        bool_methods.raw_set(
            name,
            lua.create_function(move |lua, args: MultiValue| clause_method(lua, name, args))?,
        )?;
    }
    let mt = lua.create_table()?;
    mt.raw_set("__index", bool_methods)?;
    lua.set_type_metatable::<bool>(Some(mt));
    Ok(())
}
