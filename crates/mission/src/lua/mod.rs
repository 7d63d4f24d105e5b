//! The Lua side of loading: a sandboxed Lua 5.4 state in which the mission script runs once.
//!
//! The sandbox has only the `table`, `string`, `math` and `utf8` libraries and the safe part
//! of the base library (no `io`, `os`, `require`, `load`, `loadfile`, `dofile`, `debug`,
//! `collectgarbage`, `rawset`, coroutines, `string.dump`, nor the string pattern functions,
//! which run in C where the budget cannot stop them). An instruction budget (a count hook)
//! and a memory limit stop a script that loops or allocates without bound; both stay in force
//! until the state is dropped. `setmetatable` refuses `__gc` finalizers, which Lua runs with
//! hooks off, beyond the budget.
//!
//! The host injects `Units`, `UniversalURI`, the behavior modules (`Guidance`), the
//! configuration tables (`workSite`, `Control`, read-only), and the constructors `BEHAVIOR`
//! and `COMMAND`. Every object the script builds is a userdata that remembers the line it
//! was made on, so that later checks can point at it. Mistakes that can be found at the
//! call (a unit of the wrong dimension, an unknown setting) are recorded as diagnostics
//! and the script goes on, so one load reports them all; mistakes that make going on
//! pointless (an unknown URI, a call with the wrong arguments) stop the script.
//!
//! By job: [`sandbox`] (the Lua state, its limits, the injected globals, running the
//! chunk), [`objects`] (the values the script handles and the load's context),
//! [`userdata`] (how the script indexes and calls them), [`constructors`] (`BEHAVIOR`,
//! `COMMAND`), [`builders`] (`:SET`, `:WHEN`, ... on items), [`clauses`] (ValueClauses),
//! [`config_tables`] (the read-only configuration tables).

mod builders;
mod clauses;
mod config_tables;
mod constructors;
mod objects;
mod sandbox;
mod userdata;

pub(crate) use builders::repeat_count;
pub(crate) use clauses::as_clause;
pub(crate) use constructors::check_usage;
pub(crate) use objects::{Assign, Ctx, Data, Obj, RawItem};
pub(crate) use sandbox::run;
pub use sandbox::Limits;
