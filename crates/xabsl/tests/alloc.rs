//! A steady-state engine cycle allocates nothing: inputs set, the option tree run,
//! parameterised inputs defined by expressions and by host functions, the activation
//! path and the basic behaviors recorded.

use skipper_core::alloc_count::allocations_in;
use skipper_xabsl::engine::{Backend, Engine};
use skipper_xabsl::{check, compile_path, parser};
use std::path::Path;
use std::sync::Arc;

#[global_allocator]
static GLOBAL: skipper_core::alloc_count::CountingAllocator =
    skipper_core::alloc_count::CountingAllocator;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    allocations_in(f).1
}

/// The golden trace's inputs, as (symbol, value) per cycle.
fn frames(engine: &Engine, trace: &str) -> Vec<Vec<(usize, f64)>> {
    let p = engine.program();
    trace
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["inputs"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, x)| {
                    let s = p.symbol(k).unwrap();
                    let val = match x {
                        serde_json::Value::Bool(b) => f64::from(u8::from(*b)),
                        serde_json::Value::String(e) => {
                            let en = match p.symbols[s].ty {
                                skipper_xabsl::model::Type::Enum(e) => &p.enums[e],
                                _ => unreachable!(),
                            };
                            en.elements.iter().position(|x| x == e).unwrap() as f64
                        }
                        x => x.as_f64().unwrap(),
                    };
                    (s, val)
                })
                .collect()
        })
        .collect()
}

/// Both ways of running a cycle.
const BACKENDS: [Backend; 2] = [Backend::Native, Backend::Interpreter];

#[test]
fn steady_state_cycles_do_not_allocate() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden");
    let runs = [("seed7-N20", false), ("seed7-N5", true)];
    for ((name, closure), backend) in runs.into_iter().flat_map(|r| BACKENDS.map(|b| (r, b))) {
        let c = compile_path(d.join(name).join("agents.xabsl"));
        assert!(!c.diagnostics.has_errors());
        let p = Arc::new(c.program);
        let mut e = Engine::new(p.clone()).unwrap();
        e.set_backend(backend);
        let scaled = p.symbol("in.scaled").unwrap();
        if closure {
            e.bind_input(scaled, Arc::new(|k: &[f64]| 0.25 * k[0]))
                .unwrap();
        } else {
            let def = parser::parse_expression("in.f0 * k", Default::default()).unwrap();
            let x = check::check_definition(&p, scaled, &def).unwrap();
            e.define_input(scaled, &x).unwrap();
        }
        let trace = std::fs::read_to_string(d.join(format!("{name}.trace.jsonl"))).unwrap();
        let frames = frames(&e, &trace);
        let mut t = 1000;
        // warm up: every buffer reaches its size
        for f in &frames {
            for &(s, v) in f {
                e.set_input(s, v);
            }
            e.execute(t);
            t += 10;
        }
        let n = allocations(|| {
            for _ in 0..5 {
                for f in &frames {
                    for &(s, v) in f {
                        e.set_input(s, v);
                    }
                    e.execute(t);
                    t += 10;
                }
            }
        });
        assert_eq!(n, 0, "{name}, {backend:?}: allocations in 1000 cycles");
        assert!(!e.path().is_empty());
    }
}

/// The spec's agent and the agent covering every language element, on inputs that
/// change every cycle (conditionals, cooperative states, basic behaviors with changed
/// parameters): no allocation either once warm.
#[test]
fn other_agents_do_not_allocate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = [
        root.join("../../examples/xabsl/turn_and_release/agents.xabsl"),
        root.join("tests/data/ic/coverage/agents.xabsl"),
    ];
    for (agents, backend) in files.iter().flat_map(|f| BACKENDS.map(|b| (f, b))) {
        let c = compile_path(agents);
        assert!(!c.diagnostics.has_errors(), "{}", c.render());
        let p = Arc::new(c.program);
        let mut e = Engine::new(p.clone()).unwrap();
        e.set_backend(backend);
        let inputs: Vec<usize> = (0..p.symbols.len())
            .filter(|&s| {
                p.symbols[s].kind == skipper_xabsl::model::SymbolKind::Input && e.input_is_value(s)
            })
            .collect();
        let mut x = 7u64;
        let mut run = |e: &mut Engine, cycles: u64, t: &mut u64| {
            for _ in 0..cycles {
                for &s in &inputs {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    e.set_input(s, ((x >> 33) % 1000) as f64 / 250.0);
                }
                e.execute(*t);
                *t += 37;
            }
        };
        let mut t = 1000;
        run(&mut e, 500, &mut t);
        let n = allocations(|| run(&mut e, 1000, &mut t));
        assert_eq!(
            n,
            0,
            "{}, {backend:?}: allocations in 1000 cycles",
            agents.display()
        );
        assert!(!e.path().is_empty());
    }
}
