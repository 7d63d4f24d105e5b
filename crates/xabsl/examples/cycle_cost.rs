//! Run an agent for many cycles on changing inputs (for `perf stat`): the CPU cost of a
//! cycle without criterion's wall-clock timing, which a loaded machine inflates.
//!
//! `cargo run --release -p skipper-xabsl --example cycle_cost -- AGENTS.xabsl CYCLES [NAME=EXPR]`
//! (`XABSL_INTERPRETER=1` runs the interpreter instead of native code)

use skipper_xabsl::engine::{Backend, Engine};
use skipper_xabsl::model::{SymbolKind, Type};
use skipper_xabsl::{check, compile_path, parser};
use std::sync::Arc;

#[path = "../tests/common/lcg.rs"]
mod lcg;
use lcg::Lcg;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(n)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: cycle_cost AGENTS.xabsl CYCLES [NAME=EXPR]");
        std::process::exit(2);
    };
    let n: u64 = n.parse().unwrap_or(1_000_000);
    let c = compile_path(path);
    if c.diagnostics.has_errors() {
        eprint!("{}", c.render());
        std::process::exit(2);
    }
    let p = Arc::new(c.program);
    let mut e = Engine::new(p.clone()).expect("engine");
    if std::env::var_os("XABSL_INTERPRETER").is_some() {
        e.set_backend(Backend::Interpreter);
    }
    if let Some((name, expr)) = args.get(3).and_then(|d| d.split_once('=')) {
        let s = p.symbol(name).expect("symbol");
        let x = parser::parse_expression(expr, Default::default()).expect("expression");
        let x = check::check_definition(&p, s, &x).expect("definition");
        e.define_input(s, &x).expect("define");
    }
    let inputs: Vec<usize> = (0..p.symbols.len())
        .filter(|&s| p.symbols[s].kind == SymbolKind::Input && e.input_is_value(s))
        .collect();
    let mut lcg = Lcg(12345);
    let mut rnd = move || lcg.next();
    let frames: Vec<Vec<(usize, f64)>> = (0..512)
        .map(|_| {
            inputs
                .iter()
                .map(|&s| {
                    let v = match p.symbols[s].ty {
                        Type::Decimal => rnd(),
                        Type::Boolean => f64::from(u8::from(rnd() < 0.5)),
                        Type::Enum(en) => (rnd() * p.enums[en].elements.len() as f64).floor(),
                    };
                    (s, v)
                })
                .collect()
        })
        .collect();
    let mut sum = 0usize;
    let start = std::time::Instant::now();
    for i in 0..n {
        // inputs change every 8th cycle, as slowly varying percepts do
        if i % 8 == 0 {
            for &(s, v) in &frames[(i / 8) as usize % frames.len()] {
                e.set_input(s, v);
            }
        }
        e.execute(1000 + 10 * i);
        sum += e.path().len();
    }
    let dt = start.elapsed();
    println!(
        "{n} cycles, {:.1} ns per cycle (wall), mean path length {:.2}, {:?}",
        dt.as_nanos() as f64 / n as f64,
        sum as f64 / n as f64,
        e.backend()
    );
}
