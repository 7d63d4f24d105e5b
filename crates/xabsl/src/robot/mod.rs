//! Running an agent on a robot: a binding file maps the agent's input symbols onto the
//! robot's signals and its basic behaviors and output symbols onto actuation
//! ([`binding`]), and [`XabslController`] runs it as a Skipper controller.

pub mod binding;
mod controller;
pub mod option_call;

pub use binding::{parse_binding, BindingFile};
pub use controller::{TeamBus, XabslController};
pub use option_call::{parse_option_call, OptionCall};

use crate::{compile_path, Error};
use std::path::Path;
use std::sync::Arc;

/// Compile an agents file and build its controller, with the binding file beside it
/// (`agents.xabsl` → `agents.binding`) when there is one.
pub fn load_controller(agents: &Path) -> Result<XabslController, Error> {
    let c = compile_path(agents);
    if c.diagnostics.has_errors() {
        return Err(Error::Compile(format!(
            "{}{}: {} error(s)",
            c.diagnostics.render_errors(&c.program.sources),
            agents.display(),
            c.diagnostics.error_count()
        )));
    }
    let binding_path = agents.with_extension("binding");
    let text = match std::fs::read_to_string(&binding_path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(Error::Compile(format!(
                "cannot read {}: {e}",
                binding_path.display()
            )))
        }
    };
    XabslController::new(
        Arc::new(c.program),
        text.as_deref().map(|t| (binding_path.as_path(), t)),
    )
}
