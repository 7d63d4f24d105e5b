//! The native backend (machine code compiled with Cranelift) runs every agent we have
//! exactly as the interpreter does: the same activation path with its times, the same
//! basic behaviors with their parameters, the same problems and the same value of every
//! symbol, cycle by cycle, on random inputs, times and resets. The rule tests run on the
//! default backend (native); this is what ties the interpreter to them.

use skipper_xabsl::engine::{Backend, Engine, InputFn};
use skipper_xabsl::model::{Program, SymbolKind, Type};
use skipper_xabsl::{check, compile_path, parser};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Every agents file of the crate's tests, benchmarks and the examples.
fn agent_files() -> Vec<PathBuf> {
    let r = root();
    let mut v = vec![
        r.join("tests/data/native/agents.xabsl"),
        r.join("tests/data/ic/coverage/agents.xabsl"),
        r.join("tests/data/golden/seed7-N5/agents.xabsl"),
        r.join("tests/data/golden/seed7-N20/agents.xabsl"),
    ];
    for n in [5, 20, 100] {
        v.push(r.join(format!("benches/data/seed12345-N{n}/agents.xabsl")));
    }
    for e in ["goals", "soccer", "turn_and_release"] {
        v.push(r.join(format!("../../examples/xabsl/{e}/agents.xabsl")));
    }
    v
}

#[path = "common/lcg.rs"]
mod lcg;
use lcg::Lcg;

/// How the parameterised inputs are given.
#[derive(Clone, Copy, Debug)]
enum Params {
    /// as Rust closures (the machine code calls them)
    Closures,
    /// `in.scaled(k) = in.f0 * k` as an expression (the synthetic agents)
    Definition,
}

fn engine(p: &Arc<Program>, agent: &str, backend: Backend, params: Params) -> Engine {
    let mut e = Engine::new(p.clone()).unwrap();
    assert!(e.select_agent(agent));
    e.set_backend(backend);
    for (s, sym) in p.symbols.iter().enumerate() {
        if sym.kind != SymbolKind::Input || sym.params.is_empty() {
            continue;
        }
        match params {
            Params::Definition if sym.name == "in.scaled" => {
                let x = parser::parse_expression("in.f0 * k", Default::default()).unwrap();
                let x = check::check_definition(p, s, &x).unwrap();
                e.define_input(s, &x).unwrap();
            }
            _ => {
                let salt = s as f64;
                let f: InputFn = Arc::new(move |a: &[f64]| {
                    a.iter()
                        .enumerate()
                        .map(|(i, x)| x * (i as f64 + 0.5))
                        .sum::<f64>()
                        + salt * 0.01
                });
                e.bind_input(s, f).unwrap();
            }
        }
    }
    e
}

/// Run both backends side by side and compare everything after every cycle.
fn compare(file: &Path, params: Params, cycles: usize, seed: u64) -> usize {
    let c = compile_path(file);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    let p = Arc::new(c.program);
    let mut compared = 0;
    for agent in p.agents.iter().map(|a| a.name.clone()) {
        let mut native = engine(&p, &agent, Backend::Native, params);
        let mut interp = engine(&p, &agent, Backend::Interpreter, params);
        let inputs: Vec<usize> = (0..p.symbols.len())
            .filter(|&s| p.symbols[s].kind == SymbolKind::Input && native.input_is_value(s))
            .collect();
        let mut rng = Lcg(seed);
        let mut now = 1000u64;
        for cycle in 0..cycles {
            for &s in &inputs {
                if rng.next() < 0.3 {
                    let r = rng.next();
                    let v = match p.symbols[s].ty {
                        // the edges of the operations
                        Type::Decimal if r < 0.3 => pick(&mut rng, &EDGES),
                        // hundredths meet the agents' constants (0.65 is 65 / 100)
                        Type::Decimal if r < 0.65 => (rng.next() * 101.0).floor() / 100.0,
                        Type::Decimal => rng.next() * 2.0 - 0.5,
                        Type::Boolean => f64::from(u8::from(r < 0.5)),
                        // now and then an element that does not exist
                        Type::Enum(_) if r < 0.05 => pick(&mut rng, &[-1.0, 7.0, 2.5, f64::NAN]),
                        Type::Enum(en) => (rng.next() * p.enums[en].elements.len() as f64).floor(),
                    };
                    native.set_input(s, v);
                    interp.set_input(s, v);
                }
            }
            if rng.next() < 0.01 {
                native.reset();
                interp.reset();
            }
            now += (rng.next() * 40.0) as u64 * 10;
            native.execute(now);
            interp.execute(now);
            let at = || format!("{}: agent {agent}, cycle {cycle}", file.display());
            assert_eq!(native.path(), interp.path(), "path, {}", at());
            assert_eq!(
                native.executed(),
                interp.executed(),
                "basic behaviors, {}",
                at()
            );
            for x in native.executed() {
                let (a, b) = (native.params_of(x), interp.params_of(x));
                assert!(same(a, b), "parameters {a:?} vs {b:?}, {}", at());
            }
            assert_eq!(native.problems(), interp.problems(), "problems, {}", at());
            for s in 0..p.symbols.len() {
                let (a, b) = (native.value(s), interp.value(s));
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{} = {a} vs {b}, {}",
                    p.symbols[s].name,
                    at()
                );
                if p.symbols[s].kind != SymbolKind::Input {
                    assert_eq!(native.was_set(s), interp.was_set(s), "{}", at());
                }
            }
            assert_eq!(native.root_reached_target(), interp.root_reached_target());
            compared += 1;
        }
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert_eq!(native.backend(), Backend::Native, "{}", file.display());
        }
        assert_eq!(interp.backend(), Backend::Interpreter);
    }
    compared
}

/// Decimal values at the edges of comparisons and arithmetic.
const EDGES: [f64; 12] = [
    0.0,
    -0.0,
    0.5,
    -0.5,
    1.0,
    -1.0,
    2.0,
    1e300,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    0.0,
];

fn pick(rng: &mut Lcg, from: &[f64]) -> f64 {
    from[(rng.next() * from.len() as f64) as usize % from.len()]
}

fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

#[test]
fn native_code_and_interpreter_agree_on_every_agent() {
    let mut n = 0;
    for f in agent_files() {
        n += compare(&f, Params::Closures, 1500, 7);
    }
    assert!(n >= 10 * 1500, "{n} cycles compared");
}

#[test]
fn native_code_and_interpreter_agree_with_input_definitions() {
    for n in [5, 20, 100] {
        let f = root().join(format!("benches/data/seed12345-N{n}/agents.xabsl"));
        compare(&f, Params::Definition, 2000, 12345);
    }
}

#[test]
fn a_panicking_input_function_panics_out_of_the_cycle() {
    let f = root().join("benches/data/seed12345-N5/agents.xabsl");
    let c = compile_path(&f);
    let p = Arc::new(c.program);
    for backend in [Backend::Native, Backend::Interpreter] {
        let mut e = Engine::new(p.clone()).unwrap();
        e.set_backend(backend);
        let s = p.symbol("in.scaled").unwrap();
        let f: InputFn = Arc::new(|_: &[f64]| panic!("sensor gone"));
        e.bind_input(s, f).unwrap();
        let mut panicked = false;
        for t in 0..200u64 {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| e.execute(t * 100)));
            if let Err(payload) = r {
                let msg = payload.downcast_ref::<&str>().copied().unwrap_or("");
                assert_eq!(msg, "sensor gone");
                panicked = true;
                break;
            }
        }
        assert!(panicked, "{backend:?}: the agent never read in.scaled");
    }
}

/// An agent whose options call each other in a chain `depth` long.
fn chain(depth: usize) -> Arc<Program> {
    let mut files = skipper_xabsl::loader::MemLoader::new();
    files.add(
        "bb.xabsl",
        "/** behaviors */\nnamespace bb(\"Behaviors\") {\n  behavior idle {\n  }\n}\n",
    );
    let mut agents = String::from("include \"bb.xabsl\";\n");
    for i in (0..depth).rev() {
        let call = if i + 1 < depth {
            format!("o{}();", i + 1)
        } else {
            "idle();".to_string()
        };
        files.add(
            format!("o{i}.xabsl"),
            format!(
                "/** link {i} */\noption o{i} {{\n  initial state s {{\n    decision {{\n      stay;\n    }}\n    action {{\n      {call}\n    }}\n  }}\n}}\n"
            ),
        );
        agents.push_str(&format!("include \"o{i}.xabsl\";\n"));
    }
    agents.push_str("agent a(\"A\", o0);\n");
    files.add("agents.xabsl", agents);
    let c = skipper_xabsl::compile("agents.xabsl", &files);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    Arc::new(c.program)
}

#[test]
fn a_very_deep_chain_of_options_stays_with_the_interpreter() {
    for (depth, native) in [(100, true), (600, false)] {
        let mut e = Engine::new(chain(depth)).unwrap();
        e.execute(0);
        e.execute(100);
        assert_eq!(e.path().len(), depth);
        assert_eq!(e.executed().len(), 1);
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            let want = if native {
                Backend::Native
            } else {
                Backend::Interpreter
            };
            assert_eq!(e.backend(), want, "a chain of {depth}");
        }
    }
}
