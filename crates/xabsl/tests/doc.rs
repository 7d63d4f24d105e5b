//! The documentation: the spec's option, written in `examples/xabsl/turn_and_release`,
//! documented as the spec documents it (the pseudo code of every state's decision tree
//! is the spec's, hyphens being underscores in `.xabsl` names), with pages, state
//! machine and decision tree diagrams; and Graphviz.

use skipper_xabsl::compile_path;
use skipper_xabsl::doc;
use std::path::Path;

fn spec_program() -> skipper_xabsl::Program {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/xabsl/turn_and_release/agents.xabsl");
    let c = compile_path(p);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    c.program
}

/// The spec's names in `.xabsl` spelling (comments as they are).
fn xabsl_names(spec: &str) -> String {
    spec.lines()
        .map(|l| match l.split_once("//") {
            Some((code, comment)) => format!("{}//{comment}", names(code)),
            None => names(l),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn names(spec: &str) -> String {
    let keep = [
        "transition-to-state",
        "subsequent-option-reached-target-state",
        "time-of-state-execution",
    ];
    let mut s = spec.replace("ball.ball-was-seen", "ball.was_seen");
    for (i, k) in keep.iter().enumerate() {
        s = s.replace(k, &format!("\u{1}{i}\u{1}"));
    }
    // hyphens inside names (between letters), not minus signs
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let prev = i
            .checked_sub(1)
            .and_then(|j| chars.get(j))
            .copied()
            .unwrap_or(' ');
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        if c == '-' && prev.is_ascii_alphabetic() && next.is_ascii_alphabetic() {
            out.push('_');
        } else {
            out.push(c);
        }
    }
    for (i, k) in keep.iter().enumerate() {
        out = out.replace(&format!("\u{1}{i}\u{1}"), k);
    }
    out
}

#[test]
fn pseudo_code_is_the_specs() {
    let p = spec_program();
    let o = p.option("turn_and_release").unwrap();
    let opt = &p.options[o];
    let fixture = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/doc/spec_pseudo_code.txt"),
    )
    .unwrap();
    let mut n = 0;
    for block in fixture.split("=== ").filter(|b| !b.trim().is_empty()) {
        let (name, code) = block.split_once('\n').unwrap();
        let name = name.trim().replace('-', "_");
        let s = opt.states.iter().position(|x| x.name == name).expect(&name);
        let ours = doc::text::pseudo_code(&p, opt, s);
        let theirs = xabsl_names(code);
        assert_eq!(ours.trim_end(), theirs.trim_end(), "state {name}");
        n += 1;
    }
    assert_eq!(n, 6);
}

#[test]
fn pages_and_diagrams() {
    let p = spec_program();
    let files = doc::generate(&p);
    let get = |n: &str| {
        files
            .iter()
            .find(|(f, _)| f == n)
            .map(|(_, t)| t.as_str())
            .unwrap_or_else(|| panic!("no {n}"))
    };
    for n in [
        "index.html",
        "agents.html",
        "symbols.html",
        "basic-behaviors.html",
        "style.css",
    ] {
        assert!(!get(n).is_empty());
    }
    let page = get("option.turn_and_release.html");
    assert!(page.contains("<h1>Option turn_and_release</h1>"));
    assert!(page.contains("<td>turn_and_release.angle</td>"));
    assert!(page.contains("The option <a href=\"option.grab_ball_with_head.html\">grab_ball_with_head</a> is executed."));
    assert!(page.contains("walk.rotation_speed  =  140 ;"));
    assert!(page.contains("head_control_mode  =  head_control_mode.catch_ball"));
    assert!(page.contains("Pseudo code of the decision tree:"));
    let svg = get("svg/option_turn_and_release.svg");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for s in [
        "grab",
        "turn_left",
        "turn_right",
        "find_ball_again",
        "release_ball_left",
        "release_ball_right",
    ] {
        assert!(svg.contains(&format!(">{s}</text>")), "{s}");
        assert!(files
            .iter()
            .any(|(f, _)| *f == format!("svg/option_turn_and_release_state_{s}.svg")));
    }
    // every transition of the state machine is an edge: 11 (plus the arrow marker)
    assert_eq!(svg.matches("<path").count(), 12);
    assert!(get("symbols.html").contains("ball.seen.distance"));
    assert!(get("basic-behaviors.html").contains("Basic behavior walk"));
    assert!(get("index.html").contains("option.turn_and_release.html#state.release_ball_left"));
}

#[test]
fn graphviz() {
    let p = spec_program();
    let g = doc::dot::option_graph(&p);
    assert!(g.contains("\"deliver\" -> \"turn_and_release\";"));
    assert!(g.contains("\"turn_and_release\" -> \"grab_ball_with_head\";"));
    assert!(g.contains("\"grab_ball_with_head\" -> \"grip\";"));
    let o = p.option("turn_and_release").unwrap();
    let sm = doc::dot::state_machine(&p, o);
    assert!(sm.contains("\"grab\" [shape=ellipse, style=bold];"));
    assert!(sm.contains("\"turn_left\" -> \"release_ball_left\";"));
    assert_eq!(sm.matches("->").count(), 11);
}
