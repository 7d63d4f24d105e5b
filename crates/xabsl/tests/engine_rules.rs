//! The engine's numbered rules (`docs/xabsl.md`, from the reference engine), cycle by
//! cycle, with a fake clock.

use skipper_xabsl::engine::{Engine, RootAction, RuntimeProblem};
use skipper_xabsl::loader::MemLoader;
use skipper_xabsl::{compile, Program};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const SYMBOLS: &str = r#"
namespace sym("Symbols") {
  enum mode { a, b, c };
  enum mode internal_unused_check;
  float input x;
  float input y;
  bool input go;
  enum mode input m;
  float input f (float k;);
  float output out;
  float output out2;
  bool output flag;
  enum mode output om;
  float internal counter;
  bool internal ib;
  enum mode internal im;
}
namespace bbs("Behaviors") {
  behavior move { float speed; bool fast; enum mode how; }
  behavior idle { }
}
"#;

/// Compile an agents file with the shared symbols plus `options` (name, text) and build
/// an engine.
fn engine(agents: &str, options: &[(&str, &str)]) -> Engine {
    let mut files = MemLoader::new();
    let symbols = SYMBOLS.replace("  enum mode internal_unused_check;\n", "");
    let (sym, bbs) = symbols.split_at(symbols.find("namespace bbs").unwrap());
    files.add("sym.xabsl", sym).add("bbs.xabsl", bbs);
    let mut inc = String::from("include \"sym.xabsl\";\ninclude \"bbs.xabsl\";\n");
    for (name, text) in options {
        files.add(format!("{name}.xabsl"), *text);
        inc.push_str(&format!("include \"{name}.xabsl\";\n"));
    }
    files.add("agents.xabsl", format!("{inc}{agents}"));
    let c = compile("agents.xabsl", &files);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    Engine::new(Arc::new(c.program)).unwrap()
}

fn sym(e: &Engine, name: &str) -> usize {
    e.program().symbol(name).unwrap()
}

fn path(e: &Engine) -> Vec<(String, String, u64, u64)> {
    let p: &Program = e.program();
    e.path()
        .iter()
        .map(|x| {
            let o = &p.options[x.option];
            (
                o.name.clone(),
                o.states[x.state].name.clone(),
                x.state_time,
                x.option_time,
            )
        })
        .collect()
}

fn st(e: &Engine, option: &str) -> String {
    let p = e.program();
    let o = p.option(option).unwrap();
    p.options[o].states[e.active_state(o)].name.clone()
}

// ----------------------------------------------------------------------- setup

#[test]
fn rule_2_internal_symbols_and_parameters_start_at_zero_false_first() {
    let mut e = engine(
        "agent a(\"A\", root);",
        &[(
            "root",
            "option root { initial state s { action { out = counter; flag = ib; om = im; } } }",
        )],
    );
    e.set_output(sym(&e, "out"), 5.0);
    e.execute(0);
    assert_eq!(e.value(sym(&e, "out")), 0.0);
    assert_eq!(e.value(sym(&e, "flag")), 0.0);
    assert_eq!(e.value(sym(&e, "om")), 0.0);
}

#[test]
fn rule_3_a_cycle_of_options_is_refused() {
    let mut files = MemLoader::new();
    files.add(
        "a.xabsl",
        "include \"b.xabsl\";\noption a { initial state s { action { b(); } } }",
    );
    files.add(
        "b.xabsl",
        "option b { initial state s { action { a(); } } }",
    );
    files.add("agents.xabsl", "include \"a.xabsl\";\nagent x(\"X\", a);");
    let c = compile("agents.xabsl", &files);
    assert!(c.diagnostics.errors().any(|d| d.code == "X8001"));
    let err = Engine::new(Arc::new(c.program)).err().unwrap();
    assert!(err.to_string().contains("cycle"), "{err}");
}

#[test]
fn rule_4_first_agent_selected_and_agents_switch_without_reset() {
    let one = "option one { initial state s1 { decision { if (state_time >= 20) goto s2; else stay; } action { out = 1; } } state s2 { action { out = 2; } } }";
    let two = "option two { initial state t { action { out = 3; } } }";
    let mut e = engine(
        "agent first(\"F\", one);\nagent second(\"S\", two);",
        &[("one", one), ("two", two)],
    );
    assert_eq!(e.agent(), 0);
    e.execute(0);
    assert_eq!(e.value(sym(&e, "out")), 1.0);
    assert!(e.select_agent("second"));
    e.execute(10);
    assert_eq!(e.value(sym(&e, "out")), 3.0);
    assert!(!e.select_agent("nobody"));
    // back to the first: `one` was not active in the last cycle, so it restarts
    assert!(e.select_agent("first"));
    e.execute(30);
    assert_eq!(path(&e), vec![("one".into(), "s1".into(), 0, 0)]);
}

// ---------------------------------------------------------------- the cycle

#[test]
fn rule_5_outputs_persist_and_set_flags_clear() {
    let mut e = engine(
        "agent a(\"A\", root);",
        &[(
            "root",
            "option root { initial state s1 { decision { if (go) goto s2; else stay; } action { out = 7; } } state s2 { action { idle(); } } }",
        )],
    );
    let (out, go) = (sym(&e, "out"), sym(&e, "go"));
    e.execute(0);
    assert!(e.was_set(out));
    e.set_bool(go, true);
    e.execute(10);
    assert_eq!(e.value(out), 7.0, "values are not reset");
    assert!(!e.was_set(out), "the flag is");
}

#[test]
fn rule_6_root_actions_run_in_order() {
    let mut e = engine(
        "agent a(\"A\", root);",
        &[(
            "root",
            "option root { initial state s { action { out2 = out + 1; } } }",
        )],
    );
    let (out, out2) = (sym(&e, "out"), sym(&e, "out2"));
    let root = e.program().option("root").unwrap();
    e.set_root_actions(&[
        RootAction::Set(out, 41.0),
        RootAction::Option(root),
        RootAction::Behavior(1),
    ]);
    e.execute(0);
    assert_eq!(e.value(out2), 42.0);
    assert_eq!(e.executed().len(), 1);
    // set by a root action and by an option's action in this cycle
    assert!(e.was_set(out) && e.was_set(out2));
    e.set_root_actions(&[RootAction::Option(root)]);
    e.execute(10);
    assert!(!e.was_set(out), "only the option set a symbol");
    assert!(e.was_set(out2));
    assert_eq!(e.value(out2), 42.0);
}

// ----------------------------------------------------------- calling behaviors

#[test]
fn rule_8_every_parameter_is_written_at_every_call() {
    let child = "option child { float @p; bool @q; enum mode @r; initial state s { action { move(speed = @p, fast = @q, how = @r); } } }";
    let root = "option root { initial state s1 { decision { if (go) goto s2; else stay; } action { child(p = 3, q = true, r = c); } } state s2 { action { child(); } } }";
    let mut e = engine("agent a(\"A\", root);", &[("child", child), ("root", root)]);
    e.execute(0);
    assert_eq!(e.params_of(&e.executed()[0]), &[3.0, 1.0, 2.0]);
    let go = sym(&e, "go");
    e.set_bool(go, true);
    e.execute(10);
    // not given: 0, false, first element
    assert_eq!(e.params_of(&e.executed()[0]), &[0.0, 0.0, 0.0]);
    assert!(e.executed()[0].changed);
    e.execute(20);
    assert!(!e.executed()[0].changed);
}

#[test]
fn rule_8_activation_and_option_time() {
    let child = "option child { initial state s { action { idle(); } } }";
    let root = "option root { initial state s1 { decision { if (go) goto s2; else stay; } action { child(); } } state s2 { decision { if (go) stay; else goto s1; } action { } } }";
    let mut e = engine("agent a(\"A\", root);", &[("child", child), ("root", root)]);
    let go = sym(&e, "go");
    e.execute(1000);
    assert_eq!(
        path(&e)[1],
        ("child".into(), "s".into(), 0, 0),
        "0 in the first cycle"
    );
    e.execute(1040);
    assert_eq!(path(&e)[1], ("child".into(), "s".into(), 40, 40));
    e.set_bool(go, true);
    e.execute(1050);
    assert_eq!(path(&e).len(), 1, "child not called");
    e.set_bool(go, false);
    e.execute(1060);
    assert_eq!(
        path(&e)[1],
        ("child".into(), "s".into(), 0, 0),
        "activated again"
    );
}

// ---------------------------------------------------------- executing options

#[test]
fn rules_9_to_13_decisions_transitions_and_times() {
    let root = r#"option root {
  initial state s1 {
    decision { if (x > 0) goto s2; else stay; }
    action { out = state_time; }
  }
  state s2 {
    decision { if (x > 1) goto s3; else if (x < 0) goto s2; else stay; }
    action { out = state_time; out2 = option_time; }
  }
  target state s3 {
    decision { if (x > 2) goto s1; else stay; }
    action { out = state_time; }
  }
}"#;
    let mut e = engine("agent a(\"A\", root);", &[("root", root)]);
    let (x, out, out2) = (sym(&e, "x"), sym(&e, "out"), sym(&e, "out2"));
    e.execute(100);
    assert_eq!(st(&e, "root"), "s1");
    e.execute(150);
    assert_eq!(e.value(out), 50.0, "stay keeps state_time running");
    e.set_input(x, 1.0);
    e.execute(200);
    // the transition takes effect at once: s2's actions ran with state_time 0
    assert_eq!(st(&e, "root"), "s2");
    assert_eq!(e.value(out), 0.0);
    assert_eq!(e.value(out2), 100.0);
    e.set_input(x, -1.0);
    e.execute(230);
    // goto the own state does not reset state_time
    assert_eq!(e.value(out), 30.0);
    // at most one transition per cycle: x > 2 leads s2 -> s3 only, s3's tree waits
    e.set_input(x, 3.0);
    e.execute(240);
    assert_eq!(st(&e, "root"), "s3");
    assert!(e.root_reached_target());
    e.execute(250);
    assert_eq!(st(&e, "root"), "s1");
}

#[test]
fn rule_13_the_initial_state_can_be_left_in_the_activation_cycle() {
    let root = "option root { initial state s1 { decision { goto s2; } action { out = 1; } } state s2 { action { out = 2; } } }";
    let mut e = engine("agent a(\"A\", root);", &[("root", root)]);
    e.execute(0);
    assert_eq!(st(&e, "root"), "s2");
    assert_eq!(e.value(sym(&e, "out")), 2.0);
}

#[test]
fn rule_9_an_option_not_active_last_cycle_restarts_in_its_initial_state() {
    let child = "option child { initial state c1 { decision { goto c2; } action { } } state c2 { action { } } }";
    let root = "option root { initial state s1 { decision { if (go) goto s2; else stay; } action { child(); } } state s2 { decision { if (go) stay; else goto s1; } action { } } }";
    let mut e = engine("agent a(\"A\", root);", &[("child", child), ("root", root)]);
    let go = sym(&e, "go");
    e.execute(0);
    assert_eq!(st(&e, "child"), "c2");
    e.set_bool(go, true);
    e.execute(10);
    e.set_bool(go, false);
    e.execute(20);
    assert_eq!(path(&e)[1], ("child".into(), "c2".into(), 0, 0));
}

#[test]
fn rule_14_an_option_executed_twice_is_reported_and_runs_again() {
    let child = "option child { float @p; initial state c1 { decision { if (@p > 1) goto c2; else stay; } action { out = out + 1; } } state c2 { action { out2 = @p; } } }";
    let root = "option root { initial state s { action { child(p = 1); child(p = 5); move(speed = 1); move(speed = 2); } } }";
    let mut e = engine("agent a(\"A\", root);", &[("child", child), ("root", root)]);
    e.execute(0);
    let child_id = e.program().option("child").unwrap();
    assert_eq!(
        e.problems(),
        &[RuntimeProblem::OptionExecutedTwice(child_id)]
    );
    // the second call decided again with p = 5 and left c1
    assert_eq!(st(&e, "child"), "c2");
    assert_eq!(e.value(sym(&e, "out")), 1.0);
    assert_eq!(e.value(sym(&e, "out2")), 5.0);
    // basic behaviors may run several times; parameters are overwritten
    assert_eq!(e.executed().len(), 2);
    assert_eq!(e.behavior_params(0)[0], 2.0);
}

// ------------------------------------------------------------------ expressions

#[test]
fn rule_15_action_done_reflects_the_last_cycle() {
    let child = "option child { initial state c1 { decision { goto c2; } action { } } target state c2 { action { } } }";
    let root = r#"option root {
  initial state s1 { decision { if (action_done) goto s2; else stay; } action { child(); } }
  state s2 { decision { if (action_done) goto s3; else stay; } action { idle(); } }
  state s3 { action { } }
}"#;
    let mut e = engine("agent a(\"A\", root);", &[("child", child), ("root", root)]);
    e.execute(0);
    // child reached its target in this cycle, but action_done was evaluated before
    assert_eq!(st(&e, "root"), "s1");
    e.execute(10);
    assert_eq!(st(&e, "root"), "s2");
    // a basic behavior never makes action_done true
    for t in 0..3 {
        e.execute(20 + t);
    }
    assert_eq!(st(&e, "root"), "s2");
}

#[test]
fn rule_16_division_by_zero_and_modulo() {
    let root = r#"option root { initial state s { action {
  out = x / 0;
  out2 = x % y;
  counter = -7.9 % 2.5;
} } }"#;
    let mut e = engine("agent a(\"A\", root);", &[("root", root)]);
    let (x, y) = (sym(&e, "x"), sym(&e, "y"));
    e.set_input(x, 3.0);
    e.set_input(y, 2.0);
    e.execute(0);
    assert_eq!(e.value(sym(&e, "out")), 3.0 / 0.0000001);
    assert_eq!(e.value(sym(&e, "out2")), 1.0);
    assert_eq!(
        e.value(sym(&e, "counter")),
        -1.0,
        "truncated operands, sign of the dividend"
    );
    e.set_input(y, 0.4);
    e.execute(10);
    assert_eq!(e.value(sym(&e, "out2")), 0.0);
    assert_eq!(e.problems(), &[RuntimeProblem::ModuloByZero]);
}

#[test]
fn rule_16_times_refer_to_the_option_they_are_written_in() {
    let child =
        "option child { float @t; initial state c { action { out = @t; out2 = option_time; } } }";
    let root = "option root { initial state s { decision { if (state_time > 15) goto s2; else stay; } action { } } state s2 { action { child(t = option_time); } } }";
    let mut e = engine("agent a(\"A\", root);", &[("child", child), ("root", root)]);
    e.execute(100);
    e.execute(120);
    e.execute(150);
    assert_eq!(e.value(sym(&e, "out")), 50.0, "the caller's option time");
    assert_eq!(e.value(sym(&e, "out2")), 30.0, "the child's own");
}

#[test]
fn rule_17_short_circuit_and_inputs_read_at_every_reference() {
    let root = r#"option root { initial state s { action {
  flag = go && f(k = 1) > 0;
  out = go ? f(k = 2) : f(k = 3) + f(k = 4);
  out2 = out;
  out = 1;
  counter = out + out2;
} } }"#;
    let mut e = engine("agent a(\"A\", root);", &[("root", root)]);
    let calls = Arc::new(AtomicUsize::new(0));
    let c2 = calls.clone();
    let f = sym(&e, "f");
    e.bind_input(
        f,
        Arc::new(move |p: &[f64]| {
            c2.fetch_add(1, Ordering::SeqCst);
            p[0] * 10.0
        }),
    )
    .unwrap();
    e.execute(0);
    // go false: `&&` stops, `?:` takes only the else branch (two references)
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert_eq!(
        e.value(sym(&e, "out2")),
        70.0,
        "a read after an assignment sees it"
    );
    assert_eq!(e.value(sym(&e, "out")), 1.0, "the last write wins");
    assert_eq!(e.value(sym(&e, "counter")), 71.0);
    e.set_bool(sym(&e, "go"), true);
    e.execute(10);
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    assert_eq!(e.value(sym(&e, "flag")), 1.0);
}

#[test]
fn rule_17_parameterised_inputs_write_every_parameter() {
    let root = "option root { initial state s { action { out = f(k = 4); out2 = f(); } } }";
    let mut e = engine("agent a(\"A\", root);", &[("root", root)]);
    let f = sym(&e, "f");
    e.bind_input(f, Arc::new(|p: &[f64]| p[0] + 0.5)).unwrap();
    e.execute(0);
    assert_eq!(e.value(sym(&e, "out")), 4.5);
    assert_eq!(e.value(sym(&e, "out2")), 0.5, "missing parameters are 0");
}

// ----------------------------------------------------------------- cooperation

#[test]
fn rule_18_a_lone_agent_enters_capacity_states_at_once_and_synchronized_after_a_tick() {
    let root = r#"option root {
  initial state s { decision { if (x > 1) goto sync; else if (x > 0) goto cap; else stay; } action { } }
  state cap capacity 1 { decision { if (conflict) goto s; else stay; } action { out = 1; } }
  state sync synchronized { action { out = 2; } }
}"#;
    let mut e = engine("agent a(\"A\", root);", &[("root", root)]);
    let x = sym(&e, "x");
    e.set_input(x, 1.0);
    e.execute(0);
    assert_eq!(st(&e, "root"), "cap");
    let mut e = engine("agent a(\"A\", root);", &[("root", root)]);
    e.set_input(x, 2.0);
    e.execute(0);
    e.execute(10);
    assert_eq!(
        st(&e, "root"),
        "s",
        "never entered without message preparation"
    );
    e.prepare_incoming_messages();
    e.execute(20);
    assert_eq!(st(&e, "root"), "sync");
}

#[test]
fn rule_19_reset_restarts_from_initial_states() {
    let root = "option root { initial state s1 { decision { goto s2; } action { } } state s2 { action { } } }";
    let mut e = engine("agent a(\"A\", root);", &[("root", root)]);
    e.execute(0);
    e.execute(10);
    assert_eq!(path(&e)[0].2, 10);
    e.reset();
    e.execute(20);
    assert_eq!(path(&e)[0], ("root".into(), "s2".into(), 0, 0));
}
