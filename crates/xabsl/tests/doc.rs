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
    assert!(page.contains("<td id=\"param.angle\">turn_and_release.angle</td>"));
    assert!(page.contains("The option <a href=\"option.grab_ball_with_head.html\">grab_ball_with_head</a> is executed."));
    assert!(page.contains("<a href=\"basic-behaviors.html#behavior.walk.param.rotation_speed\">walk.rotation_speed</a>  =  140 ;"));
    assert!(page.contains("<a href=\"symbols.html#symbol.head_control_mode\">head_control_mode</a>  =  <a href=\"symbols.html#enum.head_control_mode\">head_control_mode.catch_ball</a>"));
    assert!(page.contains("Pseudo code of the decision tree:"));
    // the menu of the option's states
    assert!(page.contains(
        "<ul class=\"states\"><li>States:</li><li><a href=\"#state.grab\">grab</a></li>"
    ));
    // the diagrams are in the page: the state machine first, then a decision tree per
    // state
    let svgs: Vec<&str> = page.split("<svg ").skip(1).collect();
    assert_eq!(svgs.len(), 1 + 6);
    let svg = svgs[0].split("</svg>").next().unwrap();
    for s in [
        "grab",
        "turn_left",
        "turn_right",
        "find_ball_again",
        "release_ball_left",
        "release_ball_right",
    ] {
        assert!(svg.contains(&format!(">{s}</tspan>")), "{s}");
        assert!(page.contains(&format!("<h2 id=\"state.{s}\">")), "{s}");
    }
    // every transition of the state machine is an edge: 11; 6 loops (every state can
    // both stay and leave); 8 calls, dotted (grab runs grab_ball_with_head, which runs
    // grip and walk; the other five states run walk); plus the arrow marker
    assert_eq!(svg.matches("<path").count(), 11 + 6 + 8 + 1);
    assert_eq!(svg.matches("stroke-dasharray=\"2 3\"").count(), 8);
    // two transitions only the common decision makes (to grab), dashed
    assert_eq!(svg.matches("stroke-dasharray=\"6 3\"").count(), 2);
    // decision tree boxes: the description, linked to the pseudo code's condition,
    // which the pseudo code anchors; the common decision's boxes drawn distinct
    let grab = svgs[1];
    assert!(grab.contains(">grabbed</tspan>"));
    assert!(grab.contains("href=\"#code.grab.1\""));
    assert!(page.contains("<span class=\"cond\" id=\"code.grab.1\">if (subsequent-option-reached-target-state)   // grabbed</span>"));
    assert!(grab.contains(
        "fill=\"#e8eefc\" stroke=\"#333\" stroke-width=\"1.2\" stroke-dasharray=\"4 2\""
    ));
    assert!(grab.contains("<title>::turn_and_release.angle &lt; 0</title>"));
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
