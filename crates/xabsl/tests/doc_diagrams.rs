//! The documentation's diagrams never draw an edge through a node, and its pages link
//! every name they mention to its definition: on the example agents, the golden agents
//! and a generated agent of 100 options.
//!
//! Every `<svg>` of every page is read back: its nodes (ellipses, boxes) and its edges
//! (paths of lines and cubic curves); every edge is sampled densely and each sample is
//! tested against the inside of every node (shrunk by a pixel, so that an edge may end
//! on its node's border).

use skipper_xabsl::{compile, compile_path, doc, loader::MemLoader, Program};
use std::collections::HashSet;
use std::path::Path;

fn program(rel: &str) -> Program {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let c = compile_path(&p);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    c.program
}

/// The agents the checks run on.
fn agents() -> Vec<(&'static str, Program)> {
    [
        "../../examples/xabsl/turn_and_release/agents.xabsl",
        "../../examples/xabsl/soccer/agents.xabsl",
        "../../examples/xabsl/goals/agents.xabsl",
        "tests/data/golden/seed7-N5/agents.xabsl",
        "tests/data/golden/seed7-N20/agents.xabsl",
        "benches/data/seed12345-N100/agents.xabsl",
    ]
    .into_iter()
    .map(|r| (r, program(r)))
    .collect()
}

/// The value of attribute `name` in the tag text `tag`.
fn attr(tag: &str, name: &str) -> Option<f64> {
    let k = format!(" {name}=\"");
    let i = tag.find(&k)? + k.len();
    tag[i..].split('"').next()?.parse().ok()
}

fn attr_str<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let k = format!(" {name}=\"");
    let i = tag.find(&k)? + k.len();
    tag[i..].split('"').next()
}

#[derive(Debug)]
enum Shape {
    Ellipse(f64, f64, f64, f64),
    Rect(f64, f64, f64, f64),
}

impl Shape {
    /// Strictly inside, a pixel in from the border.
    fn inside(&self, x: f64, y: f64) -> bool {
        match *self {
            Shape::Ellipse(cx, cy, rx, ry) => {
                let (rx, ry) = (rx - 1.0, ry - 1.0);
                rx > 0.0 && ry > 0.0 && ((x - cx) / rx).powi(2) + ((y - cy) / ry).powi(2) < 1.0
            }
            Shape::Rect(x0, y0, w, h) => {
                x > x0 + 1.0 && x < x0 + w - 1.0 && y > y0 + 1.0 && y < y0 + h - 1.0
            }
        }
    }
}

/// The tags `<name ...>` of an SVG (outside its `<defs>`).
fn tags<'a>(svg: &'a str, name: &str) -> Vec<&'a str> {
    let body = match svg.find("</defs>") {
        Some(i) => &svg[i..],
        None => svg,
    };
    let open = format!("<{name} ");
    body.match_indices(&open)
        .filter_map(|(i, _)| body[i..].find('>').map(|j| &body[i..i + j]))
        .collect()
}

fn nodes(svg: &str) -> Vec<Shape> {
    let mut out = Vec::new();
    for t in tags(svg, "ellipse") {
        if t.contains("fill=\"none\"") {
            continue; // the inner ring of a target state
        }
        let a = |n| attr(t, n).unwrap();
        out.push(Shape::Ellipse(a("cx"), a("cy"), a("rx"), a("ry")));
    }
    for t in tags(svg, "rect") {
        if t.contains("width=\"100%\"") {
            continue; // the background
        }
        let a = |n| attr(t, n).unwrap();
        out.push(Shape::Rect(a("x"), a("y"), a("width"), a("height")));
    }
    out
}

/// Points along a path `M x y (L x y | C x y x y x y)*`.
fn samples(d: &str) -> Vec<(f64, f64)> {
    let toks: Vec<&str> = d.split_whitespace().collect();
    let num = |i: usize| toks[i].parse::<f64>().unwrap();
    let mut out = Vec::new();
    let (mut i, mut cur) = (0, (0.0, 0.0));
    while i < toks.len() {
        match toks[i] {
            "M" => {
                cur = (num(i + 1), num(i + 2));
                out.push(cur);
                i += 3;
            }
            "L" => {
                let p = (num(i + 1), num(i + 2));
                for k in 1..=40 {
                    let t = k as f64 / 40.0;
                    out.push((cur.0 + (p.0 - cur.0) * t, cur.1 + (p.1 - cur.1) * t));
                }
                cur = p;
                i += 3;
            }
            "C" => {
                let (a, b, p) = (
                    (num(i + 1), num(i + 2)),
                    (num(i + 3), num(i + 4)),
                    (num(i + 5), num(i + 6)),
                );
                for k in 1..=80 {
                    let t = k as f64 / 80.0;
                    let u = 1.0 - t;
                    let f = |c0: f64, c1: f64, c2: f64, c3: f64| {
                        u * u * u * c0
                            + 3.0 * u * u * t * c1
                            + 3.0 * u * t * t * c2
                            + t * t * t * c3
                    };
                    out.push((f(cur.0, a.0, b.0, p.0), f(cur.1, a.1, b.1, p.1)));
                }
                cur = p;
                i += 7;
            }
            other => panic!("unexpected path command `{other}` in `{d}`"),
        }
    }
    out
}

/// (edges, edges that pass through a node) of one SVG.
fn crossings(svg: &str) -> (usize, usize) {
    let ns = nodes(svg);
    let mut bad = 0;
    let paths = tags(svg, "path");
    for t in &paths {
        let d = attr_str(t, "d").unwrap();
        let pts = samples(d);
        if pts.iter().any(|&(x, y)| ns.iter().any(|n| n.inside(x, y))) {
            bad += 1;
        }
    }
    (paths.len(), bad)
}

/// Every `<svg>...</svg>` of every page.
fn diagrams(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, text) in files {
        let mut rest = text.as_str();
        while let Some(i) = rest.find("<svg ") {
            let Some(j) = rest[i..].find("</svg>") else {
                break;
            };
            out.push((name.clone(), rest[i..i + j + 6].to_string()));
            rest = &rest[i + j + 6..];
        }
    }
    out
}

#[test]
fn no_edge_passes_through_a_node() {
    for (name, p) in agents() {
        let files = doc::generate(&p);
        let ds = diagrams(&files);
        assert!(ds.len() > p.options.len(), "{name}: {} diagrams", ds.len());
        let (mut edges, mut bad) = (0, 0);
        for (page, svg) in &ds {
            let (e, b) = crossings(svg);
            assert_eq!(
                b, 0,
                "{name}: {page}: {b} of {e} edges pass through a node\n{svg}"
            );
            edges += e;
            bad += b;
        }
        assert_eq!(bad, 0);
        assert!(edges > 0, "{name}");
        eprintln!(
            "{name}: {} diagrams, {edges} edges, 0 through a node",
            ds.len()
        );
    }
}

#[test]
fn same_layer_edges_start_on_their_nodes() {
    // the case of the issue: a -> b | c, b -> c, c -> b | a (b and c in one layer)
    let mut m = MemLoader::new();
    m.add(
        "agents.xabsl",
        "include \"s.xabsl\";\ninclude \"o.xabsl\";\nagent x(\"X\", o);\n",
    );
    m.add("s.xabsl", "namespace s(\"S\") { bool input p; }");
    m.add(
        "o.xabsl",
        "option o {
  initial state a { decision { if (p) goto b; else goto c; } action { } }
  state b { decision { if (p) goto c; else stay; } action { } }
  state c { decision { if (p) goto b; else goto a; } action { } }
}",
    );
    let c = compile("agents.xabsl", &m);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    let svg = doc::state_machine(&c.program, 0, false);
    let (edges, bad) = crossings(&svg);
    // a->b, a->c, b->c, b's loop (it can stay and leave), c->b, c->a
    assert_eq!((edges, bad), (6, 0), "{svg}");
    // b -> c and c -> b do not share their ends: no arrowheads piled on one point
    let ends: Vec<String> = tags(&svg, "path")
        .iter()
        .map(|t| {
            let d = attr_str(t, "d").unwrap();
            let v: Vec<&str> = d.split_whitespace().collect();
            v[v.len() - 2..].join(" ")
        })
        .collect();
    let distinct: HashSet<&String> = ends.iter().collect();
    assert_eq!(distinct.len(), ends.len(), "{ends:?}");
}

/// The text of a page outside its links, tags removed.
fn unlinked_code(page: &str) -> String {
    let mut out = String::new();
    let mut rest = page;
    // only code: <pre> blocks and the sentences that name what runs
    while let Some(i) = rest.find("<pre>") {
        let Some(j) = rest[i..].find("</pre>") else {
            break;
        };
        let mut block = &rest[i + 5..i + j];
        while let Some(a) = block.find("<a ") {
            out.push_str(&block[..a]);
            match block[a..].find("</a>") {
                Some(b) => block = &block[a + b + 4..],
                None => block = "",
            }
        }
        out.push_str(block);
        out.push('\n');
        rest = &rest[i + j..];
    }
    let mut plain = String::new();
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    plain
}

#[test]
fn every_page_links_each_name_it_mentions() {
    for (name, p) in agents() {
        let files = doc::generate(&p);
        // the names the pages may mention
        let mut names: HashSet<String> = HashSet::new();
        names.extend(p.symbols.iter().map(|s| s.name.clone()));
        names.extend(p.constants.iter().map(|c| c.name.clone()));
        names.extend(p.enums.iter().flat_map(|e| e.elements.iter().cloned()));
        for b in &p.behaviors {
            names.extend(b.params.iter().map(|x| x.name.clone()));
        }
        for o in &p.options {
            names.extend(o.params.iter().map(|x| format!("::{}", x.name)));
            names.extend(o.params.iter().map(|x| x.name.clone()));
        }
        let mut links = 0;
        for (page, text) in files.iter().filter(|(f, _)| f.starts_with("option.")) {
            let code = unlinked_code(text);
            for tok in code.split(|c: char| !(c.is_alphanumeric() || "_.:@".contains(c))) {
                let tok = tok.trim_end_matches('.');
                assert!(
                    !names.contains(tok),
                    "{name}: {page} mentions `{tok}` without a link"
                );
            }
            links += text.matches("<a href=").count();
        }
        assert!(links > p.options.len(), "{name}: {links} links");
        // every link lands on an anchor that exists
        let ids: HashSet<String> = files
            .iter()
            .flat_map(|(f, t)| {
                t.match_indices(" id=\"").map(move |(i, _)| {
                    let rest = &t[i + 5..];
                    format!("{f}#{}", rest.split('"').next().unwrap_or(""))
                })
            })
            .collect();
        let pages: HashSet<&str> = files.iter().map(|(f, _)| f.as_str()).collect();
        for (page, text) in &files {
            for (i, _) in text.match_indices("href=\"") {
                let h = text[i + 6..].split('"').next().unwrap_or("");
                if h.ends_with(".css") {
                    continue;
                }
                let h = if let Some(frag) = h.strip_prefix('#') {
                    format!("{page}#{frag}")
                } else {
                    h.to_string()
                };
                let ok = match h.split_once('#') {
                    Some(_) => ids.contains(&h),
                    None => pages.contains(h.as_str()),
                };
                assert!(ok, "{name}: {page} links to `{h}`, which does not exist");
            }
        }
    }
}

#[test]
fn the_check_sees_an_edge_through_a_node() {
    let svg = "<svg><defs><marker><path d=\"M 0 0 L 10 5\"/></marker></defs>\n<rect width=\"100%\" height=\"100%\"/>\n<rect x=\"40\" y=\"40\" width=\"20\" height=\"20\"/>\n<ellipse cx=\"100\" cy=\"50\" rx=\"20\" ry=\"10\"/>\n<path d=\"M 0 50 L 30 50\"/>\n<path d=\"M 0 50 C 40 50 60 50 80 50\"/>\n<path d=\"M 100 0 L 100 30\"/>\n<path d=\"M 100 30 L 100 45\"/>\n</svg>";
    // the first and third stop short of a node, the second runs through the box, the
    // fourth into the ellipse
    assert_eq!(crossings(svg), (4, 2));
}
