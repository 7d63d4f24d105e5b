//! What the fuzz target runs, also replayed over its corpus by a regular test: the bytes,
//! split at lines `%%`, as files `agents.xabsl`, `f1.xabsl`, `f2.xabsl`, ... (so an
//! input can be a whole agent with its includes), checked; when they check, their
//! intermediate code, engine (a few cycles, native code and interpreter side by side),
//! documentation and Graphviz. Any input must
//! end in diagnostics or results, never a panic or a hang.
//!
//! [`trace`] is the `xabsl_trace` target: JSON lines of inputs, as `skipper xabsl run`
//! reads them, for a synthetic agent with every kind of input. [`binding`] is the
//! `xabsl_binding` target: a binding file for a small agent, checked against the ground
//! robot's vocabulary and, when it checks, run for a few cycles on signals.

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

/// The synthetic agent of the golden traces (N=5, seed 7): number, boolean and
/// enumerated inputs, a parameterised input (defined as `in.f0 * k`), enumerations.
fn trace_agent() -> Arc<crate::model::Program> {
    const DIR: [(&str, &str); 8] = [
        (
            "agents.xabsl",
            include_str!("../tests/data/golden/seed7-N5/agents.xabsl"),
        ),
        (
            "sym.xabsl",
            include_str!("../tests/data/golden/seed7-N5/sym.xabsl"),
        ),
        (
            "bbs.xabsl",
            include_str!("../tests/data/golden/seed7-N5/bbs.xabsl"),
        ),
        (
            "o0.xabsl",
            include_str!("../tests/data/golden/seed7-N5/o0.xabsl"),
        ),
        (
            "o1.xabsl",
            include_str!("../tests/data/golden/seed7-N5/o1.xabsl"),
        ),
        (
            "o2.xabsl",
            include_str!("../tests/data/golden/seed7-N5/o2.xabsl"),
        ),
        (
            "o3.xabsl",
            include_str!("../tests/data/golden/seed7-N5/o3.xabsl"),
        ),
        (
            "o4.xabsl",
            include_str!("../tests/data/golden/seed7-N5/o4.xabsl"),
        ),
    ];
    static PROGRAM: std::sync::OnceLock<Arc<crate::model::Program>> = std::sync::OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let mut files = MemLoader::new();
            for (name, text) in DIR {
                files.add(name, text);
            }
            Arc::new(crate::compile("agents.xabsl", &files).program)
        })
        .clone()
}

/// An engine for the trace target on `backend`, its parameterised input defined.
fn trace_engine(backend: Backend) -> Option<Engine> {
    let p = trace_agent();
    let mut e = Engine::new(p.clone()).ok()?;
    e.set_backend(backend);
    if let Some(s) = p.symbol("in.scaled") {
        let x = crate::parser::parse_expression("in.f0 * k", Default::default()).ok()?;
        let x = crate::check::check_definition(&p, s, &x).ok()?;
        e.define_input(s, &x).ok()?;
    }
    e.prepare();
    Some(e)
}

/// Start an engine over: initial states, every input value back to 0.
fn restart(e: &mut Engine) {
    e.reset();
    let p = e.program().clone();
    for (s, sym) in p.symbols.iter().enumerate() {
        if sym.kind == crate::model::SymbolKind::Input && e.input_is_value(s) {
            e.set_input(s, 0.0);
        }
    }
}

/// Run up to 64 JSON lines of inputs through the trace runner on both backends (kept
/// from input to input, started over each time: compiling the native code per input
/// would be most of the work); both must accept or refuse each line alike and write the
/// same output line.
pub fn trace(data: &[u8]) {
    use crate::trace::TraceRunner;
    thread_local! {
        static ENGINES: std::cell::RefCell<Option<(Engine, Engine)>> =
            const { std::cell::RefCell::new(None) };
    }
    let Some((mut native, mut interp)) = ENGINES.with(|c| c.borrow_mut().take()).or_else(|| {
        Some((
            trace_engine(Backend::Native)?,
            trace_engine(Backend::Interpreter)?,
        ))
    }) else {
        return;
    };
    restart(&mut native);
    restart(&mut interp);
    let (mut a, mut b) = (TraceRunner::new(native), TraceRunner::new(interp));
    let text = String::from_utf8_lossy(data);
    for line in text.lines().take(64) {
        let (x, y) = (
            a.step(line).map(str::to_owned),
            b.step(line).map(str::to_owned),
        );
        match (x, y) {
            (Ok(x), Ok(y)) => assert_eq!(x, y, "the backends disagree on {line}"),
            (Err(_), Err(_)) => {}
            (x, y) => panic!("one backend refused {line}: {x:?} / {y:?}"),
        }
    }
    let engines = (a.into_engine(), b.into_engine());
    ENGINES.with(|c| *c.borrow_mut() = Some(engines));
}

/// The agent the binding target binds: inputs of each type, a basic behavior with
/// parameters, an enumerated output.
const BINDING_AGENT: [(&str, &str); 4] = [
    (
        "agents.xabsl",
        "include \"s.xabsl\";\ninclude \"root.xabsl\";\nagent bot(\"Bot\", root);\n",
    ),
    (
        "root.xabsl",
        "include \"s.xabsl\";\ninclude \"b.xabsl\";\noption root {\n  initial state a {\n    decision { if (near) goto b; else stay; }\n    action { go(speed = range, turn = 10); grip = open; }\n  }\n  state b {\n    decision { if (!near) goto a; else stay; }\n    action { go(speed = 0, turn = 0); grip = close; }\n  }\n}\n",
    ),
    (
        "s.xabsl",
        "namespace s(\"S\") {\n  enum g { open, close };\n  bool input near;\n  float input range;\n  float input since;\n  enum g output grip;\n}\n",
    ),
    (
        "b.xabsl",
        "namespace b(\"B\") {\n  behavior go { float speed; float turn; }\n}\n",
    ),
];

/// Check `data` as the binding file of `BINDING_AGENT` against the ground robot's
/// vocabulary; if it checks, run the controller for a few cycles on the robot's signals.
/// Says whether it checked and ran (so that a test can tell the agent itself compiles:
/// an agent with errors would leave nothing of the binding to fuzz).
pub fn binding(data: &[u8]) -> bool {
    use skipper_core::vocabulary::ground;
    use skipper_core::{Controller, Cycle, Events, Signals, VehicleInfo, VehicleKind};
    static PROGRAM: std::sync::OnceLock<Arc<crate::model::Program>> = std::sync::OnceLock::new();
    let program = PROGRAM
        .get_or_init(|| {
            let mut files = MemLoader::new();
            for (name, text) in BINDING_AGENT {
                files.add(name, text);
            }
            Arc::new(crate::compile("agents.xabsl", &files).program)
        })
        .clone();
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let vocabulary = ground::vocabulary();
    let path = std::path::Path::new("agents.binding");
    let Ok(mut c) =
        crate::robot::XabslController::for_robot(program, Some((path, text)), &vocabulary)
    else {
        return false;
    };
    let mut s = Signals::new();
    let e = ground::Equipment {
        truth: false,
        sonars: ground::SONARS,
        laser_beams: 8,
        gripper_detail: true,
    };
    let ids = ground::Ids::declare(&mut s, &e);
    let info = VehicleInfo {
        name: "bot".into(),
        kind: VehicleKind::Ground,
        model: "fuzz".into(),
    };
    if c.start(&info, &s).is_err() {
        return false;
    }
    let mut events = Events::new();
    for k in 0..5u64 {
        let now = std::time::Duration::from_millis(100 * k);
        s.begin_cycle();
        for (i, id) in ids.sonar.iter().enumerate() {
            s.set_f64(*id, 0.5 * i as f64 - f64::from(k as u32), now);
        }
        s.set_f64(ids.pose[0], f64::NAN, now);
        let mut a = skipper_core::Actuation::default();
        let mut cycle = Cycle {
            now,
            dt: std::time::Duration::from_millis(100),
            cycle: k + 1,
            robot: 0,
            vehicle: &info,
            signals: &s,
            actuation: &mut a,
            events: &mut events,
        };
        let _ = c.step(&mut cycle);
    }
    true
}
