//! One engine cycle of XABSL agents, compared with the reference C++ XabslEngine
//! (BerlinUnited/NaoTH, g++ -O2): 268 / 306 / 488 ns per cycle for the agents the
//! project's generator makes with seed 12345 and N = 5, 20, 100 options
//! (the reference C++ engine's published figures), net of the host's input
//! updates. Ours is measured the same way: `cycle` sets the inputs and executes (native
//! code, the default backend), `cycle_interpreter` the same on the interpreter,
//! `inputs_only` sets the inputs; the difference is the engine's cycle.
//!
//! Inputs change every cycle as in the golden traces: floats in a random walk in [0, 1],
//! booleans and enumerations flipping now and then (a fixed-seed generator, 512 frames).
//! The spec's agent (`examples/xabsl/turn_and_release`) runs on inputs that walk it
//! through its states.

use criterion::{criterion_group, criterion_main, Criterion};
use skipper_xabsl::engine::{Backend, Engine};
use skipper_xabsl::model::{SymbolKind, Type};
use skipper_xabsl::{check, compile_path, parser};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

#[path = "../tests/common/lcg.rs"]
mod lcg;
use lcg::Lcg;

/// Input frames: (symbol, value) for every value input, per cycle.
fn frames(e: &Engine, n: usize, seed: u64) -> Vec<Vec<(usize, f64)>> {
    let p = e.program().clone();
    let mut r = Lcg(seed);
    let inputs: Vec<usize> = (0..p.symbols.len())
        .filter(|&s| p.symbols[s].kind == SymbolKind::Input && e.input_is_value(s))
        .collect();
    let mut cur: Vec<f64> = inputs.iter().map(|_| r.next()).collect();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut f = Vec::with_capacity(inputs.len());
        for (i, &s) in inputs.iter().enumerate() {
            let v = match p.symbols[s].ty {
                Type::Decimal => (cur[i] + (r.next() - 0.5) * 0.06).clamp(0.0, 1.0),
                Type::Boolean => {
                    if r.next() < 0.03 {
                        1.0 - cur[i].round()
                    } else {
                        cur[i].round()
                    }
                }
                Type::Enum(en) => {
                    let k = p.enums[en].elements.len() as f64;
                    if r.next() < 0.03 {
                        (r.next() * k).floor()
                    } else {
                        (cur[i] * k).floor().min(k - 1.0)
                    }
                }
            };
            if let Type::Enum(en) = p.symbols[s].ty {
                cur[i] = (v + 0.5) / p.enums[en].elements.len() as f64;
            } else {
                cur[i] = v;
            }
            f.push((s, v));
        }
        out.push(f);
    }
    out
}

fn load(path: &Path, define: Option<(&str, &str)>) -> Engine {
    let c = compile_path(path);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    let p = Arc::new(c.program);
    let mut e = Engine::new(p.clone()).unwrap();
    if let Some((name, expr)) = define {
        let s = p.symbol(name).unwrap();
        let x = parser::parse_expression(expr, Default::default()).unwrap();
        let x = check::check_definition(&p, s, &x).unwrap();
        e.define_input(s, &x).unwrap();
    }
    e
}

fn bench_agent(c: &mut Criterion, name: &str, mut e: Engine) {
    let frames = frames(&e, 512, 12345);
    let mut g = c.benchmark_group(name);
    let mut t = 1000u64;
    // native code (the default), then the interpreter
    for (label, backend) in [
        ("cycle", Backend::Native),
        ("cycle_interpreter", Backend::Interpreter),
    ] {
        e.set_backend(backend);
        let mut i = 0usize;
        g.bench_function(label, |b| {
            b.iter(|| {
                let f = &frames[i % frames.len()];
                for &(s, v) in f {
                    e.set_input(s, v);
                }
                e.execute(t);
                t += 10;
                i += 1;
                black_box(e.path().len())
            })
        });
    }
    let mut i = 0usize;
    g.bench_function("inputs_only", |b| {
        b.iter(|| {
            let f = &frames[i % frames.len()];
            for &(s, v) in f {
                e.set_input(s, v);
            }
            i += 1;
            black_box(&e);
        })
    });
    g.finish();
}

fn engine_cycles(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for n in [5, 20, 100] {
        let e = load(
            &root.join(format!("benches/data/seed12345-N{n}/agents.xabsl")),
            Some(("in.scaled", "in.f0 * k")),
        );
        bench_agent(
            c,
            &format!("xabsl_engine_vs_naoth_cpp/gen_seed12345_N{n}"),
            e,
        );
    }
    let spec = root.join("../../examples/xabsl/turn_and_release/agents.xabsl");
    if spec.exists() {
        let e = load(&spec, None);
        bench_agent(c, "xabsl_engine_vs_naoth_cpp/spec_turn_and_release", e);
    }
}

criterion_group!(benches, engine_cycles);
criterion_main!(benches);
