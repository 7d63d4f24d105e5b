//! Laying out diagrams without Graphviz: a layered layout for directed graphs (state
//! machines, the option graph) and a top-down layout for decision trees, drawn as SVG.
//!
//! The layered layout follows the scheme dot uses (Sugiyama's): nodes go in layers (the
//! breadth-first distance from the root; nodes it does not reach in layers below); an
//! edge that spans several layers gets a dummy node in each layer between, so that it
//! runs through a slot of its own there; the order within each layer is improved by
//! barycentre sweeps, dummies included. Edges up (back edges) are laid out reversed and
//! drawn with the arrow at the upper end; edges within one layer (same-layer edges) leave
//! the bottom of one node, run in the free band below the layer and enter the bottom of
//! the other. So every edge is made of vertical stubs inside its own node's column or a
//! dummy's slot, and curves whose control points all lie in the free band between two
//! layers: no edge can pass through a node (`tests/doc_diagrams.rs` checks it by sampling
//! every edge of every diagram). Each node side spreads the ends of its edges over its
//! width, so arrowheads do not pile up. A self-loop is a small loop on the node's right,
//! in room kept free for it.
//!
//! Written here rather than taken from a crate: the layered-layout crates for Rust
//! (`layout-rs`, `rust-sugiyama`) either draw their own SVG without links, tooltips and
//! the shapes of the XABSL documentation, or give positions only without edge routes;
//! what the documentation needs is this small, fully checked subset.

use std::fmt::Write as _;

/// How a node is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// an ellipse (a state)
    Ellipse,
    /// a double ellipse (a target state)
    DoubleEllipse,
    /// a box (an option, a condition)
    Box,
    /// a rounded box (a basic behavior)
    Rounded,
}

/// A node to draw.
#[derive(Debug, Clone)]
pub struct Node {
    /// its text; `\n` separates lines
    pub label: String,
    /// how
    pub shape: Shape,
    /// drawn thicker (the initial state)
    pub bold: bool,
    /// drawn distinct: dashed, shaded (the common decision's conditions)
    pub distinct: bool,
    /// a link (in the HTML documentation)
    pub href: Option<String>,
    /// a tooltip
    pub title: Option<String>,
}

impl Node {
    /// A plain node.
    pub fn new(label: impl Into<String>, shape: Shape) -> Self {
        Self {
            label: label.into(),
            shape,
            bold: false,
            distinct: false,
            href: None,
            title: None,
        }
    }
}

/// An edge to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    /// from (a node index)
    pub from: usize,
    /// to (a node index)
    pub to: usize,
    /// a label at its middle
    pub label: Option<String>,
    /// how its line is drawn
    pub line: Line,
}

/// How an edge's line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// solid (a transition)
    Solid,
    /// dashed (a transition of the common decision)
    Dashed,
    /// dotted (a call of an option or basic behavior)
    Dotted,
}

impl Edge {
    /// A plain edge.
    pub fn new(from: usize, to: usize) -> Self {
        Self {
            from,
            to,
            label: None,
            line: Line::Solid,
        }
    }
}

const FONT: f64 = 12.0;
const CHAR_W: f64 = 7.0;
const LINE_H: f64 = 15.0;
const NODE_H: f64 = 34.0;
const GAP_X: f64 = 30.0;
const GAP_Y: f64 = 60.0;
const MARGIN: f64 = 20.0;
/// room on a node's right for its self-loop
const LOOP_W: f64 = 26.0;
/// the width of a dummy node's slot
const DUMMY_W: f64 = 8.0;
/// how far a curve keeps from the bands of nodes
const STUB: f64 = 6.0;
/// the spacing of same-layer edges in the band below their layer
const DETOUR: f64 = 7.0;

/// Escape text for XML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Break a label into lines of at most about `n` characters, at spaces.
pub fn wrap(s: &str, n: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for para in s.split('\n') {
        let mut line = String::new();
        for word in para.split(' ').filter(|w| !w.is_empty()) {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > n {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines.join("\n")
}

fn width(label: &str) -> f64 {
    let chars = label
        .split('\n')
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    (chars as f64 * CHAR_W + 28.0).max(50.0)
}

fn height(label: &str) -> f64 {
    let lines = label.split('\n').count() as f64;
    (lines * LINE_H + 14.0).max(NODE_H)
}

/// A point.
#[derive(Debug, Clone, Copy, PartialEq)]
struct P(f64, f64);

/// A path: a start and segments (a line to a point, or a cubic curve).
#[derive(Debug, Clone, Default)]
struct Path {
    start: Option<P>,
    segs: Vec<Seg>,
}

#[derive(Debug, Clone, Copy)]
enum Seg {
    L(P),
    C(P, P, P),
}

impl Path {
    fn at(p: P) -> Self {
        Self {
            start: Some(p),
            segs: Vec::new(),
        }
    }
    fn line(&mut self, p: P) {
        self.segs.push(Seg::L(p));
    }
    fn curve(&mut self, a: P, b: P, p: P) {
        self.segs.push(Seg::C(a, b, p));
    }
    fn end(&self) -> P {
        match self.segs.last() {
            Some(Seg::L(p) | Seg::C(_, _, p)) => *p,
            None => self.start.unwrap_or(P(0.0, 0.0)),
        }
    }
    /// The same path walked backwards.
    fn reversed(&self) -> Path {
        let mut pts = vec![self.start.unwrap_or(P(0.0, 0.0))];
        for s in &self.segs {
            pts.push(match s {
                Seg::L(p) | Seg::C(_, _, p) => *p,
            });
        }
        let mut out = Path::at(self.end());
        for (i, s) in self.segs.iter().enumerate().rev() {
            match s {
                Seg::L(_) => out.line(pts[i]),
                Seg::C(a, b, _) => out.curve(*b, *a, pts[i]),
            }
        }
        out
    }
    /// A point near the middle (for a label).
    fn middle(&self) -> P {
        let n = self.segs.len();
        let from = match n / 2 {
            0 => self.start.unwrap_or(P(0.0, 0.0)),
            k => match self.segs[k - 1] {
                Seg::L(p) | Seg::C(_, _, p) => p,
            },
        };
        let to = match self.segs.get(n / 2) {
            Some(Seg::L(p) | Seg::C(_, _, p)) => *p,
            None => from,
        };
        P((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0)
    }
    fn svg(&self) -> String {
        let mut d = String::new();
        if let Some(P(x, y)) = self.start {
            let _ = write!(d, "M {x:.1} {y:.1}");
        }
        for s in &self.segs {
            match s {
                Seg::L(P(x, y)) => {
                    let _ = write!(d, " L {x:.1} {y:.1}");
                }
                Seg::C(P(a, b), P(c, e), P(x, y)) => {
                    let _ = write!(d, " C {a:.1} {b:.1} {c:.1} {e:.1} {x:.1} {y:.1}");
                }
            }
        }
        d
    }
}

/// The SVG header with the arrow marker `{id}-arrow`.
fn header(out: &mut String, w: f64, h: f64, id: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"{FONT}\">\n\
<defs><marker id=\"{id}-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#333\"/></marker></defs>\n\
<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
}

fn draw_edge(out: &mut String, path: &Path, e: Option<&Edge>, id: &str) {
    let dash = match e.map_or(Line::Solid, |e| e.line) {
        Line::Solid => "",
        Line::Dashed => " stroke-dasharray=\"6 3\"",
        Line::Dotted => " stroke-dasharray=\"2 3\"",
    };
    let _ = writeln!(
        out,
        "<path d=\"{}\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.1\"{dash} marker-end=\"url(#{id}-arrow)\"/>",
        path.svg()
    );
    if let Some(l) = e.and_then(|e| e.label.as_ref()) {
        let P(x, y) = path.middle();
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{y:.1}\" font-size=\"10\" fill=\"#555\">{}</text>",
            x + 4.0,
            esc(l)
        );
    }
}

fn draw_node(out: &mut String, n: &Node, P(x, y): P, w: f64, h: f64) {
    if let Some(href) = &n.href {
        let _ = write!(out, "<a xlink:href=\"{}\" href=\"{0}\">", esc(href));
    }
    out.push_str("<g>");
    if let Some(t) = &n.title {
        let _ = write!(out, "<title>{}</title>", esc(t));
    }
    let sw = if n.bold { 2.5 } else { 1.2 };
    let (fill, dash) = if n.distinct {
        ("#e8eefc", " stroke-dasharray=\"4 2\"")
    } else {
        ("#fbf8f0", "")
    };
    match n.shape {
        Shape::Ellipse | Shape::DoubleEllipse => {
            let _ = write!(
                out,
                "<ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{:.1}\" ry=\"{:.1}\" fill=\"#f4f7fb\" stroke=\"#333\" stroke-width=\"{sw}\"{dash}/>",
                w / 2.0,
                h / 2.0
            );
            if n.shape == Shape::DoubleEllipse {
                let _ = write!(
                    out,
                    "<ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{:.1}\" ry=\"{:.1}\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>",
                    w / 2.0 - 4.0,
                    h / 2.0 - 4.0
                );
            }
        }
        Shape::Box | Shape::Rounded => {
            let r = if n.shape == Shape::Rounded { 12.0 } else { 2.0 };
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"{r}\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"{sw}\"{dash}/>",
                x - w / 2.0,
                y - h / 2.0
            );
        }
    }
    let lines: Vec<&str> = n.label.split('\n').collect();
    let top = y - (lines.len() as f64 - 1.0) * LINE_H / 2.0 + FONT / 3.0;
    let _ = write!(
        out,
        "<text x=\"{x:.1}\" y=\"{top:.1}\" text-anchor=\"middle\">"
    );
    for (i, l) in lines.iter().enumerate() {
        let dy = if i == 0 { 0.0 } else { LINE_H };
        let _ = write!(out, "<tspan x=\"{x:.1}\" dy=\"{dy}\">{}</tspan>", esc(l));
    }
    out.push_str("</text></g>");
    if n.href.is_some() {
        out.push_str("</a>");
    }
    out.push('\n');
}

/// Where an edge meets the bottom (`down`) or top side of a node, `dx` from its centre.
fn port(shape: Shape, P(cx, cy): P, w: f64, h: f64, dx: f64, down: bool) -> P {
    let sign = if down { 1.0 } else { -1.0 };
    match shape {
        Shape::Ellipse | Shape::DoubleEllipse => {
            let (rx, ry) = (w / 2.0, h / 2.0);
            let k = (1.0 - (dx / rx).powi(2)).max(0.0).sqrt();
            P(cx + dx, cy + sign * ry * k)
        }
        Shape::Box | Shape::Rounded => P(cx + dx, cy + sign * h / 2.0),
    }
}

/// A vertex of the layered graph: a node, or a dummy in a layer an edge passes.
#[derive(Debug, Clone, Copy)]
struct Vertex {
    layer: usize,
    /// the node, or none for a dummy
    node: Option<usize>,
}

/// An edge through the layers: its vertices from the upper end down; `up` when it is
/// drawn from the lower end to the upper one (a back edge).
struct Chain {
    edge: usize,
    vs: Vec<usize>,
    up: bool,
}

/// The layers: breadth-first distance from the root; nodes it does not reach start
/// layers of their own below.
fn layers(n: usize, edges: &[Edge], root: usize) -> Vec<usize> {
    let mut layer = vec![usize::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    let mut next = root.min(n - 1);
    let mut depth = 0;
    loop {
        layer[next] = depth;
        queue.push_back(next);
        while let Some(u) = queue.pop_front() {
            for e in edges.iter().filter(|e| e.from == u) {
                if layer[e.to] == usize::MAX {
                    layer[e.to] = layer[u] + 1;
                    queue.push_back(e.to);
                }
            }
        }
        depth = layer
            .iter()
            .filter(|&&l| l != usize::MAX)
            .max()
            .map_or(0, |m| m + 1);
        match layer.iter().position(|&l| l == usize::MAX) {
            Some(i) => next = i,
            None => return layer,
        }
    }
}

/// The layered graph: vertices (nodes first, then dummies), chains, the rows.
struct Layered {
    vs: Vec<Vertex>,
    chains: Vec<Chain>,
    /// same-layer edges (edge index)
    flat: Vec<usize>,
    /// self-loops (edge index)
    loops: Vec<usize>,
    rows: Vec<Vec<usize>>,
}

fn build(n: usize, edges: &[Edge], root: usize) -> Layered {
    let layer = layers(n, edges, root);
    let mut vs: Vec<Vertex> = (0..n)
        .map(|u| Vertex {
            layer: layer[u],
            node: Some(u),
        })
        .collect();
    let (mut chains, mut flat, mut loops) = (Vec::new(), Vec::new(), Vec::new());
    for (i, e) in edges.iter().enumerate() {
        let (la, lb) = (layer[e.from], layer[e.to]);
        if e.from == e.to {
            loops.push(i);
            continue;
        }
        if la == lb {
            flat.push(i);
            continue;
        }
        let (top, bottom, up) = if la < lb {
            (e.from, e.to, false)
        } else {
            (e.to, e.from, true)
        };
        let mut chain = vec![top];
        for l in layer[top] + 1..layer[bottom] {
            vs.push(Vertex {
                layer: l,
                node: None,
            });
            chain.push(vs.len() - 1);
        }
        chain.push(bottom);
        chains.push(Chain {
            edge: i,
            vs: chain,
            up,
        });
    }
    let depth = layer.iter().copied().max().unwrap_or(0) + 1;
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for (v, x) in vs.iter().enumerate() {
        rows[x.layer].push(v);
    }
    let mut g = Layered {
        vs,
        chains,
        flat,
        loops,
        rows,
    };
    order(&mut g);
    g
}

/// Barycentre sweeps: each vertex moves to the mean position of its neighbours in the
/// layer above (sweeping down) or below (sweeping up).
fn order(g: &mut Layered) {
    let nv = g.vs.len();
    // neighbours in the layer above and below
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); nv];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); nv];
    for c in &g.chains {
        for w in c.vs.windows(2) {
            down[w[0]].push(w[1]);
            up[w[1]].push(w[0]);
        }
    }
    let mut pos = vec![0.0f64; nv];
    let set_pos = |rows: &[Vec<usize>], pos: &mut [f64]| {
        for r in rows {
            for (i, &v) in r.iter().enumerate() {
                pos[v] = i as f64;
            }
        }
    };
    set_pos(&g.rows, &mut pos);
    let depth = g.rows.len();
    for sweep in 0..8 {
        let (layers, nb): (Vec<usize>, &Vec<Vec<usize>>) = if sweep % 2 == 0 {
            ((1..depth).collect(), &up)
        } else {
            ((0..depth.saturating_sub(1)).rev().collect(), &down)
        };
        for l in layers {
            let mut keyed: Vec<(f64, usize)> = g.rows[l]
                .iter()
                .map(|&v| {
                    let ps = &nb[v];
                    let k = if ps.is_empty() {
                        pos[v]
                    } else {
                        ps.iter().map(|&u| pos[u]).sum::<f64>() / ps.len() as f64
                    };
                    (k, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            g.rows[l] = keyed.into_iter().map(|(_, v)| v).collect();
            for (i, &v) in g.rows[l].iter().enumerate() {
                pos[v] = i as f64;
            }
        }
    }
}

/// Positions: the centre of every vertex, the top and bottom of every layer's band.
struct Placed {
    xy: Vec<P>,
    w: Vec<f64>,
    h: Vec<f64>,
    band: Vec<(f64, f64)>,
    width: f64,
    height: f64,
}

fn place(g: &Layered, nodes: &[Node], edges: &[Edge]) -> Placed {
    let nv = g.vs.len();
    let mut w = vec![DUMMY_W; nv];
    let mut h = vec![0.0; nv];
    for (v, x) in g.vs.iter().enumerate() {
        if let Some(u) = x.node {
            w[v] = width(&nodes[u].label);
            h[v] = height(&nodes[u].label);
        }
    }
    // room on the right for a self-loop
    let mut right = vec![0.0; nv];
    for &i in &g.loops {
        right[edges[i].from] = LOOP_W;
    }
    // bands: each layer as high as its highest node; below it room for its same-layer
    // edges
    let mut band = Vec::with_capacity(g.rows.len());
    let mut y = MARGIN;
    for (l, r) in g.rows.iter().enumerate() {
        let bh = r.iter().map(|&v| h[v]).fold(NODE_H, f64::max);
        band.push((y, y + bh));
        let flat = g
            .flat
            .iter()
            .filter(|&&i| g.vs[edges[i].from].layer == l)
            .count();
        y += bh + GAP_Y + DETOUR * flat as f64;
    }
    let height = y - GAP_Y + MARGIN;
    let mut xy = vec![P(0.0, 0.0); nv];
    let mut ups: Vec<Vec<usize>> = vec![Vec::new(); nv];
    for c in &g.chains {
        for s in c.vs.windows(2) {
            ups[s[1]].push(s[0]);
        }
    }
    for (l, r) in g.rows.iter().enumerate() {
        let cy = (band[l].0 + band[l].1) / 2.0;
        // wanted: above the neighbours above; then pushed apart left to right
        let mut x = MARGIN;
        for &v in r {
            let want = if ups[v].is_empty() {
                x + w[v] / 2.0
            } else {
                ups[v].iter().map(|&u| xy[u].0).sum::<f64>() / ups[v].len() as f64
            };
            let cx = want.max(x + w[v] / 2.0);
            xy[v] = P(cx, cy);
            x = cx + w[v] / 2.0 + right[v] + GAP_X;
        }
    }
    let width = (0..nv)
        .map(|v| xy[v].0 + w[v] / 2.0 + right[v])
        .fold(0.0, f64::max)
        + MARGIN;
    Placed {
        xy,
        w,
        h,
        band,
        width,
        height,
    }
}

/// The ends of edges on each node side, spread over the side: (vertex, bottom side) →
/// the x offsets, in the order of the edges' other ends.
struct Ports {
    at: std::collections::HashMap<(usize, usize, bool), f64>,
}

impl Ports {
    /// `ends`: (vertex, edge key, bottom side, x of the other end).
    fn spread(ends: Vec<(usize, usize, bool, f64)>, pl: &Placed, nodes: &[Shape]) -> Ports {
        let mut sides: std::collections::BTreeMap<(usize, bool), Vec<(f64, usize)>> =
            Default::default();
        for (v, key, bottom, x) in ends {
            sides.entry((v, bottom)).or_default().push((x, key));
        }
        let mut at = std::collections::HashMap::new();
        for ((v, bottom), mut list) in sides {
            list.sort_by(|a, b| a.0.total_cmp(&b.0));
            let frac = match nodes.get(v) {
                Some(Shape::Box | Shape::Rounded) => 0.8,
                _ => 0.6,
            };
            let span = pl.w[v] * frac;
            let k = list.len() as f64;
            for (i, (_, key)) in list.into_iter().enumerate() {
                let dx = if k <= 1.0 {
                    0.0
                } else {
                    -span / 2.0 + span * (i as f64 + 0.5) / k
                };
                at.insert((v, key, bottom), dx);
            }
        }
        Ports { at }
    }
}

/// A directed graph drawn in layers from `root`; `id` names its arrow marker (unique on
/// an HTML page).
pub fn layered(nodes: &[Node], edges: &[Edge], root: usize, id: &str) -> String {
    let n = nodes.len();
    let mut out = String::new();
    if n == 0 {
        header(&mut out, 100.0, 40.0, id);
        out.push_str("</svg>\n");
        return out;
    }
    let mut es: Vec<Edge> = Vec::new();
    for e in edges.iter().filter(|e| e.from < n && e.to < n) {
        if !es.iter().any(|x| x.from == e.from && x.to == e.to) {
            es.push(e.clone());
        }
    }
    let g = build(n, &es, root);
    let pl = place(&g, nodes, &es);
    let shapes: Vec<Shape> = (0..g.vs.len())
        .map(|v| g.vs[v].node.map_or(Shape::Box, |u| nodes[u].shape))
        .collect();
    let ports = chain_ports(&g, &es, &pl, &shapes);
    let mut paths = String::new();
    for (k, c) in g.chains.iter().enumerate() {
        let p = chain_path(k, c, &g, &pl, &ports, &shapes);
        let p = if c.up { p.reversed() } else { p };
        draw_edge(&mut paths, &p, es.get(c.edge), id);
    }
    for (k, &i) in g.flat.iter().enumerate() {
        let p = flat_path(i, k, &g, &es, &pl, &ports, &shapes);
        draw_edge(&mut paths, &p, es.get(i), id);
    }
    for &i in &g.loops {
        let p = loop_path(es[i].from, &pl, &shapes);
        draw_edge(&mut paths, &p, es.get(i), id);
    }
    header(&mut out, pl.width, pl.height, id);
    out.push_str(&paths);
    for (u, node) in nodes.iter().enumerate() {
        draw_node(&mut out, node, pl.xy[u], pl.w[u], pl.h[u]);
    }
    out.push_str("</svg>\n");
    out
}

/// The ends of every chain and same-layer edge, spread over the node sides.
fn chain_ports(g: &Layered, es: &[Edge], pl: &Placed, shapes: &[Shape]) -> Ports {
    let mut ends = Vec::new();
    for (k, c) in g.chains.iter().enumerate() {
        let (Some(&a), Some(&a2)) = (c.vs.first(), c.vs.get(1)) else {
            continue;
        };
        ends.push((a, k, true, pl.xy[a2].0));
        let (Some(&b), Some(&b2)) = (c.vs.last(), c.vs.get(c.vs.len().wrapping_sub(2))) else {
            continue;
        };
        ends.push((b, k, false, pl.xy[b2].0));
    }
    for (k, &i) in g.flat.iter().enumerate() {
        let (a, b) = (es[i].from, es[i].to);
        let key = g.chains.len() + k;
        ends.push((a, key, true, pl.xy[b].0));
        ends.push((b, key, true, pl.xy[a].0));
    }
    Ports::spread(ends, pl, shapes)
}

/// A chain from its upper end down: a stub out of the upper node, then for each layer
/// below a curve through the free band above it and a stub through its band (a dummy's
/// slot, or into the lower node).
fn chain_path(
    k: usize,
    c: &Chain,
    g: &Layered,
    pl: &Placed,
    ports: &Ports,
    shapes: &[Shape],
) -> Path {
    let Some(&first) = c.vs.first() else {
        return Path::default();
    };
    let dx = ports.at.get(&(first, k, true)).copied().unwrap_or(0.0);
    let start = port(
        shapes[first],
        pl.xy[first],
        pl.w[first],
        pl.h[first],
        dx,
        true,
    );
    let mut p = Path::at(start);
    let mut x = start.0;
    for (l, (i, &v)) in (g.vs[first].layer..).zip(c.vs.iter().enumerate().skip(1)) {
        let (y0, y1) = (pl.band[l].1, pl.band[l + 1].0);
        let last = i + 1 == c.vs.len();
        let nx = if last {
            pl.xy[v].0 + ports.at.get(&(v, k, false)).copied().unwrap_or(0.0)
        } else {
            pl.xy[v].0
        };
        let (a, b) = (y0 + STUB, y1 - STUB);
        let m = (a + b) / 2.0;
        p.line(P(x, a));
        p.curve(P(x, m), P(nx, m), P(nx, b));
        if last {
            let dx = nx - pl.xy[v].0;
            p.line(port(shapes[v], pl.xy[v], pl.w[v], pl.h[v], dx, false));
        } else {
            p.line(P(nx, pl.band[l + 1].1));
        }
        x = nx;
    }
    p
}

/// A same-layer edge: out of the bottom of one node, through the free band below the
/// layer, into the bottom of the other.
fn flat_path(
    i: usize,
    k: usize,
    g: &Layered,
    es: &[Edge],
    pl: &Placed,
    ports: &Ports,
    shapes: &[Shape],
) -> Path {
    let (a, b) = (es[i].from, es[i].to);
    let key = g.chains.len() + k;
    let l = g.vs[a].layer;
    // the k-th of its layer's same-layer edges runs a little lower than the one before
    let nth = g.flat[..k]
        .iter()
        .filter(|&&j| g.vs[es[j].from].layer == l)
        .count();
    let dxa = ports.at.get(&(a, key, true)).copied().unwrap_or(0.0);
    let dxb = ports.at.get(&(b, key, true)).copied().unwrap_or(0.0);
    let pa = port(shapes[a], pl.xy[a], pl.w[a], pl.h[a], dxa, true);
    let pb = port(shapes[b], pl.xy[b], pl.w[b], pl.h[b], dxb, true);
    let y0 = pl.band[l].1 + STUB;
    let yd = y0 + 18.0 + DETOUR * nth as f64;
    let mut p = Path::at(pa);
    p.line(P(pa.0, y0));
    p.curve(P(pa.0, yd), P(pb.0, yd), P(pb.0, y0));
    p.line(pb);
    p
}

/// A self-loop on the right of a node.
fn loop_path(u: usize, pl: &Placed, shapes: &[Shape]) -> Path {
    let P(cx, cy) = pl.xy[u];
    let (w, h) = (pl.w[u], pl.h[u]);
    let edge_x = |dy: f64| match shapes[u] {
        Shape::Ellipse | Shape::DoubleEllipse => {
            let (rx, ry) = (w / 2.0, h / 2.0);
            cx + rx * (1.0 - (dy / ry).powi(2)).max(0.0).sqrt()
        }
        Shape::Box | Shape::Rounded => cx + w / 2.0,
    };
    let (x0, x1) = (edge_x(-7.0), edge_x(7.0));
    let reach = x0.max(x1) + LOOP_W - 2.0;
    let mut p = Path::at(P(x0, cy - 7.0));
    p.curve(P(reach, cy - 20.0), P(reach, cy + 20.0), P(x1, cy + 7.0));
    p
}

/// A binary decision tree to draw.
#[derive(Debug, Clone)]
pub enum DTree {
    /// a condition: true branch, false branch
    If(Node, Box<DTree>, Box<DTree>),
    /// a transition
    Leaf(Node),
}

impl DTree {
    fn node(&self) -> &Node {
        match self {
            DTree::If(n, ..) | DTree::Leaf(n) => n,
        }
    }
}

fn tree_width(t: &DTree) -> f64 {
    match t {
        DTree::Leaf(n) => width(&n.label),
        DTree::If(n, a, b) => width(&n.label).max(tree_width(a) + GAP_X + tree_width(b)),
    }
}

/// The height of each level's band (its highest node).
fn level_heights(t: &DTree, d: usize, out: &mut Vec<f64>) {
    if out.len() <= d {
        out.resize(d + 1, NODE_H);
    }
    out[d] = out[d].max(height(&t.node().label));
    if let DTree::If(_, a, b) = t {
        level_heights(a, d + 1, out);
        level_heights(b, d + 1, out);
    }
}

struct TreeCtx<'a> {
    out: String,
    /// the top of each level's band
    tops: Vec<f64>,
    heights: Vec<f64>,
    id: &'a str,
}

/// Draw a subtree whose box spans from `left`; its node's centre.
fn draw_tree(c: &mut TreeCtx, t: &DTree, left: f64, d: usize) -> P {
    let w = tree_width(t);
    let cx = left + w / 2.0;
    let cy = c.tops[d] + c.heights[d] / 2.0;
    let n = t.node();
    let (nw, nh) = (width(&n.label), height(&n.label));
    if let DTree::If(_, a, b) = t {
        let (wa, wb) = (tree_width(a), tree_width(b));
        let start = left + (w - wa - GAP_X - wb) / 2.0;
        let kids = [(a, start, "true"), (b, start + wa + GAP_X, "false")];
        for (kid, kl, label) in kids {
            let kc = draw_tree(c, kid, kl, d + 1);
            let kh = height(&kid.node().label);
            let (band_bottom, kid_top) = (c.tops[d] + c.heights[d], c.tops[d + 1]);
            let mut p = Path::at(P(cx, cy + nh / 2.0));
            p.line(P(cx, band_bottom + STUB));
            let m = (band_bottom + kid_top) / 2.0;
            p.curve(P(cx, m), P(kc.0, m), P(kc.0, kid_top - STUB));
            p.line(P(kc.0, kc.1 - kh / 2.0));
            let e = Edge {
                from: 0,
                to: 0,
                label: Some(label.to_string()),
                line: Line::Solid,
            };
            draw_edge(&mut c.out, &p, Some(&e), c.id);
        }
    }
    draw_node(&mut c.out, n, P(cx, cy), nw, nh);
    P(cx, cy)
}

/// A decision tree drawn top down: conditions above their true (left) and false (right)
/// branches; `id` names its arrow marker.
pub fn tree(t: &DTree, id: &str) -> String {
    let w = tree_width(t) + 2.0 * MARGIN;
    let mut heights = Vec::new();
    level_heights(t, 0, &mut heights);
    let mut tops = Vec::with_capacity(heights.len());
    let mut y = MARGIN;
    for h in &heights {
        tops.push(y);
        y += h + GAP_Y;
    }
    let h = y - GAP_Y + MARGIN;
    let mut c = TreeCtx {
        out: String::new(),
        tops,
        heights,
        id,
    };
    draw_tree(&mut c, t, MARGIN, 0);
    let mut out = String::new();
    header(&mut out, w, h, id);
    out.push_str(&c.out);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(s: &str) -> Node {
        Node::new(s, Shape::Ellipse)
    }

    #[test]
    fn graphs_and_trees_are_svg() {
        let nodes = vec![node("a"), node("b <&>"), node("c"), node("lonely")];
        let edges = [(0, 1), (1, 2), (2, 0), (1, 1)].map(|(a, b)| Edge::new(a, b));
        let svg = layered(&nodes, &edges, 0, "g");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("b &lt;&amp;&gt;"));
        assert_eq!(svg.matches("<path").count(), 4 + 1); // 4 edges + the marker
        let t = DTree::If(
            node("x > 1"),
            Box::new(DTree::Leaf(node("s1"))),
            Box::new(DTree::Leaf(node("s2"))),
        );
        let svg = tree(&t, "t");
        assert!(svg.contains(">true<") && svg.contains(">false<"));
        assert!(layered(&[], &[], 0, "e").contains("</svg>"));
        // an edge to a node that does not exist is ignored, not a panic
        assert!(layered(&nodes[..1], &[Edge::new(0, 7)], 3, "x").contains("</svg>"));
    }

    #[test]
    fn paths_reverse() {
        let mut p = Path::at(P(0.0, 0.0));
        p.line(P(0.0, 5.0));
        p.curve(P(0.0, 8.0), P(4.0, 8.0), P(4.0, 12.0));
        let r = p.reversed();
        assert_eq!(r.svg(), "M 4.0 12.0 C 4.0 8.0 0.0 8.0 0.0 5.0 L 0.0 0.0");
    }

    #[test]
    fn labels_wrap_at_spaces() {
        assert_eq!(wrap("aa bb cc dd", 5), "aa bb\ncc dd");
        assert_eq!(height("a\nb\nc"), 3.0 * LINE_H + 14.0);
    }
}
