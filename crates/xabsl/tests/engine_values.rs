//! Expressions give the reference engine's values for every input value the host can
//! set, odd ones included (enumerated values that are not whole numbers, negative,
//! NaN or huge; booleans other than 0 and 1), in conditions and in assignments: an
//! enumerated value is its truncation to an unsigned element index (0 for NaN and
//! negatives), a boolean is "not 0", `&&`/`||` short-circuit.

use skipper_xabsl::compile;
use skipper_xabsl::engine::Engine;
use skipper_xabsl::loader::MemLoader;
use std::sync::Arc;

const FILES: &[(&str, &str)] = &[
    (
        "sym.xabsl",
        r#"namespace sym("Symbols") {
  enum mode { a, b, c };
  float input x;
  bool input go;
  enum mode input m;
  float output out;
  float output out2;
  bool output flag;
  bool output isa;
  bool output both;
  enum mode output om;
}
"#,
    ),
    (
        "o.xabsl",
        r#"option o {
  common decision {
    if (m == b)
      goto t;
    else if (m == a)
      goto u;
  }
  common action {
    flag = m == b;
    isa = m == mode.a;
    both = go && x < 0.5;
    om = m;
    out = (go && x < 0.5) ? 1 : 2;
    out2 = (x > 0.5 || go) ? 3 : 4;
  }
  initial state s { decision { else goto s; } action { } }
  state t { decision { else goto s; } action { } }
  state u { decision { else goto s; } action { } }
}
"#,
    ),
    (
        "agents.xabsl",
        "include \"sym.xabsl\";\ninclude \"o.xabsl\";\nagent x(\"X\", o);\n",
    ),
];

fn engine() -> Engine {
    let mut files = MemLoader::new();
    for (name, text) in FILES {
        files.add(*name, *text);
    }
    let c = compile("agents.xabsl", &files);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    Engine::new(Arc::new(c.program)).unwrap()
}

const ODD: &[f64] = &[
    0.0,
    0.5,
    0.9999,
    1.0,
    1.5,
    1.9999,
    2.0,
    2.5,
    3.0,
    -0.5,
    -1.0,
    -3.0,
    f64::NAN,
    1e12,
    4294967295.0,
    4294967296.5,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

#[test]
fn enumerated_values_compare_as_truncated_element_indices() {
    let mut e = engine();
    let p = e.program().clone();
    let s = |n: &str| p.symbol(n).unwrap();
    let o = p.option("o").unwrap();
    let mut t = 1000;
    for &v in ODD {
        // from state s each time
        e.set_input(s("m"), 0.7);
        e.set_input(s("m"), 2.0);
        e.execute(t);
        t += 10;
        assert_eq!(e.active_state(o), 0);
        e.set_input(s("m"), v);
        e.execute(t);
        t += 10;
        let k = v as u32;
        let want = match k {
            1 => 1,
            0 => 2,
            _ => 0,
        };
        assert_eq!(e.active_state(o), want, "m = {v}");
        assert_eq!(e.value(s("flag")), f64::from(u8::from(k == 1)), "m = {v}");
        assert_eq!(e.value(s("isa")), f64::from(u8::from(k == 0)), "m = {v}");
        assert_eq!(e.value(s("om")), f64::from(k), "m = {v}");
    }
}

#[test]
fn booleans_are_not_zero_and_short_circuit() {
    let mut e = engine();
    let p = e.program().clone();
    let s = |n: &str| p.symbol(n).unwrap();
    let mut t = 1000;
    for &go in &[0.0, 1.0, 0.5, -2.0, f64::NAN] {
        for &x in &[0.2, 0.5, 0.7, f64::NAN, f64::NEG_INFINITY] {
            e.set_input(s("go"), go);
            e.set_input(s("x"), x);
            e.execute(t);
            t += 10;
            let both = go != 0.0 && x < 0.5;
            let either = x > 0.5 || go != 0.0;
            assert_eq!(
                e.value(s("both")),
                f64::from(u8::from(both)),
                "go {go} x {x}"
            );
            assert_eq!(
                e.value(s("out")),
                if both { 1.0 } else { 2.0 },
                "go {go} x {x}"
            );
            assert_eq!(
                e.value(s("out2")),
                if either { 3.0 } else { 4.0 },
                "go {go} x {x}"
            );
            for n in ["out", "out2", "flag", "isa", "both", "om"] {
                assert!(e.was_set(s(n)), "{n} set every cycle");
            }
        }
    }
}
