//! The behavior documentation: HTML pages like the XABSL option documentation of the
//! XSLT pipeline (index, agents, symbols, basic behaviors, and per option a menu of its
//! states, its parameters, its state machine with the options and basic behaviors each
//! state runs and the subtree beneath them, and per state the subsequent options and
//! basic behaviors with their parameters, the output symbols set, and the decision tree
//! as a diagram, its boxes labelled with the conditions' descriptions and linked to the
//! pseudo code, the common decision drawn distinct), and Graphviz (`dot`) for the option
//! graph and state machines. Every symbol, constant, parameter, option, state and basic
//! behavior a page mentions links to its definition ([`html`]). The diagrams are laid
//! out here ([`layout`]) and written into the pages as SVG: no Graphviz, nothing from
//! the network.

pub mod diagrams;
pub mod dot;
pub mod html;
pub mod layout;
pub mod text;

use crate::model::*;
use html::Html;
use layout::esc;
use std::fmt::Write as _;
use std::path::Path;
use text::{Out, Ref, Style};

/// The files of the documentation: (relative path, contents).
pub fn generate(p: &Program) -> Vec<(String, String)> {
    let mut files = vec![
        ("style.css".to_string(), CSS.to_string()),
        ("index.html".to_string(), index(p)),
        ("agents.html".to_string(), agents(p)),
        ("symbols.html".to_string(), symbols(p)),
        ("basic-behaviors.html".to_string(), behaviors(p)),
    ];
    for (o, opt) in p.options.iter().enumerate() {
        files.push((format!("option.{}.html", opt.name), option_page(p, o)));
        // the state machine alone too, to embed elsewhere
        files.push((
            format!("svg/option_{}.svg", opt.name),
            state_machine(p, o, false),
        ));
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
nav.states { background: none; color: #222; padding: 0; }
nav.states a { color: #124; margin-right: 0; text-decoration: underline; }
ul.states { list-style: none; padding: 0; margin: 0.5em 0 1em 0; }
ul.states li { display: inline-block; margin-right: 1em; }
code { background: #f2f2f2; padding: 0 0.2em; }
pre a, td a, li a { color: #124; }
.cond:target { background: #ffe9a8; }
.legend { font-size: 0.85em; color: #555; }
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

fn agents(p: &Program) -> String {
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
    for (i, a) in p.agents.iter().enumerate() {
        let _ = writeln!(
            b,
            "<h2 id=\"agent.{0}\">Agent {0}</h2>\n{1}<p>The option graph:</p><div class=\"figure\">{2}</div>",
            esc(&a.name),
            desc(&a.doc),
            diagrams::option_graph(p, a.root, &format!("agent{i}"))
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
                    "<tr><td id=\"const.{}\">{0}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
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

/// A table of parameters; each row's id is `{anchor}{short name}`.
fn params_table(p: &Program, params: &[Param], anchor: &str) -> String {
    if params.is_empty() {
        return "<p>No parameters.</p>\n".into();
    }
    let mut b = String::from("<table><tr><th>Parameter</th><th>Type</th><th>Measure</th><th>Range</th><th>Description</th></tr>\n");
    for x in params {
        let _ = writeln!(
            b,
            "<tr><td id=\"{}{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(anchor),
            esc(&x.short),
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
            b.push_str(&params_table(
                p,
                &bh.params,
                &format!("behavior.{}.param.", bh.name),
            ));
        }
    }
    page(p, "Basic Behaviors", &b)
}

/// The state machine of an option as SVG; with `links`, states link to their sections
/// of the option's page (for the diagram in the page).
pub fn state_machine(p: &Program, o: OptionId, links: bool) -> String {
    diagrams::state_machine(p, o, links, &format!("sm{o}"))
}

fn option_page(p: &Program, o: OptionId) -> String {
    let opt = &p.options[o];
    let mut b = String::new();
    let _ = writeln!(b, "<h1>Option {}</h1>\n{}", esc(&opt.name), desc(&opt.doc));
    b.push_str("<nav class=\"states\" aria-label=\"states\"><ul class=\"states\"><li>States:</li>");
    for s in &opt.states {
        let _ = write!(b, "<li><a href=\"#state.{0}\">{0}</a></li>", esc(&s.name));
    }
    b.push_str("</ul></nav>\n<p>Parameters of that option:</p>\n");
    b.push_str(&params_table(p, &opt.params, "param."));
    let _ = writeln!(
        b,
        "<h2>State Machine</h2>\n<div class=\"figure\">{}</div>\n<p class=\"legend\">Solid arrows: transitions; dashed: transitions of the common decision (from every state); dotted: the options and basic behaviors a state runs, and what they run. Bold: the initial state; double: target states.</p>",
        diagrams::state_machine(p, o, true, "sm")
    );
    for si in 0..opt.states.len() {
        state_section(p, o, si, &mut b);
    }
    page(p, &format!("Option {}", opt.name), &b)
}

/// A state's section: flags, what runs, what is set, the decision tree drawn and as
/// pseudo code.
fn state_section(p: &Program, o: OptionId, si: StateId, b: &mut String) {
    let opt = &p.options[o];
    let s = &opt.states[si];
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
    let mut sets = Html::new(p, &s.name);
    for a in opt.common_action.iter().chain(s.actions.iter()) {
        match a {
            Action::Option { option, args, .. } => {
                let callee = &p.options[*option];
                let mut h = Html::new(p, &s.name);
                h.name(Ref::Option(*option), &callee.name);
                let _ = write!(b, "<li>The option {} is executed.", h.finish());
                b.push_str(&param_list(p, &callee.params, args, |i| {
                    Ref::OptionParam(*option, i)
                }));
                b.push_str("</li>\n");
            }
            Action::Behavior { behavior, args, .. } => {
                let callee = &p.behaviors[*behavior];
                let mut h = Html::new(p, &s.name);
                h.name(Ref::Behavior(*behavior), &callee.name);
                let _ = write!(b, "<li>The basic behavior {} is executed.", h.finish());
                b.push_str(&param_list(p, &callee.params, args, |i| {
                    Ref::BehaviorParam(*behavior, i)
                }));
                b.push_str("</li>\n");
            }
            Action::Set { symbol, value, .. } => {
                sets.name(Ref::Symbol(*symbol), &p.symbols[*symbol].name);
                sets.text("  =  ");
                text::write_expr(p, value, Style::Spec, &mut sets);
                sets.text("\n");
            }
        }
    }
    let sets = sets.finish();
    if !sets.is_empty() {
        let _ = writeln!(b, "<li>These output symbols are set:<pre>{sets}</pre></li>");
    }
    b.push_str("</ul>\n");
    let mut code = Html::new(p, &s.name);
    text::write_pseudo_code(p, opt, si, &mut code);
    let _ = writeln!(
        b,
        "<p>The decision tree:</p>\n<div class=\"figure\">{}</div>\n<p>Pseudo code of the decision tree:</p>\n<pre>{}</pre>",
        diagrams::decision_tree(p, o, si, &format!("dt{si}")),
        html::indented(&code.finish())
    );
}

/// The parameters given at a call, each name and symbol linked.
fn param_list(p: &Program, params: &[Param], args: &[Arg], r: impl Fn(usize) -> Ref) -> String {
    if args.is_empty() {
        return String::new();
    }
    let mut h = Html::new(p, "");
    for a in args {
        let name = params.get(a.param).map_or("?", |x| x.name.as_str());
        h.name(r(a.param), name);
        h.text("  =  ");
        text::write_expr(p, &a.value, Style::Spec, &mut h);
        h.text(" ;\n");
    }
    format!(" Parameters:<pre>{}</pre>", h.finish())
}
