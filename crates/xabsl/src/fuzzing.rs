//! What the fuzz target runs, also replayed over its corpus by a regular test: the bytes,
//! split at lines `%%`, as files `agents.xabsl`, `f1.xabsl`, `f2.xabsl`, ... (so an
//! input can be a whole agent with its includes), checked; when they check, their
//! intermediate code, engine (a few cycles, native code and interpreter side by side),
//! documentation and Graphviz. Any input must
//! end in diagnostics or results, never a panic or a hang.

use crate::engine::{Backend, Engine};
use crate::loader::MemLoader;
use std::sync::Arc;

/// Run one input through the front end and, if it checks, everything else.
pub fn run(data: &[u8]) {
    let mut files = MemLoader::new();
    for (i, part) in split(data).into_iter().enumerate() {
        let name = if i == 0 {
            "agents.xabsl".to_string()
        } else {
            format!("f{i}.xabsl")
        };
        files.add(name, part.to_vec());
    }
    let c = crate::compile("agents.xabsl", &files);
    let _ = c.render();
    if c.diagnostics.has_errors() {
        return;
    }
    let _ = crate::ic::write(&c.program);
    let _ = crate::doc::dot::option_graph(&c.program);
    if c.program.options.len() <= 64 {
        let _ = crate::doc::generate(&c.program);
    }
    let p = Arc::new(c.program);
    let (Ok(mut native), Ok(mut interp)) = (Engine::new(p.clone()), Engine::new(p)) else {
        return;
    };
    interp.set_backend(Backend::Interpreter);
    // the machine code must do what the interpreter does
    for t in 0..5 {
        native.execute(100 * t);
        interp.execute(100 * t);
        assert_eq!(
            native.path(),
            interp.path(),
            "cycle {t}: the backends disagree"
        );
        assert_eq!(native.executed(), interp.executed(), "cycle {t}");
        assert_eq!(native.problems(), interp.problems(), "cycle {t}");
    }
}

fn split(data: &[u8]) -> Vec<&[u8]> {
    let sep = b"\n%%\n";
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + sep.len() <= data.len() {
        if &data[i..i + sep.len()] == sep {
            parts.push(&data[start..i]);
            start = i + sep.len();
            i = start;
        } else {
            i += 1;
        }
    }
    parts.push(&data[start..]);
    parts
}
