//! Tutorial 1: embed the XABSL engine in your own control loop.
//!
//! An agent is compiled from its files (here kept in memory; `compile_path` reads them
//! from disk), and an [`Engine`] runs it: each cycle your loop sets the input symbols,
//! calls `execute`, and reads the output symbols and which basic behaviors ran. No robot,
//! no Skipper run: just the engine, as a RoboCup team embeds the C++ XabslEngine.
//!
//! Run it: `cargo run -p skipper-xabsl --example t01_embed_the_xabsl_engine`

use skipper_xabsl::compile;
use skipper_xabsl::engine::Engine;
use skipper_xabsl::loader::MemLoader;
use std::sync::Arc;

const SYMBOLS: &str = r#"
namespace ball("Ball") {
  float input ball.distance;
  enum phase { search, approach, kick };
  enum phase output striker.phase;
}
"#;

const OPTION: &str = r#"
option play {
  initial state search {
    decision { if (ball.distance < 3) goto approach; else stay; }
    action { striker.phase = search; }
  }
  state approach {
    decision { if (ball.distance < 0.3) goto kick; else if (ball.distance > 4) goto search; else stay; }
    action { striker.phase = approach; }
  }
  target state kick {
    action { striker.phase = kick; }
  }
}
"#;

/// What the loop saw: the phase each cycle.
pub fn run() -> Vec<String> {
    let mut files = MemLoader::new();
    files
        .add(
            "agents.xabsl",
            "include \"ball.xabsl\";\ninclude \"play.xabsl\";\nagent striker(\"Striker\", play);\n",
        )
        .add("ball.xabsl", SYMBOLS)
        .add("play.xabsl", OPTION);
    let c = compile("agents.xabsl", &files);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    let program = Arc::new(c.program);
    let mut engine = Engine::new(program.clone()).expect("an engine for the agent");
    let distance = program.symbol("ball.distance").expect("the input symbol");
    let phase = program.symbol("striker.phase").expect("the output symbol");
    let phases = program
        .enums
        .iter()
        .find(|e| e.name == "phase")
        .expect("the enum");

    // your loop: the ball comes closer, 0.5 m a cycle
    let mut seen = Vec::new();
    for cycle in 0..11u64 {
        let d = 5.0 - 0.5 * cycle as f64;
        engine.set_input(distance, d);
        engine.execute(cycle * 100);
        let p = phases.short(engine.value(phase) as usize);
        println!("cycle {cycle}: ball at {d:.1} m -> {p}");
        seen.push(p.to_string());
    }
    seen
}

fn main() {
    run();
}

#[test]
fn the_agent_searches_approaches_and_kicks() {
    let seen = run();
    assert_eq!(seen.first().map(String::as_str), Some("search"));
    assert!(seen.iter().any(|p| p == "approach"), "{seen:?}");
    assert_eq!(seen.last().map(String::as_str), Some("kick"), "{seen:?}");
}
