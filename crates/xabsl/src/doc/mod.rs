//! The behavior documentation: HTML pages like the XABSL option documentation (index,
//! agents, symbols, basic behaviors, and per option its parameters, its state machine as
//! an SVG diagram, and per state the subsequent options and basic behaviors with their
//! parameters, the output symbols set, and the decision tree as a diagram and as pseudo
//! code), and Graphviz (`dot`) for the option graph and state machines. The diagrams are
//! laid out here ([`layout`]); Graphviz is not needed.

pub mod dot;
pub mod layout;
pub mod text;

use crate::model::*;
use layout::{esc, DTree, Node, Shape};
use std::fmt::Write as _;
use std::path::Path;
use text::Style;

/// The files of the documentation: (relative path, contents).
pub fn generate(p: &Program) -> Vec<(String, String)> {
    let mut files = Vec::new();
    files.push(("style.css".to_string(), CSS.to_string()));
    files.push(("index.html".to_string(), index(p)));
    let agents_page = agents(p, &mut files);
    files.push(("agents.html".to_string(), agents_page));
    files.push(("symbols.html".to_string(), symbols(p)));
    files.push(("basic-behaviors.html".to_string(), behaviors(p)));
    for (o, opt) in p.options.iter().enumerate() {
        let page = option_page(p, o, &mut files);
        files.push((format!("option.{}.html", opt.name), page));
    }
    files
}

/// Write the documentation into a folder (created if needed).
pub fn write_to(p: &Program, dir: &Path) -> std::io::Result<usize> {
    let files = generate(p);
    std::fs::create_dir_all(dir.join("svg"))?;
    for (name, text) in &files {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(files.len())
}

const CSS: &str = "body { font-family: Helvetica, Arial, sans-serif; margin: 0; color: #222; }
nav { background: #234; color: white; padding: 0.6em 1em; }
nav a { color: #cde; margin-right: 1.2em; text-decoration: none; }
main { padding: 1em 2em; max-width: 70em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { font-size: 1.1em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #eef2f6; }
pre { background: #f6f6f6; padding: 0.6em; border: 1px solid #ddd; overflow-x: auto; }
.figure { overflow-x: auto; margin: 0.5em 0; }
.desc { color: #444; font-style: italic; }
ul.menu li { margin: 0.2em 0; }
code { background: #f2f2f2; padding: 0 0.2em; }
";

fn page(p: &Program, title: &str, body: &str) -> String {
    let app = p.title.as_deref().unwrap_or("XABSL");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} — {}</title><link rel=\"stylesheet\" href=\"style.css\"></head>\n<body><nav><a href=\"index.html\">Index</a><a href=\"agents.html\">Agents</a><a href=\"symbols.html\">Symbols</a><a href=\"basic-behaviors.html\">Basic Behaviors</a></nav>\n<main>\n{body}</main></body></html>\n",
        esc(title),
        esc(app)
    )
}

fn desc(d: &Option<String>) -> String {
    match d {
        Some(d) if !d.is_empty() => format!("<p class=\"desc\">{}</p>\n", esc(d)),
        _ => String::new(),
    }
}

fn type_name(p: &Program, t: Type) -> String {
    match t {
        Type::Decimal => "float".into(),
        Type::Boolean => "bool".into(),
        Type::Enum(e) => format!("enum {}", p.enums.get(e).map_or("?", |e| e.name.as_str())),
    }
}

fn index(p: &Program) -> String {
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<h1>{} — Behavior Documentation</h1>",
        esc(p.title.as_deref().unwrap_or("XABSL"))
    );
    if let Some(pl) = &p.platform {
        let _ = writeln!(b, "<p>Platform: {}</p>", esc(pl));
    }
    if let Some(se) = &p.software_environment {
        let _ = writeln!(b, "<p>Software environment: {}</p>", esc(se));
    }
    b.push_str("<ul class=\"menu\">\n<li><a href=\"agents.html\">Agents</a></li>\n<li><a href=\"symbols.html\">Symbols</a></li>\n<li><a href=\"basic-behaviors.html\">Basic Behaviors</a></li>\n<li>Options<ul>\n");
    let mut order: Vec<&OptionDef> = p.options.iter().collect();
    order.sort_by_key(|o| o.name.to_lowercase());
    for o in order {
        let _ = write!(
            b,
            "<li><a href=\"option.{0}.html\">{0}</a><ul>",
            esc(&o.name)
        );
        for s in &o.states {
            let _ = write!(
                b,
                "<li><a href=\"option.{0}.html#state.{1}\">{1}</a></li>",
                esc(&o.name),
                esc(&s.name)
            );
        }
        b.push_str("</ul></li>\n");
    }
    b.push_str("</ul></li></ul>\n");
    page(p, "Index", &b)
}

/// The option graph from an option: options (boxes) and basic behaviors (rounded).
fn option_graph(p: &Program, root: OptionId) -> String {
    let mut nodes: Vec<Node> = Vec::new();
    let mut ids: Vec<(bool, usize)> = Vec::new();
    let mut edges = Vec::new();
    let mut stack = vec![root];
    let node_of =
        |nodes: &mut Vec<Node>, ids: &mut Vec<(bool, usize)>, opt: bool, i: usize| -> usize {
            if let Some(k) = ids.iter().position(|x| *x == (opt, i)) {
                return k;
            }
            ids.push((opt, i));
            let (label, href, shape) = if opt {
                let n = p.options.get(i).map_or("?".to_string(), |o| o.name.clone());
                (n.clone(), Some(format!("../option.{n}.html")), Shape::Box)
            } else {
                let n = p
                    .behaviors
                    .get(i)
                    .map_or("?".to_string(), |b| b.name.clone());
                (
                    n.clone(),
                    Some(format!("../basic-behaviors.html#behavior.{n}")),
                    Shape::Rounded,
                )
            };
            nodes.push(Node {
                label,
                shape,
                bold: false,
                href,
                title: None,
            });
            nodes.len() - 1
        };
    let r = node_of(&mut nodes, &mut ids, true, root);
    if let Some(n) = nodes.get_mut(r) {
        n.bold = true;
    }
    let mut done = Vec::new();
    while let Some(o) = stack.pop() {
        if done.contains(&o) {
            continue;
        }
        done.push(o);
        let from = node_of(&mut nodes, &mut ids, true, o);
        let Some(opt) = p.options.get(o) else {
            continue;
        };
        for a in opt
            .common_action
            .iter()
            .chain(opt.states.iter().flat_map(|s| s.actions.iter()))
        {
            match a {
                Action::Option { option, .. } => {
                    let to = node_of(&mut nodes, &mut ids, true, *option);
                    if !edges.iter().any(|&(x, y, _)| x == from && y == to) {
                        edges.push((from, to, None));
                    }
                    stack.push(*option);
                }
                Action::Behavior { behavior, .. } => {
                    let to = node_of(&mut nodes, &mut ids, false, *behavior);
                    if !edges.iter().any(|&(x, y, _)| x == from && y == to) {
                        edges.push((from, to, None));
                    }
                }
                Action::Set { .. } => {}
            }
        }
    }
    layout::layered(&nodes, &edges, r)
}

fn agents(p: &Program, files: &mut Vec<(String, String)>) -> String {
    let mut b = String::from("<h1>Agents</h1>\n<table><tr><th>Agent</th><th>Title</th><th>Root option</th><th>Description</th></tr>\n");
    for a in &p.agents {
        let root = p.options.get(a.root).map_or("?", |o| o.name.as_str());
        let _ = writeln!(
            b,
            "<tr><td><a href=\"#agent.{0}\">{0}</a></td><td>{1}</td><td><a href=\"option.{2}.html\">{2}</a></td><td>{3}</td></tr>",
            esc(&a.name),
            esc(&a.title),
            esc(root),
            esc(a.doc.as_deref().unwrap_or(""))
        );
    }
    b.push_str("</table>\n");
    for a in &p.agents {
        let svg = format!("svg/agent_{}.svg", a.name);
        files.push((svg.clone(), option_graph(p, a.root)));
        let _ = writeln!(
            b,
            "<h2 id=\"agent.{0}\">Agent {0}</h2>\n{1}<p>The option graph:</p><div class=\"figure\"><img src=\"{2}\" alt=\"option graph of {0}\"></div>",
            esc(&a.name),
            desc(&a.doc),
            esc(&svg)
        );
    }
    page(p, "Agents", &b)
}

fn symbols(p: &Program) -> String {
    let mut b = String::from("<h1>Symbols</h1>\n");
    for (ni, ns) in p.namespaces.iter().enumerate() {
        if ns.kind != NamespaceKind::Symbols {
            continue;
        }
        let _ = writeln!(
            b,
            "<h2 id=\"ns.{0}\">{1} <small>({0})</small></h2>\n{2}",
            esc(&ns.name),
            esc(&ns.title),
            desc(&ns.doc)
        );
        let enums: Vec<&Enum> = p.enums.iter().filter(|e| e.namespace == Some(ni)).collect();
        if !enums.is_empty() {
            b.push_str("<h3>Enumerations</h3>\n<table><tr><th>Enumeration</th><th>Elements</th><th>Description</th></tr>\n");
            for e in enums {
                let _ = writeln!(
                    b,
                    "<tr><td id=\"enum.{0}\">{0}{1}</td><td>{2}</td><td>{3}</td></tr>",
                    esc(&e.name),
                    if e.internal { " (internal)" } else { "" },
                    esc(&e.elements.join(", ")),
                    esc(e.doc.as_deref().unwrap_or(""))
                );
            }
            b.push_str("</table>\n");
        }
        for (kind, title) in [
            (SymbolKind::Input, "Input symbols"),
            (SymbolKind::Output, "Output symbols"),
            (SymbolKind::Internal, "Internal symbols"),
        ] {
            let syms: Vec<&Symbol> = p
                .symbols
                .iter()
                .filter(|s| s.namespace == Some(ni) && s.kind == kind)
                .collect();
            if syms.is_empty() {
                continue;
            }
            let _ = writeln!(b, "<h3>{title}</h3>\n<table><tr><th>Symbol</th><th>Type</th><th>Measure</th><th>Range</th><th>Description</th></tr>");
            for s in syms {
                let params = if s.params.is_empty() {
                    String::new()
                } else {
                    let ps: Vec<String> = s
                        .params
                        .iter()
                        .map(|x| format!("{} {}", type_name(p, x.ty), x.short))
                        .collect();
                    format!("({})", ps.join(", "))
                };
                let _ = writeln!(
                    b,
                    "<tr><td id=\"symbol.{0}\">{0}{1}</td><td>{2}</td><td>{3}</td><td>{4}</td><td>{5}</td></tr>",
                    esc(&s.name),
                    esc(&params),
                    esc(&type_name(p, s.ty)),
                    esc(s.measure.as_deref().unwrap_or("")),
                    esc(s.range.as_deref().unwrap_or("")),
                    esc(s.doc.as_deref().unwrap_or(""))
                );
            }
            b.push_str("</table>\n");
        }
        let consts: Vec<&Constant> = p
            .constants
            .iter()
            .filter(|c| c.namespace == Some(ni))
            .collect();
        if !consts.is_empty() {
            b.push_str("<h3>Constants</h3>\n<table><tr><th>Constant</th><th>Value</th><th>Measure</th><th>Description</th></tr>\n");
            for c in consts {
                let _ = writeln!(
                    b,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    esc(&c.name),
                    esc(&c.raw),
                    esc(c.measure.as_deref().unwrap_or("")),
                    esc(c.doc.as_deref().unwrap_or(""))
                );
            }
            b.push_str("</table>\n");
        }
    }
    page(p, "Symbols", &b)
}

fn params_table(p: &Program, params: &[Param]) -> String {
    if params.is_empty() {
        return "<p>No parameters.</p>\n".into();
    }
    let mut b = String::from("<table><tr><th>Parameter</th><th>Type</th><th>Measure</th><th>Range</th><th>Description</th></tr>\n");
    for x in params {
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&x.name),
            esc(&type_name(p, x.ty)),
            esc(x.measure.as_deref().unwrap_or("")),
            esc(x.range.as_deref().unwrap_or("")),
            esc(x.doc.as_deref().unwrap_or(""))
        );
    }
    b.push_str("</table>\n");
    b
}

fn behaviors(p: &Program) -> String {
    let mut b = String::from("<h1>Basic Behaviors</h1>\n");
    for (ni, ns) in p.namespaces.iter().enumerate() {
        if ns.kind != NamespaceKind::Behaviors {
            continue;
        }
        let _ = writeln!(
            b,
            "<h2>{} <small>({})</small></h2>\n{}",
            esc(&ns.title),
            esc(&ns.name),
            desc(&ns.doc)
        );
        for bh in p.behaviors.iter().filter(|x| x.namespace == Some(ni)) {
            let _ = writeln!(
                b,
                "<h3 id=\"behavior.{0}\">Basic behavior {0}</h3>\n{1}",
                esc(&bh.name),
                desc(&bh.doc)
            );
            b.push_str(&params_table(p, &bh.params));
        }
    }
    page(p, "Basic Behaviors", &b)
}

/// The transitions a state can make (its inlined decision's targets, itself excluded).
fn targets(opt: &OptionDef, s: StateId) -> Vec<StateId> {
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
    let mut out = Vec::new();
    let mut cd = opt.common_decision.as_ref();
    while let Some(c) = cd {
        walk(&c.then, &mut out);
        cd = c.other.as_deref();
    }
    if let Some(t) = opt.states.get(s).and_then(|x| x.decision.as_ref()) {
        walk(t, &mut out);
    }
    out.retain(|&g| g != s);
    out
}

/// The state machine of an option.
pub fn state_machine(p: &Program, o: OptionId, links: bool) -> String {
    let Some(opt) = p.options.get(o) else {
        return layout::layered(&[], &[], 0);
    };
    let nodes: Vec<Node> = opt
        .states
        .iter()
        .enumerate()
        .map(|(i, s)| Node {
            label: s.name.clone(),
            shape: if s.target {
                Shape::DoubleEllipse
            } else {
                Shape::Ellipse
            },
            bold: i == opt.initial,
            href: links.then(|| format!("../option.{}.html#state.{}", opt.name, s.name)),
            title: None,
        })
        .collect();
    let mut edges = Vec::new();
    for s in 0..opt.states.len() {
        for t in targets(opt, s) {
            edges.push((s, t, None));
        }
    }
    let _ = p;
    layout::layered(&nodes, &edges, opt.initial)
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn dtree(p: &Program, opt: &OptionDef, t: &Tree) -> DTree {
    match t {
        Tree::Goto(s) => DTree::Leaf(Node {
            label: opt.states.get(*s).map_or("?".into(), |x| x.name.clone()),
            shape: Shape::Ellipse,
            bold: false,
            href: None,
            title: None,
        }),
        Tree::If {
            doc,
            cond,
            then,
            other,
        } => {
            let full = text::expr(p, cond, Style::Source);
            DTree::If(
                Node {
                    label: shorten(&full, 48),
                    shape: Shape::Box,
                    bold: false,
                    href: None,
                    title: Some(match doc {
                        Some(d) => format!("{full}\n// {d}"),
                        None => full,
                    }),
                },
                Box::new(dtree(p, opt, then)),
                Box::new(dtree(p, opt, other)),
            )
        }
    }
}

/// The decision tree of a state (common decision first) for drawing.
fn state_tree(p: &Program, opt: &OptionDef, s: StateId) -> DTree {
    let own = match opt.states.get(s).and_then(|x| x.decision.as_ref()) {
        Some(t) => dtree(p, opt, t),
        None => dtree(p, opt, &Tree::Goto(s)),
    };
    fn chain(p: &Program, opt: &OptionDef, cd: &CommonDecision, own: DTree) -> DTree {
        let rest = match &cd.other {
            Some(o) => chain(p, opt, o, own),
            None => own,
        };
        let full = text::expr(p, &cd.cond, Style::Source);
        DTree::If(
            Node {
                label: shorten(&full, 48),
                shape: Shape::Box,
                bold: false,
                href: None,
                title: Some(full),
            },
            Box::new(dtree(p, opt, &cd.then)),
            Box::new(rest),
        )
    }
    match &opt.common_decision {
        Some(cd) => chain(p, opt, cd, own),
        None => own,
    }
}

fn option_page(p: &Program, o: OptionId, files: &mut Vec<(String, String)>) -> String {
    let opt = &p.options[o];
    let mut b = String::new();
    let _ = writeln!(b, "<h1>Option {}</h1>\n{}", esc(&opt.name), desc(&opt.doc));
    b.push_str("<p>Parameters of that option:</p>\n");
    b.push_str(&params_table(p, &opt.params));
    let svg = format!("svg/option_{}.svg", opt.name);
    files.push((svg.clone(), state_machine(p, o, true)));
    let _ = writeln!(
        b,
        "<h2>State Machine</h2>\n<div class=\"figure\"><object type=\"image/svg+xml\" data=\"{0}\"><img src=\"{0}\" alt=\"state machine of {1}\"></object></div>",
        esc(&svg),
        esc(&opt.name)
    );
    for (si, s) in opt.states.iter().enumerate() {
        let mut flags = Vec::new();
        if si == opt.initial {
            flags.push("initial");
        }
        if s.target {
            flags.push("target");
        }
        match &s.coop {
            Coop::Capacity(_, n) => flags.push(if n == "1" { "capacity 1" } else { "capacity" }),
            Coop::Synchronized(..) => flags.push("synchronized"),
            Coop::Normal => {}
        }
        let _ = writeln!(
            b,
            "<h2 id=\"state.{0}\">State {0}{1}</h2>\n{2}",
            esc(&s.name),
            if flags.is_empty() {
                String::new()
            } else {
                format!(" <small>({})</small>", flags.join(", "))
            },
            desc(&s.doc)
        );
        b.push_str("<p>If that state is active,</p>\n<ul>\n");
        let actions: Vec<&Action> = opt.common_action.iter().chain(s.actions.iter()).collect();
        let mut sets = Vec::new();
        for a in &actions {
            match a {
                Action::Option { option, args, .. } => {
                    let callee = &p.options[*option];
                    let _ = write!(
                        b,
                        "<li>The option <a href=\"option.{0}.html\">{0}</a> is executed.",
                        esc(&callee.name)
                    );
                    b.push_str(&param_list(p, &callee.params, args));
                    b.push_str("</li>\n");
                }
                Action::Behavior { behavior, args, .. } => {
                    let callee = &p.behaviors[*behavior];
                    let _ = write!(
                        b,
                        "<li>The basic behavior <a href=\"basic-behaviors.html#behavior.{0}\">{0}</a> is executed.",
                        esc(&callee.name)
                    );
                    b.push_str(&param_list(p, &callee.params, args));
                    b.push_str("</li>\n");
                }
                Action::Set { symbol, value, .. } => sets.push((
                    p.symbols[*symbol].name.clone(),
                    text::expr(p, value, Style::Spec),
                )),
            }
        }
        if !sets.is_empty() {
            b.push_str("<li>These output symbols are set:<pre>");
            for (n, v) in &sets {
                let _ = writeln!(b, "{}  =  {}", esc(n), esc(v));
            }
            b.push_str("</pre></li>\n");
        }
        b.push_str("</ul>\n");
        let tsvg = format!("svg/option_{}_state_{}.svg", opt.name, s.name);
        files.push((tsvg.clone(), layout::tree(&state_tree(p, opt, si))));
        let _ = writeln!(
            b,
            "<p>The decision tree:</p>\n<div class=\"figure\"><img src=\"{}\" alt=\"decision tree of state {}\"></div>\n<p>Pseudo code of the decision tree:</p>\n<pre>{}</pre>",
            esc(&tsvg),
            esc(&s.name),
            esc(&text::pseudo_code(p, opt, si))
        );
    }
    page(p, &format!("Option {}", opt.name), &b)
}

fn param_list(p: &Program, params: &[Param], args: &[Arg]) -> String {
    let list = text::call_parameters(p, params, args);
    if list.is_empty() {
        return String::new();
    }
    let mut b = String::from(" Parameters:<pre>");
    for (n, v) in list {
        let _ = writeln!(b, "{}  =  {} ;", esc(&n), esc(&v));
    }
    b.push_str("</pre>");
    b
}
