//! Running an agent on a robot: a binding file maps the agent's input symbols onto the
//! robot's signals and its basic behaviors and output symbols onto actuation
//! ([`binding`]), and [`XabslController`] runs it as a Skipper controller.

pub mod binding;
mod compile;
mod controller;
mod expr;
pub mod goals;
pub mod option_call;

pub use binding::{parse_binding, BindingFile};
pub use controller::{TeamBus, XabslController};
pub use goals::{OptionStatus, RUN_OPTION};

/// Check an agent's binding file (and the input symbols it leaves unbound) against the
/// signals of a robot (`vocabulary`); the error carries rendered diagnostics.
pub fn check_binding(
    program: Arc<crate::Program>,
    binding: (&Path, &str),
    vocabulary: &Vocabulary,
) -> Result<(), Error> {
    XabslController::for_robot(program, Some(binding), vocabulary).map(|_| ())
}
pub use option_call::{parse_option_call, OptionCall};

use crate::{compile_path, Error};
use skipper_core::vocabulary::Vocabulary;
use std::path::Path;
use std::sync::Arc;

/// Compile an agents file and build its controller, with the binding file beside it
/// (`agents.xabsl` → `agents.binding`) when there is one.
pub fn load_controller(agents: &Path) -> Result<XabslController, Error> {
    load(agents, None)
}

/// [`load_controller`] for a robot whose signals are `vocabulary`: the binding file, and
/// the input symbols it leaves unbound, are checked against them.
pub fn load_controller_for(
    agents: &Path,
    vocabulary: &Vocabulary,
) -> Result<XabslController, Error> {
    load(agents, Some(vocabulary))
}

/// The binding file beside `agents` (`agents.xabsl` → `agents.binding`), if there is one.
pub fn binding_file(agents: &Path) -> Result<Option<(std::path::PathBuf, String)>, Error> {
    let path = agents.with_extension("binding");
    match std::fs::read_to_string(&path) {
        Ok(t) => Ok(Some((path, t))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::Compile(format!(
            "error: cannot read {}: {e}",
            path.display()
        ))),
    }
}

fn load(agents: &Path, vocabulary: Option<&Vocabulary>) -> Result<XabslController, Error> {
    let c = compile_path(agents);
    if c.diagnostics.has_errors() {
        let n = c.diagnostics.error_count();
        return Err(Error::Compile(format!(
            "{}error: {}: {n} error{}",
            c.diagnostics.render_errors(&c.program.sources),
            agents.display(),
            if n == 1 { "" } else { "s" }
        )));
    }
    let binding = binding_file(agents)?;
    let binding = binding.as_ref().map(|(p, t)| (p.as_path(), t.as_str()));
    let program = Arc::new(c.program);
    match vocabulary {
        Some(v) => XabslController::for_robot(program, binding, v),
        None => XabslController::new(program, binding),
    }
}
