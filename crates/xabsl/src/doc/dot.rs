//! Graphviz (`dot`) text: the option graph of the agents (options as boxes, basic
//! behaviors as rounded boxes, an edge per call), or one option's state machine (the
//! initial state bold, target states double circles, an edge per possible transition).

use crate::model::*;
use std::fmt::Write as _;

fn q(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The option graph of every agent.
pub fn option_graph(p: &Program) -> String {
    let mut out = String::from(
        "digraph options {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=11];\n",
    );
    for a in &p.agents {
        let _ = writeln!(
            out,
            "  {} [shape=plaintext, label={}];",
            q(&format!("agent {}", a.name)),
            q(&format!("agent {}", a.name))
        );
        if let Some(o) = p.options.get(a.root) {
            let _ = writeln!(
                out,
                "  {} -> {};",
                q(&format!("agent {}", a.name)),
                q(&o.name)
            );
        }
    }
    for o in &p.options {
        let _ = writeln!(out, "  {} [shape=box];", q(&o.name));
    }
    for b in &p.behaviors {
        let _ = writeln!(out, "  {} [shape=box, style=rounded];", q(&b.name));
    }
    for o in &p.options {
        let mut seen: Vec<String> = Vec::new();
        for a in o
            .common_action
            .iter()
            .chain(o.states.iter().flat_map(|s| s.actions.iter()))
        {
            let to = match a {
                Action::Option { option, .. } => p.options[*option].name.clone(),
                Action::Behavior { behavior, .. } => p.behaviors[*behavior].name.clone(),
                Action::Set { .. } => continue,
            };
            if !seen.contains(&to) {
                let _ = writeln!(out, "  {} -> {};", q(&o.name), q(&to));
                seen.push(to);
            }
        }
    }
    out.push_str("}\n");
    out
}

/// The state machine of one option.
pub fn state_machine(p: &Program, o: OptionId) -> String {
    let Some(opt) = p.options.get(o) else {
        return "digraph empty {}\n".into();
    };
    let mut out = format!(
        "digraph {} {{\n  node [fontname=\"Helvetica\", fontsize=11];\n",
        q(&format!("option {}", opt.name))
    );
    for (i, s) in opt.states.iter().enumerate() {
        let shape = if s.target { "doublecircle" } else { "ellipse" };
        let style = if i == opt.initial { ", style=bold" } else { "" };
        let _ = writeln!(out, "  {} [shape={shape}{style}];", q(&s.name));
    }
    fn walk(t: &Tree, out: &mut Vec<StateId>) {
        match t {
            Tree::Goto(g) => {
                if !out.contains(g) {
                    out.push(*g);
                }
            }
            Tree::If { then, other, .. } => {
                walk(then, out);
                walk(other, out);
            }
        }
    }
    for (i, s) in opt.states.iter().enumerate() {
        let mut to = Vec::new();
        let mut cd = opt.common_decision.as_ref();
        while let Some(c) = cd {
            walk(&c.then, &mut to);
            cd = c.other.as_deref();
        }
        if let Some(t) = &s.decision {
            walk(t, &mut to);
        }
        for t in to {
            if t != i {
                let _ = writeln!(out, "  {} -> {};", q(&s.name), q(&opt.states[t].name));
            }
        }
    }
    out.push_str("}\n");
    out
}
